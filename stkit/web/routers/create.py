"""``GET /create`` and ``POST /create``: guided character creation on the Storyteller's screen, the same
steps as `stkit char create` (:mod:`stkit.sheet.guided`, which decides every rule) shown as pickers: a
select per Trait offering only the ratings the step allows, the dots placed and left per group, one Gift
list each for breed, auspice and tribe, and the freebie points left. The draft travels in the form
(nothing is stored while it is made); the finished sheet is stored in the table's chronicle only when it
passes the creation check, and the page ends with the new player's own join link and its QR code.

Only the Storyteller's link makes characters here: a player's link is refused (the Storyteller makes the
character with the player, then hands over the link the last step shows)."""

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
from stkit.store.table.links import issue_player_link
from stkit.web.deps import StorytellerChange, StorytellerHolder, TableDep
from stkit.web.views import chronicle_title

router = APIRouter()

#: The most characters the draft field may hold (a sheet being made is a few kilobytes).
MAX_DRAFT = 14_000
#: How many answers the page can take back (each is a sheet in the form, and a change is at most 16 KB).
UNDO_DEPTH = 4
#: The most form fields a step sends (the freebie step has about sixty pickers).
MAX_FIELDS = 200
#: Form fields of a picker start with this (the rest is the field :meth:`Draft.choices` names).
PICK = "f:"


def _page(
    table, draft, *, error: str = "", created: str = "", code: int = 200, link: str = "", qr: str = "", said=()
) -> HTMLResponse:

    return table.render(
        "create.html",
        code=code,
        draft=json.dumps(draft.to_dict(undo_depth=UNDO_DEPTH), ensure_ascii=False, separators=(",", ":")),
        title=TITLES[draft.name],
        help=HELP[draft.name],
        status=draft.status(),
        said=[s for s in said if s.startswith("Warning")],
        choices=draft.choices() if not draft.finished else {},
        pick=PICK,
        step_name=draft.name,
        step=draft.step + 1,
        steps=len(STEPS) - 1,
        can_undo=bool(draft.past),
        finished=draft.finished,
        error=error,
        created=created,
        chronicle=table.chronicle,
        chronicle_name=chronicle_title(table.chronicle),
        link=link,
        qr=Markup(qr),
    )


@router.get("/create", response_class=HTMLResponse)
def create_page(holder: StorytellerHolder, table: TableDep) -> Response:

    return _page(table, new_draft(None, table.chronicle))


def _one_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [""])[0][:300]


@router.post("/create", response_class=HTMLResponse)
async def create_step(request: Request, holder: StorytellerChange, table: TableDep) -> Response:
    """One step's answer: ``draft`` (the draft's JSON from the page), ``action`` (apply, next or undo),
    the pickers (``f:FIELD``; ``gift``, repeated) and at the freebie step ``other`` (typed Merits and
    Flaws, ``merit:NAME=N``). A typed ``answer`` is taken as `stkit char create` takes it. A damaged or
    forged draft, too many fields or a refused answer give the page again with one line (400)."""
    try:
        form = await request.form(max_fields=MAX_FIELDS, max_files=0)
    except Exception:  # starlette's parser refuses too many fields (its error text is not for players)
        fresh = new_draft(None, table.chronicle)
        return _page(table, fresh, error=f"Started again: a step sends at most {MAX_FIELDS} fields", code=400)
    text = form.get("draft")
    text = text if isinstance(text, str) else ""
    try:
        if len(text) > MAX_DRAFT:
            raise InvalidValue(f"the draft character is larger than {MAX_DRAFT} characters")
        try:
            data = json.loads(text) if text else None
        except RecursionError:
            raise InvalidValue("the draft character is nested too deeply") from None
        except ValueError:
            raise InvalidValue("the draft character is not JSON") from None
        draft = Draft.from_dict(data) if text else new_draft(None, table.chronicle)
    except StkitError as exc:
        return _page(table, new_draft(None, table.chronicle), error=f"Started again: {_one_line(exc)}", code=400)
    draft.sheet.chronicle = table.chronicle
    said: list[str] = []
    try:
        said = _answer(draft, form)
    except StkitError as exc:
        return _page(table, draft, error=_one_line(exc), code=400)
    if not draft.finished:
        return _page(table, draft, said=said)
    return _finish(table, draft, str(request.base_url).rstrip("/"))


def _answer(draft: Draft, form) -> list[str]:
    """Apply the pickers, the typed Merits and Flaws, then the action; returns the warnings to show.
    InvalidValue (one line) for what the step refuses: the pickers' values stay when only the move on is
    refused, so the page shows what is left to do with the choices made."""
    action = _text(form.get("action")) or "apply"
    typed = _text(form.get("answer"))
    if typed:  # the terminal's typed answers, one line
        return draft.answer(typed[:2000])
    if action == "undo":
        return draft.answer("undo")
    if action not in ("apply", "next"):
        raise InvalidValue(f"action {action[:20]!r}: allowed apply, next, undo")
    values = {k[len(PICK) :]: _text(v) for k, v in form.multi_items() if k.startswith(PICK)}
    gifts = [_text(g) for g in form.getlist("gift")]
    said: list[str] = []
    if values or any(gifts) or draft.name == "gifts":
        said = draft.pick(values, gifts)
    other = _text(form.get("other")).strip()
    if other and draft.name == "freebies":
        said += draft.answer(other[:500])
    if action == "next":
        said += draft.answer("next")
    return said


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _finish(table, draft, base: str) -> Response:

    sheet = draft.sheet
    check = check_creation(sheet)
    if not check.passed:  # a draft edited by hand: the steps alone never get here
        draft.step -= 1
        return _page(table, draft, error="; ".join(d.message for d in check.deviations), code=400)

    def work(gw):
        summary = f"{sheet.name} created (guided creation)"
        row = create_character(gw, sheet, summary=summary, detail={"source": "create"})
        return row, issue_player_link(gw, table.chronicle, row.name)  # the new player's own link, to hand over

    try:
        row, link = table.write(work)
    except StkitError as exc:
        draft.step -= 1
        return _page(table, draft, error=_one_line(exc), code=400)
    url = f"{base}/join/{link.token}"
    qr = segno.make(url, error="m").svg_inline(scale=4, title=f"Join link of {row.name}")
    return _page(table, draft, created=row.name, link=url, qr=qr)
