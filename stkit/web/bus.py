"""The table server's event bus: one hub per server process follows ``table_events`` of every chronicle
it serves and hands each new event to the open streams of that chronicle.

The database is the bus (see :mod:`stkit.store.table.events`): any process that changes a chronicle writes an
event row, so a roll typed in the CLI reaches the pages as surely as one made on a phone. One task per
server process (:class:`EventHub`) reads the rows after the last id it saw OF EACH CHRONICLE (ids grow in
commit order only within a chronicle), all chronicles in one query:

- SQLite: it polls, cheaply (one indexed query), every ``interval`` seconds (default 0.05 s).
- PostgreSQL: one LISTEN connection per process on :data:`stkit.store.table.events.NOTIFY_CHANNEL`, in a
  thread; a notification (its payload: the chronicle) wakes the task, which reads that chronicle at
  once; every :data:`AUTHORITY_SECONDS` it also reads them all, in case a notification was missed.

Each chronicle's :class:`Table <stkit.web.table.Table>` sees the hub through an :class:`EventBus`, that
chronicle's view: its reader, its subscribers, its cursor.

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
import os
import threading
import time
from datetime import UTC, datetime

from stkit.store.table.events import TableEvent
from stkit.store.table.eventstream import STOP_SECONDS, ChronicleReader, EventReader, listen_for_events

__all__ = [
    "END",
    "QUEUE_LIMIT",
    "STOP_SECONDS",
    "STREAMS_PER_CHRONICLE",
    "STREAMS_PER_LINK",
    "Authority",
    "EventBus",
    "EventHub",
    "EventReader",
]

#: How long a subscriber's queue may grow before it is dropped (a stalled client; it reconnects and replays).
QUEUE_LIMIT = 10_000


#: Streams one link may hold open (a page in a few tabs or devices); a further one ends the oldest, which
#: is most likely a page that went away without closing its connection.
STREAMS_PER_LINK = 4
#: Streams one chronicle may hold open in one server process (a table of a dozen pages in a few tabs
#: each); a further one gets a 503, so one busy chronicle cannot take every connection of a shared server.
STREAMS_PER_CHRONICLE = 64
#: The most chronicles one query of the follower reads (each with its own cursor).
CHRONICLES_PER_READ = 200
#: The longest the bus trusts its list of links in force before reading it again (seconds).
AUTHORITY_SECONDS = 0.5
#: What a stream's queue receives when the stream must end (its link stopped working, or it fell
#: :data:`QUEUE_LIMIT` events behind: the client reconnects and replays from its last id).
END = object()


class Authority:
    """The links in force of the chronicles followed, as token hashes with their expiry: a stream is allowed to go
    on while its hash is here and not expired."""

    def __init__(self) -> None:
        self.links: dict[str, datetime | None] = {}
        self.read_at = 0.0  # time.monotonic() of the last read

    def allows(self, token_hash: str) -> bool:
        if token_hash not in self.links:
            return False
        expires = self.links[token_hash]
        return expires is None or datetime.now(UTC) < expires


class EventHub:
    """Fans every new event of the chronicles followed out to their subscribers (one asyncio.Queue each).
    One per server process; ``reader`` reads the store, ``interval`` is the SQLite poll (seconds)."""

    def __init__(self, reader: EventReader, *, interval: float = 0.05) -> None:
        self.reader = reader
        self.interval = interval
        self.cursors: dict[str, int] = {}  # chronicle -> the last id handed on
        self.queues: dict[str, set[asyncio.Queue]] = {}  # chronicle -> its streams' queues
        self.subscribers: set[asyncio.Queue] = set()  # every stream's queue
        self.holders: dict[asyncio.Queue, str] = {}  # a stream's queue -> its link's token hash
        self.authority = Authority()
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._notified: set[str] = set()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None

    async def start(self, chronicles: tuple[str, ...] = ()) -> None:
        """Start following ``chronicles`` (more are followed as their first page asks, :meth:`follow`)."""
        self._wake = asyncio.Event()
        await self.follow(*chronicles)
        await self.check_links()
        if self.reader.dialect == "postgresql":
            self._listener = threading.Thread(
                target=self._listen, args=(asyncio.get_running_loop(),), daemon=True, name="stkit-listen"
            )
            self._listener.start()
        self._task = asyncio.create_task(self._follow())

    async def follow(self, *chronicles: str) -> None:
        """Follow ``chronicles`` from their newest event on (those not followed yet): call it before a
        stream of the chronicle replays, so that nothing falls between the replay and the live events."""
        new = [c for c in chronicles if c not in self.cursors]
        if not new:
            return
        for start in range(0, len(new), CHRONICLES_PER_READ):
            found = await asyncio.to_thread(self.reader.last_ids, new[start : start + CHRONICLES_PER_READ])
            for chronicle, last in found.items():
                self.cursors.setdefault(chronicle, last)
                self.queues.setdefault(chronicle, set())
        if self._task is not None:
            await self.check_links()

    async def stop(self) -> None:
        """Stop following; bounded, so a server shuts down even while a read is stuck in the database."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=STOP_SECONDS)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, STOP_SECONDS)
        await asyncio.to_thread(self.reader.close)

    def bus(self, chronicle: str) -> EventBus:
        """``chronicle``'s view of the hub."""
        return EventBus(self, chronicle)

    def subscribe(self, chronicle: str, token_hash: str | None = None) -> asyncio.Queue:
        """A new stream's queue for ``chronicle``; with ``token_hash``, the queue gets :data:`END` when that
        link stops, and when the link opens more than :data:`STREAMS_PER_LINK` streams its oldest one ends."""
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self.subscribers.add(queue)
        self.queues.setdefault(chronicle, set()).add(queue)
        if token_hash is not None:
            same = [q for q, h in self.holders.items() if h == token_hash]  # oldest first
            for old in same[: max(0, len(same) + 1 - STREAMS_PER_LINK)]:
                self._end(old)
            self.holders[queue] = token_hash
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.subscribers.discard(queue)
        self.holders.pop(queue, None)
        for queues in self.queues.values():
            queues.discard(queue)

    async def check_links(self) -> None:
        """Read the links in force again and end the streams whose link stopped working. A failed read
        keeps the last list (the next tick tries again)."""
        chronicles = sorted(self.cursors)
        try:
            links: dict = {}
            for start in range(0, len(chronicles), CHRONICLES_PER_READ):
                links.update(
                    await asyncio.to_thread(self.reader.links, chronicles[start : start + CHRONICLES_PER_READ])
                )
        except Exception:
            return
        self.authority.links = links
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

    async def _read(self, chronicles: list[str]) -> list[TableEvent]:
        new: list[TableEvent] = []
        for start in range(0, len(chronicles), CHRONICLES_PER_READ):
            cursors = {c: self.cursors[c] for c in chronicles[start : start + CHRONICLES_PER_READ]}
            new += await asyncio.to_thread(self.reader.after_each, cursors)
        return new

    async def _follow(self) -> None:
        assert self._wake is not None
        pause = self.interval if self.reader.dialect != "postgresql" else AUTHORITY_SECONDS
        everything, full_at = True, 0.0
        while True:
            if everything or time.monotonic() - full_at > AUTHORITY_SECONDS:
                chronicles, full_at = sorted(self.cursors), time.monotonic()
            else:
                chronicles = sorted(self._notified & self.cursors.keys())
            self._notified.clear()
            try:
                new = await self._read(chronicles)
            except Exception:  # a database hiccup: try again at the next tick, the ids keep our place
                new = []
            if any(e.kind == "links" for e in new) or time.monotonic() - self.authority.read_at > AUTHORITY_SECONDS:
                await self.check_links()  # before any later event reaches a stream
            for event in new:
                if event.id <= self.cursors.get(event.chronicle, 0):
                    continue
                self.cursors[event.chronicle] = event.id
                for queue in list(self.queues.get(event.chronicle, ())):
                    try:
                        queue.put_nowait(event)
                    except asyncio.QueueFull:
                        self._end(queue)  # its stream ends; the client replays from its last id
            if len(new) >= 500:
                everything = True
                continue  # more waiting
            woken = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=pause)
                woken = True
            self._wake.clear()
            # woken by a notification: read the chronicles named; after a quiet pause (or on SQLite): all
            everything = not woken or self.reader.dialect != "postgresql"

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """PostgreSQL LISTEN in a thread: a NOTIFY for a chronicle followed wakes the follower at once."""

        def noted(chronicle: str) -> None:
            if chronicle in self.cursors and self._wake is not None:
                self._notified.add(chronicle)
                self._wake.set()

        def wake(chronicle: str) -> None:
            loop.call_soon_threadsafe(noted, chronicle)

        listen_for_events(listen_url(self.reader.url), self._stop, wake)


