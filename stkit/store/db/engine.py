"""Engines, transactions and schema migration of the stkit store.

- :func:`make_engine` builds an engine for any SQLAlchemy URL. SQLite gets WAL, a 30 s busy timeout,
  foreign keys, and ``BEGIN IMMEDIATE`` for every write transaction, so concurrent writers queue up instead
  of losing each other's updates. PostgreSQL use cases lock the rows they edit (``SELECT ... FOR UPDATE``).
- :func:`transaction` is one committed-or-rolled-back transaction around a sqlmodel Session.
- :func:`run_transaction` runs a whole unit of work and retries it when the database reports a lock or a
  serialization failure.
- :func:`open_store` resolves the URL (stkit.config), creates the SQLite folder, and brings the schema to
  the newest alembic revision (checked with one cheap query; alembic is imported only to migrate);
  :func:`open_engine` does the same for a URL already resolved (a :class:`stkit.store.db.gateway.StoreHandle`).

Nothing here connects at import time.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, unquote

from stkit import config
from stkit.config import make_private_file, make_private_folder, sqlite_path
from stkit.errors import StkitError, StoreError
from stkit.safefile import check_writable_target
from stkit.text import printable

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

    from sqlalchemy import create_engine, event  # lazy: start-up (heavy library, loaded when needed)
    from sqlalchemy.exc import (  # lazy: start-up (heavy library, loaded when needed)
        ArgumentError,
        NoSuchModuleError,
        SAWarning,
    )

    try:
        if is_sqlite(url):
            path = sqlite_path(url)
            readonly_file = False
            connect_url = url
            if path is not None:
                readonly_file, connect_url = prepare_sqlite_file(path, url)
            with warnings.catch_warnings():
                # e.g. '?mode=ro' without 'uri=true' is ignored by pysqlite: one clear line, not a warning
                warnings.simplefilter("error", SAWarning)
                try:
                    engine = create_engine(connect_url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
                except SAWarning as warned:
                    reason = str(warned).split(" (Background", 1)[0]
                    raise StoreError(f"cannot use the database URL {_safe_url(url)!r}: {reason}") from None

            @event.listens_for(engine, "connect")
            def _on_connect(dbapi_conn, _record) -> None:
                dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (see _on_begin)
                cur = dbapi_conn.cursor()
                cur.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
                cur.execute("PRAGMA foreign_keys = ON")
                if path is not None and not readonly_file:
                    cur.execute("PRAGMA journal_mode = WAL")
                    cur.execute("PRAGMA synchronous = NORMAL")
                cur.close()

            @event.listens_for(engine, "begin")
            def _on_begin(conn) -> None:
                readonly = conn.get_execution_options().get("stkit_readonly", False)
                if readonly or readonly_file:  # a write then fails with the read-only message
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
    if url in _disk_full_urls:
        _disk_full_engines.add(str(engine.url))
    _engines[url] = engine
    return engine


def prepare_sqlite_file(path: Path, url: str) -> tuple[bool, str]:
    """Check and prepare the SQLite file ``path`` before any connection: (read-only, URL to connect with).

    - the folder is created 0700 when missing (only the default location gets this far without one), and
      a new database file 0600 (stkit.config.make_private_folder / make_private_file), whatever the umask;
    - a path that is a folder, FIFO, device or socket is refused by name (SQLite would leave a stray
      ``-journal`` beside a device);
    - a ``-wal`` or ``-shm`` file that cannot be written beside a writable database (left by a read-only
      open) is named with the remedy, instead of every write failing later;
    - a database that exists but cannot be written (the file, or its folder for the -wal/-shm files) is
      opened read-only, so that reads still work; when SQLite could not keep its -wal/-shm files the file
      is opened as immutable, which creates none (no 0444 leftovers);
    - on a full disk (less than MIN_FREE_BYTES free) a store without its -shm file is opened immutable too:
      reads work, a change says "disk full".

    Raises StoreError naming the path, the cause and the remedy."""

    shown = printable(path)
    try:
        if not path.parent.exists():
            make_private_folder(path.parent)
        info = os.stat(path) if path.exists() else None
    except OSError as exc:
        raise StoreError(f"cannot create the database folder {printable(path.parent)}: {exc.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:
            check_writable_target(path)
        except StkitError as exc:
            raise StoreError(f"database {exc}; give the path of a database file, e.g. ./stkit.sqlite") from None
    if info is None:
        try:
            make_private_file(path)
        except OSError as exc:
            raise StoreError(
                f"cannot create the database {shown}: {exc.strerror}; check that its folder is writable"
            ) from None
        return False, url
    folder_writable = os.access(path.parent, os.W_OK)
    file_writable = os.access(path, os.W_OK)
    if file_writable and folder_writable and _wal_empty(path) and disk_full(path.parent):
        # SQLite could not create its -shm file, and every command, reads included, would fail with
        # "disk I/O error": read what is there, and say "disk full" for a change.
        _disk_full_urls.add(url)
        return True, f"sqlite:///file:{quote(str(path))}?mode=ro&immutable=1&uri=true"
    _disk_full_urls.discard(url)
    if file_writable and folder_writable:
        for suffix in ("-wal", "-shm"):
            side = Path(str(path) + suffix)
            if side.exists() and not os.access(side, os.W_OK):
                raise StoreError(
                    f"the database file {printable(side)} cannot be written (left by a read-only open?): make "
                    f"it writable (chmod u+w) or, when no stkit command is running, delete it"
                )
        return False, url
    sides_usable = all(
        os.access(Path(str(path) + suffix), os.R_OK | os.W_OK) if Path(str(path) + suffix).exists() else folder_writable
        for suffix in ("-wal", "-shm")
    )
    options = "mode=ro" if sides_usable else "mode=ro&immutable=1"
    return True, f"sqlite:///file:{quote(str(path))}?{options}&uri=true"


#: Free space below which a SQLite store without its -shm file is opened read-only (the -shm file needs
#: 32 KiB, a first write a few pages more).
MIN_FREE_BYTES = 64 * 1024
_disk_full_urls: set[str] = set()  # store URLs opened read-only because the disk is full
_disk_full_engines: set[str] = set()  # ... and the URLs of their engines


def disk_full(folder: Path) -> bool:
    """True when the file system holding ``folder`` has less than MIN_FREE_BYTES free for this user."""

    try:
        info = os.statvfs(folder)
    except (OSError, AttributeError):
        return False
    return info.f_bavail * info.f_frsize < MIN_FREE_BYTES


def needs_careful_open(path: Path) -> bool:
    """True when the SQLite file ``path`` must be opened through :func:`prepare_sqlite_file` (read-only or
    immutable, or refused with a remedy) rather than plainly: the file, its folder or a -wal/-shm file
    cannot be written, or the disk is full. The
    plain sqlite3 fast path checks this first, so that it never leaves 0444 -wal/-shm files behind."""

    if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return True
    for suffix in ("-wal", "-shm"):  # one left unwritable by a read-only open: named by the engine path
        side = str(path) + suffix
        if os.path.exists(side) and not os.access(side, os.W_OK):
            return True
    return _wal_empty(path) and disk_full(path.parent)


#: Size of a -shm file SQLite has finished creating (its first 32 KiB region).
_SHM_REGION = 32 * 1024


def _wal_empty(path: Path) -> bool:
    """True when the store at ``path`` has no write-ahead log content (no -wal file, or an empty one) and no
    complete -shm file: then opening it immutable reads exactly what is committed, and creates nothing."""

    def size(suffix: str) -> int:
        try:
            return os.stat(str(path) + suffix).st_size
        except OSError:
            return 0

    return size("-wal") == 0 and size("-shm") < _SHM_REGION


def sqlite_error_message(exc: BaseException, where: str) -> str | None:
    """One line naming the cause and the remedy for a SQLite error on the database ``where`` (a shown
    path or URL); None for an error without a known remedy."""
    text = str(getattr(exc, "orig", None) or exc).lower()
    if "database or disk is full" in text:
        return f"disk full: the database {where} could not be written; free some disk space and try again"
    if "readonly database" in text or "read-only" in text:
        return (
            f"the database {where} is read-only for you (the file or its folder cannot be written): reads "
            "work; to change it, make the file and its folder writable"
        )
    if "disk i/o error" in text:
        return f"disk I/O error on the database {where}: the disk may be full or failing; free some space and retry"
    if "file is not a database" in text:
        return f"{where}: file is not a database (not a SQLite file); give another --db or STKIT_DATABASE_URL"
    if "unable to open database file" in text:
        return f"cannot open the database {where}: check that the file and its folder exist and can be read"
    return None


#: After this long waiting for another process's write lock, say so once on stderr (then keep waiting).
LOCK_NOTICE_AFTER_MS = 1000
LOCK_NOTICE = "Waiting for another player's roll to finish..."
_lock_notice_shown = False


def lock_wait_notice() -> None:
    """Print LOCK_NOTICE on stderr, once per process: a write is waiting for another process's lock."""
    global _lock_notice_shown
    if not _lock_notice_shown:
        _lock_notice_shown = True
        sys.stderr.write(LOCK_NOTICE + "\n")
        sys.stderr.flush()


