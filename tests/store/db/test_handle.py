"""The store handle: the --db choice resolved once, one kept sqlite3 connection while it is open, the engine
otherwise; on SQLite and (when STKIT_TEST_POSTGRES_URL is set) PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime

import pytest

import stkit.config
import stkit.store.db.gateway as gateway
from stkit.store.db.gateway import SessionGateway, SqliteGateway
from stkit.store.db.handle import StoreHandle, handle_for


def _add_rule(gw) -> None:
    gw.execute(
        "INSERT INTO house_rules (chronicle, key, value, updated_at) VALUES ('handle', 'difficulty', '7', :at)",
        at=gw.timestamp(datetime.now(UTC)),
    )


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Wrap ``module.name`` so that each call adds one to the returned counter (``[n]``)."""
    real = getattr(module, name)
    calls = [0]

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def _table_names(gw) -> list[str]:
    if gw.dialect == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'characters'"
    else:
        # this test's own schema only: parallel workers each have one in the same database
        sql = (
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_name = 'characters' AND table_schema = current_schema()"
        )
    return [r[0] for r in gw.rows(sql)]


def test_the_url_is_resolved_once_and_kept(migrated_db_url, monkeypatch, tmp_path):
    calls = _count_calls(monkeypatch, stkit.config, "database_url")
    handle = StoreHandle(None)
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "elsewhere.sqlite"))
    for _ in range(3):
        assert handle.read(_table_names) == ["characters"]
    assert handle.url == migrated_db_url
    assert calls == [1]
    assert not (tmp_path / "elsewhere.sqlite").exists()


def test_a_bad_db_is_refused_when_the_handle_is_made(tmp_path):
    from stkit.errors import InvalidValue

    with pytest.raises(InvalidValue, match=r"'garbage' .*not a database path or URL"):
        StoreHandle("garbage")


def test_units_on_every_database_run_through_the_right_gateway(migrated_db_url):
    handle = StoreHandle(migrated_db_url)
    seen: list[type] = []

    def write(gw):
        seen.append(type(gw))
        _add_rule(gw)

    handle.run(write)
    value = handle.read(lambda gw: gw.row("SELECT value FROM house_rules WHERE chronicle = 'handle'"))
    assert value == ("7",)
    expected = SqliteGateway if migrated_db_url.startswith("sqlite") else SessionGateway
    assert seen == [expected]


def test_a_failed_unit_writes_nothing(migrated_db_url):
    handle = StoreHandle(migrated_db_url)

    def write_then_fail(gw):
        _add_rule(gw)
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        handle.run(write_then_fail)
    assert handle.read(lambda gw: gw.row("SELECT COUNT(*) FROM house_rules WHERE chronicle = 'handle'")) == (0,)


def test_fast_false_always_takes_the_engine(migrated_db_url):
    handle = StoreHandle(migrated_db_url, fast=False)
    assert handle.read(lambda gw: type(gw)) is SessionGateway
    assert handle.engine() is handle.engine()  # opened once


def test_a_store_not_created_yet_exists_only_after_the_first_unit(tmp_path):
    path = tmp_path / "new.sqlite"
    handle = StoreHandle(str(path))
    assert handle.exists() is False and not path.exists()
    assert handle.read(_table_names) == ["characters"]  # the engine created and migrated it
    assert handle.exists() is True
    assert handle.read(lambda gw: type(gw)) is SqliteGateway  # and now the fast path is taken


def test_an_open_handle_keeps_one_connection_checked_once(migrated_db_url, monkeypatch):
    if not migrated_db_url.startswith("sqlite"):
        pytest.skip("the kept connection is the SQLite fast path")
    opened = _count_calls(monkeypatch, gateway, "fast_connection")
    conns: list[sqlite3.Connection] = []
    with StoreHandle(migrated_db_url) as handle:
        for _ in range(5):
            handle.run(lambda gw: conns.append(gw.conn))
        assert handle_for(None) is handle  # the same store: a command inside finds this handle
    assert opened == [1]
    assert len({id(c) for c in conns}) == 1
    with pytest.raises(sqlite3.ProgrammingError):  # closed when the handle closes
        conns[0].execute("SELECT 1")


def test_a_handle_not_open_closes_each_units_connection(migrated_db_url):
    if not migrated_db_url.startswith("sqlite"):
        pytest.skip("the SQLite fast path")
    handle = StoreHandle(migrated_db_url)
    conns = [handle.read(lambda gw: gw.conn) for _ in range(2)]
    assert conns[0] is not conns[1]
    for conn in conns:
        with pytest.raises(sqlite3.ProgrammingError):
            conn.execute("SELECT 1")
    assert handle_for(None) is not handle  # not open: never handed out


def test_another_thread_never_gets_the_kept_connection(migrated_db_url):
    """A shell's Tab completion reads the store from prompt_toolkit's thread while the handle is open."""
    if not migrated_db_url.startswith("sqlite"):
        pytest.skip("the kept connection is the SQLite fast path")
    found: dict[str, object] = {}
    with StoreHandle(migrated_db_url) as handle:
        kept = handle.read(lambda gw: gw.conn)

        def other() -> None:
            found["conn"] = handle.read(lambda gw: gw.conn)
            found["tables"] = handle.read(_table_names)

        worker = threading.Thread(target=other)
        worker.start()
        worker.join(30)
        assert handle.read(lambda gw: gw.conn) is kept
    assert found["tables"] == ["characters"]
    assert found["conn"] is not kept


def test_another_store_is_not_the_open_handle(migrated_db_url, tmp_path):
    with StoreHandle(migrated_db_url) as handle:
        other = handle_for(str(tmp_path / "other.sqlite"))
        assert other is not handle and other.url == "sqlite:///" + str(tmp_path / "other.sqlite")
    assert handle_for(None) is not handle  # closed: no longer handed out
