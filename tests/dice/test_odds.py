"""stkit.dice.odds: closed forms, hand-checked values, exactness properties, the Markov chain against a
seeded simulation, the complications against small brute forces, and bad input."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkit.dice import (
    ExtendedTally,
    HouseRules,
    Specialty,
    advance_extended,
    combine_teamwork,
    multiple_action_pools,
    resolve_resisted,
    roll_pool,
    score_dice,
)
from stkit.dice.odds import (
    MAX_EXACT_TARGET,
    MAX_TARGET,
    MAX_TURNS,
    TAIL_EPSILON,
    p_extended,
    p_multiple,
    p_resisted,
    p_teamwork,
    roll_distribution,
)
from stkit.errors import InvalidValue, StkitError

ALL_RULES = [
    HouseRules(),
    HouseRules(specialty=Specialty.DOUBLE),
    HouseRules(ones_cancel=False),
    HouseRules(specialty=Specialty.DOUBLE, ones_cancel=False),
    HouseRules(specialty=Specialty.REROLL),
    HouseRules(specialty=Specialty.REROLL, extra_ones_cancel=True),
    HouseRules(specialty=Specialty.REROLL, ones_cancel=False),
]
rules_st = st.sampled_from(ALL_RULES)


# ---- hand-checked values ------------------------------------------------------------------------------


def test_one_die_difficulty_six_by_hand():
    # faces: 1 botches; 2-5 fail; 6-10 succeed once
    odds = roll_distribution(1, 6)
    assert odds.distribution == (Fraction(5, 10), Fraction(5, 10))
    assert (odds.p_botch, odds.p_failure, odds.p_success) == (Fraction(1, 10), Fraction(4, 10), Fraction(1, 2))
    assert odds.expected == Fraction(1, 2)


def test_two_dice_difficulty_six_by_hand():
    # 100 ordered rolls: both succeed 25 -> 2; one success with a 1: 2*5*1 = 10 -> 0; one success with a
    # 2-5: 2*5*4 = 40 -> 1; no success: 25, of which 16 show no 1 (failure) and 9 botch.
    odds = roll_distribution(2, 6)
    assert odds.distribution == (Fraction(35, 100), Fraction(40, 100), Fraction(25, 100))
    assert odds.p_botch == Fraction(9, 100)
    assert odds.p_failure == Fraction(26, 100)
    assert odds.at_least == (Fraction(1), Fraction(65, 100), Fraction(25, 100))
    assert odds.expected == Fraction(90, 100)


def test_double_ten_one_die():
    odds = roll_distribution(1, 8, rules=HouseRules(specialty=Specialty.DOUBLE))
    # 1 -> botch, 2-7 -> 0, 8-9 -> 1, 10 -> 2
    assert odds.distribution == (Fraction(7, 10), Fraction(2, 10), Fraction(1, 10))
    assert odds.expected == Fraction(4, 10)


def test_reroll_one_die_difficulty_ten_is_geometric():
    # at difficulty 10 only a 10 succeeds, and it re-rolls: P(result == k) = (1/10)**k * 9/10 for k >= 1
    odds = roll_distribution(1, 10, rules=HouseRules(specialty=Specialty.REROLL))
    assert odds.p_exactly(0) == Fraction(9, 10)
    for k in range(1, odds.max_result + 1):
        assert odds.p_exactly(k) == Fraction(9, 10) * Fraction(1, 10) ** k
    assert odds.tail == Fraction(1, 10) ** (odds.max_result + 1)
    assert 0 < odds.tail < TAIL_EPSILON
    assert odds.expected == Fraction(1, 9)  # sum k (9/10)(1/10)^k


def test_willpower_one_die():
    odds = roll_distribution(1, 6, willpower=True)
    # max(net, 0) + 1: net <= 0 on faces 1-5 -> 1; faces 6-10 -> 2
    assert odds.distribution == (Fraction(0), Fraction(1, 2), Fraction(1, 2))
    assert (odds.p_botch, odds.p_failure, odds.p_success) == (0, 0, 1)


def test_seed_extended_example_is_within_the_distribution():
    # Chapter Five, "Extended Actions" worked example: 16 successes, difficulty 7; the player needed 8 rolls.
    ext = p_extended(5, 7, 16)
    assert 0 < ext.p_done_by(8) < 1
    assert ext.median is not None and ext.p_done_by(ext.median) >= Fraction(1, 2) > ext.p_done_by(ext.median - 1)


# ---- closed form and exactness properties ----------------------------------------------------------------


@given(n=st.integers(1, 60), d=st.integers(2, 10), rules=rules_st)
@settings(max_examples=150, deadline=None)
def test_botch_closed_form(n, d, rules):
    odds = roll_distribution(n, d, rules=rules)
    assert odds.p_botch == Fraction(d - 1, 10) ** n - Fraction(d - 2, 10) ** n
    assert roll_distribution(n, d, rules=rules, willpower=True).p_botch == 0


@given(n=st.integers(1, 200), d=st.integers(2, 10), rules=rules_st, willpower=st.booleans())
@settings(max_examples=150, deadline=None)
def test_probabilities_sum_to_exactly_one(n, d, rules, willpower):
    odds = roll_distribution(n, d, rules=rules, willpower=willpower)
    assert sum(odds.distribution) + odds.tail == 1
    assert odds.p_botch + odds.p_failure + odds.p_success == 1
    assert all(p >= 0 for p in odds.distribution)
    assert odds.at_least[0] == 1
    if rules.specialty is Specialty.REROLL:
        assert odds.tail < TAIL_EPSILON
    else:
        assert odds.tail == 0
        assert odds.distribution[-1] > 0  # the top result is reachable (every die at its best)


@given(n=st.integers(1, 40), d=st.integers(2, 10), rules=rules_st)
@settings(max_examples=80, deadline=None)
def test_expected_matches_distribution(n, d, rules):
    odds = roll_distribution(n, d, rules=rules)
    listed = sum(k * p for k, p in enumerate(odds.distribution))
    if rules.specialty is Specialty.REROLL:
        # the unlisted tail adds at least (max+1) * tail, and a little more
        assert listed + (odds.max_result + 1) * odds.tail <= odds.expected < listed + Fraction(1, 10**9)
    else:
        assert odds.expected == listed


def test_thousand_dice_exact():
    odds = roll_distribution(1000, 6)
    assert odds.denominator == 10**1000
    assert sum(odds.weights) == 10**1000
    # net >= 0 needs ... the top: every die a success (5 faces of 10), no 1 -> (1/2)**1000
    assert odds.p_exactly(1000) == Fraction(1, 2**1000)
    assert odds.p_botch == Fraction(5, 10) ** 1000 - Fraction(4, 10) ** 1000
    assert odds.expected > 0


# ---- extended actions ----------------------------------------------------------------------------------


def simulate_extended(pool, d, target, trials, seed, botch_ends=False):
    rng = random.Random(seed)
    counts = []
    finished = 0
    for _ in range(trials):
        state = ExtendedTally(target=target, botch_ends=botch_ends)
        while state.status == "open":
            r = roll_pool(pool, d, rng=rng)
            state = advance_extended(state, r.final_successes, r.botch)
        if state.status == "done":
            finished += 1
            counts.append(state.rolls)
    return counts, finished


@pytest.mark.parametrize(("pool", "d", "target", "seed"), [(3, 6, 5, 11), (5, 7, 16, 2024), (2, 8, 3, 7)])
def test_extended_mean_matches_seeded_simulation(pool, d, target, seed):
    """Tolerance: 4 standard errors of the simulated mean (sample standard deviation / sqrt(4000)). The seed
    is fixed, so the simulation is the same on every run: this test cannot flake."""
    ext = p_extended(pool, d, target)
    counts, finished = simulate_extended(pool, d, target, 4000, seed)
    assert finished == 4000
    mean = sum(counts) / len(counts)
    sd = math.sqrt(sum((c - mean) ** 2 for c in counts) / (len(counts) - 1))
    assert abs(mean - float(ext.mean)) < 4 * sd / math.sqrt(len(counts))
    # the simulated median lies within one roll of the exact one
    counts.sort()
    assert abs(counts[len(counts) // 2] - ext.median) <= 1


def test_extended_botch_ends_matches_seeded_simulation():
    ext = p_extended(2, 7, 4, botch_ends=True)
    counts, finished = simulate_extended(2, 7, 4, 4000, 99, botch_ends=True)
    p = finished / 4000
    se = math.sqrt(float(ext.p_never) * (1 - float(ext.p_never)) / 4000)
    assert abs((1 - p) - float(ext.p_never)) < 4 * se
    mean = sum(counts) / len(counts)
    sd = math.sqrt(sum((c - mean) ** 2 for c in counts) / (len(counts) - 1))
    assert abs(mean - float(ext.mean)) < 4 * sd / math.sqrt(len(counts))


def test_extended_single_die_target_one_is_geometric():
    # one die, difficulty 6: each roll finishes with probability 1/2; a botch (1/10) wipes nothing of value
    ext = p_extended(1, 6, 1, max_turns=10)
    assert ext.mean == 2
    assert ext.median == 1
    assert ext.by_turn == tuple(1 - Fraction(1, 2) ** k for k in range(1, 11))
    assert ext.p_never == 0


def test_extended_botch_ends_target_two_by_hand():
    # one die, difficulty 6: per roll botch 1/10, nothing 4/10, one success 1/2. Target 2, botch ends.
    # f_1 = 1/2 + 4/10 f_1 -> f_1 = 5/6; f_0 = 1/2 f_1 + 4/10 f_0 -> f_0 = 25/36
    ext = p_extended(1, 6, 2, botch_ends=True)
    assert ext.p_never == 1 - Fraction(25, 36)
    assert p_extended(1, 6, 2, start=1, botch_ends=True).p_never == Fraction(1, 6)
    # by hand: done within 2 rolls = both succeed = 1/4
    assert ext.p_done_by(2) == Fraction(1, 4)
    assert ext.p_done_by(1) == 0


@pytest.mark.slow
def test_extended_median_beyond_the_listed_turns_is_none():
    ext = p_extended(30, 10, 100, max_turns=5)
    assert ext.median is None and len(ext.by_turn) == 5 and ext.mean > 1000
    assert p_extended(2, 6, 5, max_turns=40).median == p_extended(2, 6, 5).median


def test_extended_start_is_a_later_state():
    full = p_extended(4, 6, 10)
    late = p_extended(4, 6, 10, start=9)
    # from 9 successes one success finishes: P(done in 1) = P(result >= 1)
    assert late.p_done_by(1) == roll_distribution(4, 6).p_success
    assert late.mean < full.mean


@given(pool=st.integers(1, 12), d=st.integers(2, 10), target=st.integers(1, 25), ends=st.booleans())
@settings(max_examples=40, deadline=None)
def test_extended_by_turn_is_monotone_and_bounded(pool, d, target, ends):
    ext = p_extended(pool, d, target, botch_ends=ends, max_turns=15)
    assert len(ext.by_turn) == 15
    assert all(a <= b for a, b in itertools.pairwise(ext.by_turn))
    assert ext.by_turn[-1] <= 1 - ext.p_never
    assert (ext.p_never > 0) == (ends and roll_distribution(pool, d).p_botch > 0)


def test_extended_reroll_and_willpower():
    rr = HouseRules(specialty=Specialty.REROLL)
    ext = p_extended(3, 8, 12, rules=rr)
    plain = p_extended(3, 8, 12)
    assert ext.mean < plain.mean  # extra dice only help
    wp = p_extended(3, 8, 12, willpower=True)
    assert wp.mean < plain.mean and wp.p_never == 0


# ---- resisted, teamwork, multiple actions against small brute forces ------------------------------------


def all_rolls(n, d):
    for faces in itertools.product(range(1, 11), repeat=n):
        yield score_dice(n, d, faces)


@pytest.mark.slow
def test_resisted_matches_brute_force():
    odds = p_resisted(2, 3, 6, difficulty_b=7)
    wins = {"a": Counter(), "b": Counter(), None: Counter()}
    for ra in all_rolls(2, 6):
        for rb in all_rolls(3, 7):
            res = resolve_resisted(ra, rb)
            wins[res.winner][res.margin] += 1
    den = 10**5
    assert odds.p_a_wins == Fraction(sum(wins["a"].values()), den)
    assert odds.p_b_wins == Fraction(sum(wins["b"].values()), den)
    assert odds.p_tie == Fraction(sum(wins[None].values()), den)
    for m in range(1, 4):
        assert odds.p_margin("a", m) == Fraction(wins["a"][m], den)
        assert odds.p_margin("b", m) == Fraction(wins["b"][m], den)
    assert odds.p_unresolved == 0


@pytest.mark.slow
def test_teamwork_matches_brute_force():
    odds = p_teamwork([2, 1, 2], 7)
    spoils, plain = Counter(), Counter()
    spoiled = all_botch = 0
    rolls2 = list(all_rolls(2, 7))
    rolls1 = list(all_rolls(1, 7))
    for a in rolls2:
        for b in rolls1:
            for c in rolls2:
                t = combine_teamwork([a, b, c])
                u = combine_teamwork([a, b, c], botch_spoils=False)
                spoils[t.total] += 1
                plain[u.total] += 1
                spoiled += t.spoiled
                all_botch += u.outcome.value == "botch"
    den = 10**5
    assert odds.distribution(True) == tuple(Fraction(spoils[k], den) for k in range(len(odds.total_spoils)))
    assert odds.distribution(False) == tuple(Fraction(plain[k], den) for k in range(len(odds.total)))
    assert odds.p_spoiled == Fraction(spoiled, den)
    assert odds.p_all_botch == Fraction(all_botch, den)


@given(a=st.integers(1, 25), b=st.integers(1, 25), da=st.integers(2, 10), db=st.integers(2, 10), rules=rules_st)
@settings(max_examples=60, deadline=None)
def test_resisted_chances_sum_to_exactly_one(a, b, da, db, rules):
    res = p_resisted(a, b, da, difficulty_b=db, rules=rules)
    assert res.p_a_wins + res.p_tie + res.p_b_wins + res.p_unresolved == 1
    assert (res.p_unresolved == 0) == (rules.specialty is not Specialty.REROLL)
    assert res.p_unresolved < 2 * TAIL_EPSILON
    # swapping the sides swaps the answers
    swapped = p_resisted(b, a, db, difficulty_b=da, rules=rules)
    assert (swapped.p_a_wins, swapped.p_b_wins, swapped.margin_a) == (res.p_b_wins, res.p_a_wins, res.margin_b)


@given(pools=st.lists(st.integers(1, 12), min_size=2, max_size=4), d=st.integers(2, 10), rules=rules_st)
@settings(max_examples=60, deadline=None)
def test_teamwork_chances_sum_to_exactly_one(pools, d, rules):
    team = p_teamwork(pools, d, rules=rules)
    for spoils in (True, False):
        assert sum(team.distribution(spoils)) + team.p_unresolved(spoils) == 1
        assert (team.p_unresolved(spoils) == 0) == (rules.specialty is not Specialty.REROLL)
    assert team.p_spoiled == 1 - math.prod(1 - roll_distribution(p, d, rules=rules).p_botch for p in pools)
    if rules.specialty is not Specialty.REROLL:
        for spoils in (True, False):
            assert team.expected(spoils) == sum(k * p for k, p in enumerate(team.distribution(spoils)))


def test_multiple_actions_seed_example():
    # Chapter Five, "Multiple Actions": pools 7, 6, 6 become 4, 2, 1
    multi = p_multiple([7, 6, 6], 6)
    assert [a.pool for a in multi.actions] == multiple_action_pools([7, 6, 6]) == [4, 2, 1]
    assert [a.penalty for a in multi.actions] == [3, 4, 5]
    assert multi.actions[1].odds == roll_distribution(2, 6)
    assert multi.p_all_succeed == (
        roll_distribution(4, 6).p_success * roll_distribution(2, 6).p_success * roll_distribution(1, 6).p_success
    )


def test_multiple_actions_impossible_action():
    multi = p_multiple([3, 2], 6)  # 3-2 = 1 die; 2-3 < 1: cannot be attempted
    assert multi.actions[0].possible and not multi.actions[1].possible
    assert multi.actions[1].p_success == 0 and multi.p_all_succeed == 0


# ---- bad input -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: roll_distribution(5, 11), "outside the allowed range 2 to 10"),
        (lambda: roll_distribution(5, 1), "outside the allowed range 2 to 10"),
        (lambda: roll_distribution(0, 6), "no dice"),
        (lambda: roll_distribution(1001, 6), "limit of 1000"),
        (lambda: p_extended(5, 6, 0), "at least 1"),
        (lambda: p_extended(5, 6, MAX_EXACT_TARGET + 1), f"limit of {MAX_EXACT_TARGET} successes for exact odds"),
        (lambda: p_extended(5, 6, MAX_TARGET + 1), f"allowed: 1 to {MAX_EXACT_TARGET} for exact odds"),
        (lambda: p_extended(5, 6, 10, start=10), "below the target"),
        (lambda: p_extended(1000, 6, 6), "pool x target must be at most 5000"),
        (lambda: p_extended(5, 6, 10, max_turns=0), f"1 to {MAX_TURNS}"),
        (lambda: p_extended(5, 6, 10).p_done_by(10**6), "outside the computed range"),
        (lambda: p_resisted(5, 0, 6), "no dice"),
        (lambda: p_resisted(5, 5, 6, difficulty_b=12), "2 to 10"),
        (lambda: p_teamwork([], 6), "teamwork of 0 participants is no teamwork; allowed: 2 to 100"),
        (lambda: p_teamwork([4], 6), "teamwork of 1 participant is no teamwork; allowed: 2 to 100"),
        (lambda: p_multiple([7], 6), "1 action declared; multiple actions need at least 2"),
        (lambda: p_multiple([3, 0], 6), "no dice"),
        (lambda: roll_distribution(5, "6"), "not a whole number"),
    ],
)
def test_bad_input_raises_invalid_value(call, fragment):
    with pytest.raises(InvalidValue) as info:
        call()
    assert isinstance(info.value, StkitError)
    assert fragment in str(info.value)


def test_extended_median_known_even_when_fewer_turns_listed():
    from stkit.dice.odds import p_extended

    full = p_extended(5, 7, 16)
    short = p_extended(5, 7, 16, max_turns=5)
    assert len(short.by_turn) == 5
    assert short.median == full.median == 11
    assert short.by_turn == full.by_turn[:5]
