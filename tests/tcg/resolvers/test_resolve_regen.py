"""Regeneration and Rites: Equinox Update, "Regeneration", "Start of Turn Phase", "Main Phase"."""

import pytest

from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.resolvers.regen import resolve_regen


@pytest.mark.parametrize("paw,turns", [("right", 1), ("bottom", 2), ("left", 3), ("top", 4)])
def test_quarter_turns_by_paw_edge(paw, turns):
    r = resolve_regen(paw=paw)
    assert r["quarter_turns"] == turns and r["turns"] == turns


def test_partly_turned():
    r = resolve_regen(paw="left", turned=2)
    assert (r["quarter_turns_left"], r["turns"]) == (1, 1)


def test_character_upright_removes_wounds():
    r = resolve_regen(paw="bottom", wounds=3)
    assert "regen.upright" in r.rules and "regen.set" in r.rules


def test_rite_stalls_after_combat():
    r = resolve_regen(paw="bottom", rite=True, stalled=1)
    assert r["turns"] == 3 and "regen.rite-stalls" in r.rules and "regen.rite-progress" in r.rules


def test_unwounded_character_cannot_regenerate():
    with pytest.raises(RuleRefusal, match="no wounds"):
        resolve_regen(wounds=0)


@pytest.mark.parametrize("kwargs", [{"paw": "middle"}, {"turned": 2, "paw": "bottom"}, {"turned": -1}, {"stalled": 1}])
def test_bad_values(kwargs):
    with pytest.raises(InvalidValue):
        resolve_regen(**kwargs)
