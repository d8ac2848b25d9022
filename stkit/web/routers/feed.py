"""``GET /``: the whole page (feed, status, sheets, forms); ``GET /status``: the status panel alone;
``GET /characters``: the characters the page's selects offer."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response

from stkit.store.characters import list_characters
from stkit.web.deps import Holder, TableDep
from stkit.web.views import page_data, status_view

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
def page(holder: Holder, table: TableDep) -> Response:
    ctx = table.read(lambda gw: page_data(table, gw, holder))
    return table.render("page.html", error=None, error_form=None, **ctx)


@router.get("/status", response_class=HTMLResponse)
def status(holder: Holder, table: TableDep) -> Response:
    data = table.read(lambda gw: status_view(gw, table.chronicle, holder))
    return HTMLResponse(table.fragment("status.html", status=data, storyteller=holder.is_storyteller, holder=holder))


@router.get("/characters")
def characters(holder: Holder, table: TableDep) -> Response:
    """The chronicle's characters as [[id, name], ...] by name: what the page's character selects offer
    (read again when a character is made mid-evening)."""
    rows = table.read(lambda gw: [[c.id, c.name] for c in list_characters(gw, table.chronicle)])
    return JSONResponse(rows)
