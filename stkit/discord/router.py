"""``POST /discord/interactions`` for the table server, and the feed follower it runs.

The request's signature is checked over the raw body before anything of it is parsed; a missing, bad or
stale one is a 401 (developers/interactions/overview.mdx, "Validating Security Request Headers"). Discord
waits 3 seconds for the first answer (developers/interactions/receiving-and-responding.mdx, "Responding to
an Interaction"): work still running after :data:`DEFER_AFTER` seconds is answered with type 5
(DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, ephemeral when the reply will be), and its reply replaces the
loading message by ``PATCH /webhooks/{application.id}/{interaction.token}/messages/@original`` ("Edit
Original Interaction Response") once it is done.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from stkit.discord.commands import api_base
from stkit.discord.interactions import UserLimiter, answer, wants_ephemeral
from stkit.discord.signature import verify
from stkit.discord.webhook import USER_AGENT, Follower
from stkit.store.discord_feed import discord_settings

if TYPE_CHECKING:
    from stkit.store.db.handle import StoreHandle

log = logging.getLogger("stkit.discord")

#: Seconds a read public key is used before it is read from the store again.
KEY_SECONDS = 5.0
#: Seconds of work before the answer is deferred (Discord's limit is 3).
DEFER_AFTER = 2.0
#: Seconds between the server's follower's looks at the event log (the table pages' SQLite poll is 0.05 s).
FOLLOWER_POLL = 0.05


def interactions_router(store: StoreHandle, chronicle: str) -> APIRouter:
    """The router of ``POST /discord/interactions`` for the table of ``chronicle`` in ``store``."""
    router = APIRouter()
    limiter = UserLimiter()
    pending: set[asyncio.Task] = set()

    def public_key() -> str | None:
        return store.read(lambda gw: discord_settings(gw, chronicle)).public_key

    @router.post("/discord/interactions")
    async def interactions(request: Request) -> Response:
        body = await request.body()
        key = await run_in_threadpool(public_key)
        signature = request.headers.get("x-signature-ed25519", "")
        stamp = request.headers.get("x-signature-timestamp", "")
        if key is None or not verify(key, signature, stamp, body):
            return PlainTextResponse("invalid request signature\n", status_code=401)
        try:
            payload = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return PlainTextResponse("the body is not JSON\n", status_code=400)
        if not isinstance(payload, dict):
            return PlainTextResponse("the body is not a JSON object\n", status_code=400)
        # anyio's worker threads (40), as the server's other routes use, not asyncio's small default pool
        work = asyncio.ensure_future(run_in_threadpool(answer, store, payload, chronicle=chronicle, limiter=limiter))
        try:
            reply = await asyncio.wait_for(asyncio.shield(work), DEFER_AFTER)
        except TimeoutError:
            task = asyncio.ensure_future(_follow_up(work, payload))
            pending.add(task)
            task.add_done_callback(pending.discard)
            deferred: dict = {"type": 5}
            if wants_ephemeral(payload):
                deferred["data"] = {"flags": 64}
            return JSONResponse(deferred)
        return JSONResponse(reply)

    return router


async def _follow_up(work: asyncio.Future, payload: dict) -> None:
    """When ``work`` is done, put its reply in place of the deferred answer's loading message."""

    reply = await work
    data = dict(reply.get("data") or {})
    data.pop("flags", None)  # the deferral fixed whether it is ephemeral
    app_id, token = str(payload.get("application_id") or ""), str(payload.get("token") or "")
    if not (app_id.isdigit() and token and len(token) < 500 and token.isascii()):
        return
    url = f"{api_base().rstrip('/')}/webhooks/{app_id}/{token}/messages/@original"
    try:
        async with httpx.AsyncClient(timeout=10.0, headers={"User-Agent": USER_AGENT}) as client:
            response = await client.patch(url, json=data)
        if response.status_code >= 300:
            log.warning("a deferred Discord reply was refused: HTTP %d", response.status_code)
    except httpx.HTTPError as exc:
        log.warning("a deferred Discord reply could not be sent (%s)", type(exc).__name__)


def start_follower(store: StoreHandle, chronicle: str) -> Follower:
    """The feed follower of ``chronicle``, started in its own thread (it idles while no webhook is set)."""

    return Follower(store, chronicle, poll=FOLLOWER_POLL).start()