def begin_immediate(dbapi_conn) -> None:
    """``BEGIN IMMEDIATE`` on a stdlib sqlite3 connection: wait up to LOCK_NOTICE_AFTER_MS for the write
    lock, then print :data:`LOCK_NOTICE` once and wait the rest of the busy timeout as before."""

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
    from sqlalchemy.engine import make_url  # lazy: start-up (heavy library, loaded when needed)
    from sqlalchemy.exc import ArgumentError  # lazy: start-up (heavy library, loaded when needed)

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
    from sqlalchemy.exc import OperationalError  # lazy: start-up (heavy library, loaded when needed)
    from sqlmodel import Session  # lazy: start-up (heavy library, loaded when needed)

    bind = engine.execution_options(stkit_readonly=True) if readonly else engine
    session = Session(bind, expire_on_commit=False)
    try:
        with session.begin():
            yield session
    except OperationalError as exc:
        raise _store_error(exc, engine) from exc
    finally:
        session.close()


def _store_error(exc: Exception, engine: Engine | None = None) -> StoreError:
    if engine is not None and str(engine.url) in _disk_full_engines:
        return StoreError(
            f"disk full: the database {_shown_database(engine)} could not be written; free some disk space "
            "and try again (reads still work)"
        )
    if engine is not None:
        known = sqlite_error_message(exc, _shown_database(engine))
        if known:
            return StoreError(known)
    msg = str(getattr(exc, "orig", exc)).strip().splitlines()[0] if str(exc) else type(exc).__name__
    return StoreError(f"database error: {msg}")


