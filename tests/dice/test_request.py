"""RollRequest validates once; resolve_roll rolls, counts or takes an automatic success."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkit.dice import (
    MAX_POOL,
    MAX_TARGET,
    Degree,
    HouseRules,
    Outcome,
    RollKind,
    RollRequest,
    Specialty,
    count_dice,
    resolve_roll,
    roll_pool,
    validate_roll_options,
    validate_target,
)
from stkit.dice.odds import MAX_EXACT_TARGET, check_exact_target
from stkit.errors import InvalidValue, RuleRefusal


class NoDice:
    """A random source that fails the test if anything is rolled."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("nothing should be rolled")


class Replay:
    """A random source that yields the given faces in order."""

    def __init__(self, faces: list[int]) -> None:
        self._faces: Iterator[int] = iter(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 10)
        return next(self._faces)


# ---- validation ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(pool=0), "dice pool 0 has no dice: the action cannot be attempted (a pool needs 1 to 1000 dice)"),
        (dict(pool=MAX_POOL + 1), "dice pool 1001 is larger than stkit's limit of 1000 dice"),
        (dict(pool="5"), "dice pool '5' is not a whole number of dice; allowed: 1 to 1000"),
        (dict(pool=True), "dice pool True is not a whole number of dice; allowed: 1 to 1000"),
        (dict(pool=5, difficulty=11), "difficulty 11 is outside the allowed range 2 to 10"),
        (dict(pool=5, difficulty=1), "difficulty 1 is outside the allowed range 2 to 10"),
        (dict(pool=5, difficulty=6.0), "difficulty 6.0 is not a whole number; allowed: 2 to 10"),
        (dict(pool=5, retry=-1), "retry -1 must be 0 or more (the number of earlier failures)"),
        (
            dict(pool=8, automatic=True, willpower=True),
            "an automatic success is taken without rolling; it cannot go with Willpower or with dice rolled by hand",
        ),
        (
            dict(pool=3, automatic=True, faces=(6, 6, 6)),
            "an automatic success is taken without rolling; it cannot go with Willpower or with dice rolled by hand",
        ),
        (dict(pool=3, faces=(6, 11, 2)), "die face 11 is not possible on a ten-sided die; allowed: 1 to 10"),
        (dict(pool=3, faces=(6, 0, 2)), "die face 0 is not possible on a ten-sided die; allowed: 1 to 10"),
        (dict(pool=3, faces=(6, 2)), "2 dice given but the dice pool is 3; give exactly 3 faces"),
        (dict(pool=3, faces=(6, 2, 4, 5)), "4 dice given but the dice pool is 3; give exactly 3 faces"),
        (
            dict(pool=2, faces=(10, 4), rules=HouseRules(specialty=Specialty.REROLL)),
            "2 dice given but a pool of 2 with these 10s re-rolled needs 3 faces (each 10 adds one extra die)",
        ),
    ],
)
def test_a_bad_request_is_refused_when_built_with_one_line(kwargs, message):
    with pytest.raises(InvalidValue) as info:
        RollRequest(**kwargs)
    assert str(info.value) == message


def test_validate_roll_options_returns_the_difficulty_used_and_checks_the_same_things():
    # "Try, Try Again": each earlier failure raises the difficulty by one, never past 10.
    assert validate_roll_options(6) == 6
    assert validate_roll_options(6, retry=2) == 8
    assert validate_roll_options(9, retry=3) == 10
    with pytest.raises(InvalidValue, match="cannot go with Willpower"):
        validate_roll_options(6, automatic=True, has_faces=True)
    with pytest.raises(InvalidValue, match="difficulty 12 is outside"):
        validate_roll_options(12)


