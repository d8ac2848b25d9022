"""What the table server serves: its settings, the store handle, the event bus, the templates and the
link check, shared by every router through :mod:`stkit.web.deps`.

One server process may serve several chronicles (:class:`Tables`): each request is answered by the
:class:`Table` of the chronicle its link belongs to, so a link reaches only its own chronicle."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader
from markupsafe import Markup

from stkit.store.characters import character_by_id
from stkit.store.table.events import LinkHolder, find_link_holder
from stkit.text import printable
from stkit.web.bus import EventBus, EventHub

if TYPE_CHECKING:
    from stkit.store.characters import CharacterRow
    from stkit.store.db.gateway import Gateway
    from stkit.store.db.handle import StoreHandle

_T = TypeVar("_T")

#: The link cookie of a server of one chronicle (path ``/``); a server of many names one per chronicle
#: (:func:`cookie_name`), each sent only under that chronicle's own path (:func:`chronicle_base`).
COOKIE = "stkit_table"
#: Where a server of many chronicles answers each: ``/t/KEY/...`` (KEY: :func:`chronicle_key`).
PREFIX = re.compile(r"^/t/([0-9a-f]{16})(/.*)?$")
#: The ASGI scope key holding the KEY of a request that came under ``/t/KEY/``.
SCOPE_KEY = "stkit.chronicle_key"
FORBIDDEN_TEXT = "This link is not valid (missing, mistyped or replaced). Ask the Storyteller for a new link."
#: The page for a request that brings no link at all (the bare address typed in): no error, the way in.
NO_LINK_TEXT = (
    "This is a Storyteller's table. To sit at it, open the link the Storyteller gave you "
    "(it ends in /join/ and a long code); this address alone shows nothing. "
    "Lost it? Ask the Storyteller for a new link."
)


def chronicle_key(chronicle: str) -> str:
    """A chronicle's key in addresses and cookie names: 16 lowercase hex digits (the start of the SHA-256 of
    its UTF-8 name), so any name is safe in a path and a cookie name."""
    return hashlib.sha256(chronicle.encode("utf-8")).hexdigest()[:16]


def chronicle_base(chronicle: str) -> str:
    """A chronicle's own address on a server of many chronicles: ``/t/KEY/``."""
    return f"/t/{chronicle_key(chronicle)}/"


def cookie_name(chronicle: str) -> str:
    """The link cookie's name for ``chronicle`` on a server of many chronicles: ``stkit_table_KEY``."""
    return f"{COOKIE}_{chronicle_key(chronicle)}"


class ChroniclePaths:
    """ASGI middleware of a server of many chronicles: a request to ``/t/KEY/rest`` is routed as ``/rest``
    with KEY kept in the scope (:data:`SCOPE_KEY`), so every route answers under each chronicle's own path,
    where the browser sends only that chronicle's cookie. ``/t/KEY`` alone is ``/t/KEY/``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            found = PREFIX.match(scope.get("path", ""))
            if found is not None:
                rest = found.group(2) or "/"
                scope = dict(scope, path=rest, raw_path=rest.encode("utf-8"))
                scope[SCOPE_KEY] = found.group(1)
        await self.app(scope, receive, send)


class Forbidden(Exception):
    """The request holds no valid link for this chronicle, or asks for what its link does not allow.
    ``no_link``: the request brought no link at all (a first visit to the bare address), which the page
    answers with the way in rather than an error."""

    def __init__(self, reason: str = FORBIDDEN_TEXT, *, no_link: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.no_link = no_link

    @classmethod
    def without_link(cls) -> Forbidden:
        return cls(NO_LINK_TEXT, no_link=True)


def _finalize(value: Any) -> Any:
    """Every ``{{ value }}`` of the templates: text made printable (control characters shown as escapes),
    then HTML-escaped by autoescape. Markup built by the server is left as it is."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return printable(value)


def make_templates() -> Environment:
    """The Jinja2 environment of the table pages: autoescape on, printable text (see :func:`_finalize`)."""
    env = Environment(loader=PackageLoader("stkit.web", "templates"), autoescape=True, finalize=_finalize)
    env.filters["pct"] = lambda p: f"{float(p) * 100:.1f}%"
    env.globals["base"] = "/"  # a page rendered outside any chronicle (the 403 page)
    return env


@dataclass(frozen=True)
class TableSettings:
    """How one server runs: the store ``db`` (a path or URL, None: the usual database), the ``chronicle``,
    ``interval``, the seconds between SQLite polls of the event table, ``ping``, the seconds between the
    event stream's ``ping`` events (a page that hears nothing for about two of them reconnects), and
    ``hosts``, the Host names it answers to (see :func:`stkit.web.security.allowed_hosts`; None: any),
    ``chronicles``, the chronicles served (None: every chronicle of the store; empty: ``chronicle`` alone),
    and ``posts_per_minute``, the changes one chronicle may make a minute through this server (1 to
    100,000; a burst of a tenth of it at once)."""

    db: str | None
    chronicle: str
    interval: float = 0.05
    ping: float = 5.0
    hosts: tuple[str, ...] | None = ("127.0.0.1", "localhost", "::1")
    chronicles: tuple[str, ...] | None = ()
    posts_per_minute: int = 600

    @property
    def served(self) -> tuple[str, ...] | None:
        """The chronicles served: a tuple of names, or None for every chronicle of the store."""
        if self.chronicles is None:
            return None
        return tuple(dict.fromkeys(self.chronicles)) or (self.chronicle,)


