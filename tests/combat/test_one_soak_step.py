"""The soak is one step (stkit.dice.combat.soak_step and soak_left): `stkit attack`, `stkit char hit --soak`
and `stkit odds attack` make the same roll and do the same arithmetic, and who may soak what is decided once
(stkit.store.fight.hit.soak_choice over the soak rules). docs/combat.md, "One soak step" and "Who soaks
what" (a mortal soaks bashing with Stamina, lethal only with armour: vwh-rp.com's Werewolf rules).

Every expected value is worked by hand in the test: a soak success takes one level off, never below none.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice.combat import AttackSpec, AttackStep, RollPurpose, p_attack, soak_damage, soak_left, soak_step
from stkit.dice.model import HouseRules, Specialty

runner = CliRunner()


def ok_json(*args: str) -> dict:
    res = runner.invoke(app, [*args, "--json"], env={"NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.mark.parametrize(
    ("levels", "successes", "expected"),
    [(3, 1, (1, 2)), (3, 2, (2, 1)), (2, 5, (2, 0)), (4, 0, (0, 4)), (0, 3, (0, 0))],
)
def test_golden_soak_arithmetic(levels, successes, expected):
    assert soak_left(levels, successes) == expected


def test_the_soak_step_is_a_soak_roll_that_names_no_specialty():
    rules = HouseRules(specialty=Specialty.DOUBLE, specialised=True)
    step = soak_step(3, 4, 7, rules)
    assert step is not None
    assert (step.step, step.purpose, step.pool, step.difficulty) == (AttackStep.SOAK, RollPurpose.SOAK, 4, 7)
    assert step.rules.specialised is False  # a 10 on a soak die is one success even under double
    assert soak_step(0, 4) is None and soak_step(3, 0) is None  # nothing to soak, or no dice
    # soak_damage walks the same step: faces 10, 10, 1 at 6 -> 2 successes (no doubling), 3 levels -> 1 left
    roll, soaked, left = soak_damage(3, 3, faces=[10, 10, 1], rules=rules)
    assert roll is not None and (roll.final_successes, soaked, left) == (2, 2, 1)


def test_golden_odds_attack_soak_against_every_face():
    """One attack die, one damage die, one soak die, all at 6: a wound needs the attack die at 6+, the damage
    die at 6+ and the soak die below 6. Counted over all 1000 faces here: 5 * 5 * 5 = 125, so 1/8."""
    wounded = sum(1 for a, d, s in itertools.product(range(1, 11), repeat=3) if a >= 6 and d >= 6 and s < 6)
    assert Fraction(wounded, 1000) == Fraction(1, 8)
    odds = p_attack(AttackSpec(attack_pool=1, damage_pool=1, soak_pool=1))
    assert odds.p_wounds(1) == Fraction(wounded, 1000)


@pytest.fixture
def bout(db_url):
    ok_json("char", "new", "Tooth", "--set", "Dexterity=3", "--set", "Brawl=2", "--set", "Strength=2")
    ok_json("char", "new", "Post", "--creature", "mortal", "--set", "Stamina=3")
    return db_url


SWING = ["attack", "Tooth", "Post", "-p", "Dexterity + Brawl", "--damage", "Strength", "--force"]


def test_golden_char_hit_and_attack_soak_alike(bout):
    """Post (a mortal, Stamina 3) soaks 3 bashing levels with 6, 2, 9: 2 successes, 2 soaked, 1 left, by
    `char hit` and by `attack` (attack 8, 9, 2, 2, 2: 2 successes; damage Strength 2 + 1 = 3 dice 6, 7, 8:
    3 successes)."""
    hit = ok_json("char", "hit", "Post", "3", "--type", "bashing", "--soak", "--dice", "6,2,9")
    assert (hit["soak_pool"]["dice"], hit["soaked"], hit["wounds"]) == (3, 2, 1)
    ok_json("char", "heal", "Post", "1")
    done = ok_json(*SWING, "--dice-attack", "8,9,2,2,2", "--dice-damage", "6,7,8", "--dice-soak", "6,2,9")
    assert (done["soak_pool"], done["soaked"], done["wounds"]) == (3, 2, 1)


def test_golden_a_mortal_soaks_no_lethal_without_armour_by_either_door(bout):
    hit = ok_json("char", "hit", "Post", "2", "--type", "lethal", "--soak")
    assert (hit["soak"], hit["soaked"], hit["wounds"]) == (None, 0, 2)
    assert any("only with armour" in n for n in hit["notes"])
    res = runner.invoke(app, ["char", "hit", "Post", "1", "--type", "lethal", "--soak", "--dice", "6,6,6"])
    assert res.exit_code == 1 and "only with armour" in res.output
    ok_json("char", "heal", "Post", "2")
    done = ok_json(*SWING, "--type", "lethal", "--dice-attack", "8,9,2,2,2", "--dice-damage", "6,7,8")
    assert (done["soak"], done["wounds"], done["soaked_by"]) == (None, 3, "none")
    assert any("only with armour" in n for n in done["notes"])


def test_golden_the_soak_at_a_chronicle_difficulty_and_ones_rule(bout):
    """`char hit` at difficulty 8 (-d): 6, 8, 1 -> 1 success (8), the 1 cancelling nothing (a soak roll's 1s
    do not cancel by default): 1 soaked of 2; under --damage-ones-cancel the 1 takes it away: 0 soaked."""
    hit = ok_json("char", "hit", "Post", "2", "--soak", "-d", "8", "--dice", "6,8,1")
    assert (hit["soaked"], hit["wounds"]) == (1, 1)
    ok_json("char", "heal", "Post", "1")
    strict = ok_json("char", "hit", "Post", "2", "--soak", "-d", "8", "--dice", "6,8,1", "--damage-ones-cancel")
    assert (strict["soaked"], strict["wounds"]) == (0, 2)
