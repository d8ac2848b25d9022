"""The PostgreSQL fast path: a unit of work over one libpq (or psycopg) connection, without SQLAlchemy.

What a one-shot command costs on PostgreSQL beyond the work itself was, measured on loopback: importing
SQLAlchemy and sqlmodel (about half a second), building the engine, and the migration check through
SQLAlchemy's inspector. psycopg alone connects in about 10 ms, but its import costs about 70 ms, so the
connection is libpq's own through :mod:`stkit.store.db.libpq` (psycopg when libpq cannot be loaded, or
when $STKIT_PG_DRIVER is ``psycopg``). So, as on SQLite (see
:func:`stkit.store.db.gateway.fast_connection`), a store already at the head revision is used over the
driver directly: :func:`connect` opens it and checks ``alembic_version`` with one query; anything else (an
old or empty schema, another driver, an unreachable server) returns None and the caller takes the engine,
which migrates or says what is wrong.

The use cases' SQL is written with ``:named`` parameters; :func:`driver_sql` turns them into psycopg's
``%(named)s`` (the pattern SQLAlchemy's ``text()`` uses: a name after one colon, not after ``::``).

The gateway over such a connection is :class:`stkit.store.db.gateway.PgGateway`; events are held back to
the end of the transaction there, as the engine's path holds them (see :mod:`stkit.store.table.events`).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any

#: The URL schemes this path takes (SQLAlchemy's psycopg 3 names); other drivers go through the engine.
SCHEMES = ("postgresql+psycopg://", "postgresql://", "postgres://")
_NAMED = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")
#: Seconds to wait for the server before giving the engine's path the chance to say what is wrong.
CONNECT_SECONDS = 10


@lru_cache(maxsize=512)
def driver_sql(sql: str) -> str:
    """``sql`` with ``:name`` parameters as psycopg's ``%(name)s`` (a literal ``%`` doubled)."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%"))


def conninfo(url: str) -> str | None:
    """The libpq URI of a SQLAlchemy PostgreSQL URL (its driver name dropped), None for another scheme."""
    for scheme in SCHEMES:
        if url.startswith(scheme):
            return "postgresql://" + url[len(scheme) :]
    return None


def connect(url: str, heads: set[str]) -> Any | None:
    """A psycopg connection (autocommit: :func:`pg_once` issues BEGIN and COMMIT) to the store at ``url``
    when it is a psycopg PostgreSQL URL whose schema is at ``heads``; else None."""
    info = conninfo(url)
    if info is None:
        return None
    conn: Any = None
    if os.environ.get("STKIT_PG_DRIVER", "").strip().lower() != "psycopg":
        from stkit.store.db import libpq  # lazy: start-up (ctypes, loaded only for a PostgreSQL store)

        conn = libpq.connect(info, timeout=CONNECT_SECONDS)
    if conn is None:
        try:
            import psycopg  # lazy: start-up (the driver is loaded only for a PostgreSQL store)
        except ImportError:
            return None
        try:
            conn = psycopg.connect(info, autocommit=True, connect_timeout=CONNECT_SECONDS)
        except Exception:
            return None
    try:
        versions = {r[0] for r in conn.execute("SELECT version_num FROM alembic_version").fetchall()}
    except Exception:
        conn.close()
        return None
    if versions != heads:
        conn.close()
        return None
    return conn


#: The modules of the PostgreSQL connections :func:`connect` makes, and of their errors.
DRIVER_MODULES = ("psycopg", "stkit.store.db.libpq")


def is_pg_connection(conn: object) -> bool:
    """True for a connection :func:`connect` made (libpq's or psycopg's), False for sqlite3's."""
    return type(conn).__module__.startswith(DRIVER_MODULES)


def takes_named(conn: object) -> bool:
    """Whether ``conn`` takes the use cases' ``:named`` SQL as it is (libpq's; psycopg's wants
    :func:`driver_sql`)."""
    return type(conn).__module__ == "stkit.store.db.libpq"
