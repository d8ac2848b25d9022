"""Hostile or broken files: any value anywhere in a Foundry actor, any attribute or text in a Grapevine file,
gives either a sheet or one DataFileError, never another exception."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkit.errors import DataFileError
from stkit.formats.foundry import from_foundry
from stkit.formats.grapevine import from_grapevine
from tests.formats.hostile import changed, paths, xml_attr

DATA = Path(__file__).with_name("data")
ACTOR = json.loads((DATA / "foundry-werewolf-marrow.json").read_text(encoding="utf-8"))
#: the other layouts: flattened (3.x) and the PC data model (7.x)
LAYOUT_ACTORS = [
    json.loads((DATA / name).read_text(encoding="utf-8"))
    for name in ("foundry-werewolf-v3.json", "foundry-pc-werewolf-v7.json")
]
TROUPE = (DATA / "grapevine-troupe.gex").read_bytes()


PATHS = paths(ACTOR)
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), values), min_size=1, max_size=3))
def test_foundry_any_value_anywhere(changes):
    _read_changed(ACTOR, changes)


def _read_changed(actor: dict, changes) -> None:
    """Read a copy of ``actor`` with each (path, value) of ``changes`` set: a sheet or one DataFileError."""
    try:
        from_foundry(changed(actor, changes), source="h.json")
    except DataFileError as exc:
        assert str(exc).startswith("h.json") and "\n" not in str(exc)


LAYOUT_PATHS = [(i, p) for i, a in enumerate(LAYOUT_ACTORS) for p in paths(a)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(LAYOUT_PATHS), values), min_size=1, max_size=3))
def test_foundry_any_value_anywhere_in_the_newer_layouts(changes):
    which = changes[0][0][0]
    _read_changed(LAYOUT_ACTORS[which], [(path, value) for (i, path), value in changes if i == which])


attr_values = st.text(alphabet="0123456789-xX abc&<>\"'\u200b", max_size=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        [b'rage="3"', b'gnosis="1-4"', b'rank="Fostern"', b'val="3"', b'val="4"', b'change="6"', b'unspent="4"']
    ),
    attr_values,
)
def test_grapevine_any_attribute_value(original, value):
    key = original.split(b"=")[0]
    raw = TROUPE.replace(original, key + b'="' + xml_attr(value) + b'"', 1)
    try:
        from_grapevine(raw, source="g.gex")
    except DataFileError as exc:
        assert str(exc).startswith("g.gex") and "\n" not in str(exc)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(TROUPE) - 1), st.binary(min_size=1, max_size=4))
def test_grapevine_any_bytes_spliced(at, junk):
    try:
        from_grapevine(TROUPE[:at] + junk + TROUPE[at + len(junk) :], source="g.gex")
    except DataFileError as exc:
        assert str(exc).startswith("g.gex")