def test_a_request_is_frozen_and_keeps_faces_as_a_tuple():
    req = RollRequest(3, 6, faces=[4, 7, 1])  # type: ignore[arg-type]  # a list is accepted and frozen
    assert req.faces == (4, 7, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        req.pool = 4  # type: ignore[misc]


# ---- one function dispatching -------------------------------------------------------------------------------


def test_kind_says_how_the_request_is_resolved():
    assert RollRequest(5).kind is RollKind.ROLL
    assert RollRequest(2, faces=(3, 9)).kind is RollKind.COUNT
    assert RollRequest(7, automatic=True).kind is RollKind.AUTO


def test_count_scores_the_faces_and_touches_no_random_source():
    # "Botches": 4, 7, 5, 8, 1 at difficulty 9 is a botch.
    r = resolve_roll(RollRequest(5, 9, faces=(4, 7, 5, 8, 1)), rng=NoDice())
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (0, 1, -1, 0)
    assert r.outcome is Outcome.BOTCH
    assert r.dice == (4, 7, 5, 8, 1)


def test_count_with_willpower_and_retry():
    # Difficulty 6, second retry: scored at 8. 8 and 9 succeed, the 1 cancels one; Willpower adds one.
    r = resolve_roll(RollRequest(4, 6, retry=2, willpower=True, faces=(8, 9, 1, 7)))
    assert (r.difficulty, r.base_difficulty, r.retry) == (8, 6, 2)
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (2, 1, 1, 2)
    assert r.degree is Degree.MARGINAL


def test_automatic_success_rolls_nothing():
    # "Automatic Successes": a pool at least the difficulty takes one marginal success.
    r = resolve_roll(RollRequest(6, 6, automatic=True), rng=NoDice())
    assert r.automatic and r.dice == ()
    assert (r.final_successes, r.outcome, r.degree) == (1, Outcome.SUCCESS, Degree.MARGINAL)


def test_automatic_success_refusals_come_from_the_rules():
    with pytest.raises(RuleRefusal, match="combat or any other stressful action"):
        resolve_roll(RollRequest(8, 6, automatic=True, stressful=True))
    # A retry raises the difficulty the pool must reach: 6 dice against 6 + 1.
    with pytest.raises(RuleRefusal, match="pool 6 is below difficulty 7"):
        resolve_roll(RollRequest(6, 6, retry=1, automatic=True))


def test_roll_uses_the_random_source_like_roll_pool():
    a = resolve_roll(RollRequest(7, 7, retry=1), rng=random.Random(42))
    b = roll_pool(7, 7, retry=1, rng=random.Random(42))
    assert a == b
    assert len(a.dice) == 7 and a.difficulty == 8


def test_roll_without_a_random_source_is_refused():
    with pytest.raises(InvalidValue, match="a roll needs a random source"):
        resolve_roll(RollRequest(5))


def test_reroll_specialty_rolls_extra_dice_from_the_source():
    # Under the reroll house rule each 10 adds a die: 10 then 10 then 3 means two extra dice.
    rules = HouseRules(specialty=Specialty.REROLL)
    r = resolve_roll(RollRequest(2, 6, rules=rules), rng=Replay([10, 4, 10, 3]))
    assert r.dice == (10, 4, 10, 3) and r.extra_dice == (10, 3)
    assert r.final_successes == 2


rules_strategy = st.sampled_from(
    [
        HouseRules(),
        HouseRules(specialty=Specialty.DOUBLE),
        HouseRules(ones_cancel=False),
        HouseRules(specialty=Specialty.DOUBLE, ones_cancel=False),
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    faces=st.lists(st.integers(1, 10), min_size=1, max_size=25),
    difficulty=st.integers(2, 10),
    willpower=st.booleans(),
    retry=st.integers(0, 4),
    rules=rules_strategy,
)
def test_counting_a_face_list_equals_rolling_those_faces(faces, difficulty, willpower, retry, rules):
    pool = len(faces)
    counted = resolve_roll(
        RollRequest(pool, difficulty, rules=rules, willpower=willpower, retry=retry, faces=tuple(faces))
    )
    rolled = resolve_roll(
        RollRequest(pool, difficulty, rules=rules, willpower=willpower, retry=retry), rng=Replay(faces)
    )
    assert counted == rolled
    assert counted == count_dice(pool, difficulty, faces, rules=rules, willpower=willpower, retry=retry)
    # The rules restated independently: successes at the difficulty used, 1s cancelling them.
    used = min(difficulty + retry, 10)
    per_ten = 2 if rules.specialty is Specialty.DOUBLE else 1
    rolled_successes = sum(per_ten if f == 10 else 1 for f in faces if f >= used)
    ones = faces.count(1) if rules.ones_cancel else 0
    assert counted.successes_rolled == rolled_successes
    assert counted.final_successes == max(rolled_successes - ones, 0) + int(willpower)


# ---- result names -------------------------------------------------------------------------------------------


def test_old_result_names_are_read_only_aliases_and_json_keys_stay():
    r = resolve_roll(RollRequest(5, 6, faces=(1, 6, 7, 8, 1)))
    assert (r.successes_rolled, r.final_successes) == (3, 1)
    assert (r.successes, r.result) == (3, 1)
    with pytest.raises(AttributeError):
        r.result = 5  # type: ignore[misc]
    data = r.to_dict()
    assert (data["successes"], data["net"], data["result"]) == (3, 1, 1)
    assert "successes_rolled" not in data and "final_successes" not in data


# ---- targets ------------------------------------------------------------------------------------------------


def test_one_target_bound_and_the_exact_odds_limit():
    assert MAX_TARGET == 1000 and MAX_EXACT_TARGET == 100
    assert validate_target(1) == 1 and validate_target(MAX_TARGET) == MAX_TARGET
    with pytest.raises(InvalidValue, match=r"^target 0 must be at least 1 success; allowed: 1 to 1000$"):
        validate_target(0)
    with pytest.raises(InvalidValue, match=r"^target 1001 is outside the allowed range 1 to 1000 successes$"):
        validate_target(1001)
    with pytest.raises(InvalidValue, match="is not a whole number of successes"):
        validate_target(True)
    assert check_exact_target(100) == 100
    refused = {
        101: "target 101 is larger than stkit's limit of 100 successes for exact odds; allowed: 1 to 100 for exact odds",
        1001: "target 1001 is larger than stkit's limit of 100 successes for exact odds; allowed: 1 to 100 for exact odds",
        0: "target 0 must be at least 1 success; allowed: 1 to 100 for exact odds",
        True: "target True is not a whole number of successes; allowed: 1 to 100 for exact odds",
    }
    for target, message in refused.items():
        with pytest.raises(InvalidValue) as info:
            check_exact_target(target)
        assert str(info.value) == message
