"""Engines, transactions and schema migration of the stkit store.

- :func:`make_engine` builds an engine for any SQLAlchemy URL. SQLite gets WAL, a 30 s busy timeout,
  foreign keys, and ``BEGIN IMMEDIATE`` for every write transaction, so concurrent writers queue up instead
  of losing each other's updates. PostgreSQL use cases lock the rows they edit (``SELECT ... FOR UPDATE``).
- :func:`transaction` is one committed-or-rolled-back transaction around a sqlmodel Session.
- :func:`run_transaction` runs a whole unit of work and retries it when the database reports a lock or a
  serialization failure.
- :func:`open_store` resolves the URL (stkit.config), creates the SQLite folder, and brings the schema to
  the newest alembic revision (checked with one cheap query; alembic is imported only to migrate).

Nothing here connects at import time.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from stkit.errors import StoreError

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy.engine import Connection, Engine
    from sqlmodel import Session

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_T = TypeVar("_T")
_engines: dict[str, Engine] = {}
_migrated: set[str] = set()
SQLITE_BUSY_TIMEOUT_MS = 30_000
_MIGRATION_LOCK_KEY = 0x57A7  # pg_advisory_xact_lock key for the migration step


def is_sqlite(url_or_engine: object) -> bool:
    """True for a SQLite URL or engine."""
    text = str(getattr(url_or_engine, "url", url_or_engine))
    return text.startswith("sqlite")


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url`` (cached per URL in this process).

    SQLite: WAL journal, busy timeout, foreign keys on, and write transactions opened with BEGIN IMMEDIATE.
    Raises StoreError when the URL cannot be used."""
    if url in _engines:
        return _engines[url]
    import warnings

    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SAWarning

    try:
        if is_sqlite(url):
            from stkit.config import sqlite_path

            path = sqlite_path(url)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise StoreError(f"cannot create the database folder {path.parent}: {exc.strerror}") from None
            with warnings.catch_warnings():
                # e.g. '?mode=ro' without 'uri=true' is ignored by pysqlite: one clear line, not a warning
                warnings.simplefilter("error", SAWarning)
                try:
                    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
                except SAWarning as warned:
                    reason = str(warned).split(" (Background", 1)[0]
                    raise StoreError(f"cannot use the database URL {_safe_url(url)!r}: {reason}") from None

            @event.listens_for(engine, "connect")
            def _on_connect(dbapi_conn, _record) -> None:
                dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (see _on_begin)
                cur = dbapi_conn.cursor()
                cur.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
                cur.execute("PRAGMA foreign_keys = ON")
                if path is not None:
                    cur.execute("PRAGMA journal_mode = WAL")
                    cur.execute("PRAGMA synchronous = NORMAL")
                cur.close()

            @event.listens_for(engine, "begin")
            def _on_begin(conn) -> None:
                readonly = conn.get_execution_options().get("stkit_readonly", False)
                if readonly:
                    conn.exec_driver_sql("BEGIN")
                else:
                    begin_immediate(conn.connection.dbapi_connection)
        else:
            engine = create_engine(url, pool_pre_ping=False)
    except ImportError as exc:
        if (exc.name or "").startswith("psycopg"):
            # PostgreSQL support is the optional extra; SQLite needs nothing beyond the standard library.
            raise StoreError(
                f"the database URL {_safe_url(url)!r} needs the PostgreSQL driver: pip install 'stkit[postgres]'"
            ) from None
        raise StoreError(f"cannot use the database URL {_safe_url(url)!r}: {exc}") from None
    except (ArgumentError, NoSuchModuleError, ValueError) as exc:
        raise StoreError(f"cannot use the database URL {_safe_url(url)!r}: {exc}") from None
    _engines[url] = engine
    return engine


#: After this long waiting for another process's write lock, say so once on stderr (then keep waiting).
LOCK_NOTICE_AFTER_MS = 1000
LOCK_NOTICE = "Waiting for another player's roll to finish..."
_lock_notice_shown = False


def lock_wait_notice() -> None:
    """Print LOCK_NOTICE on stderr, once per process: a write is waiting for another process's lock."""
    global _lock_notice_shown
    if not _lock_notice_shown:
        import sys

        _lock_notice_shown = True
        sys.stderr.write(LOCK_NOTICE + "\n")
        sys.stderr.flush()


def begin_immediate(dbapi_conn) -> None:
    """``BEGIN IMMEDIATE`` on a stdlib sqlite3 connection: wait up to LOCK_NOTICE_AFTER_MS for the write
    lock, then print :data:`LOCK_NOTICE` once and wait the rest of the busy timeout as before."""
    import sqlite3

    dbapi_conn.execute(f"PRAGMA busy_timeout = {LOCK_NOTICE_AFTER_MS}")
    try:
        dbapi_conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        lock_wait_notice()
        dbapi_conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS - LOCK_NOTICE_AFTER_MS}")
        dbapi_conn.execute("BEGIN IMMEDIATE")
    finally:
        dbapi_conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")


def _safe_url(url: str) -> str:
    """The URL with any password hidden (SQLAlchemy's own rendering; text it cannot parse is masked by
    hand, since it is shown in the error that says so)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def dispose_engines() -> None:
    """Close every cached engine (tests, and before forking processes)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
    _migrated.clear()