class PostBudget:
    """A token bucket: ``per_minute`` changes a minute on average, at most a tenth of them (at least 5) at
    once; :meth:`take` says whether one more may go now."""

    def __init__(self, per_minute: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(5.0, per_minute / 10.0)
        self.tokens = self.burst
        self.at = time.monotonic()
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
            if self.tokens < 1.0:
                return False
            self.tokens -= 1.0
            return True


@dataclass
class Table:
    """What the server holds: its ``settings``, the ``store`` (one :class:`stkit.store.db.gateway.StoreHandle`,
    opened once by :func:`stkit.web.app.create_app`; every unit goes through its engine's pool), the event
    ``bus`` (set while the app runs) and the page ``templates``."""

    settings: TableSettings
    store: StoreHandle
    bus: EventBus | None = None
    templates: Environment = field(default_factory=make_templates)
    #: the event stream's rendered events, (event id, for the Storyteller?) -> SSE fields
    rendered: dict[tuple[int, bool], dict] = field(default_factory=dict)
    posts: PostBudget | None = None
    #: the address the chronicle's pages and reads are under ("/", or "/t/KEY/" on a server of many)
    base: str = "/"
    #: the name of the link cookie, sent with the path ``base``
    cookie: str = COOKIE

    @property
    def chronicle(self) -> str:
        return self.settings.chronicle

    def token(self, cookies: dict[str, str]) -> str | None:
        """The link token a request's ``cookies`` hold for this chronicle (its own cookie; on a server of
        many chronicles, else a hand-set ``stkit_table`` for API clients), or None."""
        return cookies.get(self.cookie) or (cookies.get(COOKIE) if self.cookie != COOKIE else None)

    # ----- store access (every call is one transaction) ------------------------------------------------
    def read(self, work: Callable[[Gateway], _T]) -> _T:
        """``work(gateway)`` in one read-only transaction (one snapshot on SQLite)."""
        return self.store.read(work)

    def write(self, work: Callable[[Gateway], _T]) -> _T:
        """``work(gateway)`` in one write transaction, retried whole when the database is busy."""
        return self.store.run(work)

    def read_character(
        self, holder: LinkHolder, character_id: int, work: Callable[[Gateway, CharacterRow], _T]
    ) -> _T | None:
        """``work(gateway, row)`` for character ``character_id`` of this chronicle, in one read-only
        transaction; None when there is none (an id out of range, a deleted character, another chronicle's).
        Forbidden when ``holder`` is a player's link asking for another character than its own."""
        if not holder.is_storyteller and holder.character_id != character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")

        def one(gw: Gateway) -> _T | None:
            row = character_by_id(gw, character_id) if 0 < character_id < 2**62 else None
            if row is None or row.chronicle != self.chronicle:
                return None
            return work(gw, row)

        return self.read(one)

    def holder_of(self, token: str | None) -> LinkHolder:
        """Who holds ``token`` in this chronicle; Forbidden otherwise."""

        if not token:
            raise Forbidden.without_link()
        holder = self.read(lambda gw: find_link_holder(gw, token))
        if holder is None or holder.chronicle != self.chronicle:
            raise Forbidden()
        return holder

    def render(self, name: str, code: int = 200, **ctx: Any) -> HTMLResponse:
        return HTMLResponse(self.fragment(name, **ctx), status_code=code)

    def fragment(self, name: str, **ctx: Any) -> str:
        """The template ``name`` rendered with ``ctx``; its addresses are under :attr:`base`."""
        return self.templates.get_template(name).render(base=self.base, **ctx)

    def may_post(self) -> bool:
        """Whether the chronicle may make one more change now (see :class:`PostBudget`)."""
        if self.posts is None:
            self.posts = PostBudget(self.settings.posts_per_minute)
        return self.posts.take()


@dataclass
class Tables:
    """Every chronicle a server process serves: the shared ``settings`` (whose ``served`` says which),
    ``store``, event ``hub`` (set while the app runs) and ``templates``, and one :class:`Table` per
    chronicle, made when its first request comes."""

    settings: TableSettings
    store: StoreHandle
    hub: EventHub | None = None
    templates: Environment = field(default_factory=make_templates)
    by_chronicle: dict[str, Table] = field(default_factory=dict)

    def serves(self, chronicle: str) -> bool:
        served = self.settings.served
        return served is None or chronicle in served

    @property
    def many(self) -> bool:
        """Whether the server may serve more than one chronicle (each then under its own ``/t/KEY/``)."""
        served = self.settings.served
        return served is None or len(served) != 1

    def only(self) -> Table | None:
        """The one Table when the server serves a single chronicle, else None."""
        served = self.settings.served
        return None if self.many or served is None else self.table(served[0])

    def table(self, chronicle: str) -> Table:
        """``chronicle``'s Table (made on first use)."""
        found = self.by_chronicle.get(chronicle)
        if found is None:
            bus = self.hub.bus(chronicle) if self.hub is not None else None
            settings = replace(self.settings, chronicle=chronicle)
            found = Table(settings, self.store, bus, self.templates)
            if self.many:
                found.base, found.cookie = chronicle_base(chronicle), cookie_name(chronicle)
            self.by_chronicle[chronicle] = found
        elif found.bus is None and self.hub is not None:
            found.bus = self.hub.bus(chronicle)
        return found

    def holder_of(self, token: str | None) -> LinkHolder | None:
        """Who holds ``token`` in any chronicle served, or None."""
        holder = self.store.read(lambda gw: find_link_holder(gw, token)) if token else None
        return holder if holder is not None and self.serves(holder.chronicle) else None
