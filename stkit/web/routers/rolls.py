"""``POST /roll``: a roll from a sheet or (Storyteller) a bare number of dice; ``GET /odds``: its exact
chances. Both go through the store's use cases, as `stkit roll` and `stkit odds` do."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from stkit.dice import MAX_POOL
from stkit.errors import InvalidValue, StkitError
from stkit.store.events import LinkHolder
from stkit.web.deps import Change, Holder, TableDep
from stkit.web.forms import apply_change, character_name, form_id, form_int, form_rules, form_text, is_on, seed_from
from stkit.web.table import Forbidden

router = APIRouter()


@router.get("/odds", response_class=HTMLResponse)
def odds(request: Request, holder: Holder, table: TableDep) -> Response:
    form: dict[str, Any] = dict(request.query_params)
    form["trait"] = request.query_params.getlist("trait")
    try:
        ctx = table.read(lambda s: odds_view(s, table.chronicle, holder, form))
    except StkitError as exc:
        return HTMLResponse(table.fragment("message.html", error=str(exc).splitlines()[0]))
    return HTMLResponse(table.fragment("odds.html", **ctx))


@router.post("/roll")
async def roll(request: Request, holder: Change, table: TableDep) -> Response:
    form = await request.form()
    values: dict[str, Any] = {k: form.get(k) for k in form}
    values["trait"] = form.getlist("trait")
    check_roll_permission(values, holder)
    secret = is_on(values, "secret")

    def work(s):
        form = read_roll_form(s, table.chronicle, holder, values)
        return roll_use_case(s, table.chronicle, form, secret=secret, seed=seed_from(values))

    return await asyncio.to_thread(apply_change, request, table, holder, "roll", work, _roll_message)


def check_roll_permission(values: dict, holder: LinkHolder) -> None:
    """What only the Storyteller's link may ask of a roll: a secret roll, a chosen seed, a house rule
    changed for the roll, another character's (or no character's) dice. Forbidden for a player's link."""
    if holder.is_storyteller:
        return
    if is_on(values, "secret"):
        raise Forbidden("Only the Storyteller's link may do this.")
    if str(values.get("seed") or "").strip():
        # a chosen seed chooses the dice: only the Storyteller replays a roll that way
        raise Forbidden("Only the Storyteller's link may seed a roll; the server rolls a player's dice.")
    if str(values.get("specialty") or "").strip():
        raise Forbidden("The chronicle's house rules apply to a player's roll; only the Storyteller may change them.")
    cid = str(values.get("character_id") or "").strip()
    if not (cid.isascii() and cid.isdigit() and len(cid) <= 19) or int(cid) != holder.character_id:
        raise Forbidden("A player's link rolls only for that player's own character.")


#: The most Traits one roll names (two, or one rated 10; the third is refused by the pool's own rule).
MAX_TRAITS = 3


@dataclass(frozen=True)
class RollForm:
    """A roll as the table page asks for it, every field read and checked: ``character_id`` (None: a bare
    pool, the Storyteller's), ``traits``, ``extra`` dice (negative: a penalty), ``dice`` (a bare pool),
    ``difficulty`` (None: the chronicle's default), ``willpower``, ``auto``, ``task`` and ``overrides``
    (per-roll house rules, the Storyteller's only; keyword arguments of ChronicleRules.override)."""

    character_id: int | None
    traits: tuple[str, ...]
    extra: int
    dice: int | None
    difficulty: int | None
    willpower: bool
    auto: bool
    task: str | None
    overrides: dict


def read_roll_form(session: Any, chronicle: str, holder: LinkHolder, values: dict) -> RollForm:
    """The roll form's ``values`` read into a :class:`RollForm`: numbers by the one bounded reader, text
    through the CLI's checks, extra dice within the chronicle's ``table-extra-dice`` for a player's link.
    Raises InvalidValue naming the field."""
    from stkit.store.house import get_house_rules
    from stkit.text import MAX_NAME, check_text

    cid = str(values.get("character_id") or "").strip()
    raw_traits = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    if len(raw_traits) > MAX_TRAITS:
        raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
    traits = tuple(check_text(t, "Trait", limit=MAX_NAME) for t in raw_traits)
    if cid:
        limit = get_house_rules(session, chronicle).table_extra_dice if not holder.is_storyteller else MAX_POOL
        extra = form_int(values, "dice", "extra dice", 0, low=-limit, high=limit)
        dice = None
    else:
        extra, dice = 0, form_int(values, "dice", "dice pool", low=-MAX_POOL, high=10 * MAX_POOL)
    difficulty = form_int(values, "difficulty", "difficulty", 0, low=-100, high=100) or None
    return RollForm(
        character_id=form_id(values, "character_id", "character") if cid else None,
        traits=traits,
        extra=extra,
        dice=dice,
        difficulty=difficulty,
        willpower=is_on(values, "willpower"),
        auto=is_on(values, "auto"),
        task=form_text(values, "task", "task", limit=MAX_NAME),
        overrides=form_rules(values) if holder.is_storyteller else {},
    )


