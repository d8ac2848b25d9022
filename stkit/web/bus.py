"""The table server's event bus: one reader per server follows ``table_events`` and hands each new event to
every open stream.

The database is the bus (see :mod:`stkit.store.events`): any process that changes the chronicle writes an
event row, so a roll typed in the CLI reaches the pages as surely as one made on a phone. One task per
server reads the rows after the last id it saw:

- SQLite: it polls, cheaply (one indexed query by id), every ``interval`` seconds (default 0.05 s).
- PostgreSQL: it also LISTENs on :data:`stkit.store.events.NOTIFY_CHANNEL` in a thread and reads as soon
  as a writer commits, falling back to a poll every second.

A stream first subscribes, then replays what the database holds after the client's Last-Event-ID, then
forwards live events, skipping any id it already sent: nothing is lost between the two and nothing is sent
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

from stkit.store.events import NOTIFY_CHANNEL, TableEvent, events_after, last_event_id

#: How long a subscriber's queue may grow before it is dropped (a stalled client; it reconnects and replays).
QUEUE_LIMIT = 10_000


class EventReader:
    """Blocking reads of one chronicle's events, over one long-lived connection (SQLite) or the engine's
    pool (PostgreSQL). Thread-safe: calls are serialized by a lock."""

    def __init__(self, db: str | None, chronicle: str) -> None:
        from stkit.config import database_url, sqlite_path
        from stkit.store.db import open_store

        self.chronicle = chronicle
        self.url = database_url(db)
        self.engine = open_store(db)  # migrates the schema if needed
        self.dialect = self.engine.dialect.name
        self._lock = threading.Lock()
        self._conn: Any = None
        path = sqlite_path(self.url)
        if self.dialect == "sqlite" and path is not None:
            import sqlite3

            from stkit.store.db import SQLITE_BUSY_TIMEOUT_MS

            self._conn = sqlite3.connect(
                str(path), timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )

    def _run(self, work: Callable[[Any], Any]) -> Any:
        from stkit.store.gateway import SessionGateway, SqliteGateway

        with self._lock:
            if self._conn is not None:
                return work(SqliteGateway(self._conn))
            from sqlmodel import Session

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


class EventBus:
    """Fans the chronicle's new events out to subscribers (one asyncio.Queue each)."""

    def __init__(self, reader: EventReader, *, interval: float = 0.05) -> None:
        self.reader = reader
        self.interval = interval
        self.subscribers: set[asyncio.Queue] = set()
        self.last_id = 0
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None

    async def start(self) -> None:
        """Start following the event table from its newest row."""
        self.last_id = await asyncio.to_thread(self.reader.last_id)
        self._wake = asyncio.Event()
        if self.reader.dialect == "postgresql":
            self._listener = threading.Thread(
                target=self._listen, args=(asyncio.get_running_loop(),), daemon=True, name="stkit-listen"
            )
            self._listener.start()
        self._task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        """Stop following; bounded, so a server shuts down even while a read is stuck in the database."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=STOP_SECONDS)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, STOP_SECONDS)
        await asyncio.to_thread(self.reader.close)

    def subscribe(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.subscribers.discard(queue)

    async def _follow(self) -> None:
        assert self._wake is not None
        pause = self.interval if self.reader.dialect != "postgresql" else 1.0
        while True:
            try:
                new = await asyncio.to_thread(self.reader.after, self.last_id, include_secret=True)
            except Exception:  # a database hiccup: try again at the next tick, the id keeps our place
                new = []
            for event in new:
                self.last_id = event.id
                for queue in list(self.subscribers):
                    try:
                        queue.put_nowait(event)
                    except asyncio.QueueFull:
                        self.subscribers.discard(queue)  # its stream ends; the client replays from its last id
            if len(new) >= 500:
                continue  # more waiting
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=pause)
            self._wake.clear()

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """PostgreSQL LISTEN in a thread: each NOTIFY for our chronicle wakes the follower at once."""
        import psycopg
        from sqlalchemy.engine import make_url

        conninfo = make_url(self.reader.url).set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            if note.payload == self.reader.chronicle and self._wake is not None:
                                loop.call_soon_threadsafe(self._wake.set)
            except Exception:
                self._stop.wait(1.0)  # the poll still runs; try to listen again shortly
