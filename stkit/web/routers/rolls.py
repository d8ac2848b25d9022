"""``POST /roll``: a roll from a sheet or (Storyteller) a bare number of dice; ``POST /roll/saved``: a saved
roll by name; ``POST /saved`` and ``GET /saved/ID``: saving a roll and the saved-roll buttons; ``GET /odds``:
a roll's exact chances. All go through the store's use cases, as `stkit roll`, `stkit saved` and `stkit
odds` do. The answer under the Roll button is the result itself (outcome and dice), coloured by outcome."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from stkit.dice import MAX_POOL, validate_pool
from stkit.errors import InvalidValue, RuleRefusal, StkitError
from stkit.sheet.compose import base_difficulty, check_extra_dice
from stkit.sheet.pools import build_pool
from stkit.store.characters import find_character
from stkit.store.house import rules_in_force
from stkit.store.rolling import Purpose, make_roll, odds_for
from stkit.store.saved import find_saved, roll_saved, save_roll, saved_rolls
from stkit.store.table.events import LinkHolder, TableEvent, dice_marks
from stkit.text import MAX_NAME, check_text, fold_name
from stkit.web.deps import Change, Holder, TableDep
from stkit.web.forms import apply_change, character_name, form_id, form_int, form_text, is_on, roll_order, seed_from
from stkit.web.table import Forbidden
from stkit.web.views import feed_item

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


router = APIRouter()


@router.get("/odds", response_class=HTMLResponse)
def odds(request: Request, holder: Holder, table: TableDep) -> Response:
    form: dict[str, Any] = dict(request.query_params)
    form["trait"] = request.query_params.getlist("trait")
    try:
        ctx = table.read(lambda gw: odds_view(gw, table.chronicle, holder, form))
    except StkitError as exc:
        return HTMLResponse(table.fragment("message.html", error=str(exc).splitlines()[0] if str(exc) else "error"))
    return HTMLResponse(table.fragment("odds.html", **ctx))


@router.post("/roll")
async def roll(request: Request, holder: Change, table: TableDep) -> Response:
    values = await _roll_values(request, holder)
    secret, blind = _secrecy(values, holder)

    def work(gw):
        return roll_use_case(gw, table.chronicle, values, secret=secret or blind, storyteller=holder.is_storyteller)

    return await asyncio.to_thread(
        apply_change, request, table, holder, "roll", _page_words(work), _result_for(table, blind)
    )


@router.post("/roll/saved")
async def roll_saved_route(request: Request, holder: Change, table: TableDep) -> Response:
    """A saved roll by name (one tap on the phone), through the same sheet roll as every roll."""
    values = await _roll_values(request, holder)
    secret, blind = _secrecy(values, holder)

    def work(gw):
        return saved_roll_use_case(
            gw, table.chronicle, values, secret=secret or blind, storyteller=holder.is_storyteller
        )

    return await asyncio.to_thread(
        apply_change, request, table, holder, "roll", _page_words(work), _result_for(table, blind)
    )


@router.post("/saved")
async def save_route(request: Request, holder: Change, table: TableDep) -> Response:
    """Save the roll the form describes (its Traits, extra dice and difficulty) under ``save_name``. A
    saved roll of that name is replaced only when the form's Replace box is ticked (``stkit saved add
    --force``); else it is refused, naming the box, and nothing is written."""

    values = await _roll_values(request, holder)
    replace = is_on(values, "replace")

    def work(gw):
        name = character_name(gw, table.chronicle, form_id(values, "character_id", "character"))
        raw = str(values.get("difficulty") or "").strip()
        own = form_int(values, "difficulty", "difficulty") if raw else None
        expression = _expression(values)
        sheet = find_character(gw, name, table.chronicle).to_sheet()
        rules = rules_in_force(gw, table.chronicle)
        by_player = not holder.is_storyteller
        check_extra_dice(rules, build_pool(sheet, expression, empty_ok=True), by_player=by_player)
        difficulty = base_difficulty(rules, own, by_player=by_player)
        save_name = str(values.get("save_name") or "")
        if not replace:
            _refuse_same_name(sheet, save_name)
        return save_roll(
            gw,
            name,
            save_name,
            expression,
            difficulty=rules.difficulty if difficulty is None else difficulty,
            spec=is_on(values, "spec"),
            chronicle=table.chronicle,
            replace=replace,
        )

    return await asyncio.to_thread(
        apply_change,
        request,
        table,
        holder,
        "roll",
        work,
        lambda r: f"{'Replaced' if r.replaced else 'Saved'} {r.label}",
    )


def _refuse_same_name(sheet, save_name: str) -> None:
    """InvalidValue naming the page's Replace box when ``sheet`` has a saved roll called ``save_name``
    (case and accents ignored, as the store compares them); the store refuses it too, in CLI words."""

    for old, entry in sheet.saved_rolls.items():
        if fold_name(old) == fold_name(save_name.strip()):
            raise InvalidValue(
                f"{sheet.name} already has a saved roll {old!r} ({entry['pool']}); tick Replace to replace it"
            )


@router.get("/saved/{character_id}", response_class=HTMLResponse)
def saved_buttons(character_id: int, holder: Holder, table: TableDep) -> Response:
    """The saved-roll buttons of one character's roll form (read again when the sheet changes)."""

    def work(gw, row):
        return {"name": row.name, "choices": {"saved": [r.to_dict() for r in saved_rolls(row.to_sheet())]}}

    found = table.read_character(holder, character_id, work)
    if found is None:
        return HTMLResponse("<p>That character is gone.</p>", status_code=404)
    return HTMLResponse(table.fragment("saved_buttons.html", s=found, storyteller=holder.is_storyteller))


