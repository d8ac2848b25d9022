"""Reading the table events as streams: the store side of the table server's event bus
(:mod:`stkit.web.bus`).

- :class:`EventReader`: blocking reads of the events after an id, per chronicle or several chronicles at
  once with a cursor each, over one long-lived sqlite3 connection (SQLite) or the engine's pool
  (PostgreSQL); thread-safe. :class:`ChronicleReader`: one chronicle's view of it.
- :func:`listen_for_events`: PostgreSQL LISTEN on :data:`stkit.store.table.events.NOTIFY_CHANNEL`, calling back
  with the chronicle as soon as one of its writers commits.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from stkit.config import sqlite_path
from stkit.store.db.engine import SQLITE_BUSY_TIMEOUT_MS
from stkit.store.db.gateway import SessionGateway, SqliteGateway
from stkit.store.table.events import (
    NOTIFY_CHANNEL,
    TableEvent,
    events_after,
    events_after_each,
    last_event_ids,
    links_in_force_of,
)

if TYPE_CHECKING:
    from stkit.store.db.handle import StoreHandle


class EventReader:
    """Blocking reads of the table events of the store ``store`` (a :class:`StoreHandle`), any chronicle,
    over one long-lived connection (SQLite) or the engine's pool (PostgreSQL). Thread-safe: calls are
    serialized by a lock. :meth:`of` gives one chronicle's view (what a stream reads)."""

    def __init__(self, store: StoreHandle) -> None:

        self.url = store.url
        self.engine = store.engine()  # migrates the schema if needed
        self.dialect = self.engine.dialect.name
        self._lock = threading.Lock()
        self._conn: Any = None
        path = sqlite_path(self.url)
        if self.dialect == "sqlite" and path is not None:
            self._conn = sqlite3.connect(
                str(path), timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )

    def _run(self, work: Callable[[Any], Any]) -> Any:

        with self._lock:
            if self._conn is not None:
                return work(SqliteGateway(self._conn))
            from sqlmodel import Session  # lazy: start-up (heavy library, loaded when needed)

            with Session(self.engine) as session:
                return work(SessionGateway(session))

    def after(self, chronicle: str, after_id: int, *, include_secret: bool, limit: int = 500) -> list[TableEvent]:
        """``chronicle``'s events with an id above ``after_id``, oldest first (see
        :func:`stkit.store.table.events.events_after`)."""
        return self._run(lambda gw: events_after(gw, chronicle, after_id, include_secret=include_secret, limit=limit))

    def after_each(self, cursors: dict[str, int], *, limit: int = 500) -> list[TableEvent]:
        """The events of several chronicles, each after its own cursor, secret ones too (see
        :func:`stkit.store.table.events.events_after_each`)."""
        return self._run(lambda gw: events_after_each(gw, cursors, include_secret=True, limit=limit))

    def last_ids(self, chronicles: list[str]) -> dict[str, int]:
        """{chronicle: its newest event id (0: none)}."""
        return self._run(lambda gw: last_event_ids(gw, chronicles))

    def links(self, chronicles: list[str]) -> dict[str, datetime | None]:
        """The links in force of ``chronicles``: {token hash: expiry} (see
        :func:`stkit.store.table.events.links_in_force`)."""

        return self._run(lambda gw: links_in_force_of(gw, chronicles))

    def of(self, chronicle: str) -> ChronicleReader:
        return ChronicleReader(self, chronicle)

    def close(self) -> None:
        """Close the connection; when a read still holds it after STOP_SECONDS, leave it to that read."""
        if not self._lock.acquire(timeout=STOP_SECONDS):
            return
        try:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
        finally:
            self._lock.release()


class ChronicleReader:
    """One chronicle's reads through a store's :class:`EventReader` (its ``chronicle``, ``url`` and
    ``dialect``)."""

    def __init__(self, reader: EventReader, chronicle: str) -> None:
        self.reader = reader
        self.chronicle = chronicle
        self.url = reader.url
        self.dialect = reader.dialect

    def after(self, after_id: int, *, include_secret: bool, limit: int = 500) -> list[TableEvent]:
        """Events with an id above ``after_id``, oldest first (see :func:`stkit.store.table.events.events_after`)."""
        return self.reader.after(self.chronicle, after_id, include_secret=include_secret, limit=limit)

    def last_id(self) -> int:
        """The newest event id of the chronicle (0: none)."""
        return self.reader.last_ids([self.chronicle])[self.chronicle]

    def links(self) -> dict[str, datetime | None]:
        """The chronicle's links in force: {token hash: expiry}."""
        return self.reader.links([self.chronicle])


#: The longest a stopping server waits for its follower task, listener thread and reader (seconds).
STOP_SECONDS = 2.0


def listen_for_events(url: str, stop: threading.Event, wake: Callable[[str], None]) -> None:
    """PostgreSQL LISTEN on one connection until ``stop`` is set: each NOTIFY calls ``wake(chronicle)``
    (from this thread). A lost connection is retried after a second; meanwhile the caller's poll still
    runs. One per server process, whatever the number of chronicles it serves."""
    import psycopg  # lazy: start-up (heavy library, loaded when needed)
    from sqlalchemy.engine import make_url  # lazy: start-up (heavy library, loaded when needed)

    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    while not stop.is_set():
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                while not stop.is_set():
                    for note in conn.notifies(timeout=0.5):
                        wake(note.payload)
        except Exception:
            stop.wait(1.0)  # the poll still runs; try to listen again shortly
