"""Pure rules for tracked actions: extended actions over time, extended-and-resisted contests, intervals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkit.dice import ExtendedTally, count_dice
from stkit.dice.contest import (
    ContestState,
    advance_contest,
    advance_extended_roll,
    format_duration,
    parse_interval,
    replay_extended,
)
from stkit.errors import InvalidValue, RuleRefusal


def test_weston_stays_hidden_in_eight_half_hour_rolls():
    # Chapter Five, "Extended Actions": 16 successes on Stamina + Stealth at difficulty 7, one roll per half
    # hour; eight rolls, four in-game hours. Hand-picked 6-dice rolls: 2+2+2+2+2+2+2+2 = 16.
    rolls = [count_dice(6, 7, faces) for faces in [(7, 8, 2, 3, 4, 5)] * 8]
    assert [r.result for r in rolls] == [2] * 8
    state = ExtendedTally(target=16)
    for i, r in enumerate(rolls, 1):
        state = advance_extended_roll(state, r.result, r.botch)
        assert state.status == ("done" if i == 8 else "open")
    assert (state.tally, state.rolls) == (16, 8)
    assert format_duration(state.rolls * parse_interval("30 min")) == "4 h"


def test_botch_wipes_then_spoils_only_when_asked():
    botch = count_dice(3, 7, (1, 2, 3))
    assert botch.botch
    s = advance_extended_roll(ExtendedTally(target=10, tally=6, rolls=3), botch.result, botch.botch)
    assert (s.tally, s.botches, s.status) == (0, 1, "open")
    s = advance_extended_roll(ExtendedTally(target=10, tally=6, rolls=3), 0, True, botch_spoils=False)
    assert (s.tally, s.botches, s.status) == (6, 0, "open")
    s = advance_extended_roll(ExtendedTally(target=10, tally=6, botch_ends=True), 0, True)
    assert (s.tally, s.status) == (0, "failed")
    with pytest.raises(RuleRefusal, match="already failed"):
        advance_extended_roll(s, 2, False)


def test_replay_matches_botch_resets_in_order():
    assert replay_extended(10, [(3, False), (4, False), (0, True), (2, False)]).tally == 2
    assert replay_extended(10, [(3, False), (0, True), (4, False), (2, False)]).tally == 6


def test_debate_at_the_moot_tally_mode():
    # "Try It Out": five or more successes win the debate; a botch loses what was gathered.
    s = ContestState(target=5)
    s, ex = advance_contest(s, 4, False, 2, False)  # the plea of "Resisted Actions": 4 against 2
    assert (ex.winner, ex.margin, s.tally_a, s.tally_b) == ("a", 2, 2, 0)
    s, ex = advance_contest(s, 1, False, 3, False)
    assert (s.tally_a, s.tally_b) == (2, 2)
    s, ex = advance_contest(s, 0, True, 1, False)  # A botches: A's 2 are lost, B gains 1
    assert (ex.wiped, s.tally_a, s.tally_b, s.status) == (("a",), 0, 3, "open")
    s, ex = advance_contest(s, 2, False, 2, False)  # a tie moves nothing
    assert (ex.winner, s.tally_a, s.tally_b, s.exchanges) == (None, 0, 3, 4)
    s, ex = advance_contest(s, 0, False, 2, False)
    assert (s.tally_b, s.status, s.winner) == (5, "done", "b")
    with pytest.raises(RuleRefusal, match="already over"):
        advance_contest(s, 1, False, 0, False)


def test_truck_chase_lead_mode_needs_five_more_in_total():
    # "Examples of Rolls": five total successes more than the truck driver puts you alongside.
    s = ContestState(target=5, mode="lead")
    for ra, rb in [(3, 0), (0, 3), (2, 0)]:
        s, _ = advance_contest(s, ra, False, rb, False)
    assert (s.lead, s.status) == (2, "open")  # in tally mode the same exchanges would already end it
    t = ContestState(target=5)
    for ra, rb in [(3, 0), (0, 3), (2, 0)]:
        t, _ = advance_contest(t, ra, False, rb, False)
    assert (t.tally_a, t.tally_b, t.winner) == (5, 3, "a")
    s, _ = advance_contest(s, 4, False, 1, False)
    assert (s.lead, s.winner) == (5, "a")
    d = ContestState(target=5, mode="lead")
    for ra, rb in [(0, 2), (1, 4)]:
        d, _ = advance_contest(d, ra, False, rb, False)
    assert (d.lead, d.winner) == (-5, "b")  # the driver makes you swerve


def test_lead_mode_botch_loses_only_the_botchers_lead():
    s = ContestState(target=5, mode="lead", tally_a=3)
    s2, ex = advance_contest(s, 0, True, 1, False)
    assert (s2.lead, ex.wiped) == (-1, ("a",))
    s3, ex = advance_contest(s, 2, False, 0, True)
    assert (s3.lead, ex.wiped) == (5, ())


@given(st.lists(st.tuples(st.integers(0, 6), st.booleans(), st.integers(0, 6), st.booleans()), max_size=30))
def test_contest_tallies_never_negative_and_end_at_target(exchanges):
    for mode in ("tally", "lead"):
        s = ContestState(target=7, mode=mode)
        for ra, ba, rb, bb in exchanges:
            if s.status != "open":
                break
            s, _ = advance_contest(s, 0 if ba else ra, ba, 0 if bb else rb, bb)
            assert s.tally_a >= 0 and s.tally_b >= 0
            assert (s.status == "done") == (max(s.tally_a, s.tally_b) >= 7)
            if mode == "lead":
                assert min(s.tally_a, s.tally_b) == 0


@pytest.mark.parametrize("bad", [0, -1])
def test_target_below_one_refused(bad):
    with pytest.raises(InvalidValue, match="at least 1"):
        ContestState(target=bad)


@pytest.mark.parametrize(
    "text,seconds", [("30 min", 1800), ("1 h", 3600), ("2 hours", 7200), ("10 turns", 30), ("45s", 45), ("90", 5400)]
)
def test_intervals(text, seconds):
    assert parse_interval(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "0 min", "3 parsecs"])
def test_bad_intervals(text):
    with pytest.raises(InvalidValue, match="interval"):
        parse_interval(text)


def test_durations():
    assert [format_duration(s) for s in (0, 59, 5400, 90061)] == ["0 s", "59 s", "1 h 30 min", "1 d 1 h 1 min 1 s"]