async def _roll_values(request: Request, holder: LinkHolder) -> dict[str, Any]:
    """The posted roll form, checked for what the link may do: only the Storyteller rolls secretly or
    chooses the seed; a player rolls only for their own character."""
    form = await request.form()
    values: dict[str, Any] = {k: form.get(k) for k in form}
    values["trait"] = form.getlist("trait")
    check_roll_permission(values, holder)
    return values


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


def _secrecy(values: dict, holder: LinkHolder) -> tuple[bool, bool]:
    """(secret, blind): the Storyteller's secret roll, or a player's blind roll (its dice shown to the
    Storyteller only; the player learns only that it was rolled)."""
    return holder.is_storyteller and is_on(values, "secret"), not holder.is_storyteller and is_on(values, "blind")


def check_secret_spend(values: dict, *, secret: bool, storyteller: bool, character: str) -> None:
    """Refuse (RuleRefusal, naming why) a secret or blind roll that would spend Willpower from a sheet its
    player sees, which would tell the player a secret roll happened: a player's blind roll always, the
    Storyteller's secret roll unless ``confirm_visible`` says the player may see it."""
    if not (secret and is_on(values, "willpower")):
        return
    if not storyteller:
        raise RuleRefusal(
            "a blind roll cannot spend Willpower: your sheet would show the point gone; roll openly to spend it"
        )
    if not is_on(values, "confirm_visible"):
        raise RuleRefusal(
            f"this secret roll would spend {character}'s Willpower, and {character}'s player sees the point gone "
            "on their sheet; tick 'The player may see Willpower spent' to roll it anyway, or roll without Willpower"
        )


def _page_words(work):
    """``work`` with the command-line hint of a refusal said as the page's own control."""

    def run(gw):
        try:
            return work(gw)
        except RuleRefusal as exc:
            text = str(exc).replace("(next turn: stkit scene turn)", "(the Storyteller's Next turn button starts one)")
            raise RuleRefusal(text) from None

    return run


def _result_for(table: Any, blind: bool):
    """The answer under the Roll button: the outcome, coloured by it, with the dice and the unskilled
    rule's notes (a blind roll: only that it was rolled)."""

    def message(out: Any) -> Markup:
        done, notes = out
        if blind:
            return Markup(table.fragment("roll_result.html", blind=True))
        return Markup(table.fragment("roll_result.html", blind=False, r=result_view(done), notes=notes))

    return message


def result_view(done: Any) -> dict:
    """A roll's result as :func:`stkit.web.views.feed_item` shows it, from the use case's answer."""

    pool = getattr(done, "pool", None)
    data = {
        "roll": done.roll.to_dict(),
        "marks": dice_marks(done.roll),
        "breakdown": pool.text if pool is not None else None,
        "character": getattr(done, "character", None),
    }
    return feed_item(TableEvent(0, "", "", "roll", False, None, data), storyteller=False)


#: The most Traits one roll names (two, or one rated 10; the third is refused by the pool's own rule).
MAX_TRAITS = 3


def _traits(values: dict) -> list[str]:
    """The form's Traits, each checked as text (at most :data:`MAX_TRAITS` of them)."""

    raw = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    if len(raw) > MAX_TRAITS:
        raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
    return [check_text(t, "Trait", limit=MAX_NAME) for t in raw]


