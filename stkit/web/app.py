"""The table server: one chronicle on one live page (FastAPI + Jinja2 + htmx + server-sent events).

An adapter like ``stkit.cli``: every change goes through the store's use cases (rolls, Willpower, damage
and healing, scenes, extended actions, contests), so the rules hold exactly as on the command line and each
change writes its table event. Pages are rendered on the server (readable with JavaScript off); htmx and
``table.js`` (served from ``stkit/web/static``, never a CDN) keep them live.

The app is assembled here from its parts: :mod:`stkit.web.table` (settings and the store handle),
:mod:`stkit.web.deps` (the link checks as dependencies), :mod:`stkit.web.routers` (one router per concern),
:mod:`stkit.web.security` (the response headers of every answer).

Access: a join link ``/join/TOKEN`` sets an HttpOnly, SameSite=Strict cookie holding the token; every
other request is checked against the stored hash (:func:`stkit.store.events.find_link_holder`). A missing,
forged or revoked token gets a 403 page; a player may act only for their own character; changes are POSTs
(a cross-site POST carries no cookie, and a foreign Origin is refused).

User text reaches a page through :func:`stkit.text.printable` (the templates' finalize hook) and then
Jinja's HTML autoescape.
"""

from __future__ import annotations

import asyncio
import mimetypes
import os
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect

from stkit.config import default_chronicle
from stkit.discord.router import interactions_router, start_follower
from stkit.errors import InvalidValue, StkitError
from stkit.store.db.handle import StoreHandle
from stkit.text import parse_whole_number, printable
from stkit.web.bus import EventBus, EventReader
from stkit.web.routers import ROUTERS
from stkit.web.security import LOOPBACK_NAMES, Guard
from stkit.web.table import Forbidden, Table, TableSettings


def create_app(
    db: str | None = None,
    chronicle: str | None = None,
    *,
    interval: float = 0.05,
    ping: float | None = None,
    hosts: tuple[str, ...] | None = LOOPBACK_NAMES,
) -> FastAPI:
    """The table server's ASGI app for ``chronicle`` (default: $STKIT_CHRONICLE, else 'default') of the store
    ``db`` (a path or URL; None: the usual database). ``interval``: seconds between SQLite polls; ``ping``:
    seconds between the stream's ping events (default $STKIT_TABLE_PING, else 5; 1 to 60); ``hosts``: the
    Host names it answers to (default: the loopback names). The schema is migrated when the app starts.
    Raises StoreError when the store cannot be opened."""

    settings = TableSettings(
        db=db, chronicle=default_chronicle(chronicle), interval=interval, ping=ping_seconds(ping), hosts=hosts
    )
    store = StoreHandle(db, fast=False)  # the request threads share the engine's pool
    store.engine()  # opened (and migrated) now: a bad store fails before the server starts
    table = Table(settings, store)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        bus = EventBus(EventReader(store, settings.chronicle), interval=settings.interval)
        table.bus = bus
        await bus.start()
        follower = start_follower(store, settings.chronicle)
        try:
            yield
        finally:
            await asyncio.to_thread(follower.stop)
            await bus.stop()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.table = table
    app.add_middleware(Guard, hosts=settings.hosts)

    mimetypes.add_type("application/manifest+json", ".webmanifest")
    app.mount("/static", StaticFiles(packages=[("stkit.web", "static")]), name="static")
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(interactions_router(store, settings.chronicle))

    @app.exception_handler(Forbidden)
    async def _forbidden(request: Request, exc: Forbidden) -> Response:
        return table.render("forbidden.html", code=403, reason=exc.reason)

    @app.exception_handler(RequestValidationError)
    async def _unreadable(request: Request, exc: RequestValidationError) -> Response:
        return _one_line(400, "This request could not be read: " + _first_problem(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        text = {404: "There is no such page.", 405: "That page does not take this kind of request."}
        return _one_line(exc.status_code, text.get(exc.status_code, str(exc.detail).splitlines()[0][:200]))

    @app.exception_handler(StkitError)
    async def _refused(request: Request, exc: StkitError) -> Response:
        return _one_line(400, printable(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)[:300])

    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, exc: ClientDisconnect) -> Response:
        return _one_line(400, "The request ended before it was whole.")

    @app.exception_handler(MultiPartException)
    async def _bad_form(request: Request, exc: MultiPartException) -> Response:
        return _one_line(400, "This form could not be read.")

    return app


def ping_seconds(ping: float | None) -> float:
    """The stream's ping interval: ``ping``, else $STKIT_TABLE_PING (whole seconds, 1 to 60), else 5."""

    if ping is None:
        raw = os.environ.get("STKIT_TABLE_PING", "").strip()
        return float(parse_whole_number(raw, "STKIT_TABLE_PING", 1, 60)) if raw else 5.0
    if not 1 <= ping <= 60:
        raise InvalidValue(f"ping interval {ping} s: allowed 1 to 60 seconds")
    return float(ping)


def _one_line(status: int, text: str) -> Response:
    """A one-line text answer (a refusal, never a traceback)."""

    return PlainTextResponse(text.replace("\n", " ") + "\n", status_code=status)


def _first_problem(exc: RequestValidationError) -> str:
    """The first problem FastAPI found, as 'path: character_id is not a whole number'."""
    errors = exc.errors()
    if not errors:
        return "a value is not allowed"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path"))
    kind = "is not a whole number" if "int" in str(first.get("type", "")) else "is not allowed"
    return f"{printable(where)[:60]} {kind}".strip()
