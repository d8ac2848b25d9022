"""Form values and the answer to a change: whole numbers, switches, a character named by id, the seed,
and :func:`apply_change`, which runs a change and answers htmx with a one-line fragment or a plain form
post with a redirect (or the page with the error beside the form)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from stkit.dice import Specialty
from stkit.dice.house import RuleOverrides
from stkit.errors import InvalidValue, NotFound, StkitError
from stkit.store.characters import character_by_id
from stkit.store.rolling import RollOrder
from stkit.store.table.events import LinkHolder
from stkit.text import check_text, parse_whole_number
from stkit.web.table import Table
from stkit.web.views import page_data

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


#: The widest whole number a form field may hold; each use case checks its own range after.
WIDEST = 10**9
#: An id (character, extended action, contest): 1 to this.
MAX_ID = 2**62


def form_int(
    form: dict, key: str, what: str, default: int | None = None, *, low: int = -WIDEST, high: int = WIDEST
) -> int:
    """A whole number from a form field, read by :func:`stkit.text.parse_whole_number` (ASCII digits and a
    sign only, ``low``..``high``); ``default`` when the field is empty. Raises InvalidValue naming ``what``."""

    raw = str(form.get(key, "") or "").strip()
    if not raw:
        if default is None:
            raise InvalidValue(f"{what} is missing; give a whole number")
        return default
    return parse_whole_number(raw[:64], what, low, high)


def form_id(form: dict, key: str, what: str) -> int:
    """An id (1 to :data:`MAX_ID`) from a form field; InvalidValue naming ``what`` otherwise."""
    return form_int(form, key, what, low=1, high=MAX_ID)


def form_text(form: dict, key: str, what: str, *, limit: int) -> str | None:
    """A one-line text field checked as the CLI checks its options (:func:`stkit.text.check_text`: no
    control or bidirectional characters, at most ``limit`` characters); None when empty."""

    raw = form.get(key)
    if raw is None or not str(raw).strip():
        return None
    return check_text(str(raw).strip(), what, limit=limit)


def roll_order(values: dict, *, storyteller: bool, **fields: Any):
    """The :class:`stkit.store.rolling.RollOrder` of a web form: its difficulty (empty: the chronicle's),
    and on the Storyteller's link only its house-rule choice; a player's link makes a roll ``by_player``
    (the use case decides which difficulty and extra dice a player may use). ``fields``: the order's
    other fields. Raises InvalidValue for a bad difficulty or 10s rule."""

    raw = str(values.get("difficulty") or "").strip()
    difficulty = form_int(values, "difficulty", "difficulty") if raw else None
    choice = str(values.get("specialty") or "").strip().lower() if storyteller else ""
    try:
        specialty = Specialty(choice) if choice else None
    except ValueError:
        raise InvalidValue(f"specialty rule {choice[:20]!r} is not one of none, double, reroll") from None
    overrides = RuleOverrides(specialty=specialty, difficulty=difficulty)
    return RollOrder(overrides=overrides, by_player=not storyteller, **fields)


def is_on(form: dict, key: str) -> bool:
    """Whether a checkbox (or a switch given as text) is on."""
    return str(form.get(key, "")).lower() in ("on", "1", "true", "yes")


def character_name(gw: Gateway, chronicle: str, character_id: int) -> str:
    """The name of character ``character_id`` of ``chronicle``; NotFound otherwise."""

    row = character_by_id(gw, character_id)
    if row is None or row.chronicle != chronicle:
        raise NotFound(f"no character with id {character_id} in chronicle {chronicle!r}")
    return row.name


def seed_from(values: dict) -> int:
    """The form's seed (a whole number), else a fresh one from the system's random source."""
    raw = str(values.get("seed") or "").strip()
    if raw:
        return form_int(values, "seed", "seed", low=0, high=2**64 - 1)
    return random.SystemRandom().randrange(2**32)


async def form_values(request: Request) -> dict[str, Any]:
    """The posted form as a dict of single values (the last of a repeated field)."""
    form = await request.form()
    return {k: form.get(k) for k in form}


def apply_change(
    request: Request,
    table: Table,
    holder: LinkHolder,
    form_name: str,
    work: Callable[[Gateway], Any],
    message: Callable[[Any], str],
) -> Response:
    """Run ``work(gateway)`` in one write transaction; htmx gets a one-line fragment (the result's
    ``message`` or the error), a plain form post a redirect back to the page (or the page with the error
    beside the form ``form_name``, status 400)."""

    htmx = request.headers.get("hx-request") == "true"
    try:
        result = table.write(work)
    except StkitError as exc:
        error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if htmx:
            return HTMLResponse(table.fragment("message.html", error=error))
        ctx = table.read(lambda gw: page_data(table, gw, holder))
        return table.render("page.html", code=400, error=error, error_form=form_name, **ctx)
    if htmx:
        said = message(result)  # text, or Markup the server rendered (a roll's result with its dice)
        if isinstance(said, Markup):
            return HTMLResponse(table.fragment("message.html", html=said))
        return HTMLResponse(table.fragment("message.html", message=said))
    return RedirectResponse(table.base, status_code=303)
