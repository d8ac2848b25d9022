"""Umbra cost and Umbra track: Equinox Update, "The Umbra" (worked example: level 4, Gnosis 5 -> 2 cards)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.resolvers.umbra import gnosis_reduction, resolve_umbra_cost, resolve_umbra_track, umbra_level


def test_worked_example_level_4_gnosis_5_discards_two():
    r = resolve_umbra_cost(level=4, gnosis=5)
    assert r["cards"] == 2 and r["base"] == 3 and r["reduction"] == 1
    assert r.rules == ("umbra.level-discard", "umbra.gnosis-modifier")


@pytest.mark.parametrize("level,base", [(1, 0), (2, 1), (3, 2), (4, 3), (5, 3)])
def test_level_table_with_low_gnosis(level, base):
    assert resolve_umbra_cost(level=level, gnosis=3)["cards"] == base


@pytest.mark.parametrize("gnosis,reduction", [(0, 0), (3, 0), (4, 1), (6, 1), (7, 2), (12, 2)])
def test_gnosis_bands(gnosis, reduction):
    assert gnosis_reduction(gnosis) == reduction


def test_never_below_zero():
    r = resolve_umbra_cost(level=2, gnosis=9)  # 1 - 2 would be -1
    assert r["cards"] == 0
    assert any("below zero" in line for line in r.explanation)


def test_last_minute_ignores_gnosis():
    r = resolve_umbra_cost(level=4, gnosis=9, last_minute=True)
    assert r["cards"] == 3 and "umbra.last-minute" in r.rules


def test_spirit_free_as_alpha_but_not_last_minute():
    assert resolve_umbra_cost(level=5, gnosis=0, spirit=True)["cards"] == 0
    assert resolve_umbra_cost(level=5, gnosis=0, spirit=True, last_minute=True)["cards"] == 3


def test_humans_refused():
    with pytest.raises(RuleRefusal, match=r"umbra.no-humans"):
        resolve_umbra_cost(level=1, gnosis=0, human=True)


@pytest.mark.parametrize("points,level", [(1, 1), (5, 1), (6, 2), (7, 2), (10, 2), (11, 3), (20, 4), (21, 5), (25, 5)])
def test_points_to_level(points, level):
    assert umbra_level(points) == level
    assert resolve_umbra_cost(points=points, gnosis=0)["level"] == level


@pytest.mark.parametrize(
    "kwargs", [{"level": 0}, {"level": 6}, {"points": 26}, {"points": 0}, {}, {"level": 2, "points": 7}]
)
def test_bad_level_or_points(kwargs):
    with pytest.raises(InvalidValue):
        resolve_umbra_cost(gnosis=3, **kwargs)


def test_bad_gnosis():
    with pytest.raises(InvalidValue, match="Gnosis -1"):
        resolve_umbra_cost(level=2, gnosis=-1)


def test_track_from_seven():
    r = resolve_umbra_track(["wyrm-enemy-played", "garou-killed", "spirit-killed", "wyrm-enemy-killed", "alpha-pass"])
    assert [s["points"] for s in r["steps"]] == [8, 9, 10, 9, 7]
    assert r["points"] == 7 and r["level"] == 2 and r["start"] == 7
    assert "umbra.start" in r.rules and "umbra.alpha-pass" in r.rules


def test_track_stays_on_chart():
    r = resolve_umbra_track(["level:+5", "points:+3"], start=20)
    assert r["points"] == 25 and r["level"] == 5
    low = resolve_umbra_track(["alpha-pass", "alpha-pass"], start=2)
    assert low["points"] == 1
    assert "umbra.chart" in low.rules


def test_track_level_moves_five_points():
    assert resolve_umbra_track(["level:-1"], start=17)["points"] == 12


def test_track_unknown_event():
    with pytest.raises(InvalidValue, match="unknown Umbra event 'moonrise'"):
        resolve_umbra_track(["moonrise"])


def test_track_bad_start():
    with pytest.raises(InvalidValue):
        resolve_umbra_track([], start=30)


@given(level=st.integers(1, 5), gnosis=st.integers(0, 99))
def test_more_gnosis_never_costs_more(level, gnosis):
    here = resolve_umbra_cost(level=level, gnosis=gnosis)["cards"]
    assert 0 <= here <= resolve_umbra_cost(level=level, gnosis=0)["cards"]
    assert resolve_umbra_cost(level=level, gnosis=gnosis + 1)["cards"] <= here
    assert resolve_umbra_cost(level=level, gnosis=gnosis, last_minute=True)["cards"] >= here


EVENT_WORDS = [
    "wyrm-enemy-played",
    "spirit-killed",
    "garou-killed",
    "wyrm-enemy-killed",
    "alpha-pass",
    "level:+1",
    "level:-2",
    "points:+4",
]


@given(start=st.integers(1, 25), events=st.lists(st.sampled_from(EVENT_WORDS), max_size=30))
def test_marker_never_leaves_the_chart(start, events):
    r = resolve_umbra_track(events, start=start)
    assert all(1 <= s["points"] <= 25 and s["level"] == umbra_level(s["points"]) for s in r["steps"])
