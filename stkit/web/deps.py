"""The routers' dependencies (``Depends``): the table handle and its settings, the link holder of a request,
and the checks on a change (Origin) and on the Storyteller's controls. Use them as annotated types::

    @router.post("/scene/{action}")
    def scene(action: str, holder: StorytellerChange, table: TableDep): ...

A failed check raises :class:`stkit.web.table.Forbidden` (the 403 page)."""

from __future__ import annotations

import asyncio
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request

from stkit.store.table.events import LinkHolder
from stkit.web.table import COOKIE, SCOPE_KEY, Forbidden, Table, Tables, TableSettings, chronicle_key


async def get_table(request: Request) -> Table:
    """The :class:`Table` of the chronicle ``request`` is about: the server's one chronicle, else the
    chronicle of the request's link (the join path's token, else, under ``/t/KEY/``, the cookie of that
    chronicle, else a hand-set ``stkit_table`` cookie), which the server must serve and, under
    ``/t/KEY/``, must be KEY's; Forbidden otherwise. Its events are followed from here on."""
    tables: Tables = request.app.state.tables
    table = tables.only()
    if table is not None:
        return table
    key = request.scope.get(SCOPE_KEY)
    token = request.path_params.get("token")  # only /join/{token} has one
    if not token and key is not None:
        token = request.cookies.get(f"{COOKIE}_{key}")
    token = token or request.cookies.get(COOKIE)
    if not token:
        raise Forbidden.without_link()
    holder = await asyncio.to_thread(tables.holder_of, token)
    if holder is None or (key is not None and chronicle_key(holder.chronicle) != key):
        raise Forbidden()
    if tables.hub is not None:
        await tables.hub.follow(holder.chronicle)
    return tables.table(holder.chronicle)


TableDep = Annotated[Table, Depends(get_table)]


def get_settings(table: TableDep) -> TableSettings:
    """The server's settings (store, chronicle, poll interval)."""
    return table.settings


SettingsDep = Annotated[TableSettings, Depends(get_settings)]


def link_holder(request: Request, table: TableDep) -> LinkHolder:
    """Who the request's cookie says it is; Forbidden for a missing, forged or revoked link."""
    return table.holder_of(table.token(request.cookies))


Holder = Annotated[LinkHolder, Depends(link_holder)]


def storyteller(holder: Holder) -> LinkHolder:
    """The holder, when it is the Storyteller's link; Forbidden for a player's."""
    if not holder.is_storyteller:
        raise Forbidden("Only the Storyteller's link may do this.")
    return holder


StorytellerHolder = Annotated[LinkHolder, Depends(storyteller)]


def same_site(request: Request) -> None:
    """A change must come from this server's own page: its Origin (else its Referer) names the host the
    request was sent to (the Host, which :class:`stkit.web.security.Guard` has checked against the allowed
    names). Where the page's no-referrer policy makes a browser send ``Origin: null`` and no Referer, the
    browser's own ``Sec-Fetch-Site: same-origin`` stands for it. Anything else is Forbidden."""

    host = (request.headers.get("host") or "").strip().lower()
    origin = (request.headers.get("origin") or "").strip()
    referer = (request.headers.get("referer") or "").strip()
    for value in (origin, referer):
        if value and value != "null":
            try:
                parts = urlsplit(value)
                scheme, netloc = parts.scheme, parts.netloc.lower()
            except ValueError:
                scheme, netloc = "", ""
            if scheme not in ("http", "https") or netloc != host or not host:
                raise Forbidden("This request came from another site; it was refused.")
            return
    if request.headers.get("sec-fetch-site") == "same-origin":
        return
    raise Forbidden("A change must come from this table's page (the request named no Origin); it was refused.")


def change_by_link(request: Request, table: TableDep) -> LinkHolder:
    """A change by any valid link: same site first, then the link, then the chronicle's post budget
    (a 429 when it is spent)."""
    same_site(request)
    holder = link_holder(request, table)
    if not table.may_post():
        raise HTTPException(429, "This chronicle is making changes too fast for this server; wait a moment.")
    return holder


Change = Annotated[LinkHolder, Depends(change_by_link)]


def change_by_storyteller(holder: Change) -> LinkHolder:
    """A change only the Storyteller's link may make."""
    return storyteller(holder)


StorytellerChange = Annotated[LinkHolder, Depends(change_by_storyteller)]
