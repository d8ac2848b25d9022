"""The Storyteller's controls (their link only, POST from this site): ``/scene/start|turn|initiative|end``
(initiative for every character of the chronicle who can act), ``/health``
(damage or heal), ``/extended/start|roll|abandon`` and ``/contest/start|roll|abandon``."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from stkit.store import contests as contest_cases
from stkit.store import extended as extended_cases
from stkit.store import scenes as S
from stkit.store.characters import damage, heal, list_characters
from stkit.store.fight.initiative import roll_scene_initiative
from stkit.text import MAX_NAME, MAX_SHORT_TEXT
from stkit.web.deps import StorytellerChange, TableDep
from stkit.web.forms import apply_change, character_name, form_id, form_int, form_text, form_values, seed_from

router = APIRouter()


@router.post("/scene/{action}")
async def scene(action: str, request: Request, holder: StorytellerChange, table: TableDep) -> Response:

    values = await form_values(request)

    def initiative(gw):

        names = [c.name for c in list_characters(gw, table.chronicle)]
        return roll_scene_initiative(gw, table.chronicle, names)

    steps = {
        "start": lambda gw: S.start_scene(
            gw, table.chronicle, form_text(values, "name", "scene name", limit=MAX_NAME) or ""
        ),
        "turn": lambda gw: S.next_turn(gw, table.chronicle),
        "end": lambda gw: S.end_scene(gw, table.chronicle),
        "initiative": initiative,
    }
    if action not in steps:
        return HTMLResponse("Not found", status_code=404)

    def message(scene) -> str:
        if action == "initiative":
            return "Initiative: " + ", ".join(f"{o.name} {o.total}" for o in scene.order)
        return {"start": f"Scene {scene.name!r} opened", "turn": f"Turn {scene.turn}", "end": "Scene closed"}[action]

    return await asyncio.to_thread(apply_change, request, table, holder, "scene", steps[action], message)


@router.post("/health")
async def health(request: Request, holder: StorytellerChange, table: TableDep) -> Response:
    values = await form_values(request)

    def work(gw):

        name = character_name(gw, table.chronicle, form_id(values, "character_id", "character"))
        levels = form_int(values, "levels", "health levels", 1)
        kind = form_text(values, "kind", "kind of damage", limit=20) or "bashing"
        if values.get("change") == "heal":
            return heal(gw, name, levels, None, chronicle=table.chronicle)
        return damage(gw, name, levels, kind, chronicle=table.chronicle)

    return await asyncio.to_thread(apply_change, request, table, holder, "health", work, lambda e: e.summary)


@router.post("/extended/{action}")
async def extended(action: str, request: Request, holder: StorytellerChange, table: TableDep) -> Response:

    values = await form_values(request)

    def start(gw):
        cid = str(values.get("character_id") or "").strip()
        name = character_name(gw, table.chronicle, form_id(values, "character_id", "character")) if cid else None
        return extended_cases.start_extended(
            gw,
            form_text(values, "name", "extended action name", limit=MAX_NAME) or "",
            chronicle=table.chronicle,
            character=name,
            pool=form_text(values, "pool", "pool", limit=MAX_SHORT_TEXT) or "",
            difficulty=form_int(values, "difficulty", "difficulty", 6),
            target=form_int(values, "target", "target"),
        )

    def roll_it(gw):
        return extended_cases.roll_extended(gw, form_id(values, "id", "extended action"), seed=seed_from(values))

    def abandon(gw):
        return extended_cases.abandon_extended(gw, form_id(values, "id", "extended action"))

    steps = {"start": start, "roll": roll_it, "abandon": abandon}
    if action not in steps:
        return HTMLResponse("Not found", status_code=404)

    def message(out) -> str:
        row = getattr(out, "action", out)
        return f"{row.name}: {row.tally}/{row.target} ({row.status})"

    return await asyncio.to_thread(apply_change, request, table, holder, "extended", steps[action], message)


@router.post("/contest/{action}")
async def contest(action: str, request: Request, holder: StorytellerChange, table: TableDep) -> Response:

    values = await form_values(request)

    def side(gw, key: str) -> str:
        raw = form_text(values, key, f"side {key.upper()}", limit=MAX_SHORT_TEXT) or ""
        if raw.startswith("#"):  # a character, by id; anything else is a number of dice
            return character_name(gw, table.chronicle, form_id({"id": raw[1:]}, "id", f"side {key.upper()}"))
        return raw

    def start(gw):
        return contest_cases.start_contest(
            gw,
            form_text(values, "name", "contest name", limit=MAX_NAME) or "",
            chronicle=table.chronicle,
            a=side(gw, "a"),
            b=side(gw, "b"),
            pool_a=form_text(values, "pool_a", "pool A", limit=MAX_SHORT_TEXT),
            pool_b=form_text(values, "pool_b", "pool B", limit=MAX_SHORT_TEXT),
            difficulty=form_int(values, "difficulty", "difficulty", 6),
            difficulty_b=None,
            target=form_int(values, "target", "target"),
        )

    def roll_it(gw):
        return contest_cases.roll_contest(gw, form_id(values, "id", "contest"), seed=seed_from(values))

    def abandon(gw):
        return contest_cases.abandon_contest(gw, form_id(values, "id", "contest"))

    steps = {"start": start, "roll": roll_it, "abandon": abandon}
    if action not in steps:
        return HTMLResponse("Not found", status_code=404)

    def message(out) -> str:
        row = out.status.contest if hasattr(out, "status") and hasattr(out.status, "contest") else out
        return f"{row.name}: A {row.tally_a} - B {row.tally_b} ({row.status})"

    return await asyncio.to_thread(apply_change, request, table, holder, "contest", steps[action], message)