@contextmanager
def transaction(engine: Engine, *, readonly: bool = False) -> Iterator[Session]:
    """One transaction around a sqlmodel Session: committed when the block ends, rolled back on any error.

    On SQLite a write transaction starts with BEGIN IMMEDIATE (writers serialize; the busy timeout makes
    them wait). ``readonly=True`` takes no write lock. Database errors become StoreError; StkitError and
    other exceptions pass through after the rollback."""
    from sqlalchemy.exc import OperationalError
    from sqlmodel import Session

    bind = engine.execution_options(stkit_readonly=True) if readonly else engine
    session = Session(bind, expire_on_commit=False)
    try:
        with session.begin():
            yield session
    except OperationalError as exc:
        raise _store_error(exc) from exc
    finally:
        session.close()


def _store_error(exc: Exception) -> StoreError:
    msg = str(getattr(exc, "orig", exc)).strip().splitlines()[0] if str(exc) else type(exc).__name__
    return StoreError(f"database error: {msg}")


def is_retryable(exc: BaseException) -> bool:
    """True for errors worth running the whole transaction again: SQLite 'database is locked'/'busy',
    PostgreSQL serialization failures and deadlocks."""
    seen: BaseException | None = exc
    for _ in range(12):  # follow the cause/context chain a few links down
        if seen is None:
            break
        orig = getattr(seen, "orig", None)
        for e in (seen, orig):
            if e is None:
                continue
            sqlstate = getattr(e, "sqlstate", None) or getattr(getattr(e, "diag", None), "sqlstate", None)
            if sqlstate in ("40001", "40P01", "55P03"):
                return True
            text = str(e).lower()
            if "database is locked" in text or "database is busy" in text or "database table is locked" in text:
                return True
        seen = seen.__cause__ or seen.__context__
    return False


def with_retries(attempt: Callable[[], _T], *, attempts: int = 8) -> _T:
    """Call ``attempt()`` (one whole transaction); when it fails on a lock or a serialization failure
    (:func:`is_retryable`) call it again, up to ``attempts`` times with a short growing pause."""
    for n in range(1, attempts + 1):
        try:
            return attempt()
        except Exception as exc:
            if n == attempts or not is_retryable(exc):
                raise
            time.sleep(min(0.05 * n, 0.5))
    raise AssertionError("unreachable")  # pragma: no cover


def run_transaction(engine: Engine, work: Callable[[Session], _T], *, attempts: int = 8, readonly: bool = False) -> _T:
    """Run ``work(session)`` in :func:`transaction`; on a lock or serialization failure roll back and run
    the whole of it again (see :func:`with_retries`). Returns ``work``'s result."""

    def attempt() -> _T:
        with transaction(engine, readonly=readonly) as session:
            return work(session)

    return with_retries(attempt, attempts=attempts)


# ----- migrations ----------------------------------------------------------------------------------------
#: The newest migration revision (its file in migrations/versions). The sqlite3 fast path compares a
#: file's alembic_version with it without importing alembic; tests/store/test_migrations.py checks it
#: against alembic's own :func:`script_heads`, so a new migration cannot forget to move it.
HEAD_REVISION = "0005"


def head_revisions() -> set[str]:
    """The head revision ids of the migrations, as a set ({:data:`HEAD_REVISION`}); no alembic import."""
    return {HEAD_REVISION}


def _alembic_config() -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def script_heads() -> set[str]:
    """The head revision ids as alembic's ScriptDirectory reads them from the migration files."""
    from alembic.script import ScriptDirectory

    return set(ScriptDirectory.from_config(_alembic_config()).get_heads())


def current_revisions(conn: Connection) -> set[str]:
    """The revisions recorded in the database's alembic_version table (empty when there is none)."""
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table("alembic_version"):
        return set()
    return {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))}


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the alembic migrations up to ``revision`` in one transaction, holding the write lock
    (SQLite BEGIN IMMEDIATE, PostgreSQL advisory lock) so two first opens cannot migrate twice."""
    from alembic import command

    cfg = _alembic_config()
    try:
        with engine.connect() as conn, conn.begin():
            if not is_sqlite(engine):
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_KEY})")
            if revision == "head" and current_revisions(conn) == head_revisions():
                return
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    except StoreError:
        raise
    except Exception as exc:
        if exc.__class__.__module__.startswith(("sqlalchemy", "alembic", "psycopg", "sqlite3")):
            raise StoreError(f"cannot migrate the database {_safe_url(str(engine.url))}: {exc}") from exc
        raise


def ensure_schema(engine: Engine) -> None:
    """Bring the schema to head once per process; a database already at head costs one small query."""
    key = str(engine.url)
    if key in _migrated:
        return
    heads = head_revisions()
    try:
        with engine.connect() as conn:
            conn = conn.execution_options(stkit_readonly=True)
            with conn.begin():
                at_head = current_revisions(conn) == heads
    except Exception as exc:
        if exc.__class__.__module__.startswith(("sqlalchemy", "psycopg", "sqlite3")):
            raise StoreError(f"cannot open the database {_safe_url(key)}: {_first_line(exc)}") from exc
        raise
    if not at_head:
        upgrade(engine)
    _migrated.add(key)


def _first_line(exc: Exception) -> str:
    return str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]


def open_store(url: str | None = None) -> Engine:
    """The engine of the store at ``url`` (a URL or a file path; None: STKIT_DATABASE_URL, else the user's
    data folder), with the SQLite folder created and the schema at the newest revision.
    Raises StoreError when the database cannot be opened or migrated."""
    from stkit.config import database_url

    engine = make_engine(database_url(url))
    ensure_schema(engine)
    return engine
