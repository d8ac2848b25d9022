"""The store as an adapter opens it: one :class:`StoreHandle` per ``--db`` choice, passed on to every unit of
work.

Standard library and :mod:`stkit.config` only at module level: a plain `stkit roll` with no store yet makes
a handle, learns that the store does not exist, and imports no database code.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from stkit import config
from stkit.config import sqlite_path

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from stkit.store.db.gateway import Gateway

_T = TypeVar("_T")


class StoreHandle:
    """One store as an adapter opens it: the ``db`` choice (a path or URL; None: $STKIT_DATABASE_URL, else
    the default file) resolved once into :attr:`url`, and what runs a unit of work on it
    (:func:`stkit.store.db.gateway.run_at`).

    - On an up-to-date SQLite file a unit runs over sqlite3, on an up-to-date PostgreSQL store over psycopg
      (no SQLAlchemy import either way). While the handle is
      open as a context manager (a whole `stkit shell` session) it keeps one connection, opened and
      checked on first use and reused by every unit of the thread that opened the handle; otherwise (and
      on other threads) each unit opens its own and closes it.
    - Anything else (PostgreSQL, a store not created or not migrated yet) runs through the SQLAlchemy
      engine, opened (and migrated) on first use.
    - ``fast=False``: every unit through the engine (a server, whose threads share its pool).

    Raises InvalidValue for a ``db`` that is not a usable database path or URL."""

    def __init__(self, db: str | None = None, *, fast: bool = True) -> None:

        self.url = config.database_url(db)
        self.fast = fast
        self._engine: Engine | None = None
        self._conn: Any = None  # sqlite3 or psycopg
        #: the thread that opened the handle (the kept connection is its alone); None while not open
        self._owner: int | None = None

    def exists(self) -> bool:
        """False only when the store is a SQLite file not created yet (nothing is created here)."""

        path = sqlite_path(self.url)
        return path is None or path.is_file()

    def engine(self) -> Engine:
        """The SQLAlchemy engine, opened once with the schema brought to the newest revision (the SQLite
        folder and file created when missing). Raises StoreError when the store cannot be opened."""
        if self._engine is None:
            from stkit.store.db.engine import open_engine  # lazy: start-up (a plain roll does not load this)

            self._engine = open_engine(self.url)
        return self._engine

    def run(self, work: Callable[[Gateway], _T], *, readonly: bool = False, attempts: int = 8) -> _T:
        """Run ``work(gateway)`` as one transaction and return its result, retried whole when the database
        is busy (see :func:`stkit.store.db.gateway.run_at`). Raises what ``work`` raises (nothing is written
        then) and StoreError for database errors."""
        from stkit.store.db.gateway import run_at  # lazy: start-up (a plain roll does not load this)

        fast = self.fast
        if fast and self._owner is not None and self._owner == threading.get_ident():
            if self._conn is None:
                from stkit.store.db.gateway import fast_connection  # lazy: start-up (a plain roll does not load this)

                self._conn = fast_connection(self.url)
            fast = self._conn is not None  # just tried: a store not ready for sqlite3 takes the engine
        return run_at(self.url, work, readonly=readonly, attempts=attempts, conn=self._kept(), fast=fast)

    def _kept(self) -> Any:
        return self._conn if self._owner == threading.get_ident() else None

    def read(self, work: Callable[[Gateway], _T]) -> _T:
        """:meth:`run` as a read-only transaction (one snapshot; nothing written)."""
        return self.run(work, readonly=True)

    def close(self) -> None:
        """Close the kept connection (the engine stays cached for the process)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> StoreHandle:
        self._owner = threading.get_ident()
        _OPEN_HANDLES[self.url] = self
        return self

    def __exit__(self, *exc: object) -> None:
        if _OPEN_HANDLES.get(self.url) is self:
            del _OPEN_HANDLES[self.url]
        self._owner = None
        self.close()


#: The handles open in this process (as context managers), by resolved URL.
_OPEN_HANDLES: dict[str, StoreHandle] = {}


def handle_for(db: str | None) -> StoreHandle:
    """The handle on the store ``db`` (resolved once, here): the one open in this process on the same store
    (`stkit shell`'s, with its kept connection), else a new one. Raises InvalidValue for a bad ``db``."""
    handle = StoreHandle(db)
    return _OPEN_HANDLES.get(handle.url, handle)
