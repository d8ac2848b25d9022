"""Hypothesis properties of the dice engine."""

import random

from hypothesis import given
from hypothesis import strategies as st

from stkit.dice import HouseRules, Outcome, Specialty, count_dice, roll_faces, roll_pool, score_dice

pools = st.integers(min_value=1, max_value=30)
difficulties = st.integers(min_value=2, max_value=10)


@st.composite
def pool_and_faces(draw):
    n = draw(pools)
    return n, draw(st.lists(st.integers(1, 10), min_size=n, max_size=n))


@given(pool_and_faces(), difficulties)
def test_net_is_successes_minus_ones(pf, d):
    n, faces = pf
    r = count_dice(n, d, faces)
    assert r.successes_rolled == sum(1 for f in faces if f >= d)
    assert r.ones == faces.count(1)
    assert r.net == r.successes_rolled - r.ones
    assert r.final_successes == max(r.net, 0)


@given(pool_and_faces(), difficulties)
def test_a_botch_has_no_success_die_and_a_one(pf, d):
    n, faces = pf
    r = count_dice(n, d, faces)
    if r.outcome is Outcome.BOTCH:
        assert all(f < d for f in faces) and 1 in faces
    if all(f < d for f in faces) and 1 in faces:
        assert r.outcome is Outcome.BOTCH


@given(pool_and_faces(), difficulties)
def test_willpower_never_fails(pf, d):
    n, faces = pf
    r = count_dice(n, d, faces, willpower=True)
    assert r.outcome is Outcome.SUCCESS
    assert r.final_successes == max(r.successes_rolled - r.ones, 0) + 1


@given(pools, difficulties, st.integers(0, 2**32), st.sampled_from(list(Specialty)), st.booleans())
def test_seeded_roll_agrees_with_counting_its_dice(n, d, seed, specialty, extra_ones):
    rules = HouseRules(specialty=specialty, extra_ones_cancel=extra_ones and specialty is Specialty.REROLL)
    rolled = roll_pool(n, d, rng=random.Random(seed), rules=rules)
    assert rolled == roll_pool(n, d, rng=random.Random(seed), rules=rules)  # replayable
    assert count_dice(n, d, rolled.dice, rules=rules) == rolled
    assert roll_faces(n, rng=random.Random(seed), rules=rules) == rolled.dice


@given(pool_and_faces(), difficulties)
def test_double_specialty_adds_one_per_ten_that_succeeds(pf, d):
    n, faces = pf
    plain = score_dice(n, d, faces)
    double = score_dice(n, d, faces, rules=HouseRules(specialty=Specialty.DOUBLE))
    assert double.successes_rolled == plain.successes_rolled + faces.count(10)
