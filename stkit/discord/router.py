"""``POST /discord/interactions`` (and ``/discord/APPLICATION_ID/interactions``, one per Discord
application on a server of several chronicles) for the table server, and the feed followers it runs.

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
from stkit.discord.interactions import PING, SeenIds, UserLimiter, answer, shape_problem, wants_ephemeral
from stkit.discord.signature import verify
from stkit.discord.webhook import USER_AGENT, Follower, Looping
from stkit.store.table.discord_feed import Reach, application_keys, chronicles_with_webhooks, discord_settings

if TYPE_CHECKING:
    from stkit.store.db.handle import StoreHandle

log = logging.getLogger("stkit.discord")

#: Seconds a read public key is used before it is read from the store again.
KEY_SECONDS = 5.0
#: Seconds of work before the answer is deferred (Discord's limit is 3).
DEFER_AFTER = 2.0
#: Seconds the whole PATCH of a deferred reply may take.
PATCH_TIMEOUT = 10.0
#: Seconds between the server's follower's looks at the event log (the table pages' SQLite poll is 0.05 s).
FOLLOWER_POLL = 0.05
#: Seconds between a server of several chronicles' looks for chronicles with a webhook set.
SCAN_SECONDS = 2.0


def interactions_router(store: StoreHandle, chronicle: str, served: tuple[str, ...] | None = ()) -> APIRouter:
    """The interactions routes of the table of ``chronicle`` in ``store``; ``served``: the chronicles the
    server serves (None: every chronicle of the store; empty: ``chronicle`` alone).

    - ``POST /discord/interactions``: checked with ``chronicle``'s public key; acts on it, or on the
      chronicle a channel is bound to.
    - ``POST /discord/APPLICATION_ID/interactions``: checked with the public key of the chronicles (among
      those served) whose application-id is APPLICATION_ID, so each chronicle's Discord application has
      its own endpoint on a server of several chronicles; acts on that chronicle, or on the bound one.

    Either way the signature is checked before anything of the body is read (a 401 otherwise), and when
    the server serves several chronicles an interaction acts only on a chronicle whose own public key is
    the one that checked it (:class:`stkit.store.table.discord_feed.Reach`): a request signed for one
    chronicle's application never acts on another's."""
    router = APIRouter()
    limiter = UserLimiter()
    seen = SeenIds()
    pending: set[asyncio.Task] = set()
    several = served is None or len(served) > 1
    among = None if served is None else (served or (chronicle,))

    def home_keys() -> list[tuple[str, str]]:
        key = store.read(lambda gw: discord_settings(gw, chronicle)).public_key
        return [(chronicle, key)] if key else []

    def app_keys(app_id: str) -> list[tuple[str, str]]:
        found = store.read(lambda gw: application_keys(gw, app_id))
        return [(c, k) for c, k in found if among is None or c in among]

    async def handle(request: Request, keys: list[tuple[str, str]], app_id: str | None) -> Response:
        body = await request.body()
        signature = request.headers.get("x-signature-ed25519", "")
        stamp = request.headers.get("x-signature-timestamp", "")
        key = next((k for k in dict.fromkeys(k for _, k in keys) if verify(k, signature, stamp, body)), None)
        if key is None:
            return PlainTextResponse("invalid request signature\n", status_code=401)
        try:
            payload = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return PlainTextResponse("the body is not JSON\n", status_code=400)
        if not isinstance(payload, dict):
            return PlainTextResponse("the body is not a JSON object\n", status_code=400)
        problem = shape_problem(payload)
        if problem is not None:
            return PlainTextResponse(f"not an interaction: {problem}\n", status_code=400)
        if app_id is not None and str(payload.get("application_id")) != app_id:
            return PlainTextResponse("this interaction is not for this application\n", status_code=400)
        if payload.get("type") != PING and not seen.first(payload.get("id") or body):
            return PlainTextResponse("this interaction was already received\n", status_code=409)
        owners = [c for c, k in keys if k == key]
        home = owners[0] if len(owners) == 1 else None  # one application of several chronicles: bindings decide
        reach = Reach(key, strict=several, served=among if several else None)
        # anyio's worker threads (40), as the server's other routes use, not asyncio's small default pool
        work = asyncio.ensure_future(
            run_in_threadpool(answer, store, payload, chronicle=home, limiter=limiter, reach=reach)
        )
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

    @router.post("/discord/interactions")
    async def interactions(request: Request) -> Response:
        return await handle(request, await run_in_threadpool(home_keys), None)

    @router.post("/discord/{application_id}/interactions")
    async def application_interactions(application_id: str, request: Request) -> Response:
        if not (application_id.isascii() and application_id.isdigit() and len(application_id) <= 20):
            return PlainTextResponse("invalid request signature\n", status_code=401)
        return await handle(request, await run_in_threadpool(app_keys, application_id), application_id)

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
        async with httpx.AsyncClient(timeout=PATCH_TIMEOUT, headers={"User-Agent": USER_AGENT}) as client:
            response = await asyncio.wait_for(client.patch(url, json=data), PATCH_TIMEOUT)
        if response.status_code >= 300:
            log.warning("a deferred Discord reply was refused: HTTP %d", response.status_code)
    except (httpx.HTTPError, TimeoutError) as exc:
        log.warning("a deferred Discord reply could not be sent (%s)", type(exc).__name__)


def start_follower(store: StoreHandle, chronicle: str) -> Follower:
    """The feed follower of ``chronicle``, started in its own thread (it idles while no webhook is set)."""

    return Follower(store, chronicle, poll=FOLLOWER_POLL).start()


class Followers(Looping):
    """The feed followers of a server of several chronicles: one :class:`Follower` per chronicle served
    (``served``; None: every chronicle of the store) that has a webhook set, looked for every ``scan``
    seconds in a thread of its own, so a webhook set while the server runs is followed within ``scan``
    seconds. A follower once started runs until :meth:`stop` (it idles when its webhook is unset)."""

    def __init__(self, store: StoreHandle, served: tuple[str, ...] | None, *, scan: float = SCAN_SECONDS) -> None:
        super().__init__("discord-followers")
        self.store = store
        self.served = served
        self.scan = scan
        self.followers: dict[str, Follower] = {}

    def look(self) -> list[str]:
        """Start a follower for each chronicle served that has a webhook and none yet; returns their names."""
        found = self.store.read(chronicles_with_webhooks)
        new = [c for c in found if c not in self.followers and (self.served is None or c in self.served)]
        for name in new:
            if self._stop.is_set():
                break
            self.followers[name] = start_follower(self.store, name)
        return new

    def run(self) -> None:
        """Look until :meth:`stop`; a store error is logged and looked again after ``scan`` seconds."""
        while not self._stop.is_set():
            try:
                self.look()
            except Exception as exc:  # the store away for a moment: the next look tries again
                log.warning("the Discord followers could not look for webhooks (%s)", type(exc).__name__)
            self._stop.wait(self.scan)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop looking and stop every follower (each waited for up to ``timeout`` seconds)."""
        super().stop(timeout)
        for follower in list(self.followers.values()):
            follower._stop.set()
        for follower in list(self.followers.values()):
            follower.stop(timeout)


def start_followers(store: StoreHandle, chronicle: str, served: tuple[str, ...] | None = ()) -> Follower | Followers:
    """The feed following of a table server: for ``chronicle`` alone (``served`` empty or just it) its one
    follower, else a :class:`Followers` over ``served`` (None: every chronicle of the store)."""
    if served is not None and len(served) <= 1:
        return start_follower(store, served[0] if served else chronicle)
    return Followers(store, served).start()
