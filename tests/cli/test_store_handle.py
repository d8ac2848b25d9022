"""A command opens the store once: the --db / $STKIT_DATABASE_URL choice is resolved once per command, and
`stkit shell` keeps one connection for its whole session (no connection or schema check per command)."""

from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

import stkit.config
import stkit.store.db.gateway as gateway
from stkit.cli import shell
from stkit.cli.app import app
from tests.store.db.test_handle import _count_calls

runner = CliRunner()


def _ok(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, (args, done.output, done.exception)
    return done.output


@pytest.fixture
def bench(migrated_db_url: str) -> str:
    _ok("char", "new", "Bench", "--breed", "homid", "--set", "Dexterity=3", "--set", "Brawl=2")
    return migrated_db_url


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "dex+brawl", "-c", "Bench", "--seed", "1"],
        ["house", "set", "difficulty", "8"],
        ["house", "show"],
        ["roll", "5", "--seed", "1"],
        ["multi", "5", "4", "--seed", "1"],
        ["odds", "5"],
        ["char", "show", "Bench"],
    ],
    ids=" ".join,
)
def test_one_command_resolves_the_store_once(bench, monkeypatch, argv):
    calls = _count_calls(monkeypatch, stkit.config, "database_url")
    _ok(*argv)
    assert calls == [1]


def test_a_given_db_is_resolved_once_too(bench, monkeypatch):
    if not bench.startswith("sqlite:///"):
        pytest.skip("--db as a file path")
    calls = _count_calls(monkeypatch, stkit.config, "database_url")
    data = json.loads(_ok("roll", "dex+brawl", "-c", "Bench", "--seed", "1", "--db", bench[10:], "--json"))
    assert calls == [1] and data["pool"] == 5


def test_a_sheet_roll_opens_one_connection(bench, monkeypatch):
    if not bench.startswith("sqlite"):
        pytest.skip("the SQLite fast path")
    opened = _count_calls(monkeypatch, gateway, "fast_connection")
    _ok("roll", "dex+brawl", "-c", "Bench", "--seed", "1")
    assert opened == [1]


def test_the_shell_keeps_one_connection_for_every_logged_roll(bench, monkeypatch, capsys):
    if not bench.startswith("sqlite"):
        pytest.skip("the kept connection is the SQLite fast path")
    opened = _count_calls(monkeypatch, gateway, "fast_connection")
    resolved = _count_calls(monkeypatch, stkit.config, "database_url")
    lines = "".join(f"roll dex+brawl -c Bench --seed {k} --json\n" for k in range(6))
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    shell.shell(None)
    out = capsys.readouterr().out
    assert opened == [1]  # one connect and one schema check for the session
    assert resolved == [1 + 6]  # the shell's handle, then each command finds it by its URL
    decoder, rolls, text = json.JSONDecoder(), [], out.strip()
    while text:
        obj, end = decoder.raw_decode(text)
        rolls.append(obj)
        text = text[end:].strip()
    assert [r["seed"] for r in rolls] == list(range(6))
    assert [r["log_id"] for r in rolls] == list(range(1, 7))
