"""The party strip's actions (``POST /act/ACTION``): shift form (with its roll), regenerate, spend Rage for
extra actions, a frenzy check (the Storyteller's), and spend a point of Gnosis or Willpower. The
Storyteller acts for anyone; a player's link only for its own character. Each goes through the store's
use case (:mod:`stkit.store.fight.night`, :mod:`stkit.store.fight.initiative`, :mod:`stkit.store.characters`), which
refuses what the rules refuse; the dead act no more."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from stkit.errors import InvalidValue
from stkit.sheet import traits as T
from stkit.store.characters import find_character, spend
from stkit.store.fight import night as F
from stkit.store.fight.initiative import spend_rage_for_actions
from stkit.store.fight.rules import refuse_dead
from stkit.store.powers import PowerUse, power_table, use_power
from stkit.text import MAX_NAME
from stkit.web.deps import Change, TableDep
from stkit.web.forms import apply_change, character_name, form_id, form_int, form_text, form_values, is_on, seed_from
from stkit.web.table import Forbidden

router = APIRouter()

#: The actions, with whether a player's link may take them for its own character.
ACTIONS = {
    "shift": True,
    "regenerate": True,
    "rage": True,
    "gnosis": True,
    "willpower": True,
    "frenzy": False,
    "use": True,
}


@router.post("/act/{action}")
async def act(action: str, request: Request, holder: Change, table: TableDep) -> Response:
    if action not in ACTIONS:
        return HTMLResponse("Not found", status_code=404)
    values = await form_values(request)
    if not holder.is_storyteller and not ACTIONS[action]:
        raise Forbidden("Only the Storyteller's link may call for this.")

    def work(gw):
        cid = form_id(values, "character_id", "character")
        if not holder.is_storyteller and cid != holder.character_id:
            raise Forbidden("A player's link acts only for that player's own character.")
        name = character_name(gw, table.chronicle, cid)
        row = find_character(gw, name, table.chronicle, for_update=True)
        refuse_dead(gw, row, action)
        seed = seed_from(values) if holder.is_storyteller else None
        if action == "shift":
            form_name = form_text(values, "form", "form", limit=MAX_NAME) or ""
            return F.shift_form(gw, name, form_name, rage=is_on(values, "rage"), chronicle=table.chronicle, seed=seed)
        if action == "regenerate":
            return F.regenerate(gw, name, calm=is_on(values, "calm"), chronicle=table.chronicle, seed=seed)
        if action == "frenzy":
            return F.rage_roll(gw, name, chronicle=table.chronicle, seed=seed)
        if action == "rage":
            points = form_int(values, "points", "Rage points", 1, low=1, high=10)
            return spend_rage_for_actions(gw, row, points)
        if action == "use":
            return _use(gw, holder, table, name, values, seed)
        return spend(gw, name, action.capitalize(), 1, chronicle=table.chronicle)

    def message(out) -> str:
        if isinstance(out, PowerUse):
            dice = " ".join(str(d) for d in out.outcome.roll.dice) if out.outcome else ""
            return (
                out.summary + (f"; dice {dice}" if dice else "") + (f"; lasts {out.duration}" if out.duration else "")
            )
        if hasattr(out, "left") and hasattr(out, "points"):
            return f"{out.character} spends {out.points} Rage for extra actions this turn: {out.left} left"
        return str(getattr(out, "summary", "") or "done")

    return await asyncio.to_thread(apply_change, request, table, holder, "act", work, message)


def _use(gw, holder, table, name: str, values: dict[str, Any], seed: int | None) -> PowerUse:
    """A Gift or fetish from the sheet (``power``; ``spend_gnosis`` for a fetish activated by a Gnosis
    point) through :func:`stkit.store.powers.use_power`: spent, rolled through the one roll use case and
    logged. The difficulty of a Gift that leaves it to the situation is the Storyteller's (``difficulty``
    from the Storyteller's screen); a player's link cannot set it."""
    power = form_text(values, "power", "Gift or fetish", limit=MAX_NAME) or ""
    asked = holder.is_storyteller and str(values.get("difficulty") or "").strip()
    difficulty = form_int(values, "difficulty", "difficulty", None, low=2, high=10) if asked else None
    if difficulty is None and not holder.is_storyteller:
        entry = next((v for k, v in power_table()["gifts"].items() if T.norm(k) == T.norm(power)), None)
        if entry and entry.get("pool") and entry.get("difficulty") is None:
            by = entry.get("difficulty_by") or "the situation"
            raise InvalidValue(
                f"{power}: the Storyteller sets the difficulty ({by}); ask for it from the Storyteller's screen"
            )
    return use_power(
        gw,
        name,
        power,
        chronicle=table.chronicle,
        difficulty=difficulty,
        spend_gnosis=is_on(values, "spend_gnosis"),
        seed=seed,
    )
