"""One option bundle for the per-roll scoring rules (stkit.cli.options.rule_options): every command that rolls
or gives odds under the house rules takes every option of it, docs/quick.md lists them, and a choice reaches
the roll and its exact odds alike.

Expected values are counted here by hand: 10, 10, 1 at difficulty 6 is 2 successes - 1 = 1 as written, and
2 when a 10 takes the 1 away; two dice succeed with probability 65/100 as written (both at 6 or more: 25,
one at 6+ and the other 2..5: 2*5*4 = 40), 67/100 when a 10 cancels a 1 (10,1 and 1,10 added).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice.model import scoring_keys
from tests.cli.tree import leaf_commands

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

#: The bundle's options, from the scoring rules' one definition (first spelling of each).
BUNDLE = {rule.option.split("/")[0] for _name, rule in scoring_keys().values() if rule.option}
#: An option only a command that rolls under the house rules takes (one of the older per-roll flags).
HOUSE_FLAGS = {"--specialty", "--ones-cancel", "--ones-dont-cancel"}
#: Commands the bundle must reach whatever their other options.
MUST = {
    "roll",
    "multi",
    "resisted",
    "teamwork",
    "attack",
    "char hit",
    "extended roll",
    "contest roll",
    "saved roll",
    "odds roll",
    "odds resisted",
    "odds teamwork",
    "odds multi",
    "odds attack",
}


def _opts(command) -> set[str]:
    return {o for p in command.params for o in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ()))}


def test_every_rolling_command_takes_the_whole_bundle():
    assert {"--tens", "--tens-cancel-ones", "--specialty-botch", "--willpower-rule"} == BUNDLE
    seen = set()
    for path, command in leaf_commands():
        name, opts = " ".join(path), _opts(command)
        if name in MUST or opts & HOUSE_FLAGS or opts & BUNDLE:
            seen.add(name)
            assert opts >= BUNDLE, f"{name} lacks {sorted(BUNDLE - opts)}"
    assert seen >= MUST


def test_the_quick_reference_lists_the_bundle():
    text = (REPO / "docs" / "quick.md").read_text(encoding="utf-8")
    for option in BUNDLE:
        assert f"| `{option}" in text, option


def _json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_choice_reaches_the_roll_and_its_odds(db_url):
    assert _json("roll", "3", "--dice", "10,10,1")["result"] == 1
    assert _json("roll", "3", "--dice", "10,10,1", "--tens-cancel-ones")["result"] == 2
    written = _json("odds", "roll", "2")
    chosen = _json("odds", "roll", "2", "--tens-cancel-ones")
    # no success at all: 1 - 65/100 as written, 1 - 67/100 when a 10 cancels a 1
    assert Fraction(written["distribution"][0]["exact"]) == Fraction(35, 100)
    assert Fraction(chosen["distribution"][0]["exact"]) == Fraction(33, 100)
    assert chosen["house_rules"]["tens_cancel_ones"] is True


def test_a_choice_reaches_a_saved_roll_and_teamwork(db_url):
    assert runner.invoke(app, ["char", "new", "Ana", "--set", "Dexterity=3", "--set", "Willpower=5"]).exit_code == 0
    assert runner.invoke(app, ["saved", "add", "hop", "Dexterity", "-c", "Ana"]).exit_code == 0
    plain = _json("saved", "roll", "hop", "-c", "Ana", "-w", "--seed", "1")
    three = _json("saved", "roll", "hop", "-c", "Ana", "-w", "--seed", "1", "--willpower-rule", "three-dice")
    assert (plain["roll"]["pool"], three["roll"]["pool"]) == (3, 6)  # three more dice for the point
    # 10,10,1 -> 2 - 1 = 1 as written, 2 when a 10 takes the 1 away; 10,2 -> 1
    assert _json("teamwork", "3", "2", "--dice", "10,10,1", "--dice", "10,2")["total"] == 2
    team = _json("teamwork", "3", "2", "--dice", "10,10,1", "--dice", "10,2", "--tens-cancel-ones")
    assert team["total"] == 3
