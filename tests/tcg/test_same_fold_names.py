"""Two cards whose names fold alike ("Disarm" from Unlimited, "Dis-Arm" from TheWyrm) stay two cards:
each name shows its own card, and neither is listed as a printing of the other.

``fixtures/plugin_same_fold.txt`` holds made-up rows in the plugin's columns with the two real rows' traits
(an action that is not an attack, and an attack with Damage); the community list holds both names."""

import json
import pathlib

from typer.testing import CliRunner

from stkit.cli.app import app

ROWS = pathlib.Path(__file__).parent / "fixtures" / "plugin_same_fold.txt"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


def _show(name: str) -> dict:
    result = runner.invoke(app, ["tcg", "cards", "show", name, "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_each_spelling_shows_its_own_card(_cards_db_in_tmp):
    assert runner.invoke(app, ["tcg", "cards", "import", str(ROWS)], env=ENV).exit_code == 0
    disarm, dis_arm = _show("Disarm"), _show("Dis-Arm")
    assert (disarm["name"], disarm["set"], disarm["damage"]) == ("Disarm", "Unlimited", None)
    assert (dis_arm["name"], dis_arm["set"], dis_arm["damage"]) == ("Dis-Arm", "TheWyrm", 3)
    assert [p["set"] for p in disarm["printings"]] == ["Unlimited"]
    assert [p["set"] for p in dis_arm["printings"]] == ["TheWyrm"]
    assert _show("disarm")["name"] == "Disarm"  # typed in lower case: still the action
