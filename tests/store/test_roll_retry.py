"""A roll whose transaction meets a lock after its dice were rolled is run again whole; the generator is
seeded inside the transaction, so the retry rolls the same dice and the logged seed replays them."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice import RollRequest, resolve_roll
from stkit.store import rolling
from stkit.store.db.gateway import run_unit

runner = CliRunner()


@pytest.fixture
def locked_once(monkeypatch):
    """The first roll-log write of the test meets 'database is locked' (the dice are rolled by then)."""
    real = rolling.write_log
    calls = []

    def write_log(gw, **kw):
        calls.append(kw["result"].dice)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        return real(gw, **kw)

    monkeypatch.setattr(rolling, "write_log", write_log)
    return calls


def _logged(url: str, log_id: int) -> tuple[list[int], int]:
    row = run_unit(url, lambda gw: gw.row("SELECT dice, detail FROM roll_log WHERE id = :id", id=log_id), readonly=True)
    assert row is not None
    return json.loads(row[0]), json.loads(row[1])["seed"]


def _replayed(seed: int, pool: int = 5) -> list[int]:
    return list(resolve_roll(RollRequest(pool, 6), rng=random.Random(seed)).dice)


@pytest.mark.parametrize("seed", [["--seed", "7"], []], ids=["seed given", "fresh seed"])
def test_a_retried_plain_roll_logs_a_seed_that_replays_it(migrated_db_url, locked_once, seed):
    out = runner.invoke(app, ["roll", "5", "--log", "--json", "--db", migrated_db_url, *seed])
    assert out.exit_code == 0, out.output
    done = json.loads(out.stdout)
    assert len(locked_once) == 2 and locked_once[0] == locked_once[1]  # the retry rolled the same dice
    dice, logged_seed = _logged(migrated_db_url, done["log_id"])
    assert dice == done["dice"] == _replayed(logged_seed)
    assert done["seed"] == logged_seed


def test_a_retried_sheet_roll_logs_a_seed_that_replays_it(migrated_db_url, locked_once):
    runner.invoke(app, ["char", "new", "Ana", "--breed", "homid", "--set", "Dexterity=3", "--set", "Brawl=2",
                        "--db", migrated_db_url])  # fmt: skip
    locked_once.clear()
    out = runner.invoke(app, ["roll", "Dexterity + Brawl", "-c", "Ana", "--json", "--db", migrated_db_url])
    assert out.exit_code == 0, out.output
    done = json.loads(out.stdout)
    assert len(locked_once) == 2 and locked_once[0] == locked_once[1]
    dice, logged_seed = _logged(migrated_db_url, done["log_id"])
    assert dice == done["dice"] == _replayed(logged_seed)
