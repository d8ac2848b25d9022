"""A small SQL gateway, so that every store use case (characters, rolls, scenes, tracked actions) is written once.

They are written as SQL text with ``:named`` parameters (the style both the standard library's sqlite3 and
SQLAlchemy's ``text()`` accept) and run through one of two gateways:

- :class:`SqliteGateway`, over a stdlib ``sqlite3`` connection: used by :func:`run_at` when the store is
  a SQLite file already at the newest schema revision. It does not import SQLAlchemy, whose import alone
  costs more than twice the start-up of ``stkit --version``.
- :class:`PgGateway`, over a psycopg connection: a PostgreSQL store at the newest revision, for the same
  reason (see :mod:`stkit.store.db.pgfast`).
- :class:`SessionGateway`, over a SQLAlchemy/sqlmodel Session: the server, new or old databases (which
  need alembic first); :func:`gateway_transaction` and :func:`run_gateway` hand one out over an
  engine (the table server, tests).

Rows the use cases edit are locked: on SQLite the whole transaction holds the write lock (``BEGIN
IMMEDIATE``); on PostgreSQL the statement carries :attr:`Gateway.lock` (``FOR UPDATE``).

An adapter opens the store once as a :class:`stkit.store.db.handle.StoreHandle` (the ``--db`` choice
resolved once; the kept sqlite3 connection or the engine) and runs every unit of work through it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from stkit import config
from stkit.config import sqlite_path
from stkit.errors import StoreError
from stkit.store.db import pgfast
from stkit.store.db.engine import (
    SQLITE_BUSY_TIMEOUT_MS,
    head_revisions,
    needs_careful_open,
    open_engine,
    run_transaction,
    transaction,
    with_retries,
)

_T = TypeVar("_T")


class DuplicateRow(StoreError):
    """An INSERT broke a unique key (the caller turns it into the rule's own refusal)."""


class Gateway:
    """SQL text with ``:named`` parameters in, plain tuples out. ``dialect`` is 'sqlite' or 'postgresql'."""

    dialect = "sqlite"

    @property
    def lock(self) -> str:
        """The row-lock suffix for a SELECT of rows about to be updated ('' on SQLite, whose write
        transaction already locks the whole database)."""
        return "" if self.dialect == "sqlite" else " FOR UPDATE"

    def timestamp(self, value: datetime) -> object:
        """A timezone-aware UTC datetime as a parameter, stored exactly as the ORM stores it (SQLite: the
        text 'YYYY-MM-DD HH:MM:SS.ffffff' that SQLAlchemy's DateTime writes; PostgreSQL: timestamptz)."""
        if self.dialect == "sqlite":
            return value.strftime("%Y-%m-%d %H:%M:%S.%f")
        return value

    def rows(self, sql: str, **params: Any) -> list[tuple]:  # pragma: no cover - interface
        raise NotImplementedError

    def row(self, sql: str, **params: Any) -> tuple | None:
        """The first row, or None."""
        found = self.rows(sql, **params)
        return tuple(found[0]) if found else None

    def execute(self, sql: str, **params: Any) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def insert(self, sql: str, **params: Any) -> int:
        """Run an INSERT (without RETURNING) and return the new row's id; DuplicateRow on a unique key."""
        found = self.rows(sql + " RETURNING id", **params)
        return int(found[0][0])

    def changed(self, table: str, row_id: int) -> None:
        """Tell the gateway a row was updated behind any object cache (the Session's identity map)."""


def iso_utc(value: object) -> str:
    """A stored timestamp as ISO 8601 with its UTC offset ('2026-11-30T10:05:00.123456+00:00'): a datetime
    (PostgreSQL, the ORM) or the text SQLite keeps (the reverse of :meth:`Gateway.timestamp`)."""
    if hasattr(value, "isoformat"):
        if getattr(value, "tzinfo", None) is None:
            return value.isoformat() + "+00:00"
        return value.isoformat()
    text = str(value).replace(" ", "T")
    return text if ("+" in text[10:] or text.endswith("Z")) else text + "+00:00"


def _is_unique_violation(exc: BaseException) -> bool:
    orig = getattr(exc, "orig", exc)
    state = getattr(orig, "sqlstate", None) or getattr(getattr(orig, "diag", None), "sqlstate", None)
    return state == "23505" or "unique constraint failed" in str(orig).lower()


class SqliteGateway(Gateway):
    """Over a stdlib sqlite3 connection (in autocommit mode; :func:`run_unit` issues BEGIN/COMMIT)."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def rows(self, sql: str, **params: Any) -> list[tuple]:
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.IntegrityError as exc:
            if _is_unique_violation(exc):
                raise DuplicateRow(str(exc)) from exc
            raise

    def execute(self, sql: str, **params: Any) -> None:
        self.rows(sql, **params)


class SessionGateway(Gateway):
    """Over a SQLAlchemy/sqlmodel Session, inside the caller's transaction. Pending ORM changes are flushed
    before each statement, and ORM objects of rows updated through the gateway are refreshed."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.dialect = session.get_bind().dialect.name

    def _run(self, sql: str, params: dict) -> Any:
        from sqlalchemy import text  # lazy: start-up (heavy library, loaded when needed)
        from sqlalchemy.exc import IntegrityError  # lazy: start-up (heavy library, loaded when needed)

        self.session.flush()
        try:
            return self.session.connection().execute(text(sql), params)
        except IntegrityError as exc:
            if _is_unique_violation(exc):
                raise DuplicateRow(str(exc.orig)) from exc
            raise

    def rows(self, sql: str, **params: Any) -> list[tuple]:
        return [tuple(r) for r in self._run(sql, params)]

    def execute(self, sql: str, **params: Any) -> None:
        self._run(sql, params)

    def changed(self, table: str, row_id: int) -> None:
        for obj in list(self.session.identity_map.values()):
            if getattr(obj, "__tablename__", None) == table and getattr(obj, "id", None) == row_id:
                self.session.refresh(obj)


class PgGateway(Gateway):
    """Over a psycopg connection (:mod:`stkit.store.db.pgfast`, autocommit mode; :func:`pg_once` issues
    BEGIN/COMMIT). A unique-key violation raises DuplicateRow; :meth:`before_commit` holds work (the
    table events) to the end of the transaction."""

    dialect = "postgresql"

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._held: dict[str, tuple[list, Callable[[Any, list], None]]] = {}
        self._named = pgfast.takes_named(conn)

    def rows(self, sql: str, **params: Any) -> list[tuple]:
        try:
            cur = self.conn.execute(sql if self._named else pgfast.driver_sql(sql), params, prepare=False)
        except Exception as exc:
            if _is_unique_violation(exc):
                raise DuplicateRow(str(exc)) from exc
            raise
        return [tuple(r) for r in cur.fetchall()] if cur.description else []

    def before_commit(self, key: str, item: Any, write: Callable[[Any, list], None]) -> None:
        """Hold ``item`` under ``key``; just before the commit ``write(gateway, items)`` runs once per key."""
        self._held.setdefault(key, ([], write))[0].append(item)

    def flush_held(self) -> None:
        held, self._held = self._held, {}
        for items, write in held.values():
            write(self, items)

    def execute(self, sql: str, **params: Any) -> None:
        self.rows(sql, **params)


if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlalchemy.orm import Session


@contextmanager
def gateway_transaction(engine: Engine, *, readonly: bool = False) -> Iterator[SessionGateway]:
    """:func:`stkit.store.db.transaction` (one committed-or-rolled-back transaction on ``engine``), handed
    out as the :class:`SessionGateway` the use cases take; its ``session`` is the Session itself."""

    with transaction(engine, readonly=readonly) as session:
        yield SessionGateway(session)


def run_gateway(engine: Engine, work: Callable[[Gateway], _T], *, attempts: int = 8, readonly: bool = False) -> _T:
    """``work(gateway)`` in :func:`stkit.store.db.run_transaction` on ``engine``: one transaction, run again
    whole on a lock or a serialization failure. Returns ``work``'s result; raises what ``work`` raises."""

    return run_transaction(engine, lambda session: work(SessionGateway(session)), attempts=attempts, readonly=readonly)


# ------------------------------------------------------------------------------------- the SQLite fast path


def fast_connection(url: str) -> Any | None:
    """A driver connection for a unit of work without SQLAlchemy: sqlite3 (autocommit mode, busy timeout,
    foreign keys on) when the store at ``url`` (a URL resolved by :func:`stkit.config.database_url`) is an
    existing SQLite file at the head schema revision; psycopg (:func:`stkit.store.db.pgfast.connect`) for
    a PostgreSQL store at the head revision; else None (a file not created yet, an old schema, a SQLite URL
    with options, another driver, a server that does not answer)."""

    path = sqlite_path(url)
    if path is None:
        return pgfast.connect(url, head_revisions())
    if "?" in url or not path.is_file():
        return None

    if needs_careful_open(path):  # read-only or full: the engine opens it without leaving -wal/-shm files
        return None
    try:
        conn = sqlite3.connect(str(path), timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")  # as the engine sets it (the file is in WAL mode)
        versions = {r[0] for r in conn.execute("SELECT version_num FROM alembic_version")}
    except sqlite3.Error:
        conn.close()
        return None
    if versions != head_revisions():
        conn.close()
        return None
    return conn


def _sqlite_once(conn: sqlite3.Connection, work: Callable[[Gateway], _T], readonly: bool) -> _T:
    """One transaction on ``conn``: BEGIN (IMMEDIATE for a write), ``work``, COMMIT; ROLLBACK on any error."""
    try:
        if readonly:
            conn.execute("BEGIN")
        else:
            from stkit.store.db.engine import begin_immediate  # lazy: start-up (the engine loads SQLAlchemy)

            begin_immediate(conn)  # says once on stderr when it has to wait for another process
        result = work(SqliteGateway(conn))
        conn.execute("COMMIT")
        return result
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise StoreError(f"database error: {first}") from exc
        raise


def pg_once(conn: Any, work: Callable[[Gateway], _T], readonly: bool) -> _T:
    """One transaction on ``conn``: BEGIN, ``work(PgGateway)``, the held
    events, COMMIT; ROLLBACK on any error. Driver errors become StoreError (with the driver's error as
    cause, so a serialization failure is retried by the caller)."""
    gw = PgGateway(conn)
    try:
        conn.execute("BEGIN")  # not READ ONLY: the engine path never was, and reads may lock rows
        result = work(gw)
        gw.flush_held()
        conn.execute("COMMIT")
        return result
    except BaseException as exc:
        with suppress(Exception):  # the connection may be gone: the error says so
            conn.execute("ROLLBACK")
        if type(exc).__module__.startswith(pgfast.DRIVER_MODULES):
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise StoreError(f"database error: {first}") from exc
        raise


def run_at(
    url: str,
    work: Callable[[Gateway], _T],
    *,
    readonly: bool = False,
    attempts: int = 8,
    conn: Any | None = None,
    fast: bool = True,
) -> _T:
    """Run ``work(gateway)`` as one transaction on the store at ``url`` (resolved by
    :func:`stkit.config.database_url`) and return its result: over ``conn`` when given (a connection a
    store handle keeps; left open), else over a sqlite3 connection of its own when ``fast`` and the store is
    an up-to-date SQLite file (closed after), else through the engine (opened and migrated on first use,
    cached per process) and a SessionGateway.

    sqlite3 write transactions are ``BEGIN IMMEDIATE``; a 'database is locked' or serialization failure runs
    the whole unit again, up to ``attempts`` times (:func:`stkit.store.db.with_retries`). Raises what
    ``work`` raises (nothing is written then) and StoreError for database errors."""

    if conn is not None:
        kept = conn
        once = pg_once if pgfast.is_pg_connection(kept) else _sqlite_once
        return with_retries(lambda: once(kept, work, readonly), attempts=attempts)
    own = fast_connection(url) if fast else None
    if own is not None:
        own_once = pg_once if pgfast.is_pg_connection(own) else _sqlite_once
        with closing(own):
            return with_retries(lambda: own_once(own, work, readonly), attempts=attempts)

    engine = open_engine(url)
    return run_gateway(engine, work, attempts=attempts, readonly=readonly)


def run_unit(db: str | None, work: Callable[[Gateway], _T], *, readonly: bool = False, attempts: int = 8) -> _T:
    """:func:`run_at` on the store ``db`` (a path or URL; None: $STKIT_DATABASE_URL, else the default file),
    resolved here: for scripts and tests. An adapter opens a :class:`stkit.store.db.handle.StoreHandle` once
    and runs every unit through it."""

    return run_at(config.database_url(db), work, readonly=readonly, attempts=attempts)
