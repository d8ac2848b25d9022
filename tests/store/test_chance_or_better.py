"""The Discord card's "chance of this or better" is the exact chance under every scoring rule the roll was
made under (read from the roll's own ``house_rules``), counted here by enumerating every face with the
independent per-face table of tests/dice/independent.py."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from stkit.dice import RollRequest, resolve_roll
from stkit.dice.model import HouseRules
from stkit.store.table.discord_feed import chance_or_better
from tests.dice.independent import count

CASES = [
    ({"tens-cancel-ones": "on"}, HouseRules(tens_cancel_ones=True), 3, False),
    ({"ones-cancel": "off"}, HouseRules(ones_cancel=False), 3, False),
    ({"willpower": "three-dice"}, HouseRules(willpower="three-dice"), 1, True),
    ({"specialty": "double"}, HouseRules(specialty="double"), 3, False),
]


@pytest.mark.parametrize(("rules", "house", "pool", "willpower"), CASES)
def test_chance_or_better_reads_every_scoring_rule(rules, house, pool, willpower):
    dice = pool + (3 if willpower and rules.get("willpower") == "three-dice" else 0)
    counts = [
        count(faces, pool, 6, rules, specialised=True, willpower=willpower)
        for faces in itertools.product(range(1, 11), repeat=dice)
    ]
    for seed in range(6):
        roll = resolve_roll(RollRequest(pool, 6, rules=house, willpower=willpower), rng=random.Random(seed))
        result = roll.final_successes
        if roll.outcome.value == "success":
            expected = Fraction(sum(c.final >= result for c in counts), len(counts))
        elif roll.outcome.value == "failure":
            expected = Fraction(sum(c.outcome != "botch" for c in counts), len(counts))
        else:
            expected = Fraction(1)
        assert chance_or_better(roll.to_dict()) == expected, (rules, seed, roll.dice)
