"""The fight from the page: ``POST /attack`` posts an attack for the defender's answer, ``POST
/prompt/ID/answer`` answers it (the defender's own phone, or the Storyteller for an NPC or once the
player's time is over), ``POST /call`` (Storyteller) calls for a roll, ``POST /call/ID/roll`` rolls one
character's answer, ``POST /prompt/ID/close`` (Storyteller) closes a prompt, ``GET /prompts`` the open
prompts this link answers, ``POST /initiative/add`` adds a latecomer to the initiative order and ``POST
/initiative/hold`` holds the acting character's action for later in the turn. All go
through the store's use cases (:mod:`stkit.store.table.prompts`, :mod:`stkit.store.fight.initiative`)."""

from __future__ import annotations

import asyncio
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from stkit.errors import InvalidValue, StkitError
from stkit.store.fight.initiative import add_to_initiative, hold_action
from stkit.store.table import prompts as P
from stkit.store.table.events import LinkHolder
from stkit.store.table.links import issue_player_link
from stkit.text import MAX_NAME
from stkit.web.deps import Change, Holder, StorytellerChange, TableDep
from stkit.web.forms import apply_change, character_name, form_id, form_int, form_text, form_values, is_on, seed_from
from stkit.web.table import Forbidden

router = APIRouter()


def _choice(values: dict, key: str, what: str) -> str | None:
    return form_text(values, key, what, limit=MAX_NAME)


@router.post("/attack")
async def attack(request: Request, holder: Change, table: TableDep) -> Response:
    """Post an attack (attacker, target, pool or weapon or maneuver, range, damage, Rage action) for the
    defender's answer. A player's link attacks only with its own character."""
    values = await form_values(request)

    def work(gw):
        attacker_id = form_id(values, "attacker", "attacker")
        if not holder.is_storyteller and attacker_id != holder.character_id:
            raise Forbidden("A player's link attacks only with that player's own character.")
        raw_diff = str(values.get("difficulty") or "").strip()
        return P.post_attack(
            gw,
            table.chronicle,
            character_name(gw, table.chronicle, attacker_id),
            character_name(gw, table.chronicle, form_id(values, "target", "target")),
            pool=_choice(values, "pool", "attack pool"),
            damage=_choice(values, "damage", "damage pool"),
            damage_type=_choice(values, "damage_type", "damage type"),
            difficulty=form_int(values, "difficulty", "difficulty", low=2, high=10) if raw_diff else None,
            weapon=_choice(values, "weapon", "weapon"),
            maneuver=_choice(values, "maneuver", "maneuver"),
            range_=_choice(values, "range", "range"),
            rage_action=is_on(values, "rage_action"),
            force=holder.is_storyteller and is_on(values, "force"),
            wait=form_int(values, "wait", "time to answer", 30, low=0, high=P.MAX_WAIT),
        )

    def message(prompt) -> str:
        a = prompt.asked
        who = "the Storyteller's" if a["npc"] else f"{a['target']}'s"
        return f"{a['attacker']} attacks {a['target']}: waiting for {who} answer"

    return await asyncio.to_thread(apply_change, request, table, holder, "health", work, message)


def _check_answerer(prompt: P.Prompt, holder: LinkHolder) -> None:
    if holder.is_storyteller:
        return
    if prompt.kind != "attack" or prompt.asked.get("target_id") != holder.character_id:
        raise Forbidden("Only the defender's own link (or the Storyteller's) answers this attack.")


@router.post("/prompt/{prompt_id}/answer")
async def answer(prompt_id: int, request: Request, holder: Change, table: TableDep) -> Response:
    """The defender's answer to an attack: take, dodge, block or parry."""
    values = await form_values(request)

    def work(gw):
        prompt = P.find_prompt(gw, _id(prompt_id), table.chronicle)
        _check_answerer(prompt, holder)
        seed = seed_from(values) if holder.is_storyteller else None
        return P.answer_attack(
            gw,
            table.chronicle,
            prompt.id,
            str(values.get("answer") or ""),
            storyteller=holder.is_storyteller,
            seed=seed,
        )

    def message(out) -> str:
        _, card = out
        return card_words(card)

    return await asyncio.to_thread(apply_change, request, table, holder, "health", work, message)


