"""Reading one chronicle's table events as a stream: the store side of the table server's event bus
(:mod:`stkit.web.bus`).

- :class:`EventReader`: blocking reads of the events after an id, over one long-lived sqlite3 connection
  (SQLite) or the engine's pool (PostgreSQL); thread-safe.
- :func:`listen_for_events`: PostgreSQL LISTEN on :data:`stkit.store.events.NOTIFY_CHANNEL`, calling back
  as soon as a writer of the chronicle commits.
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
from stkit.store.events import NOTIFY_CHANNEL, TableEvent, events_after, last_event_id, links_in_force

if TYPE_CHECKING:
    from stkit.store.db.handle import StoreHandle


class EventReader:
    """Blocking reads of one chronicle's events in the store ``store`` (a :class:`StoreHandle`), over one
    long-lived connection (SQLite) or the engine's pool (PostgreSQL). Thread-safe: calls are serialized
    by a lock."""

    def __init__(self, store: StoreHandle, chronicle: str) -> None:

        self.chronicle = chronicle
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

    def after(self, after_id: int, *, include_secret: bool, limit: int = 500) -> list[TableEvent]:
        """Events with an id above ``after_id``, oldest first (see :func:`stkit.store.events.events_after`)."""
        return self._run(
            lambda gw: events_after(gw, self.chronicle, after_id, include_secret=include_secret, limit=limit)
        )

    def last_id(self) -> int:
        """The newest event id of the chronicle (0: none)."""
        return self._run(lambda gw: last_event_id(gw, self.chronicle))

    def links(self) -> dict[str, datetime | None]:
        """The chronicle's links in force: {token hash: expiry} (see :func:`stkit.store.events.links_in_force`)."""
        return self._run(lambda gw: links_in_force(gw, self.chronicle))

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


#: The longest a stopping server waits for its follower task, listener thread and reader (seconds).
STOP_SECONDS = 2.0


def listen_for_events(url: str, chronicle: str, stop: threading.Event, wake: Callable[[], None]) -> None:
    """PostgreSQL LISTEN until ``stop`` is set: each NOTIFY for ``chronicle`` calls ``wake()`` (from this
    thread). A lost connection is retried after a second; meanwhile the caller's poll still runs."""
    import psycopg  # lazy: start-up (heavy library, loaded when needed)
    from sqlalchemy.engine import make_url  # lazy: start-up (heavy library, loaded when needed)

    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    while not stop.is_set():
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                while not stop.is_set():
                    for note in conn.notifies(timeout=0.5):
                        if note.payload == chronicle:
                            wake()
        except Exception:
            stop.wait(1.0)  # the poll still runs; try to listen again shortly
