"""``POST /roll``: a roll from a sheet or (Storyteller) a bare number of dice; ``GET /odds``: its exact
chances. Both go through the store's use cases, as `stkit roll` and `stkit odds` do."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from stkit.errors import InvalidValue, StkitError
from stkit.store.events import LinkHolder
from stkit.web.deps import Change, Holder, TableDep
from stkit.web.forms import apply_change, character_name, form_int, form_rules, is_on, seed_from
from stkit.web.table import Forbidden

router = APIRouter()


@router.get("/odds", response_class=HTMLResponse)
def odds(request: Request, holder: Holder, table: TableDep) -> Response:
    form: dict[str, Any] = dict(request.query_params)
    form["trait"] = request.query_params.getlist("trait")
    try:
        ctx = table.read(lambda s: odds_view(s, table.chronicle, holder, form))
    except StkitError as exc:
        return HTMLResponse(table.fragment("message.html", error=str(exc)))
    return HTMLResponse(table.fragment("odds.html", **ctx))


@router.post("/roll")
async def roll(request: Request, holder: Change, table: TableDep) -> Response:
    form = await request.form()
    values: dict[str, Any] = {k: form.get(k) for k in form}
    values["trait"] = form.getlist("trait")
    secret = is_on(values, "secret")
    if secret and not holder.is_storyteller:
        raise Forbidden("Only the Storyteller's link may do this.")
    if str(values.get("seed") or "").strip() and not holder.is_storyteller:
        # a chosen seed chooses the dice: only the Storyteller replays a roll that way
        raise Forbidden("Only the Storyteller's link may seed a roll; the server rolls a player's dice.")
    cid_text = str(values.get("character_id") or "").strip()
    if not holder.is_storyteller and (
        not (cid_text.isascii() and cid_text.isdigit()) or int(cid_text) != holder.character_id
    ):
        raise Forbidden("A player's link rolls only for that player's own character.")

    def work(s):
        return roll_use_case(s, table.chronicle, values, secret=secret)

    return await asyncio.to_thread(apply_change, request, table, holder, "roll", work, _roll_message)


def _roll_message(done: Any) -> str:
    r = done.roll
    if r.outcome.value == "botch":
        return "BOTCH"
    if r.outcome.value == "failure":
        return "Failure"
    return f"{r.result} success{'es' if r.result != 1 else ''}"


def roll_use_case(session: Any, chronicle: str, values: dict, *, secret: bool):
    """A roll from the web form (``values``: character_id, trait (list), dice, difficulty, willpower,
    specialty, task, auto, seed), through the same use cases as `stkit roll`: from a sheet
    (:func:`stkit.store.rolls.roll_from_sheet`) or, on the Storyteller's screen, a bare number of dice
    (:func:`stkit.store.rolls.log_plain_roll`). Raises what they raise; nothing is written then."""
    from stkit.dice import validate_difficulty, validate_pool
    from stkit.store.rolls import log_plain_roll, roll_dice, roll_from_sheet

    difficulty = validate_difficulty(form_int(values, "difficulty", "difficulty", 6))
    rules = form_rules(values)
    seed = seed_from(values)
    willpower, auto = is_on(values, "willpower"), is_on(values, "auto")
    task = str(values.get("task") or "").strip() or None
    cid = str(values.get("character_id") or "").strip()
    traits = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    extra = str(values.get("dice") or "").strip()
    if cid:
        name = character_name(session, chronicle, form_int(values, "character_id", "character"))
        if not traits:
            raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
        expression = " + ".join(traits)
        if extra:  # extra dice (or a penalty) after the Traits, as the CLI's 'Dexterity + Brawl + 2'
            expression += f" {extra}" if extra[0] in "+-" else f" + {extra}"
        return roll_from_sheet(
            session,
            name,
            expression,
            difficulty=difficulty,
            chronicle=chronicle,
            willpower=willpower,
            task=task,
            rules=rules,
            rng=random.Random(seed),
            auto=auto,
            seed=seed,
            secret=secret,
        )
    if traits:
        raise InvalidValue("Traits need a character: choose whose sheet rolls them")
    if task:
        raise InvalidValue("try again needs a character: a task is counted per character")
    pool = validate_pool(form_int(values, "dice", "dice pool"))
    if auto and willpower:
        raise InvalidValue("an automatic success is taken without rolling; it cannot go with Willpower")
    result = roll_dice(
        pool,
        difficulty,
        faces=None,
        rng=random.Random(seed),
        rules=rules,
        willpower=willpower,
        retry=0,
        auto=auto,
        stressful=False,
    )
    return log_plain_roll(session, str(pool), result, chronicle=chronicle, seed=seed, secret=secret)


def odds_view(session: Any, chronicle: str, holder: LinkHolder, values: dict) -> dict:
    """The exact chances of the roll a form describes (the pool as the sheet builds it, or a number of dice),
    from :func:`stkit.dice.odds.roll_distribution`: P(botch), P(failure), P(exactly k) and P(at least k)."""
    from stkit.dice import validate_difficulty
    from stkit.dice.odds import roll_distribution
    from stkit.store.characters import find_character
    from stkit.store.pools import build_pool

    difficulty = validate_difficulty(form_int(values, "difficulty", "difficulty", 6))
    rules = form_rules(values)
    cid = str(values.get("character_id") or "").strip()
    traits = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    if cid:
        character_id = form_int(values, "character_id", "character")
        if not holder.is_storyteller and character_id != holder.character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")
        if not traits:
            return {"odds": None, "note": "Choose Traits to see the odds."}
        row = find_character(session, character_name(session, chronicle, character_id), chronicle)
        built = build_pool(row, " + ".join(traits))
        pool, label = built.dice, built.text
    else:
        pool = form_int(values, "dice", "dice pool")
        label = f"{pool} dice"
    dist = roll_distribution(pool, difficulty, rules=rules, willpower=is_on(values, "willpower"))
    rows = [("botch", dist.p_botch), ("failure", dist.p_failure)]
    top = min(dist.max_result, 10)
    rows += [(f"{k}", dist.p_exactly(k)) for k in range(1, top + 1)]
    most = max((p for _, p in rows), default=1) or 1
    return {
        "odds": {
            "label": label,
            "difficulty": difficulty,
            "rows": [(k, p, str(p), round(100 * float(p) / float(most))) for k, p in rows],
            "p_success": dist.p_success,
            "p_botch": dist.p_botch,
            "more": dist.max_result > top,
        },
        "note": None,
    }
