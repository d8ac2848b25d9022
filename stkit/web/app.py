"""The table server: a chronicle on one live page (one server may serve many chronicles, see
:class:`stkit.web.table.Tables`) (FastAPI + Jinja2 + htmx + server-sent events).

An adapter like ``stkit.cli``: every change goes through the store's use cases (rolls, Willpower, damage
and healing, scenes, extended actions, contests), so the rules hold exactly as on the command line and each
change writes its table event. Pages are rendered on the server (readable with JavaScript off); htmx and
``table.js`` (served from ``stkit/web/static``, never a CDN) keep them live.

The app is assembled here from its parts: :mod:`stkit.web.table` (settings and the store handle),
:mod:`stkit.web.deps` (the link checks as dependencies), :mod:`stkit.web.routers` (one router per concern),
:mod:`stkit.web.security` (the response headers of every answer).

Access: a join link ``/join/TOKEN`` sets an HttpOnly, SameSite=Strict cookie holding the token (on a server
of many chronicles, a cookie of the chronicle's own, sent only under its ``/t/KEY/``); every
other request is checked against the stored hash (:func:`stkit.store.table.events.find_link_holder`). A missing,
forged or revoked token gets a 403 page; a player may act only for their own character; changes are POSTs
(a cross-site POST carries no cookie, and a foreign Origin is refused).

User text reaches a page through :func:`stkit.text.printable` (the templates' finalize hook) and then
Jinja's HTML autoescape.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import os
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect

from stkit.config import default_chronicle
from stkit.discord.router import interactions_router, start_followers
from stkit.errors import InvalidValue, StkitError
from stkit.store.db.handle import StoreHandle
from stkit.text import MAX_NAME, check_range, check_text, parse_whole_number, printable
from stkit.web.bus import EventHub, EventReader
from stkit.web.routers import ROUTERS
from stkit.web.security import LOOPBACK_NAMES, Guard
from stkit.web.table import ChroniclePaths, Forbidden, Tables, TableSettings


def create_app(
    db: str | None = None,
    chronicle: str | None = None,
    *,
    interval: float = 0.05,
    ping: float | None = None,
    hosts: tuple[str, ...] | None = LOOPBACK_NAMES,
    chronicles: tuple[str, ...] | None = (),
    posts_per_minute: int = 600,
) -> FastAPI:
    """The table server's ASGI app for ``chronicle`` (default: $STKIT_CHRONICLE, else 'default') of the store
    ``db`` (a path or URL; None: the usual database). ``interval``: seconds between SQLite polls; ``ping``:
    seconds between the stream's ping events (default $STKIT_TABLE_PING, else 5; 1 to 60); ``hosts``: the
    Host names it answers to (default: the loopback names). ``chronicles``: the chronicles served, each
    request by its link's (None: every chronicle of the store; empty: ``chronicle`` alone);
    ``posts_per_minute``: the changes a chronicle may make a minute (see
    :class:`stkit.web.table.PostBudget`). The schema is migrated when the app starts. Raises StoreError
    when the store cannot be opened, InvalidValue for a bad chronicle name or post limit."""

    if chronicles == ():
        chronicles = chronicles_from_env()
    served = None if chronicles is None else tuple(check_text(c, "chronicle", limit=MAX_NAME) for c in chronicles)
    check_range(posts_per_minute, "posts per minute", 1, 100_000)
    settings = TableSettings(
        db=db,
        chronicle=default_chronicle(chronicle) if not served else served[0],
        interval=interval,
        ping=ping_seconds(ping),
        hosts=hosts,
        chronicles=served,
        posts_per_minute=posts_per_minute,
    )
    store = StoreHandle(db, fast=False)  # the request threads share the engine's pool
    store.engine()  # opened (and migrated) now: a bad store fails before the server starts
    tables = Tables(settings, store)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub = EventHub(EventReader(store), interval=settings.interval)
        tables.hub = hub
        await hub.start(settings.served or ())
        follower = start_followers(store, settings.chronicle, settings.served)
        try:
            yield
        finally:
            await asyncio.to_thread(follower.stop)
            await hub.stop()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.tables = tables
    app.add_middleware(Guard, hosts=settings.hosts)
    if tables.many:  # each chronicle under its own /t/KEY/, where only its own cookie is sent
        app.add_middleware(ChroniclePaths)

    mimetypes.add_type("application/manifest+json", ".webmanifest")
    # the printed sheet's stylesheet is the formats layer's own file (stkit/formats/static/print.css)
    app.mount("/static", StaticFiles(packages=[("stkit.web", "static"), ("stkit.formats", "static")]), name="static")
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(interactions_router(store, settings.chronicle, settings.served))

    @app.exception_handler(Forbidden)
    async def _forbidden(request: Request, exc: Forbidden) -> Response:
        page = tables.templates.get_template("forbidden.html").render(reason=exc.reason, no_link=exc.no_link)
        return HTMLResponse(page, status_code=403)

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


def chronicles_from_env() -> tuple[str, ...] | None:
    """The chronicles `stkit serve` asks for in $STKIT_TABLE_CHRONICLES: ``*`` (None: every chronicle), a
    JSON list of names, or unset (an empty tuple: $STKIT_CHRONICLE alone). Raises InvalidValue otherwise."""
    raw = os.environ.get("STKIT_TABLE_CHRONICLES", "").strip()
    if not raw:
        return ()
    if raw == "*":
        return None
    try:
        names = json.loads(raw)
    except ValueError:
        names = None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InvalidValue("STKIT_TABLE_CHRONICLES must be * or a JSON list of chronicle names")
    return tuple(names)


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
