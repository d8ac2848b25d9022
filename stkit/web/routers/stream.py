"""``GET /events``: the page's server-sent event stream (replay after Last-Event-ID or ``?after=``, then
live events), filtered by what the link may see."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from sse_starlette.sse import EventSourceResponse, ServerSentEvent

from stkit.store.table.events import LinkHolder, TableEvent, hash_token
from stkit.web.bus import END
from stkit.web.deps import Holder, TableDep
from stkit.web.limits import connection_limit
from stkit.web.play import talk_item
from stkit.web.table import Table
from stkit.web.views import card_html, feed_item, npc_ids

router = APIRouter()
log = logging.getLogger("stkit.web")


def max_streams() -> int:
    """The most event streams open at once: the connection limit less room for the pages and changes."""

    limit = connection_limit()
    return max(4, limit - max(16, limit // 8))


@router.get("/events")
async def events(request: Request, holder: Holder, table: TableDep) -> Response:

    bus = table.bus
    assert bus is not None
    refusal = bus.refusal(max_streams())
    if refusal is not None:
        log.warning("%s: new streams get 503", refusal)
        return PlainTextResponse("The table is full; try again in a moment.\n", status_code=503)
    raw = request.headers.get("last-event-id") or request.query_params.get("after")
    newest = await asyncio.to_thread(bus.reader.last_id)
    after = resume_point(raw, newest)
    token_hash = hash_token(table.token(request.cookies) or "")
    # just checked against the store: a link issued since the bus last read the links counts until then
    bus.authority.links.setdefault(token_hash, holder.expires_at)
    return EventSourceResponse(
        stream(table, holder, token_hash, after, request), ping=table.settings.ping, ping_message_factory=_ping
    )


def _ping():
    """The keep-alive as a named ``ping`` event (a comment line never reaches the page's script, so it
    could not tell a quiet stream from a dead one); no id, so Last-Event-ID is left as it was."""

    return ServerSentEvent(event="ping", data="")


def resume_point(raw: str | None, newest: int) -> int:
    """Where a stream starts: after the id a reconnecting client last saw (the Last-Event-ID header, else
    the page's ``?after=``), at most ``newest``. Missing or unreadable (not ASCII digits, more than 18 of
    them): ``newest``, so a garbled header replays nothing rather than the whole chronicle."""
    text = (raw or "").strip()
    if not text or len(text) > 18 or not (text.isascii() and text.isdigit()):
        return newest
    return min(int(text), newest)


async def stream(table: Table, holder: LinkHolder, token_hash: str, after: int, request: Request):
    """The server-sent events of one page: every event after ``after`` that this link may see (a player's
    stream carries no secret event but a whisper to that player, see :func:`visible`), each once, in id
    order; then live ones as they commit.

    The link is checked again before every event: a stream whose link is rotated away, revoked or expired
    ends (within :data:`stkit.web.bus.AUTHORITY_SECONDS` when no event comes) and sends nothing more."""

    bus = table.bus
    assert bus is not None
    queue = bus.subscribe(token_hash)
    st = holder.is_storyteller

    def allowed() -> bool:
        return queue in bus.subscribers and bus.authority.allows(token_hash)

    try:
        yield ServerSentEvent(comment="stkit table", retry=1000)  # reconnect a second after a drop
        last = after
        while True:
            # secret events too: a 'links' one must be seen by every stream; visible() filters the rest
            backlog = await asyncio.to_thread(bus.reader.after, last, include_secret=True)
            for event in backlog:
                if event.kind == "links" and event.id > bus.last_id:
                    await bus.check_links()  # a change the follower has not reached yet
                if not allowed():
                    return
                if visible(event, holder) and (st or not await _npc_roll(table, event)):
                    yield _sse(table, event, st)
                last = event.id
            if len(backlog) < 500:
                break
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), timeout=5)
            except TimeoutError:
                if not allowed() or await request.is_disconnected():
                    return
                continue
            if event is END or not allowed():
                return
            if event.id <= last:
                continue
            if visible(event, holder) and (st or not await _npc_roll(table, event)):
                yield _sse(table, event, st)
            last = event.id
    finally:
        bus.unsubscribe(queue)


#: Each server's NPC ids as last read: id(table) -> (time.monotonic() of the read, ids).
_NPCS: dict[int, tuple[float, set[int]]] = {}
#: How long a server trusts its list of NPCs before reading it again (seconds).
NPC_SECONDS = 1.0


async def _npc_roll(table: Table, event: TableEvent) -> bool:
    """Whether ``event`` is a roll of a character no player plays (kept from players' streams)."""
    if event.kind != "roll" or event.character_id is None:
        return False
    now = time.monotonic()
    known = _NPCS.get(id(table))
    if known is None or now - known[0] > NPC_SECONDS:
        ids = await asyncio.to_thread(table.read, lambda gw: npc_ids(gw, table.chronicle))
        known = _NPCS[id(table)] = (now, ids)
    return event.character_id in known[1]


def visible(event: TableEvent, holder: LinkHolder) -> bool:
    """Whether ``holder``'s stream carries ``event``: the Storyteller sees everything; a player never sees
    a secret event (a whisper to that player's own character excepted), and of sheet changes only their
    own character's."""
    if event.kind == "links":
        return False  # for the servers only
    if holder.is_storyteller:
        return True
    if event.kind == "whisper":
        return event.character_id is not None and event.character_id == holder.character_id
    if event.secret:
        return False
    return event.kind != "sheet" or event.character_id == holder.character_id


#: How many rendered events a server keeps for its other streams.
RENDERED_MAX = 256


def _sse(table: Table, event: TableEvent, storyteller: bool) -> dict:
    """One event as SSE, rendered once per event and kind of reader (Storyteller or player), then shared
    by every stream of this server."""
    key = (event.id, storyteller)
    done = table.rendered.get(key)
    if done is None:
        done = _render(table, event, storyteller)
        if len(table.rendered) >= RENDERED_MAX:
            table.rendered.pop(next(iter(table.rendered)))  # the oldest
        table.rendered[key] = done
    return dict(done)


def _render(table: Table, event: TableEvent, storyteller: bool) -> dict:
    """One event as SSE: id, name (the kind) and data (a roll, message or whisper: its feed item's HTML;
    else the event's JSON with its ``character_id``)."""

    if event.kind in ("roll", "message", "whisper"):
        if event.kind == "roll":
            data = table.fragment("feed_item.html", r=feed_item(event, storyteller=storyteller))
        else:
            data = table.fragment("talk_item.html", m=talk_item(event))
        data = " ".join(data.split())  # one line: the feed item HTML has no pre-formatted text
    elif event.kind in ("attack", "call"):
        card = card_html(table, event)
        shown = {k: v for k, v in event.data.items() if k != "card"}
        log_ids = (event.data.get("card") or {}).get("log_ids") or []
        data = json.dumps(
            {
                **shown,
                "character_id": event.character_id,
                "log_ids": log_ids,
                "card": " ".join(card.split()) if card else None,
            },
            ensure_ascii=False,
        )
    else:
        data = json.dumps({**event.data, "character_id": event.character_id}, ensure_ascii=False)
    return {"id": str(event.id), "event": event.kind, "data": data}
