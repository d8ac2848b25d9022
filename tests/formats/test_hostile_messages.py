"""Every error and warning a Foundry or Grapevine file gives quotes the file's values bounded and escaped:
no terminal escape code, no rich markup tag, no right-to-left override reaches a door raw, and a value of
100,000 characters is cut. Checked on values and keys placed anywhere in real exported files."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkit.errors import DataFileError
from stkit.formats.foundry import from_foundry
from stkit.formats.grapevine import from_grapevine
from stkit.text import MAX_MESSAGE
from tests.formats.hostile import changed, paths, xml_attr

DATA = Path(__file__).with_name("data")
ACTOR = json.loads((DATA / "foundry-werewolf-marrow.json").read_text(encoding="utf-8"))
TROUPE = (DATA / "grapevine-troupe.gex").read_bytes()

#: what a terminal acts on (C0, DEL, C1, line separators, bidi overrides and isolates)
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: a rich markup tag not escaped by a backslash
MARKUP = re.compile(r"(?<!\\)\[[a-z#/@][^[]*?\]")
LONG = "A" * 100_000
HOSTILE = [
    "[red]x[/red]",
    "[link=https://evil.example]click[/link]",
    "\x1b]0;owned\x07\x1b[2J",
    "a\x00b",
    "abc\u202edcba",
    "\x9b2J",
    "[bold]" + LONG,
    LONG + "\x1b[31m",
]


def _harmless(line: str) -> None:
    assert not CONTROL.search(line), repr(line[:200])
    assert not MARKUP.search(line), repr(line[:200])
    assert len(line) <= MAX_MESSAGE, len(line)


def _foundry(data: dict) -> list[str]:
    """The error line, or the warnings, of reading ``data``."""
    try:
        return from_foundry(data, source="h.json").warnings
    except DataFileError as exc:
        return [str(exc)]


def _with(path: tuple, value: object) -> dict:
    data = copy.deepcopy(ACTOR)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_a_number_field_quotes_the_value_bounded_and_escaped(value):
    (line,) = _foundry(_with(("system", "advantages", "gnosis", "temporary"), value))
    assert line.startswith("h.json: system.advantages.gnosis.temporary: ")
    assert "is not a whole number" in line
    _harmless(line)
    if len(value) > 1000:
        assert f"…' ({len(value)} characters) is not a whole number" in line


def test_the_value_short_and_plain_is_still_quoted_as_written():
    (line,) = _foundry(_with(("system", "advantages", "gnosis", "temporary"), "three"))
    assert line.startswith("h.json: system.advantages.gnosis.temporary: 'three' is not a whole number; allowed: 0 to ")


def test_a_number_of_100000_digits_is_named_by_its_size():
    (line,) = _foundry(_with(("system", "advantages", "gnosis", "temporary"), 10**100_000))
    assert "a whole number of about 100001 digits" in line
    _harmless(line)


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_an_item_name_in_a_warning_is_bounded_and_escaped(value):
    data = copy.deepcopy(ACTOR)
    data["items"].append({"name": value, "type": "Spell", "system": {}})
    lines = _foundry(data)
    assert lines
    for line in lines:
        _harmless(line)


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_key_in_a_warning_path_is_bounded_and_escaped(value):
    data = copy.deepcopy(ACTOR)
    data["system"][value] = "kept nowhere"
    for line in _foundry(data):
        _harmless(line)


def test_an_actor_type_is_bounded_and_escaped():
    (line,) = _foundry(_with(("type",), "[red]" + LONG + "\x1b"))
    assert line.startswith("h.json: type: '\\[red]AAA") and "(100006 characters) is not supported" in line
    _harmless(line)


def _grapevine(raw: bytes) -> list[str]:
    try:
        return [w for lf in from_grapevine(raw, source="g.gex") for w in lf.warnings]
    except DataFileError as exc:
        return [str(exc)]


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_grapevine_names_and_counts_are_bounded_and_escaped(value):
    attr = xml_attr(value)
    raws = [
        TROUPE.replace(b'rage="3"', b'rage="' + attr + b'"', 1),
        b'<grapevine><vampire name="' + attr + b'"/><werewolf name="W" rage="' + attr + b'"/></grapevine>',
        b'<grapevine><werewolf name="' + attr + b'" gnosis="1-4"/></grapevine>',
        b"<grapevine><" + b"x" * 5000 + b"/></grapevine>",
    ]
    for raw in raws:
        lines = _grapevine(raw)
        assert lines
        for line in lines:
            _harmless(line)


hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(alphabet=st.sampled_from("[]/red\x1b\x07\x9b\u202e\x00 a1"), max_size=40),
)


PATHS = paths(ACTOR)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), hostile_text, st.booleans()), min_size=1, max_size=3))
def test_any_hostile_value_or_key_anywhere_gives_harmless_lines(changes):
    for line in _foundry(changed(ACTOR, changes)):
        _harmless(line)
