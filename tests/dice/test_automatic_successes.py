"""Automatic successes given without dice (`--successes N`, '+Ns' in a pool): 1s cancel them like rolled
successes (the reading the house-rule request asks for; BCDice's '+y' is Willpower's success instead, which
no 1 cancels: tests/dice/test_bcdice_wod.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice.expr import split_automatic


def test_the_pool_text_term():
    assert split_automatic("5 + 2s") == ("5", 2)
    assert split_automatic("Dexterity + Brawl +1S") == ("Dexterity + Brawl", 1)
    assert split_automatic("Dexterity + Brawl + 2") == ("Dexterity + Brawl + 2", 0)


def test_the_cli_counts_them_and_the_1s_cancel_them(tmp_path):
    """Faces 7, 1, 3 at 6 with 2 automatic successes: 1 + 2 - 1 = 2 (the option and the '+2s' term alike);
    faces 1, 1, 3 with 1 automatic: 0 + 1 - 2, no success, and no die reached 6 with a 1 showing: a botch."""
    runner = CliRunner()
    db = str(tmp_path / "s.sqlite")
    for args in (["roll", "3", "--successes", "2"], ["roll", "3 + 2s"]):
        out = runner.invoke(app, [*args, "--dice", "7,1,3", "--json", "--db", db])
        assert out.exit_code == 0, out.output
        got = json.loads(out.stdout)
        assert (got["result"], got["automatic_successes"]) == (2, 2)
    out = runner.invoke(app, ["roll", "3", "--successes", "1", "--dice", "1,1,3", "--json", "--db", db])
    assert json.loads(out.stdout)["outcome"] == "botch"
