"""roll_multiple_actions: the penalty ladder applied, then each action that still has dice rolled or counted
(Chapter Five, "Multiple Actions")."""

import random

import pytest

from stkit.dice import HouseRules, Specialty, roll_multiple_actions
from stkit.errors import InvalidValue


def test_ladder_and_physical_dice():
    # 7, 6, 6 declared: 4, 2 and 1 dice left; the faces go to the actions in order.
    slots = roll_multiple_actions([7, 6, 6], [6, 7, 6], rng=random.Random(0), faces=[[6, 1, 8, 3], [7, 2], [1]])
    assert [(s.declared_pool, s.penalty, s.pool) for s in slots] == [(7, 3, 4), (6, 4, 2), (6, 5, 1)]
    assert [s.roll.final_successes for s in slots] == [1, 1, 0]  # 6 and 8 less a 1; one 7 at difficulty 7; a lone 1
    assert slots[2].roll.botch and slots[1].roll.difficulty == 7


def test_an_action_with_no_dice_is_not_rolled_and_takes_no_faces():
    slots = roll_multiple_actions([3, 3], [6, 6], rng=random.Random(0), faces=[[10]])
    assert slots[0].pool == 1 and slots[0].roll.final_successes == 1
    assert slots[1].pool == 0 and slots[1].roll is None and not slots[1].possible


def test_rolled_with_the_rng_and_house_rules():
    rules = HouseRules(specialty=Specialty.DOUBLE)
    a = roll_multiple_actions([8, 8], [6, 6], rng=random.Random(5), rules=rules)
    b = roll_multiple_actions([8, 8], [6, 6], rng=random.Random(5), rules=rules)
    assert a == b and [len(s.roll.dice) for s in a] == [6, 5] and a[0].roll.rules == rules


@pytest.mark.parametrize(
    "pools,diffs,faces,msg",
    [
        ([0, 5], [6, 6], None, "dice pool 0 has no dice"),
        ([5, 5], [6], None, "1 difficulty given for 2 actions"),
        ([5, 5], [6, 11], None, "difficulty 11"),
        ([5, 5], [6, 6], [[1, 2, 3]], "1 set of dice given but 2 of the actions can be attempted"),
    ],
)
def test_refusals(pools, diffs, faces, msg):
    with pytest.raises(InvalidValue, match=msg):
        roll_multiple_actions(pools, diffs, rng=random.Random(0), faces=faces)