def _expression(values: dict) -> str:
    """The pool the form's Traits and extra dice make ('Dexterity + Brawl + 2'), or the one-tap ``pool``
    button's pool when that was pressed. How many extra dice a player may add is the use case's to say
    (:func:`stkit.sheet.compose.check_extra_dice`). Raises InvalidValue otherwise."""

    pool = str(values.get("pool") or "").strip()
    if pool:
        return check_text(pool, "pool", limit=120)
    traits = _traits(values)
    if not traits:
        raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
    expression = " + ".join(traits)
    # extra dice (or a penalty) after the Traits, as the CLI's 'Dexterity + Brawl + 2'
    extra = form_int(values, "dice", "extra dice", 0, low=-MAX_POOL, high=MAX_POOL)
    if extra:
        expression += f" + {extra}" if extra > 0 else f" - {-extra}"
    return expression


def saved_roll_use_case(gw: Gateway, chronicle: str, values: dict, *, secret: bool, storyteller: bool):
    """A saved roll from the page (``values``: character_id, saved, willpower, specialty, confirm_visible,
    seed) through :func:`stkit.store.saved.roll_saved` (the composition, unskilled rule included, is the
    use case's). Returns (SheetRoll, notes)."""

    name = character_name(gw, chronicle, form_id(values, "character_id", "character"))
    check_secret_spend(values, secret=secret, storyteller=storyteller, character=name)
    saved = find_saved(find_character(gw, name, chronicle).to_sheet(), str(values.get("saved") or ""))
    done = roll_saved(
        gw,
        name,
        saved.name,
        chronicle=chronicle,
        willpower=is_on(values, "willpower"),
        seed=seed_from(values),
        secret=secret,
        by_player=not storyteller,
    )
    return done, list(done.notes)


def roll_use_case(gw: Gateway, chronicle: str, values: dict, *, secret: bool, storyteller: bool = False):
    """A roll from the web form (``values``: character_id, trait (list) or pool, dice, difficulty,
    willpower, specialty, task, auto, seed, confirm_visible) through :func:`stkit.store.rolling.make_roll`,
    as `stkit roll`: from a sheet or, on the Storyteller's screen, a bare number of dice. The roll's
    composition (the unskilled rule, the player's extra dice and difficulty, the house rules) is the use
    case's. A ``secret`` roll may not spend Willpower unseen (:func:`check_secret_spend`).
    Returns (the outcome, its notes); raises what it raises; nothing is written then."""

    fields = _roll_fields(gw, chronicle, values)
    if "character" in fields:
        check_secret_spend(values, secret=secret, storyteller=storyteller, character=fields["character"])
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
    done = make_roll(gw, order)
    return done, list(done.notes)


def _roll_fields(gw: Gateway, chronicle: str, values: dict) -> dict:
    """Who rolls what: {character, chronicle, expression, task} from a sheet, or {expression, chronicle,
    log} for a bare number of dice. Raises InvalidValue for Traits without a character and the like."""

    task = form_text(values, "task", "task", limit=MAX_NAME)
    cid = str(values.get("character_id") or "").strip()
    traits = _traits(values)
    if cid:
        name = character_name(gw, chronicle, form_id(values, "character_id", "character"))
        return {"character": name, "chronicle": chronicle, "expression": _expression(values), "task": task}
    if traits:
        raise InvalidValue("Traits need a character: choose whose sheet rolls them")
    if task:
        raise InvalidValue("try again needs a character: a task is counted per character")
    if is_on(values, "auto") and is_on(values, "willpower"):
        raise InvalidValue("an automatic success is taken without rolling; it cannot go with Willpower")
    pool = validate_pool(form_int(values, "dice", "dice pool", low=-MAX_POOL, high=10 * MAX_POOL))
    return {"expression": str(pool), "chronicle": chronicle, "log": True}


def odds_view(gw: Gateway, chronicle: str, holder: LinkHolder, values: dict) -> dict:
    """The exact chances of the roll a form describes (the pool as the sheet builds it, with the unskilled
    rule's difficulty or dice and notes, or a number of dice), from :func:`stkit.store.rolling.odds_for`:
    P(botch), P(failure), P(exactly k) and P(at least k)."""

    cid = str(values.get("character_id") or "").strip()
    traits = _traits(values)
    fields: dict[str, Any] = {"chronicle": chronicle}
    if cid:
        character_id = form_id(values, "character_id", "character")
        if not holder.is_storyteller and character_id != holder.character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")
        if not traits:
            return {"odds": None, "note": "Choose Traits to see the odds."}
        fields |= {"character": character_name(gw, chronicle, character_id), "expression": " + ".join(traits)}
    else:
        fields["expression"] = str(
            validate_pool(form_int(values, "dice", "dice pool", low=-MAX_POOL, high=10 * MAX_POOL))
        )
    order = roll_order(values, storyteller=holder.is_storyteller, willpower=is_on(values, "willpower"), **fields)
    answer = odds_for(gw, order)
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
            "notes": list(answer.notes),
        },
        "note": None,
    }
