"""The table server's event bus: one reader per server follows ``table_events`` and hands each new event to
every open stream.

The database is the bus (see :mod:`stkit.store.events`; the reads and the LISTEN are
:mod:`stkit.store.eventstream`): any process that changes the chronicle writes an event row, so a roll typed
in the CLI reaches the pages as surely as one made on a phone. One task per server reads the rows after the
last id it saw:

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

from stkit.store.eventstream import STOP_SECONDS, EventReader, listen_for_events

__all__ = ["QUEUE_LIMIT", "STOP_SECONDS", "EventBus", "EventReader"]

#: How long a subscriber's queue may grow before it is dropped (a stalled client; it reconnects and replays).
QUEUE_LIMIT = 10_000


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

        def wake() -> None:
            if self._wake is not None:
                loop.call_soon_threadsafe(self._wake.set)

        listen_for_events(self.reader.url, self.reader.chronicle, self._stop, wake)