def card_words(card: dict) -> str:
    """An attack card in one line: 'HIT: Archibald takes 2 lethal (1 soaked), now Hurt' or 'MISS'."""
    if not card["hit"]:
        return f"MISS: {card['attacker']}'s attack on {card['target']} did not land"
    soaked = f" ({card['soaked']} soaked)" if card.get("soaked") else ""
    return (
        f"HIT: {card['target']} takes {card['wounds']} {card['damage_type']}{soaked}; {card['target']} {card['health']}"
    )


def _id(prompt_id: int) -> int:
    if not 1 <= prompt_id < 2**62:
        raise InvalidValue(f"prompt id {prompt_id}: allowed 1 to 2**62")
    return prompt_id


@router.post("/prompt/{prompt_id}/close")
async def close(prompt_id: int, request: Request, holder: StorytellerChange, table: TableDep) -> Response:
    """The Storyteller closes a prompt: an attack is taken back unrolled, a call ends where it stands."""

    def work(gw):
        prompt = P.find_prompt(gw, _id(prompt_id), table.chronicle)
        if prompt.kind == "call":
            return P.close_call(gw, table.chronicle, prompt.id)
        return P.withdraw_prompt(gw, table.chronicle, prompt.id)

    return await asyncio.to_thread(
        apply_change, request, table, holder, "health", work, lambda p: f"Closed: {p.kind} {p.id}"
    )


@router.post("/call")
async def call(request: Request, holder: StorytellerChange, table: TableDep) -> Response:
    """The Storyteller calls for a roll: pool, difficulty (empty: the chronicle's), the characters asked
    (none: everyone), open or secret."""
    form = await request.form()
    values: dict[str, Any] = {k: form.get(k) for k in form}
    ids = [str(v) for v in form.getlist("characters") if str(v).strip()]

    def work(gw):
        raw = str(values.get("difficulty") or "").strip()
        chosen = [form_id({"id": v}, "id", "character") for v in ids]
        return P.call_for_roll(
            gw,
            table.chronicle,
            str(values.get("pool") or ""),
            difficulty=form_int(values, "difficulty", "difficulty", low=2, high=10) if raw else None,
            characters=chosen,
            secret=is_on(values, "secret"),
        )

    def message(prompt) -> str:
        names = ", ".join(c["name"] for c in prompt.asked["characters"])
        return f"Called for {prompt.asked['pool']} at {prompt.asked['difficulty']}: {names}"

    return await asyncio.to_thread(apply_change, request, table, holder, "health", work, message)


@router.post("/call/{prompt_id}/roll")
async def call_roll(prompt_id: int, request: Request, holder: Change, table: TableDep) -> Response:
    """One character's roll for a call: the player's own, or any asked character's from the Storyteller."""
    values = await form_values(request)

    def work(gw):
        cid = form_id(values, "character_id", "character")
        if not holder.is_storyteller and cid != holder.character_id:
            raise Forbidden("A player's link rolls only for that player's own character.")
        return P.answer_call(
            gw,
            table.chronicle,
            _id(prompt_id),
            cid,
            willpower=is_on(values, "willpower"),
            seed=seed_from(values) if holder.is_storyteller else None,
        )

    def message(out) -> str:
        _, done = out
        r = done.roll
        said = (
            "BOTCH"
            if r.outcome.value == "botch"
            else f"{r.final_successes} success" + ("" if r.final_successes == 1 else "es")
        )
        return f"{done.character or 'Rolled'}: {said} (dice {' '.join(map(str, r.dice))})"

    return await asyncio.to_thread(apply_change, request, table, holder, "roll", work, message)