def listen_url(store_url: str) -> str:
    """Where the LISTEN connection goes: $STKIT_LISTEN_DATABASE_URL when set (PostgreSQL itself, when the
    store's URL goes through a pooler in transaction mode, which cannot carry LISTEN), else the store's."""
    return os.environ.get("STKIT_LISTEN_DATABASE_URL", "").strip() or store_url


class EventBus:
    """One chronicle's view of the :class:`EventHub`: what its streams use (``reader``, ``subscribers``,
    ``last_id``, ``authority``, :meth:`subscribe`, :meth:`check_links`)."""

    def __init__(self, hub: EventHub, chronicle: str) -> None:
        self.hub = hub
        self.chronicle = chronicle
        self.reader: ChronicleReader = hub.reader.of(chronicle)
        self.authority = hub.authority

    @property
    def subscribers(self) -> set[asyncio.Queue]:
        """The chronicle's streams' queues."""
        return self.hub.queues.setdefault(self.chronicle, set())

    @property
    def last_id(self) -> int:
        """The last id of the chronicle the hub handed on."""
        return self.hub.cursors.get(self.chronicle, 0)

    def refusal(self, most: int) -> str | None:
        """Why a new stream is refused (the server holds ``most`` streams, or the chronicle
        :data:`STREAMS_PER_CHRONICLE`), or None."""
        if len(self.hub.subscribers) >= most:
            return f"stream limit of the server ({most}) reached"
        if len(self.subscribers) >= STREAMS_PER_CHRONICLE:
            return f"stream limit of chronicle {self.chronicle!r} ({STREAMS_PER_CHRONICLE}) reached"
        return None

    def subscribe(self, token_hash: str | None = None) -> asyncio.Queue:
        return self.hub.subscribe(self.chronicle, token_hash)

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self.hub.unsubscribe(queue)

    async def check_links(self) -> None:
        await self.hub.check_links()
