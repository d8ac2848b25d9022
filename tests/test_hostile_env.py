"""Hostile values in every STKIT_* environment variable stkit reads (found in the source, so a new one is
covered the day it is added), under a few commands that read them: the checks of tests/hostile_cases.py
(no traceback, exit 0, 1 or 2, one error line, nothing raw on the terminal, within the time bound)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests import hostile_cases as H

runner = CliRunner()

#: Variables set by tests or CI for their own plumbing, or read only by the test PostgreSQL helpers.
NOT_SWEPT = {"STKIT_DATABASE_URL"}  # its hostile values are the --db sweep's, and the store is swept below


def _variables() -> list[str]:
    names: set[str] = set()
    for path in (H.REPO / "stkit").rglob("*.py"):
        names |= set(re.findall(r'"(STKIT_[A-Z_]+)"', path.read_text(encoding="utf-8")))
    return sorted(names - NOT_SWEPT)


VALUES = [
    ("esc-osc", "\x1b]0;owned\x07", False),
    ("c1", "\x9b2J", False),
    ("5000-digits", "9" * 5000, False),
    ("negative", "-1", False),
    ("nan", "nan", False),
    ("empty", "", False),
    ("dev-zero", "/dev/zero", False),
    ("markup", "[link=https://evil.example]x[/link]", False),
    ("100k", "x" * 100_000, False),
]

COMMANDS = [
    ("roll",),
    ("char", "list"),
    ("discord", "show"),
    ("tcg", "cards", "search"),
    ("serve",),
]


def test_the_variables_are_found():
    names = _variables()
    assert {"STKIT_CHRONICLE", "STKIT_CARDS_DB", "STKIT_TABLE_PING"} <= set(names)


@pytest.mark.parametrize("variable", _variables())
def test_every_variable_survives_hostile_values(variable, tmp_path, monkeypatch):
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # serve checks, never serves
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("STKIT_CARDS_DB", str(tmp_path / "cards.sqlite"))
    monkeypatch.chdir(tmp_path)
    args = {
        ("roll",): ("roll", "5", "--seed", "1"),
        ("char", "list"): ("char", "list"),
        ("discord", "show"): ("discord", "show"),
        ("tcg", "cards", "search"): ("tcg", "cards", "search", "rage"),
        ("serve",): ("serve", "--port", "18999"),
    }
    problems = []
    tried = 0
    for kind, value, _ in VALUES:
        monkeypatch.setenv(variable, value)
        for path in COMMANDS:
            tried += 1
            found, _ = H.run_case(runner, app, H.Case(path, args[path], variable, kind, False))
            if found:
                problems.append(f"{variable}={kind} {' '.join(path)}: {'; '.join(found)}")
    assert tried == len(VALUES) * len(COMMANDS)
    assert problems == [], "\n".join(problems)
