"""The unskilled rule reaches the pools an attack builds itself (the attack, the dodge, block or parry, the
damage and the soak) through the composition every roll from a sheet goes through
(stkit.sheet.compose.compose_roll), once, for `stkit attack` and `stkit odds attack --char` alike.

Revised, "Abilities" (stkit/sheet/unskilled.py names the sources): an untrained Talent rolls with no
penalty, an untrained Skill at difficulty +1 (house rule `unskilled-skill dice`: two dice fewer), an
unrated Knowledge not at all. Of the pools an attack builds, a parry (Dexterity + Melee: Melee is a Skill)
and an attack with Melee or Firearms can hold an untrained Skill; a dodge (Dodge) and a block (Brawl) hold
Talents; damage (Strength) and soak (Stamina) hold Attributes unless the table names another pool, so a
pool the table names may hold a Skill or a Knowledge too, and gets the rule.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120"})


def ok_json(*args: str) -> dict:
    res = run(*args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.fixture
def bout(db_url):
    ok_json("char", "new", "Tooth", "--set", "Dexterity=3", "--set", "Brawl=2", "--set", "Strength=2")
    ok_json("char", "new", "Cy", "--creature", "mortal", "--set", "Dexterity=3", "--set", "Stamina=1")
    return db_url


SWING = ["attack", "Tooth", "Cy", "-p", "Dexterity + Brawl", "--damage", "Strength", "--force"]


def test_golden_a_parry_with_melee_0_is_at_difficulty_7(bout):
    """Attack 8, 9, 2, 2, 2: 2 successes. Cy parries with Dexterity 3 + Melee 0 (an untrained Skill): 3 dice
    at 6 + 1 = 7, rolling 6, 7, 2: 1 success (the 6 misses at 7), so 1 attack success is left: a hit, damage
    Strength 2 dice 6, 7: 2 successes; soak Stamina 1 rolls 2: none; 2 levels. At difficulty 6 the parry
    would have had 2 successes and the attack missed."""
    done = ok_json(
        *SWING,
        "--parry",
        "Dexterity + Melee",
        "--dice-attack",
        "8,9,2,2,2",
        "--dice-dodge",
        "6,7,2",
        "--dice-damage",
        "6,7",
        "--dice-soak",
        "2",
    )
    assert (done["defence"]["difficulty"], done["defence"]["result"]) == (7, 1)
    assert (done["net_successes"], done["wounds"]) == (1, 2)
    assert any("Melee 0: an untrained Skill, difficulty +1" in n for n in done["notes"])


def test_golden_a_dodge_with_dodge_0_has_no_penalty(bout):
    """Dodge is a Talent: Dexterity 3 alone at 6; 6, 7, 2 is 2 successes, cancelling both: a miss."""
    done = ok_json(*SWING, "--dodge", "Dexterity + Dodge", "--dice-attack", "8,9,2,2,2", "--dice-dodge", "6,7,2")
    assert (done["defence"]["difficulty"], done["hit"], done["wounds"]) == (6, False, 0)
    assert any("Dodge 0: a Talent" in n for n in done["notes"])


def test_golden_an_untrained_skill_loses_two_dice_under_the_house_rule(bout):
    """`unskilled-skill dice`: the parry is Dexterity 3 + Melee 0 - 2 = 1 die at 6."""
    run("house", "set", "unskilled-skill", "dice")
    done = ok_json(*SWING, "--parry", "Dexterity + Melee", "--dice-attack", "8,9,2,2,2", "--dice-dodge", "6")
    assert (done["defence"]["pool"], done["defence"]["difficulty"], done["net_successes"]) == (1, 6, 1)


def test_an_unrated_knowledge_in_a_pool_the_attack_builds_is_refused(bout):
    res = run(*SWING, "--soak-pool", "Stamina + Occult", "--dice-attack", "8,9,2,2,2")
    assert res.exit_code == 1, res.output
    assert "Occult is a Knowledge" in res.output and "Traceback" not in res.output
    assert ok_json("log")["rolls"] == []  # nothing rolled


def test_golden_an_attack_with_melee_0_and_its_odds_agree(bout):
    """Tooth attacks with Dexterity 3 + Melee 0: 3 dice at 7. `odds attack --char` gives the same pool and
    difficulty; Cy's parry is at 7 there too."""
    done = ok_json(*SWING[:4], "Dexterity + Melee", *SWING[5:], "--dice-attack", "7,6,2", "--dice-damage", "2,2")
    assert (done["attack"]["pool"], done["attack"]["difficulty"], done["attack"]["result"]) == (3, 7, 1)
    odds = ok_json(
        "odds", "attack", "--char", "Tooth", "--target", "Cy", "-p", "Dexterity + Melee", "--damage", "Strength",
        "--dodge", "Dexterity + Melee",
    )  # fmt: skip
    assert (odds["pool"], odds["difficulty"], odds["dodge_pool"], odds["dodge_difficulty"]) == (3, 7, 3, 7)
