"""The libpq fast path (:mod:`stkit.store.db.libpq`) against psycopg, the driver it stands in for: the same
values go in and come out, errors carry the server's SQLSTATE, a roll on PostgreSQL loads no psycopg."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from stkit.store.db import libpq, pgfast

VALUES = [
    None,
    True,
    False,
    0,
    -7,
    40_000,
    2**40,
    -(2**62),
    2**70,
    1.5,
    -0.25,
    Decimal("3.14159"),
    "plain",
    "é ∑ 'quoted' % :colon \\ back",
    "",
    datetime(2026, 12, 4, 14, 5, 1, 500_000, tzinfo=UTC),
    datetime(2026, 12, 4, 14, 5, 1, tzinfo=timezone(timedelta(hours=5, minutes=30))),
    datetime(2026, 12, 4, 14, 5, 1),
    date(2026, 12, 4),
    b"\x00\xffbytes",
]
QUERIES = [
    "SELECT CAST('{\"a\": [1, 2.5, null]}' AS json), CAST('{\"b\": true}' AS jsonb)",
    "SELECT COUNT(*), SUM(x), AVG(x), MAX(x), BOOL_OR(x > 1) FROM (VALUES (1), (2), (3)) AS t(x)",
    "SELECT now() - now() = interval '0', CAST('2026-12-04 10:00:00+02' AS timestamptz), CAST(NULL AS text)",
    "SELECT 1 WHERE false",
    "SELECT pg_notify('stkit_test_channel', 'x')",
]


def _pg_only(db_url: str) -> str:
    if not db_url.startswith("postgresql"):
        pytest.skip("a PostgreSQL test")
    if libpq.load() is None:
        pytest.skip("libpq cannot be loaded here")
    return pgfast.conninfo(db_url) or ""


def _outcome(conn, sql: str, value: object) -> list[tuple] | str:
    """The rows of ``sql`` with ``:v`` (``%(v)s``) set to ``value``, or the error's SQLSTATE."""
    try:
        return [tuple(r) for r in conn.execute(sql, {"v": value}).fetchall()]
    except Exception as exc:
        return str(getattr(exc, "sqlstate", None) or type(exc).__name__)


def test_values_and_queries_come_back_as_psycopg_gives_them(db_url):
    import psycopg

    info = _pg_only(db_url)
    mine = libpq.connect(info, timeout=10)
    assert mine is not None
    with psycopg.connect(info, autocommit=True) as theirs:
        theirs.execute("SET TimeZone = 'UTC'")
        mine.execute("SET TimeZone = 'UTC'")
        for value in VALUES:
            for sql in ("SELECT :v", "SELECT :v IS NULL", "SELECT CAST(:v AS text)"):
                got, expected = _outcome(mine, sql, value), _outcome(theirs, pgfast.driver_sql(sql), value)
                assert got == expected, (sql, value)
                assert [type(v) for r in got for v in r] == [type(v) for r in expected for v in r], (sql, value)
        for sql in QUERIES:
            expected = [tuple(r) for r in theirs.execute(sql).fetchall()]
            if "pg_notify" in sql:  # void: psycopg has no loader for it and gives the text
                expected = [("",)]
            assert mine.execute(sql).fetchall() == expected, sql
    assert mine.execute("CREATE TEMPORARY TABLE t (x int)").description is None
    mine.close()
    assert mine.closed


def test_errors_carry_the_sqlstate_and_the_connection_goes_on(db_url):
    mine = libpq.connect(_pg_only(db_url), timeout=10)
    assert mine is not None
    mine.execute("CREATE TEMPORARY TABLE u (x int PRIMARY KEY)")
    mine.execute("INSERT INTO u VALUES (:x)", {"x": 1})
    with pytest.raises(libpq.PgError) as caught:
        mine.execute("INSERT INTO u VALUES (:x)", {"x": 1})
    assert caught.value.sqlstate == "23505" and "duplicate key" in str(caught.value)
    with pytest.raises(libpq.PgError) as caught:
        mine.execute("SELEKT 1")
    assert caught.value.sqlstate == "42601"
    with pytest.raises(libpq.PgError, match="cannot adapt type 'dict'"):
        mine.execute("SELECT :v", {"v": {"a": 1}})
    assert mine.execute("SELECT 2").fetchall() == [(2,)]
    mine.close()
    with pytest.raises(libpq.PgError, match="closed"):
        mine.execute("SELECT 1")


def test_an_unreachable_server_is_none():
    if libpq.load() is None:
        pytest.skip("libpq cannot be loaded here")
    assert libpq.connect("postgresql://nobody@127.0.0.1:1/none", timeout=2) is None


def test_a_roll_on_postgresql_loads_no_psycopg_and_no_sqlalchemy(db_url, tmp_path):
    _pg_only(db_url)
    env = os.environ | {"STKIT_DATABASE_URL": db_url, "HOME": str(tmp_path), "NO_COLOR": "1"}
    env.pop("STKIT_PG_DRIVER", None)
    run = [sys.executable, "-m", "stkit"]
    new = subprocess.run([*run, "char", "new", "Mari", "--set", "Dexterity=3"], env=env, capture_output=True, text=True)
    assert new.returncode == 0, new.stderr
    code = (
        "import sys, runpy; sys.argv = ['stkit', 'roll', 'Dexterity', '-c', 'Mari', '--seed', '1', '--json']\n"
        "try:\n    runpy.run_module('stkit', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'psycopg', 'sqlalchemy', 'sqlmodel'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    *printed, loaded = done.stdout.strip().splitlines()
    assert json.loads("\n".join(printed))["pool"] == 3, done.stdout + done.stderr
    assert loaded == "[]"
