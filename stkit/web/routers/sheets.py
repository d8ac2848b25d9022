"""``GET /sheet/ID``: one character's sheet panel; ``GET /sheet/ID/print``: its printable page (a player sees
only their own)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from stkit.formats.printsheet import to_html
from stkit.store.fight.rules import is_dead
from stkit.web.deps import Holder, TableDep
from stkit.web.views import sheet_view

router = APIRouter()


@router.get("/sheet/{character_id}", response_class=HTMLResponse)
def sheet(character_id: int, holder: Holder, table: TableDep) -> Response:
    if not 0 < character_id < 2**62:
        return HTMLResponse("<p>No such character.</p>", status_code=404)
    view = table.read_character(holder, character_id, lambda gw, row: sheet_view(row, dead=is_dead(gw, row.id)))
    if view is None:
        return HTMLResponse("<p>That character is gone.</p>", status_code=404)
    return HTMLResponse(table.fragment("sheet.html", s=view, storyteller=holder.is_storyteller))


@router.get("/sheet/{character_id}/print", response_class=HTMLResponse)
def sheet_print(character_id: int, holder: Holder, table: TableDep) -> Response:
    """The character's printable page (stkit.formats.printsheet): one A4 page with print CSS."""
    if not 0 < character_id < 2**62:
        return HTMLResponse("<p>No such character.</p>", status_code=404)
    found = table.read_character(holder, character_id, lambda gw, row: row.to_sheet())
    if found is None:
        return HTMLResponse("<p>That character is gone.</p>", status_code=404)
    # the page's own CSP allows no inline style or script: the stylesheet and the Print button's script are files
    return HTMLResponse(to_html([found], stylesheet="/static/print.css", script="/static/print.js"))
