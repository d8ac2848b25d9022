"""Frenzy: Equinox Update, "Frenzy" and "Derangements" (worked example: Janus, Health 5, Frenzy 2)."""

import pytest

from stkit.errors import InvalidValue
from stkit.tcg.resolvers.frenzy import frenzy_threshold, resolve_frenzy


def test_janus_worked_example():
    r = resolve_frenzy(health=5, wounds=3, frenzy=2)
    assert r.as_json() == {
        "frenzies": True,
        "threshold": 2,
        "cards_drawn": 2,
        "must_pass_next_round": False,
        "rules": ["frenzy.trigger-damage", "frenzy.frenzy-trait", "frenzy.wounds-not-damage"],
    }


@pytest.mark.parametrize("health,threshold", [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (12, 3)])
def test_threshold_bands(health, threshold):
    assert frenzy_threshold(health) == threshold


def test_exactly_the_trigger_damage_frenzies():
    assert resolve_frenzy(health=8, wounds=3, frenzy=1)["frenzies"] is True
    assert resolve_frenzy(health=8, wounds=2, frenzy=1)["frenzies"] is False


def test_no_frenzy_trait():
    r = resolve_frenzy(health=5, wounds=4)
    assert r["frenzies"] is False and r["cards_drawn"] == 0


def test_melancholic_never_frenzies():
    r = resolve_frenzy(health=5, wounds=4, frenzy=2, derangement="Melancholic")
    assert (r["frenzies"], r["cards_drawn"]) == (False, 0)
    assert "frenzy.melancholic" in r.rules


def test_hysterical_passes_instead():
    r = resolve_frenzy(health=5, wounds=4, frenzy=2, derangement="hysterical")
    assert (r["frenzies"], r["cards_drawn"], r["must_pass_next_round"]) == (False, 0, True)
    assert "frenzy.hysterical" in r.rules


@pytest.mark.parametrize(
    "kwargs", [{"health": 0, "wounds": 1}, {"health": 5, "wounds": -1}, {"health": 5, "wounds": 1, "frenzy": -2}]
)
def test_bad_values(kwargs):
    with pytest.raises(InvalidValue):
        resolve_frenzy(**kwargs)


def test_unknown_derangement():
    with pytest.raises(InvalidValue, match="Paranoid"):
        resolve_frenzy(health=5, wounds=3, frenzy=2, derangement="Paranoid")
