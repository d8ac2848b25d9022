"""Every bad value of the newcomer's evening refused with one line naming the value and what is allowed (exit 1),
and --db checked by every command, also by those that never open the store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit import text as T
from stkit.cli.app import app
from tests.cli.tree import leaf_commands

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture
def store(tmp_path, monkeypatch, _migrated_sqlite_template):
    shutil.copy(_migrated_sqlite_template, tmp_path / "s.sqlite")  # a store at the newest revision
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "s.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)
    for args in (["char", "import", str(REPO / "characters" / "weston.yaml")], ["char", "new", "Guard"]):
        assert runner.invoke(app, args).exit_code == 0
    return tmp_path


def refused(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 1, (args, result.output)
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("Error: "), result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["attack", "Weston", "Guard", "-p", "5", "--damage", "3", "--dodge", "-5"], "--dodge '-5' is not a pool"),
        (["attack", "Weston", "Guard", "-p", "5", "--damage", "3", "--block", "0"], "--block '0' is not a pool"),
        (["attack", "Weston", "Guard", "-p", "-2", "--damage", "3"], "--pool '-2' is not a pool"),
        (
            ["attack", "Weston", "Guard", "-p", "5", "--damage", "3", "--dodge", "2", "--defender-actions", "-1"],
            "--defender-actions -1 is outside the allowed range 1 to 20",
        ),
        (["odds", "attack", "5", "--damage", "3", "--range", "banana"], "--range needs --char"),
        (["odds", "attack", "5", "--damage", "3", "--dodge", "-5"], "--dodge '-5' is not a pool"),
        (["saved", "add", "punch", "-5", "-c", "Weston"], "saved roll pool '-5' is not a pool; allowed: 1 to 1000"),
        (["char", "new", "Zed", "--tribe", "9" * 20], f"tribe '{'9' * 20}' is not a tribe's name; allowed"),
    ],
)
def test_bad_values_are_refused(store, args, words):
    assert words in refused(*args)


def test_a_refused_attack_stores_nothing(store):
    refused("attack", "Weston", "Guard", "-p", "5", "--damage", "3", "--dodge", "-5")
    log = runner.invoke(app, ["log", "--json"])
    assert log.exit_code == 0 and '"id"' not in log.stdout


def test_an_unknown_garou_tribe_is_kept_with_a_warning(store):
    result = runner.invoke(app, ["char", "new", "Zed", "--tribe", "Ronin"])
    assert result.exit_code == 0
    assert "tribe 'Ronin' is not one of the book's Garou tribes" in result.stdout


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("", "--db is empty"),
        ("/dev/zero", "database /dev/zero: is a device"),
        ("./", "is a folder"),
        ("garbage", "not a database path or URL"),
    ],
)
@pytest.mark.parametrize(
    "args", [["roll", "3"], ["teamwork", "3", "3"], ["odds", "roll", "5"], ["resisted", "3", "3"], ["multi", "3", "3"]]
)
def test_db_is_checked_by_commands_that_do_not_open_the_store(store, args, db, words):
    assert words in refused(*args, "--db", db)


def test_every_command_with_db_checks_it():
    """The check sits on the --db parameter of every command (so a new command gets it too)."""
    from stkit.cli.app import check_typed_db

    with_db = [(p, q) for p, c in leaf_commands() for q in c.params if q.name == "db"]
    assert len(with_db) > 40
    unchecked = [" ".join(p) for p, q in with_db if getattr(q.type, "_stkit_check", None) is not check_typed_db]
    assert unchecked == []


def test_the_control_scan_agrees_with_the_per_character_rule():
    for code in range(0x10000):
        ch = chr(code)
        for multiline in (True, False):
            assert T._has_control("ab" + ch, multiline) == T._is_control(ch, multiline), (hex(code), multiline)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["odds", "resisted", "1000", "1000", "-d", "2", "--difficulty-b", "10", "--specialty", "reroll"],
            "1000 against 1000 dice with --specialty reroll is too large for exact resisted odds; allowed: pools "
            "whose product is at most 30,000",
        ),
        (["odds", "resisted", "1000", "1000", "--exact"], "--exact with a pool of 1000 dice"),
        (["odds", "resisted", "600", "500"], "600 against 500 dice is too large"),
        (["odds", "roll", "301", "--exact"], "allowed: --exact up to 300 dice, or --json"),
        (["odds", "multi", "400", "3", "--exact"], "--exact with a pool of 400 dice"),
        (["odds", "attack", "100", "--damage", "41", "--specialty", "double"], "at most 140 dice"),
    ],
)
def test_exact_odds_beyond_the_bounds_are_refused_at_once(store, args, words):
    assert words in refused(*args)


def test_exact_odds_within_the_bounds_are_answered(store):
    for args in (["odds", "roll", "300", "--exact"], ["odds", "resisted", "500", "500", "--json"]):
        assert runner.invoke(app, args).exit_code == 0, args
