"""A new user's findings: a mistyped or incomplete command, the house rules table, a pool typed as a sum."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice.expr import pool_sum_note
from tests.cli.tree import all_commands, is_group

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})


def test_house_reset_without_a_rule_says_what_to_give():
    result = _run("house", "reset")
    assert result.exit_code == 1
    assert result.stderr == "Error: name the house rule to reset (e.g. `stkit house reset specialty`), or give --all\n"
    both = _run("house", "reset", "specialty", "--all")
    assert both.exit_code == 1 and both.stderr == "Error: give either the house rule 'specialty' or --all, not both\n"


def test_house_show_lines_up_every_row():
    import re

    result = _run("house", "show")
    assert result.exit_code == 0
    rows = [re.fullmatch(r"(\S+ +)(\S+ +)(as written|set)", line) for line in result.stdout.splitlines()[1:]]
    assert len(rows) >= 10 and all(rows), result.stdout
    assert len({m.start(2) for m in rows}) == 1 and len({m.start(3) for m in rows}) == 1, result.stdout


@pytest.mark.parametrize(
    ("typed", "note"),
    [
        ("3-1", "'3-1' is read as 3 - 1 = 2 dice"),
        ("5 - 2 + 1", "'5 - 2 + 1' is read as 5 - 2 + 1 = 4 dice"),
        ("-3+4", "'-3+4' is read as -3 + 4 = 1 die"),
        ("3+2", None),
        ("5", None),
        ("Dexterity - 1", None),
    ],
)
def test_a_subtraction_in_a_typed_pool_is_explained(typed, note):
    assert pool_sum_note(typed) == note


def test_roll_3_minus_1_says_how_it_was_read():
    result = _run("roll", "3-1", "--seed", "1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["'3-1' is read as 3 - 1 = 2 dice", "2 dice at difficulty 6"]


GROUPS = [" ".join(p) for p, c in all_commands() if is_group(c)]


@pytest.mark.parametrize("group", GROUPS)
def test_a_group_without_a_subcommand_shows_its_help(group):
    """As `stkit char` does: the help on stdout, exit 2 (a usage slip), for every group `stkit tcg` included."""
    result = _run(*group.split())
    assert result.exit_code == 2, result.output
    assert f"Usage: stkit {group} [OPTIONS] COMMAND [ARGS]..." in " ".join(result.stdout.split())
