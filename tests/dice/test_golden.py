"""The worked examples of Chapter Five: Rules, through the dice engine."""

import pytest

from stkit.dice import (
    Degree,
    ExtendedTally,
    HouseRules,
    Outcome,
    Specialty,
    advance_extended,
    combine_teamwork,
    count_dice,
    multiple_action_pools,
    resolve_resisted,
    retry_difficulty,
    take_automatic_success,
)
from stkit.errors import InvalidValue, RuleRefusal


def test_difficulties_example_three_successes():
    # "Difficulties": 5, 4, 8, 8, 2, 6 at difficulty 6 is three successes.
    r = count_dice(6, 6, [5, 4, 8, 8, 2, 6])
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (3, 0, 3, 3)
    assert r.outcome is Outcome.SUCCESS
    assert r.degree is Degree.COMPLETE


def test_failure_example_hot_wire():
    # "Failure": Paper Clip's Intelligence 3 + Repair 2 rolls 4, 3, 5, 5, 6 at 7: no successes, no 1s.
    r = count_dice(5, 7, [4, 3, 5, 5, 6])
    assert (r.successes_rolled, r.ones, r.final_successes) == (0, 0, 0)
    assert r.outcome is Outcome.FAILURE
    assert r.degree is None


def test_botch_example_flashburn_dive():
    # "Botches": Flashburn's Dexterity 3 + Firearms 2 rolls 4, 7, 5, 8, 1 at 9: a botch.
    r = count_dice(5, 9, [4, 7, 5, 8, 1])
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (0, 1, -1, 0)
    assert r.outcome is Outcome.BOTCH


def test_one_success_and_seven_ones_is_a_failure_not_a_botch():
    # "Botches": one success and seven 1s is still just a failure.
    r = count_dice(8, 6, [9, 1, 1, 1, 1, 1, 1, 1])
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (1, 7, -6, 0)
    assert r.outcome is Outcome.FAILURE
    assert r.cancelled == 1


def test_rule_of_one_cancels_successes():
    r = count_dice(5, 6, [1, 6, 7, 8, 1])
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (3, 2, 1, 1)
    assert r.degree is Degree.MARGINAL


@pytest.mark.parametrize(
    "result,degree",
    [
        (1, Degree.MARGINAL),
        (2, Degree.MARGINAL),
        (3, Degree.COMPLETE),
        (4, Degree.COMPLETE),
        (5, Degree.MOMENTOUS),
        (9, Degree.MOMENTOUS),
        (0, None),
    ],
)
def test_degree_scale(result, degree):
    assert Degree.of(result) is degree


def test_archibald_dexterity_plus_drive_is_five_dice():
    # "Ratings": Dexterity 3 + Drive 2 = a dice pool of five.
    r = count_dice(3 + 2, 6, [2, 3, 6, 9, 10])
    assert r.pool == 5 and r.final_successes == 3


def test_multiple_actions_ladder_shadow_in_the_wood():
    # "Multiple Actions": pools 7, 6, 6 with three actions become 4, 2, 1.
    assert multiple_action_pools([7, 6, 6]) == [4, 2, 1]
    assert multiple_action_pools([3, 3]) == [1, 0]


def test_resisted_plea_ears_of_the_wind():
    # "Resisted Actions": six dice vs seven at difficulty 8; four successes against two leaves two.
    a = count_dice(6, 8, [8, 9, 10, 8, 2, 3])
    b = count_dice(7, 8, [8, 9, 2, 3, 4, 5, 6])
    assert (a.final_successes, b.final_successes) == (4, 2)
    res = resolve_resisted(a, b)
    assert (res.winner, res.margin, res.degree) == ("a", 2, Degree.MARGINAL)


def test_resisted_tie_leaves_nobody_a_success():
    a = count_dice(3, 6, [6, 7, 2])
    b = count_dice(3, 6, [8, 9, 3])
    res = resolve_resisted(a, b)
    assert (res.winner, res.margin) == (None, 0)


def test_resisted_botch_counts_zero_and_is_reported():
    a = count_dice(2, 6, [1, 2])
    b = count_dice(2, 6, [6, 2])
    res = resolve_resisted(a, b)
    assert a.botch and (res.winner, res.margin) == ("b", 1)


def test_try_again_wall_six_seven_eight():
    # "Try, Try Again": Weston's wall at 6, then 7, then 8.
    assert [retry_difficulty(6, k) for k in range(3)] == [6, 7, 8]
    assert retry_difficulty(9, 3) == 10  # a raise by the rules stops at 10
    r = count_dice(5, 6, [7, 7, 2, 3, 4], retry=1)
    assert (r.difficulty, r.base_difficulty, r.successes_rolled) == (7, 6, 2)


def test_teamwork_of_one_is_refused_below_the_adapters():
    from stkit.dice.actions import check_teamwork_size

    one = count_dice(3, 6, [6, 7, 8])
    for call in (lambda: combine_teamwork([one]), lambda: combine_teamwork([]), lambda: check_teamwork_size(1)):
        with pytest.raises(InvalidValue, match="is no teamwork; allowed: 2 to 100 participants"):
            call()
    assert combine_teamwork([one, one]).total == 6


