"""Rules review: pool building from the sheet against Chapter Five: Rules, "Ratings", and the health and
point bounds of the character-store issue. Each test names the section it rests on."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.pools import build_pool
from stkit.sheet.sheet import HEALTH_LEVELS, Sheet


def sheet(**traits) -> Sheet:
    s = Sheet(name="Tester")
    for k, v in traits.items():
        s.set_trait(k.replace("_", " "), v)
    return s


# ----- "Ratings": a Trait rated to 10 stands alone -----------------------------------------------------------
@pytest.mark.parametrize(
    "expression", ["Rage + Brawl", "Brawl + Rage", "Gnosis + Occult", "Willpower + Wits", "Glory + Expression"]
)
def test_a_trait_rated_to_ten_takes_no_partner(expression):
    # "Ratings": a pool that uses a Trait whose rating runs to 10 may not add any other Trait. stkit counts
    # Renown (Glory, Honor, Wisdom: 0-10) among those Traits (docs/characters.md, "Readings of the rules").
    s = sheet(Rage=4, Gnosis=3, Willpower=5, Glory=2, Brawl=3, Occult=2, Wits=2, Expression=2)
    with pytest.raises(InvalidValue, match="rated to 10 and is rolled alone"):
        build_pool(s, expression)


def test_a_trait_rated_to_ten_alone_may_take_extra_dice():
    # Extra dice are not Traits, so "Rage + 2" keeps to the rule; the wound penalty still applies.
    s = sheet(Rage=4)
    assert build_pool(s, "Rage").text == "Rage 4 = 4 dice"
    assert build_pool(s, "Rage + 2").dice == 6
    s.damage(2, "bashing")  # Hurt: -1
    assert build_pool(s, "Rage + 2").text == "Rage 4 + 2 - 1 wound = 5 dice"


def test_forms_may_lift_a_pool_past_ten_dice():
    # "Ratings": a mortal can hardly roll more than 10 dice, but the forms' Attribute changes (and totems)
    # let a werewolf go beyond; stkit sets no 10-dice cap. Crinos Strength 5 + 4 = 9, plus Brawl 5.
    s = sheet(Strength=5, Brawl=5)
    s.shift("crinos")
    p = build_pool(s, "Strength + Brawl")
    assert p.dice == 14
    assert p.text == "Strength 9 (5 +4 Crinos) + Brawl 5 = 14 dice"


def test_two_attributes_are_two_traits():
    # "Ratings" limits the count of Traits, not their kind: Strength + Stamina is a legal pool.
    assert build_pool(sheet(Strength=3, Stamina=2), "Strength + Stamina").dice == 5


# ----- health levels and points (character-store issue) -----------------------------------------------------
def test_health_levels_and_penalties_table():
    assert HEALTH_LEVELS == (
        ("Bruised", 0),
        ("Hurt", -1),
        ("Injured", -1),
        ("Wounded", -2),
        ("Mauled", -2),
        ("Crippled", -5),
        ("Incapacitated", None),
    )


def test_penalty_of_the_deepest_level_whatever_the_kind():
    s = sheet(Dexterity=5, Brawl=5)
    seen = []
    for kind in ("bashing", "aggravated", "lethal", "bashing", "aggravated", "lethal"):
        s.damage(1, kind)
        seen.append((s.health_level, s.wound_penalty))
    assert seen == [("Bruised", 0), ("Hurt", 1), ("Injured", 1), ("Wounded", 2), ("Mauled", 2), ("Crippled", 5)]
    assert s.health_boxes()[:6] == ["aggravated"] * 2 + ["lethal"] * 2 + ["bashing"] * 2  # worst first
    s.damage(1, "bashing")
    with pytest.raises(RuleRefusal, match="Incapacitated and cannot act"):
        build_pool(s, "Dexterity + Brawl")


def test_willpower_and_gnosis_points_stay_within_the_rating_rage_may_exceed():
    s = sheet(Willpower=4, Gnosis=3, Rage=2)
    with pytest.raises(InvalidValue, match="allowed range 0 to 4"):
        s.set_trait("Willpower points", 5)
    with pytest.raises(InvalidValue, match="allowed range 0 to 3"):
        s.set_trait("Gnosis points", 4)
    with pytest.raises(InvalidValue):
        s.set_trait("Gnosis points", -1)
    assert s.set_trait("Rage points", 5)[2] == ["Rage points 5 exceed the Rage rating 2"]
    assert s.powers["Rage"].temporary == 5


# ----- the same through the CLI, in-process and as a real process -------------------------------------------
def _cli_env(tmp_path) -> dict:
    return {"NO_COLOR": "1", "COLUMNS": "120", "STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "r.sqlite")}


def test_cli_rage_plus_brawl_is_refused_in_process(tmp_path, monkeypatch):
    env = _cli_env(tmp_path)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    runner = CliRunner()
    made = runner.invoke(app, ["char", "new", "Red-of-Teeth", "--set", "Rage=5", "--set", "Brawl=3"], env=env)
    assert made.exit_code == 0, made.stderr
    bad = runner.invoke(app, ["roll", "Rage + Brawl", "--char", "Red-of-Teeth", "--seed", "1"], env=env)
    assert bad.exit_code == 1
    assert bad.stderr.strip() == "Error: Rage is rated to 10 and is rolled alone; no other Trait can be added"
    good = runner.invoke(app, ["roll", "Rage", "--char", "Red-of-Teeth", "--seed", "1"], env=env)
    assert good.exit_code == 0 and "Rage 5 = 5 dice" in good.stdout


@pytest.mark.slow
def test_cli_rage_plus_brawl_is_refused_as_a_subprocess(tmp_path):
    import os

    env = {**os.environ, **_cli_env(tmp_path)}
    cmd = [sys.executable, "-m", "stkit"]
    subprocess.run(
        [*cmd, "char", "new", "Red-of-Teeth", "--set", "Rage=5", "--set", "Brawl=3"],
        env=env,
        check=True,
        capture_output=True,
    )
    r = subprocess.run(
        [*cmd, "roll", "Rage + Brawl", "--char", "Red-of-Teeth"], env=env, capture_output=True, text=True
    )
    assert r.returncode == 1
    assert "rated to 10 and is rolled alone" in r.stderr and "Traceback" not in r.stderr
