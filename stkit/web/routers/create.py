"""``GET /create`` and ``POST /create``: guided character creation on a phone, the same steps as
`stkit char create` (:mod:`stkit.sheet.guided`). The draft travels in the form (nothing is stored while it
is made); the finished sheet is stored in the table's chronicle only when it passes the creation check.
Made on the Storyteller's link, the page ends with the new player's own join link and its QR code."""

from __future__ import annotations

import json

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from stkit.errors import InvalidValue, StkitError
from stkit.sheet.guided import HELP, STEPS, TITLES, Draft, new_draft
from stkit.sheet.lifebook import check_creation
from stkit.store.characters import create_character
from stkit.store.links import issue_player_link
from stkit.web.deps import Change, Holder, TableDep

router = APIRouter()

#: The most characters the draft field may hold (a sheet being made is a few kilobytes).
MAX_DRAFT = 100_000
#: How many answers the page can take back (each is a sheet in the form, and a change is at most 16 KB).
UNDO_DEPTH = 4


def _page(
    table, draft, *, error: str = "", created: str = "", code: int = 200, link: str = "", qr: str = ""
) -> HTMLResponse:

    return table.render(
        "create.html",
        code=code,
        draft=json.dumps(draft.to_dict(undo_depth=UNDO_DEPTH), ensure_ascii=False, separators=(",", ":")),
        title=TITLES[draft.name],
        help=HELP[draft.name],
        status=draft.status(),
        step=draft.step + 1,
        steps=len(STEPS) - 1,
        finished=draft.finished,
        error=error,
        created=created,
        chronicle=table.chronicle,
        link=link,
        qr=Markup(qr),
    )


@router.get("/create", response_class=HTMLResponse)
def create_page(holder: Holder, table: TableDep) -> Response:

    return _page(table, new_draft(None, table.chronicle))


@router.post("/create", response_class=HTMLResponse)
async def create_step(request: Request, holder: Change, table: TableDep) -> Response:

    form = await request.form()
    text = str(form.get("draft") or "")
    answer = str(form.get("answer") or "")[:2000]
    try:
        if len(text) > MAX_DRAFT:
            raise InvalidValue("the draft character is too large")
        draft = Draft.from_dict(json.loads(text)) if text else new_draft(None, table.chronicle)
    except (ValueError, StkitError) as exc:
        return _page(table, new_draft(None, table.chronicle), error=f"Started again: {exc}", code=400)
    draft.sheet.chronicle = table.chronicle
    try:
        draft.answer(answer)
    except StkitError as exc:
        return _page(table, draft, error=str(exc).splitlines()[0], code=400)
    if not draft.finished:
        return _page(table, draft)
    return _finish(table, draft, holder, str(request.base_url).rstrip("/"))


def _finish(table, draft, holder, base: str) -> Response:

    sheet = draft.sheet
    check = check_creation(sheet)
    if not check.passed:  # a draft edited by hand: the steps alone never get here
        draft.step -= 1
        return _page(table, draft, error="; ".join(d.message for d in check.deviations), code=400)

    def work(gw):
        summary = f"{sheet.name} created (guided creation)"
        row = create_character(gw, sheet, summary=summary, detail={"source": "create"})
        # made on the Storyteller's link: the new player's own link comes with it, to hand over
        link = issue_player_link(gw, table.chronicle, row.name) if holder.is_storyteller else None
        return row, link

    try:
        row, link = table.write(work)
    except StkitError as exc:
        draft.step -= 1
        return _page(table, draft, error=str(exc).splitlines()[0], code=400)
    if link is None:
        return _page(table, draft, created=row.name)
    url = f"{base}/join/{link.token}"
    qr = segno.make(url, error="m").svg_inline(scale=4, title=f"Join link of {row.name}")
    return _page(table, draft, created=row.name, link=url, qr=qr)