def test_teamwork_adds_successes_and_botch_spoils():
    a = count_dice(3, 6, [6, 7, 2])
    b = count_dice(2, 6, [9, 3])
    botcher = count_dice(2, 6, [1, 3])
    assert combine_teamwork([a, b]).total == 3
    spoiled = combine_teamwork([a, b, botcher])
    assert spoiled.spoiled and spoiled.total == 0 and spoiled.outcome is Outcome.BOTCH
    kept = combine_teamwork([a, b, botcher], botch_spoils=False)
    assert not kept.spoiled and kept.total == 3 and kept.outcome is Outcome.SUCCESS


def test_willpower_is_an_uncancellable_success():
    r = count_dice(3, 6, [6, 1, 1], willpower=True)
    assert (r.net, r.final_successes, r.outcome) == (-1, 1, Outcome.SUCCESS)
    botch_dice = count_dice(2, 9, [1, 4], willpower=True)
    assert botch_dice.outcome is Outcome.SUCCESS and botch_dice.final_successes == 1


def test_automatic_success():
    r = take_automatic_success(6, 6)
    assert (r.final_successes, r.outcome, r.degree, r.automatic, r.dice) == (
        1,
        Outcome.SUCCESS,
        Degree.MARGINAL,
        True,
        (),
    )
    with pytest.raises(RuleRefusal, match="pool 5 is below difficulty 6"):
        take_automatic_success(5, 6)
    with pytest.raises(RuleRefusal, match="stressful"):
        take_automatic_success(9, 6, stressful=True)
    with pytest.raises(RuleRefusal, match="below difficulty 7"):
        take_automatic_success(6, 6, retry=1)


def test_specialty_double_counts_tens_twice():
    rules = HouseRules(specialty=Specialty.DOUBLE)
    r = count_dice(3, 6, [10, 6, 1], rules=rules)
    assert (r.successes_rolled, r.ones, r.final_successes) == (3, 1, 2)


def test_specialty_reroll_extra_dice():
    rules = HouseRules(specialty=Specialty.REROLL)
    # The 10 asks for one extra die (10 again), which asks for one more (1).
    r = count_dice(3, 7, [10, 3, 2, 10, 1], rules=rules)
    assert r.extra_dice == (10, 1)
    assert (r.successes_rolled, r.ones, r.final_successes) == (2, 0, 2)  # the extra 1 does not cancel by default
    cancelling = HouseRules(specialty=Specialty.REROLL, extra_ones_cancel=True)
    assert count_dice(3, 7, [10, 3, 2, 10, 1], rules=cancelling).final_successes == 1
    with pytest.raises(InvalidValue, match="needs 5 faces"):
        count_dice(3, 7, [10, 3, 2, 10], rules=rules)


def test_ones_dont_cancel_house_rule():
    rules = HouseRules(ones_cancel=False)
    r = count_dice(3, 6, [6, 1, 1], rules=rules)
    assert (r.net, r.final_successes, r.outcome) == (1, 1, Outcome.SUCCESS)
    assert count_dice(2, 6, [1, 2], rules=rules).outcome is Outcome.BOTCH


@pytest.mark.parametrize("difficulty", [1, 11, 0, -2])
def test_difficulty_out_of_range(difficulty):
    with pytest.raises(InvalidValue, match=f"difficulty {difficulty} is outside the allowed range 2 to 10"):
        count_dice(3, difficulty, [1, 2, 3])


@pytest.mark.parametrize("pool", [0, -3])
def test_empty_pool_cannot_be_attempted(pool):
    with pytest.raises(InvalidValue, match="cannot be attempted"):
        count_dice(pool, 6, [])


def test_pool_upper_bound():
    with pytest.raises(InvalidValue, match="limit of 1000"):
        count_dice(1001, 6, [5] * 1001)


@pytest.mark.parametrize(
    "faces,msg", [([0, 2, 3], "die face 0"), ([11, 2, 3], "die face 11"), ([1, 2], "2 dice given")]
)
def test_bad_physical_dice(faces, msg):
    with pytest.raises(InvalidValue, match=msg):
        count_dice(3, 6, faces)


def test_extended_weston_stay_hidden():
    # "Extended Actions": 16 successes needed; a botch wipes the tally.
    state = ExtendedTally(target=16)
    for result, botched in [(3, False), (2, False), (0, True), (4, False), (5, False), (4, False), (3, False)]:
        state = advance_extended(state, result, botched)
    assert (state.tally, state.rolls, state.botches, state.status) == (16, 7, 1, "done")
    with pytest.raises(RuleRefusal):
        advance_extended(state, 1, False)
    ended = advance_extended(ExtendedTally(target=5, botch_ends=True), 0, True)
    assert ended.status == "failed" and ended.tally == 0
    with pytest.raises(InvalidValue):
        ExtendedTally(target=0)
