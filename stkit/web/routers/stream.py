"""``GET /events``: the page's server-sent event stream (replay after Last-Event-ID or ``?after=``, then
live events), filtered by what the link may see."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response

from stkit.store.events import LinkHolder, TableEvent
from stkit.web.deps import Holder, TableDep
from stkit.web.table import Table
from stkit.web.views import feed_item

router = APIRouter()


@router.get("/events")
async def events(request: Request, holder: Holder, table: TableDep) -> Response:
    from sse_starlette.sse import EventSourceResponse

    raw = request.headers.get("last-event-id") or request.query_params.get("after") or "0"
    after = int(raw) if (raw.isascii() and raw.isdigit()) and len(raw) < 19 else 0
    return EventSourceResponse(stream(table, holder, after, request), ping=15)


async def stream(table: Table, holder: LinkHolder, after: int, request: Request):
    """The server-sent events of one page: every event after ``after`` that this link may see (a player's
    stream carries no secret event at all), each once, in id order; then live ones as they commit."""
    bus = table.bus
    assert bus is not None
    queue = bus.subscribe()
    st = holder.is_storyteller
    try:
        from sse_starlette.sse import ServerSentEvent

        yield ServerSentEvent(comment="stkit table", retry=1000)  # reconnect a second after a drop
        last = after
        while True:
            backlog = await asyncio.to_thread(bus.reader.after, last, include_secret=st)
            for event in backlog:
                if visible(event, holder):
                    yield _sse(table, event, st)
                last = event.id
            if len(backlog) < 500:
                break
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), timeout=5)
            except TimeoutError:
                if queue not in bus.subscribers or await request.is_disconnected():
                    return
                continue
            if event.id <= last:
                continue
            if visible(event, holder):
                yield _sse(table, event, st)
            last = event.id
    finally:
        bus.unsubscribe(queue)


def visible(event: TableEvent, holder: LinkHolder) -> bool:
    """Whether ``holder``'s stream carries ``event``: the Storyteller sees everything; a player never sees
    a secret event, and of sheet changes only their own character's."""
    if holder.is_storyteller:
        return True
    if event.secret:
        return False
    return event.kind != "sheet" or event.character_id == holder.character_id


def _sse(table: Table, event: TableEvent, storyteller: bool) -> dict:
    """One event as SSE: id, name (the kind) and data (a roll: its feed item's HTML; else JSON)."""
    import json

    if event.kind == "roll":
        data = table.fragment("feed_item.html", r=feed_item(event, storyteller=storyteller))
        data = " ".join(data.split())  # one line: the feed item HTML has no pre-formatted text
    else:
        data = json.dumps(event.data, ensure_ascii=False)
    return {"id": str(event.id), "event": event.kind, "data": data}
