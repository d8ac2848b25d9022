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
from datetime import UTC, datetime

from stkit.store.eventstream import STOP_SECONDS, EventReader, listen_for_events

__all__ = ["END", "QUEUE_LIMIT", "STOP_SECONDS", "STREAMS_PER_LINK", "Authority", "EventBus", "EventReader"]

#: How long a subscriber's queue may grow before it is dropped (a stalled client; it reconnects and replays).
QUEUE_LIMIT = 10_000


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

        def wake() -> None:
            if self._wake is not None:
                loop.call_soon_threadsafe(self._wake.set)

        listen_for_events(self.reader.url, self.reader.chronicle, self._stop, wake)
