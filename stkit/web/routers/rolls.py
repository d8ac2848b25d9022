"""``POST /roll``: a roll from a sheet or (Storyteller) a bare number of dice; ``GET /odds``: its exact
chances. Both go through the store's use cases, as `stkit roll` and `stkit odds` do."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from stkit.dice import MAX_POOL
from stkit.errors import InvalidValue, StkitError
from stkit.store.events import LinkHolder
from stkit.web.deps import Change, Holder, TableDep
from stkit.web.forms import apply_change, character_name, form_id, form_int, form_text, is_on, roll_order, seed_from
from stkit.web.table import Forbidden

router = APIRouter()


@router.get("/odds", response_class=HTMLResponse)
def odds(request: Request, holder: Holder, table: TableDep) -> Response:
    form: dict[str, Any] = dict(request.query_params)
    form["trait"] = request.query_params.getlist("trait")
    try:
        ctx = table.read(lambda s: odds_view(s, table.chronicle, holder, form))
    except StkitError as exc:
        return HTMLResponse(table.fragment("message.html", error=str(exc).splitlines()[0] if str(exc) else "error"))
    return HTMLResponse(table.fragment("odds.html", **ctx))


@router.post("/roll")
async def roll(request: Request, holder: Change, table: TableDep) -> Response:
    form = await request.form()
    values: dict[str, Any] = {k: form.get(k) for k in form}
    values["trait"] = form.getlist("trait")
    check_roll_permission(values, holder)
    secret = is_on(values, "secret")

    def work(s):
        return roll_use_case(s, table.chronicle, values, secret=secret, storyteller=holder.is_storyteller)

    return await asyncio.to_thread(apply_change, request, table, holder, "roll", work, _roll_message)


def check_roll_permission(values: dict, holder: LinkHolder) -> None:
    """What only the Storyteller's link may ask of a roll: a secret roll, a chosen seed, another
    character's (or no character's) dice. Forbidden for a player's link. (A house-rule choice from a
    player's link is ignored: :func:`stkit.web.forms.roll_order` reads it only for the Storyteller.)"""
    if holder.is_storyteller:
        return
    if is_on(values, "secret"):
        raise Forbidden("Only the Storyteller's link may do this.")
    if str(values.get("seed") or "").strip():
        # a chosen seed chooses the dice: only the Storyteller replays a roll that way
        raise Forbidden("Only the Storyteller's link may seed a roll; the server rolls a player's dice.")
    cid = str(values.get("character_id") or "").strip()
    if not (cid.isascii() and cid.isdigit() and len(cid) <= 19) or int(cid) != holder.character_id:
        raise Forbidden("A player's link rolls only for that player's own character.")


#: The most Traits one roll names (two, or one rated 10; the third is refused by the pool's own rule).
MAX_TRAITS = 3


def _traits(values: dict) -> list[str]:
    """The form's Traits, each checked as text (at most :data:`MAX_TRAITS` of them)."""
    from stkit.text import MAX_NAME, check_text

    raw = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    if len(raw) > MAX_TRAITS:
        raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
    return [check_text(t, "Trait", limit=MAX_NAME) for t in raw]


def _roll_message(done: Any) -> str:
    r = done.roll
    if r.outcome.value == "botch":
        return "BOTCH"
    if r.outcome.value == "failure":
        return "Failure"
    return f"{r.result} success{'es' if r.result != 1 else ''}"


def roll_use_case(session: Any, chronicle: str, values: dict, *, secret: bool, storyteller: bool = False):
    """A roll from the web form (``values``: character_id, trait (list), dice, difficulty, willpower,
    specialty, task, auto, seed) through :func:`stkit.store.rolling.make_roll`, as `stkit roll`: from a
    sheet or, on the Storyteller's screen, a bare number of dice; under the chronicle's house rules (the
    Storyteller's link may override them). Raises what it raises; nothing is written then."""
    from stkit.store.gateway import as_gateway
    from stkit.store.rolling import Purpose, make_roll

    fields = _roll_fields(session, chronicle, values, storyteller=storyteller)
    order = roll_order(
        values,
        storyteller=storyteller,
        seed=seed_from(values),
        willpower=is_on(values, "willpower"),
        auto=is_on(values, "auto"),
        secret=secret,
        purpose=Purpose.sheet if "character" in fields else Purpose.plain,
        **fields,
    )
    return make_roll(as_gateway(session), order)


def _roll_fields(session: Any, chronicle: str, values: dict, *, storyteller: bool = False) -> dict:
    """Who rolls what: {character, chronicle, expression, task} from a sheet, or {expression, chronicle,
    log} for a bare number of dice. Raises InvalidValue for Traits without a character and the like."""
    from stkit.dice import validate_pool
    from stkit.store.gateway import as_gateway
    from stkit.store.house import rules_in_force
    from stkit.text import MAX_NAME

    task = form_text(values, "task", "task", limit=MAX_NAME)
    cid = str(values.get("character_id") or "").strip()
    traits = _traits(values)
    if cid:
        name = character_name(session, chronicle, form_id(values, "character_id", "character"))
        if not traits:
            raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
        # extra dice (or a penalty) after the Traits, as the CLI's 'Dexterity + Brawl + 2'; a player's
        # link stays within the chronicle's table-extra-dice
        limit = MAX_POOL if storyteller else rules_in_force(as_gateway(session), chronicle).table_extra_dice
        extra = form_int(values, "dice", "extra dice", 0, low=-limit, high=limit)
        expression = " + ".join(traits)
        if extra:
            expression += f" + {extra}" if extra > 0 else f" - {-extra}"
        return {"character": name, "chronicle": chronicle, "expression": expression, "task": task}
    if traits:
        raise InvalidValue("Traits need a character: choose whose sheet rolls them")
    if task:
        raise InvalidValue("try again needs a character: a task is counted per character")
    if is_on(values, "auto") and is_on(values, "willpower"):
        raise InvalidValue("an automatic success is taken without rolling; it cannot go with Willpower")
    pool = validate_pool(form_int(values, "dice", "dice pool", low=-MAX_POOL, high=10 * MAX_POOL))
    return {"expression": str(pool), "chronicle": chronicle, "log": True}


def odds_view(session: Any, chronicle: str, holder: LinkHolder, values: dict) -> dict:
    """The exact chances of the roll a form describes (the pool as the sheet builds it, or a number of dice),
    from :func:`stkit.dice.odds.roll_distribution`: P(botch), P(failure), P(exactly k) and P(at least k)."""
    from stkit.dice import validate_pool
    from stkit.store.gateway import as_gateway
    from stkit.store.rolling import odds_for

    cid = str(values.get("character_id") or "").strip()
    traits = _traits(values)
    fields: dict[str, Any] = {"chronicle": chronicle}
    if cid:
        character_id = form_id(values, "character_id", "character")
        if not holder.is_storyteller and character_id != holder.character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")
        if not traits:
            return {"odds": None, "note": "Choose Traits to see the odds."}
        fields |= {"character": character_name(session, chronicle, character_id), "expression": " + ".join(traits)}
    else:
        fields["expression"] = str(
            validate_pool(form_int(values, "dice", "dice pool", low=-MAX_POOL, high=10 * MAX_POOL))
        )
    order = roll_order(values, storyteller=holder.is_storyteller, willpower=is_on(values, "willpower"), **fields)
    answer = odds_for(as_gateway(session), order)
    dist, label, difficulty = answer.odds, answer.label, answer.odds.difficulty
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