@router.get("/prompts", response_class=HTMLResponse)
def prompts(holder: Holder, table: TableDep) -> Response:
    """The open prompts this link answers: a player's own defence and calls; every prompt for the
    Storyteller (with the exact odds of each answer)."""
    try:
        ctx = table.read(lambda gw: prompts_view(gw, table.chronicle, holder))
    except StkitError as exc:
        return HTMLResponse(table.fragment("message.html", error=str(exc).splitlines()[0] if str(exc) else "error"))
    return HTMLResponse(table.fragment("prompts.html", **ctx))


def prompts_view(gw, chronicle: str, holder: LinkHolder) -> dict:
    """The open prompts as the prompts panel shows them."""
    st = holder.is_storyteller
    attacks, calls = [], []
    for prompt in P.open_prompts(gw, chronicle):
        a = prompt.asked
        if prompt.kind == "attack":
            if not st and a.get("target_id") != holder.character_id:
                continue
            try:
                options = [
                    o.to_dict() | {"p_hit_f": o.p_hit, "p_def_f": o.p_defence} for o in P.defence_options(gw, prompt)
                ]
            except StkitError as exc:
                options = []
                a = {**a, "problem": str(exc).splitlines()[0]}
            attacks.append(
                {
                    "id": prompt.id,
                    "asked": a,
                    "options": options,
                    "answer_by": prompt.answer_by,
                    "waiting": prompt.waiting(),
                    "mine": a.get("target_id") == holder.character_id,
                }
            )
        else:
            mine = [c for c in a.get("characters", []) if st or c["id"] == holder.character_id]
            rows = []
            for c in mine:
                done = prompt.answers.get(str(c["id"]))
                odds = None if done else P.call_odds(gw, prompt, c["id"]).odds
                rows.append(
                    {
                        **c,
                        "done": done,
                        "p_success": odds.p_success if odds else None,
                        "p_botch": odds.p_botch if odds else None,
                    }
                )
            if not st and all(r["done"] for r in rows):
                continue
            if rows:
                calls.append({"id": prompt.id, "asked": a, "rows": rows})
    return {"attacks": attacks, "calls": calls, "storyteller": st}


@router.post("/link/new")
async def new_link(request: Request, holder: StorytellerChange, table: TableDep) -> Response:
    """The Storyteller hands one player a new join link, shown with its QR code (the earlier links keep
    working)."""
    values = await form_values(request)

    def work(gw):
        name = character_name(gw, table.chronicle, form_id(values, "character_id", "character"))
        return issue_player_link(gw, table.chronicle, name)

    def message(link) -> Markup:
        url = str(request.base_url).rstrip("/") + f"/join/{link.token}"
        qr = Markup(segno.make(url, error="m").svg_inline(scale=4, title=f"Join link of {link.character}"))
        return Markup(table.fragment("link.html", who=link.character, url=url, qr=qr))

    return await asyncio.to_thread(apply_change, request, table, holder, "scene", work, message)


@router.post("/initiative/hold")
async def initiative_hold(request: Request, holder: Change, table: TableDep) -> Response:
    """The acting character holds their action for later in the turn (the Storyteller's link, or the
    player's own)."""
    values = await form_values(request)

    def work(gw):
        cid = form_id(values, "character_id", "character")
        if not holder.is_storyteller and cid != holder.character_id:
            raise Forbidden("A player's link holds only that player's own action.")
        return hold_action(gw, table.chronicle, character_name(gw, table.chronicle, cid))

    return await asyncio.to_thread(
        apply_change, request, table, holder, "scene", work, lambda h: f"{h.character} holds their action"
    )


@router.post("/initiative/add")
async def initiative_add(request: Request, holder: StorytellerChange, table: TableDep) -> Response:
    """Add a latecomer to the open scene's initiative order without rerolling the others."""
    values = await form_values(request)

    def work(gw):
        name = character_name(gw, table.chronicle, form_id(values, "character_id", "character"))
        return add_to_initiative(gw, table.chronicle, [name], seed=seed_from(values))

    def message(scene) -> str:
        return "Initiative: " + ", ".join(f"{o.name} {o.total}" for o in scene.order)

    return await asyncio.to_thread(apply_change, request, table, holder, "scene", work, message)