def _shown_database(engine: Engine) -> str:
    """The database as a message shows it: the SQLite file, else the URL without its password."""

    url = str(engine.url)
    if url.startswith("sqlite:///file"):  # a read-only open: sqlite:///file:<quoted path>?mode=ro...
        url = "sqlite:///" + unquote(unquote(url[len("sqlite:///") :].split("?", 1)[0]))[len("file:") :]
    path = sqlite_path(url)
    if path is not None:
        return printable(path)
    return printable(_safe_url(url))


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
#: file's alembic_version with it without importing alembic; tests/store/db/test_migrations.py checks it
#: against alembic's own :func:`script_heads`, so a new migration cannot forget to move it.
HEAD_REVISION = "0015"


def head_revisions() -> set[str]:
    """The head revision ids of the migrations, as a set ({:data:`HEAD_REVISION`}); no alembic import."""
    return {HEAD_REVISION}


def _alembic_config() -> Any:
    from alembic.config import Config  # lazy: start-up (heavy library, loaded when needed)

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def script_heads() -> set[str]:
    """The head revision ids as alembic's ScriptDirectory reads them from the migration files."""
    from alembic.script import ScriptDirectory  # lazy: start-up (heavy library, loaded when needed)

    return set(ScriptDirectory.from_config(_alembic_config()).get_heads())


def current_revisions(conn: Connection) -> set[str]:
    """The revisions recorded in the database's alembic_version table (empty when there is none)."""
    from sqlalchemy import inspect, text  # lazy: start-up (heavy library, loaded when needed)

    if not inspect(conn).has_table("alembic_version"):
        return set()
    return {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))}


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the alembic migrations up to ``revision`` in one transaction, holding the write lock
    (SQLite BEGIN IMMEDIATE, PostgreSQL advisory lock) so two first opens cannot migrate twice."""
    from alembic import command  # lazy: start-up (heavy library, loaded when needed)
    from sqlalchemy import inspect  # lazy: start-up (heavy library, loaded when needed)

    cfg = _alembic_config()
    try:
        with engine.connect() as conn, conn.begin():
            if not is_sqlite(engine):
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_KEY})")
            current = current_revisions(conn)
            if revision == "head" and current == head_revisions():
                return
            if not current and inspect(conn).get_table_names():
                raise StoreError(
                    f"the database {_shown_database(engine)} has tables but no alembic_version table, so "
                    "its schema version is unknown: it is not a stkit store, or its version record was "
                    "lost; give another --db, or restore the store from a backup"
                )
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    except StoreError:
        raise
    except Exception as exc:
        if exc.__class__.__module__.startswith(("sqlalchemy", "alembic", "psycopg", "sqlite3")):
            known = sqlite_error_message(exc, _shown_database(engine))
            if known:
                raise StoreError(known) from exc
            raise StoreError(f"cannot migrate the database {_shown_database(engine)}: {_first_line(exc)}") from exc
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
            known = sqlite_error_message(exc, _shown_database(engine))
            if known:
                raise StoreError(known) from exc
            raise StoreError(f"cannot open the database {_shown_database(engine)}: {_first_line(exc)}") from exc
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

    return open_engine(config.database_url(url))


def open_engine(url: str) -> Engine:
    """:func:`open_store` of a URL already resolved by :func:`stkit.config.database_url` (not resolved
    again). Raises StoreError when the database cannot be opened or migrated."""
    engine = make_engine(url)
    ensure_schema(engine)
    return engine
