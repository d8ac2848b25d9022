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

The bus also keeps the links in force (:class:`Authority`): it reads them again when a 'links' event
arrives (a rotation or revocation, before any later event is handed on) and at least every
:data:`AUTHORITY_SECONDS`, and ends at once the streams whose link no longer works.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from stkit.store.events import NOTIFY_CHANNEL, TableEvent, events_after, last_event_id, links_in_force

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
#: Streams one link may hold open (a page in a few tabs or devices); a further one ends the oldest, which
#: is most likely a page that went away without closing its connection.
STREAMS_PER_LINK = 4
#: The longest the bus trusts its list of links in force before reading it again (seconds).
AUTHORITY_SECONDS = 0.5
#: What a stream's queue receives when the stream must end (its link stopped working, or it fell
#: :data:`QUEUE_LIMIT` events behind: the client reconnects and replays from its last id).
END = object()


class Authority:
    """The links in force of the chronicle, as token hashes with their expiry: a stream is allowed to go
    on while its hash is here and not expired."""

    def __init__(self) -> None:
        self.links: dict[str, datetime | None] = {}
        self.read_at = 0.0  # time.monotonic() of the last read

    def allows(self, token_hash: str) -> bool:
        if token_hash not in self.links:
            return False
        expires = self.links[token_hash]
        return expires is None or datetime.now(UTC) < expires


class EventBus:
    """Fans the chronicle's new events out to subscribers (one asyncio.Queue each)."""

    def __init__(self, reader: EventReader, *, interval: float = 0.05) -> None:
        self.reader = reader
        self.interval = interval
        self.subscribers: set[asyncio.Queue] = set()
        self.holders: dict[asyncio.Queue, str] = {}  # a stream's queue -> its link's token hash
        self.authority = Authority()
        self.last_id = 0
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None

    async def start(self) -> None:
        """Start following the event table from its newest row."""
        self.last_id = await asyncio.to_thread(self.reader.last_id)
        await self.check_links()
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

    def subscribe(self, token_hash: str | None = None) -> asyncio.Queue:
        """A new stream's queue; with ``token_hash``, the queue gets :data:`END` when that link stops, and
        when the link opens more than :data:`STREAMS_PER_LINK` streams its oldest one ends."""
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self.subscribers.add(queue)
        if token_hash is not None:
            same = [q for q, h in self.holders.items() if h == token_hash]  # oldest first
            for old in same[: max(0, len(same) + 1 - STREAMS_PER_LINK)]:
                self._end(old)
            self.holders[queue] = token_hash
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.subscribers.discard(queue)
        self.holders.pop(queue, None)

    async def check_links(self) -> None:
        """Read the links in force again and end the streams whose link stopped working. A failed read
        keeps the last list (the next tick tries again)."""
        try:
            self.authority.links = await asyncio.to_thread(self.reader.links)
        except Exception:
            return
        self.authority.read_at = time.monotonic()
        for queue, token_hash in list(self.holders.items()):
            if not self.authority.allows(token_hash):
                self._end(queue)

    def _end(self, queue: asyncio.Queue) -> None:
        self.unsubscribe(queue)
        while True:  # make room for the last word even in a full queue
            try:
                queue.put_nowait(END)
                return
            except asyncio.QueueFull:
                queue.get_nowait()

    async def _follow(self) -> None:
        assert self._wake is not None
        pause = self.interval if self.reader.dialect != "postgresql" else AUTHORITY_SECONDS
        while True:
            try:
                new = await asyncio.to_thread(self.reader.after, self.last_id, include_secret=True)
            except Exception:  # a database hiccup: try again at the next tick, the id keeps our place
                new = []
            if any(e.kind == "links" for e in new) or time.monotonic() - self.authority.read_at > AUTHORITY_SECONDS:
                await self.check_links()  # before any later event reaches a stream
            for event in new:
                self.last_id = event.id
                for queue in list(self.subscribers):
                    try:
                        queue.put_nowait(event)
                    except asyncio.QueueFull:
                        self._end(queue)  # its stream ends; the client replays from its last id
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