def _roll_message(done: Any) -> str:
    r = done.roll
    if r.outcome.value == "botch":
        return "BOTCH"
    if r.outcome.value == "failure":
        return "Failure"
    return f"{r.result} success{'es' if r.result != 1 else ''}"


def roll_use_case(session: Any, chronicle: str, form: RollForm, *, secret: bool, seed: int | None = None):
    """A roll from the web form, through the same use cases as `stkit roll`, under the chronicle's house
    rules (with the form's overrides): from a sheet (:func:`stkit.store.rolls.roll_from_sheet`) or, on
    the Storyteller's screen, a bare number of dice (:func:`stkit.store.rolls.log_plain_roll`). ``seed``:
    the Storyteller's, else a fresh one. Raises what they raise; nothing is written then."""
    from stkit.dice import validate_pool, validate_roll_options
    from stkit.store.house import get_house_rules
    from stkit.store.rolls import log_plain_roll, roll_dice, roll_from_sheet

    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    flags: dict[str, Any] = dict(form.overrides)
    if form.difficulty is not None:
        flags["difficulty"] = form.difficulty
    if form.character_id is not None:
        name = character_name(session, chronicle, form.character_id)
        if not form.traits:
            raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
        expression = " + ".join(form.traits)
        if form.extra:  # extra dice (or a penalty) after the Traits, as the CLI's 'Dexterity + Brawl + 2'
            expression += f" + {form.extra}" if form.extra > 0 else f" - {-form.extra}"
        return roll_from_sheet(
            session,
            name,
            expression,
            chronicle=chronicle,
            willpower=form.willpower,
            task=form.task,
            house_flags=flags,
            rng=random.Random(seed),
            auto=form.auto,
            seed=seed,
            secret=secret,
        )
    if form.traits:
        raise InvalidValue("Traits need a character: choose whose sheet rolls them")
    if form.task:
        raise InvalidValue("try again needs a character: a task is counted per character")
    assert form.dice is not None
    pool = validate_pool(form.dice)
    if form.auto and form.willpower:
        raise InvalidValue("an automatic success is taken without rolling; it cannot go with Willpower")
    house = get_house_rules(session, chronicle).override(**flags)
    validate_roll_options(house.difficulty, retry=0, automatic=form.auto, willpower=form.willpower, has_faces=False)
    result = roll_dice(
        pool,
        house.difficulty,
        faces=None,
        rng=random.Random(seed),
        rules=house.dice_rules(),
        willpower=form.willpower,
        retry=0,
        auto=form.auto,
        stressful=False,
    )
    return log_plain_roll(session, str(pool), result, chronicle=chronicle, seed=seed, house=house, secret=secret)


def odds_view(session: Any, chronicle: str, holder: LinkHolder, values: dict) -> dict:
    """The exact chances of the roll a form describes (the pool as the sheet builds it, or a number of dice),
    from :func:`stkit.dice.odds.roll_distribution`: P(botch), P(failure), P(exactly k) and P(at least k)."""
    from stkit.dice import validate_pool
    from stkit.dice.odds import roll_distribution
    from stkit.store.characters import find_character
    from stkit.store.house import get_house_rules
    from stkit.store.pools import build_pool

    form = read_roll_form(session, chronicle, holder, values)
    flags: dict[str, Any] = dict(form.overrides)
    if form.difficulty is not None:
        flags["difficulty"] = form.difficulty
    house = get_house_rules(session, chronicle).override(**flags)
    difficulty, rules = house.difficulty, house.dice_rules()
    if form.character_id is not None:
        if not holder.is_storyteller and form.character_id != holder.character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")
        if not form.traits:
            return {"odds": None, "note": "Choose Traits to see the odds."}
        row = find_character(session, character_name(session, chronicle, form.character_id), chronicle)
        built = build_pool(row, " + ".join(form.traits))
        pool, label = built.dice, built.text
    else:
        pool = validate_pool(form.dice if form.dice is not None else 0)
        label = f"{pool} dice"
    dist = roll_distribution(pool, difficulty, rules=rules, willpower=form.willpower)
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
