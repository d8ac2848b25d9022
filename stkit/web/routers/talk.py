"""Table talk and the night's log: ``POST /say`` (a short out-of-character line from any link, in the
feed of every page), ``POST /whisper`` (the Storyteller to one player), ``GET /log`` (the Storyteller's
scroll-back through the chronicle's events, filtered by character, kind and scene)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from stkit.errors import StkitError
from stkit.store.table.talk import say as say_it
from stkit.store.table.talk import whisper as whisper_it
from stkit.web.deps import Change, StorytellerChange, StorytellerHolder, TableDep
from stkit.web.forms import apply_change, character_name, form_int, form_values
from stkit.web.nightlog import log_view
from stkit.web.play import LOG_KINDS

router = APIRouter()

#: Events one page of the log shows.
LOG_PAGE = 200


@router.post("/say")
async def say(request: Request, holder: Change, table: TableDep) -> Response:

    values = await form_values(request)

    def work(gw):
        speaker = None if holder.is_storyteller else character_name(gw, table.chronicle, holder.character_id or 0)
        return say_it(gw, table.chronicle, str(values.get("text") or ""), character=speaker)

    return await asyncio.to_thread(apply_change, request, table, holder, "talk", work, lambda m: "Sent")


@router.post("/whisper")
async def whisper(request: Request, holder: StorytellerChange, table: TableDep) -> Response:

    values = await form_values(request)

    def work(gw):
        to = character_name(gw, table.chronicle, form_int(values, "character_id", "character"))
        return whisper_it(gw, table.chronicle, to, str(values.get("text") or ""))

    return await asyncio.to_thread(apply_change, request, table, holder, "talk", work, lambda m: f"Whispered to {m.to}")


@router.get("/log", response_class=HTMLResponse)
def night_log(request: Request, holder: StorytellerHolder, table: TableDep) -> Response:
    """The chronicle's events, newest first, ``LOG_PAGE`` at a time (``before``: an event id to page back
    from), filtered by ``character`` (an id), ``kind`` and ``scene`` (an id)."""

    q = request.query_params
    filters = {k: (q.get(k) or "").strip() for k in ("character", "kind", "scene", "before")}
    try:
        ctx = table.read(lambda gw: log_view(gw, table.chronicle, filters, LOG_PAGE))
    except StkitError as exc:
        return HTMLResponse(table.fragment("message.html", error=str(exc)), status_code=400)
    return table.render("log.html", chronicle=table.chronicle, filters=filters, log_kinds=LOG_KINDS, **ctx)
