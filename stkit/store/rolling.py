"""One roll use case: every roll any door makes, and every odds answer, under the same rules.

:func:`make_roll` takes a :class:`RollOrder` (who rolls what, why, with which per-roll overrides, seed and
hand-rolled faces) and, inside the caller's ONE transaction: builds the random generator from the seed (so
a transaction retried after a lock rolls the same dice, and the logged seed replays them), resolves the
rules in force (:func:`stkit.store.house.rules_in_force`), builds the pool (from the sheet: form, wounds,
extra dice; or a bare number), applies the scene's turn rules, spends Willpower, rolls, claims the free
botch, writes the roll-log row and its table event, and returns a :class:`RollOutcome` that carries the
rules in force and what was forgiven. :func:`odds_for` is its sibling for exact odds.

Rules source: Chapter Five: Rules ("Rolling Dice", "Difficulties", "Automatic Successes" for Willpower,
"Try, Try Again", "Botches"); damage and soak rolls: Chapter Six: Combat (they never botch).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from stkit.config import default_chronicle
from stkit.dice.house import NO_OVERRIDES, ChronicleRules, RuleOverrides
from stkit.errors import InvalidValue, RuleRefusal
from stkit.text import check_text, counted

if TYPE_CHECKING:  # pragma: no cover
    from stkit.dice import HouseRules, RollResult
    from stkit.dice.combat import CombatRules
    from stkit.dice.odds import RollOdds
    from stkit.sheet.pools import PoolBreakdown
    from stkit.sheet.vocab import LogKind
    from stkit.store.db.gateway import Gateway  # sqlite3: not needed by a roll without a store
    from stkit.store.house import Forgiveness


class Purpose(StrEnum):
    """Which door a roll came in by: it decides how the pool is built (a damage or soak pool ignores the
    wound penalty), whether the roll may botch, and the kind its log entry is written with."""

    plain = "plain"
    sheet = "sheet"
    attack = "attack"
    damage = "damage"
    soak = "soak"
    initiative = "initiative"
    extended = "extended"
    contest = "contest"
    multi = "multi"
    resisted = "resisted"
    teamwork = "teamwork"
    power = "power"  # a fight rule's own roll (regeneration, shifting, staying active, Rage): its pool given


#: The roll-log kind (a :class:`stkit.sheet.vocab.LogKind` value, loaded only when a roll is logged) of
#: each purpose; a plain, multi, resisted or teamwork roll is logged as a 'roll'.
_LOG_KIND = {
    Purpose.attack: "attack",
    Purpose.damage: "damage",
    Purpose.soak: "soak",
    Purpose.extended: "extended",
    Purpose.contest: "contest",
}
#: Purposes whose bare-pool rolls are logged in the open scene's turn (tracked actions take place in it).
_IN_SCENE = frozenset({Purpose.extended, Purpose.contest})


@dataclass(frozen=True)
class RollOrder:
    """One roll asked for, by any door.

    Attributes:
        expression: the pool: Traits for a character ('Dexterity + Brawl + 2'), else a number of dice.
        character: the character whose sheet rolls (a name), or None for a bare pool.
        chronicle: the character's chronicle (None: any holding the name), or a bare pool's (None: the
            default chronicle).
        purpose: the door (:class:`Purpose`).
        overrides: this roll's own rule choices on top of the chronicle's house rules.
        faces: the faces of dice rolled by hand (1..10 each), or None to roll with the seeded generator.
        seed: the generator's seed (None: a fresh one, reported in the outcome).
        willpower: spend Willpower (from the sheet) for one success the 1s cannot cancel.
        retry: earlier failures of this task given by hand (0..).
        auto: take an automatic success; stressful: no automatic success allowed.
        task: the task name whose failures in the scene raise the difficulty (sheet rolls).
        note: free text kept in the log (one line, at most 200 characters).
        secret: for the Storyteller's screen only.
        spec: the roll uses a specialty of one of the pool's Traits (sheet rolls).
        log: write the log entry of a bare pool (a sheet roll is always logged; a bare pool that is not
            is still logged when the free botch forgives it: the forgiveness is its record).
        combat: the combat house rules of a damage or soak roll (None: as written).
        log_kind: the log entry's kind when the door names its own (a Rage action), else by purpose.
        extra: more keys for the log entry's detail (a hit's levels and type, say).
        built: the pool as the door built it from the sheet (a fight rule's Stamina with no wound
            penalty, a Rage rating), rolled as is; None: built from ``expression``.
        successes: automatic successes added to the dice's (``--successes N``; a '+Ns' term in
            ``expression`` adds to them), 0..1000; 1s cancel them.
        by_player: made from a player's link or phone, or by a claimed Discord user: the player's own
            difficulty counts only under ``player-difficulty yes``, the extra dice are bounded by
            ``table-extra-dice`` and the rule choices in ``overrides`` are dropped
            (:func:`stkit.sheet.compose.compose_roll`).
        preset_difficulty: the difficulty the Storyteller called for this roll, or a saved roll's (2..10),
            used when the roll names none it may use; None: the chronicle's default.
        dice_rules: the dice rules decided by the door for this roll (an attack's step,
            :meth:`stkit.dice.combat.AttackSpec.step_rules`), used as they are; None: the rules in force
            with ``spec``.
    """

    expression: str
    character: str | None = None
    chronicle: str | None = None
    purpose: Purpose = Purpose.plain
    overrides: RuleOverrides = NO_OVERRIDES
    faces: tuple[int, ...] | None = None
    seed: int | None = None
    willpower: bool = False
    retry: int = 0
    auto: bool = False
    stressful: bool = False
    task: str | None = None
    note: str | None = None
    secret: bool = False
    spec: bool = False
    log: bool = True
    combat: CombatRules | None = None
    log_kind: LogKind | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    built: PoolBreakdown | None = None
    successes: int = 0
    by_player: bool = False
    preset_difficulty: int | None = None
    dice_rules: HouseRules | None = None

    def __post_init__(self) -> None:
        from stkit.dice.expr import split_automatic  # lazy: start-up (`stkit log` rolls nothing)

        object.__setattr__(self, "purpose", Purpose(self.purpose))
        if self.preset_difficulty is not None:
            from stkit.dice import validate_difficulty  # lazy: start-up (`stkit log` rolls nothing)

            validate_difficulty(self.preset_difficulty)
        expression, automatic = split_automatic(self.expression)
        if automatic:
            object.__setattr__(self, "expression", expression)
            object.__setattr__(self, "successes", self.successes + automatic)
        if self.faces is not None:
            object.__setattr__(self, "faces", tuple(self.faces))

    @property
    def kind(self) -> LogKind:
        """The roll-log kind this roll is written with."""
        from stkit.sheet.vocab import LogKind  # lazy: start-up (a plain roll writes no log entry)

        return self.log_kind or LogKind(_LOG_KIND.get(self.purpose, "roll"))

    @property
    def never_botches(self) -> bool:
        """Damage and soak rolls never botch (Chapter Six)."""
        return self.purpose in (Purpose.damage, Purpose.soak)


@dataclass(frozen=True)
class RollOutcome:
    """What one roll did.

    Attributes:
        roll: the result as reported (a forgiven botch is a failure).
        pool: how the pool was built from the sheet (None for a bare pool).
        log_id: the log entry (None when nothing was logged).
        character, chronicle: who rolled (None for a bare pool) and where.
        willpower_left: Willpower left after the spend (None when none was spent).
        scene_id, turn: the open scene's turn the roll fell in (None outside a scene).
        task, task_retry: the task and its earlier failures counted by the scene.
        notes: lines for the player (try-again raise, specialty used).
        rules: the rules in force for this roll.
        forgiveness: what the free botch did.
        note: the roll's note as stored.
        specialty_used: {"trait", "name", "rule"} when the roll used a specialty.
        seed: the generator's seed (None when dice were given by hand or the success was automatic).
    """

    roll: RollResult
    pool: PoolBreakdown | None = None
    log_id: int | None = None
    character: str | None = None
    chronicle: str = "default"
    willpower_left: int | None = None
    scene_id: int | None = None
    turn: int | None = None
    task: str | None = None
    task_retry: int = 0
    notes: list[str] = field(default_factory=list)
    rules: ChronicleRules = field(default_factory=ChronicleRules)
    forgiveness: Forgiveness | None = None
    note: str | None = None
    specialty_used: dict | None = None
    seed: int | None = None

    @property
    def house_in_force(self) -> tuple[str, ...]:
        """The house rules in force, one short phrase each."""
        return tuple(self.rules.in_force())

    @property
    def forgiven_botch(self) -> bool:
        """True when the free botch forgave this roll's botch."""
        return bool(self.forgiveness and self.forgiveness.forgiven)

    def to_dict(self) -> dict:
        return {
            "house_rules_in_force": list(self.house_in_force),
            "forgiven_botch": self.forgiven_botch,
            "note": self.note,
            "character": self.character,
            "chronicle": self.chronicle,
            "pool_breakdown": self.pool.to_dict() if self.pool else None,
            "log_id": self.log_id,
            "willpower_left": self.willpower_left,
            "scene_id": self.scene_id,
            "turn": self.turn,
            "task": self.task,
            "task_retry": self.task_retry,
            "notes": self.notes,
            **({"specialty_used": self.specialty_used} if self.specialty_used else {}),
        }


#: The name the sheet-roll outcome had before every door shared it.
SheetRoll = RollOutcome


def generator(seed: int | None) -> tuple[random.Random, int]:
    """(random.Random seeded with ``seed``, the seed): a fresh seed when None. Call it inside the
    transaction, so that a retried transaction rolls the same dice."""
    seed = fresh_seed(seed)
    return random.Random(seed), seed


def fresh_seed(seed: int | None) -> int:
    """``seed``, or a fresh one when None (reported, so that any roll can be replayed)."""
    return random.SystemRandom().randrange(2**32) if seed is None else seed


def check_note(note: str | None) -> str | None:
    """A roll's note as stored: stripped, None when empty. Raises InvalidValue for control characters or
    more than 200 characters."""

    if note is None or not note.strip():
        return None
    return check_text(note.strip(), "--note")


# ---------------------------------------------------------------------------------------------- the log

#: The roll_log columns, in the order of :func:`log_dict` (id first).
LOG_COLUMNS = (
    "id",
    "created_at",
    "chronicle",
    "character_id",
    "character_name",
    "kind",
    "expression",
    "pool",
    "difficulty",
    "dice",
    "outcome",
    "result",
    "willpower",
    "scene_id",
    "turn",
    "task",
    "detail",
)
_INSERT_LOG = (
    f"INSERT INTO roll_log ({', '.join(LOG_COLUMNS[1:])}) VALUES ({', '.join(':' + c for c in LOG_COLUMNS[1:])})"
)


@dataclass(frozen=True)
class LoggedRoll:
    """The roll-log entry just written, as the scene hooks see it."""

    id: int
    willpower: bool
    scene_id: int | None
    turn: int | None
    task: str | None


def write_log(
    gw: Gateway,
    *,
    chronicle: str,
    character_id: int | None,
    character_name: str,
    expression: str,
    result: RollResult,
    detail: dict,
    scene_id: int | None = None,
    turn: int | None = None,
    task: str | None = None,
    kind: str = "roll",  # a LogKind
    secret: bool = False,
) -> LoggedRoll:
    """Insert one roll-log entry and its 'roll' table event (in the gateway's transaction) and return it
    with its id. A ``secret`` roll is marked in ``detail`` and its event is for the Storyteller only."""
    import json  # lazy: start-up (a plain roll logs nothing)

    from stkit.store.table.events import (
        record_event,
        roll_event_data,
    )  # lazy: start-up (a plain roll does not load this)

    if secret:
        detail = detail | {"secret": True}
    values = dict(
        created_at=gw.timestamp(datetime.now(UTC)),
        chronicle=chronicle,
        character_id=character_id,
        character_name=character_name,
        kind=str(kind),
        expression=expression,
        pool=result.pool,
        difficulty=result.difficulty,
        dice=json.dumps(list(result.dice)),
        outcome=result.outcome.value,
        result=result.final_successes,
        willpower=bool(result.willpower),
        scene_id=scene_id,
        turn=turn,
        task=task,
        detail=json.dumps(detail, sort_keys=True),
    )
    log_id = gw.insert(_INSERT_LOG, **values)
    record_event(
        gw,
        chronicle=chronicle,
        kind="roll",
        secret=secret,
        character_id=character_id,
        data=roll_event_data(
            log_id=log_id,
            character=character_name,
            expression=expression,
            breakdown=detail.get("breakdown"),
            result=result,
            scene_id=scene_id,
            turn=turn,
            task=task,
            kind=str(kind),
        )
        | ({"by": str(detail["by"])} if detail.get("by") else {}),
    )
    return LoggedRoll(log_id, bool(values["willpower"]), scene_id, turn, task)


def add_log_detail(gw: Gateway, log_id: int | None, **more: Any) -> None:
    """Add keys to the detail of log entry ``log_id`` (what its door learned after the roll: a soak's
    levels soaked), in the caller's transaction; nothing for None."""
    import json  # lazy: start-up (a plain roll logs nothing)

    if log_id is None:
        return
    row = gw.row("SELECT detail FROM roll_log WHERE id = :id", id=log_id)
    detail = json.loads(row[0] or "{}") if row else {}
    gw.execute("UPDATE roll_log SET detail = :d WHERE id = :id", d=json.dumps(detail | more, sort_keys=True), id=log_id)


def _detail(order: RollOrder, rules: ChronicleRules, result: RollResult, seed: int | None, **more: Any) -> dict:
    """The log entry's detail: how the roll was made, the same keys from every door."""
    dice = result.rules
    out: dict[str, Any] = {
        "seed": _shown_seed(order, seed),
        "retry": result.retry,
        "automatic": result.automatic,
        "specialty": dice.specialty.value,
        "ones_cancel": dice.ones_cancel,
        "extra_ones_cancel": dice.extra_ones_cancel,
        "house_rules_in_force": rules.in_force(),
    }
    if order.combat is not None:
        out["combat_rules"] = order.combat.to_dict()
    return out | {k: v for k, v in more.items() if v is not None} | order.extra


# ---------------------------------------------------------------------------------------------- rolling


def _dice(order: RollOrder, pool: int, difficulty: int, rules: ChronicleRules, rng: random.Random, retry: int):
    """Roll (or count, or take automatically) ``pool`` dice for ``order`` under ``rules``."""
    from stkit.dice import RollRequest, resolve_roll  # lazy: start-up (`stkit log` rolls nothing)

    if order.never_botches:
        from stkit.dice.combat import STANDARD_COMBAT as as_written  # lazy: start-up (a plain roll does not load this)
        from stkit.dice.combat import RollPurpose, roll_kind  # lazy: start-up (a plain roll does not load this)

        return roll_kind(
            RollPurpose(order.purpose.value),
            pool,
            difficulty,
            rng=rng,
            faces=order.faces,
            rules=order.dice_rules or rules.dice_rules(order.spec),
            combat=order.combat or as_written,
            willpower=order.willpower,
        )
    request = RollRequest(
        pool,
        difficulty,
        rules=order.dice_rules or rules.dice_rules(order.spec),
        willpower=order.willpower,
        retry=retry,
        automatic=order.auto,
        stressful=order.stressful,
        faces=order.faces,
        successes=order.successes,
    )
    return resolve_roll(request, rng=rng)


def make_roll(gw: Gateway | None, order: RollOrder, *, rng: random.Random | None = None) -> RollOutcome:
    """Make the roll ``order`` asks for, in the caller's transaction on ``gw`` (None: there is no store,
    so the rules as written and nothing logged; only for a bare pool that logs nothing).

    ``rng``: the generator of the door's earlier roll in the same transaction (resisted, teamwork, multiple
    actions, combat share one seed); None builds one from ``order.seed``. Raises InvalidValue (bad pool,
    difficulty, faces, note), NotFound (no such character), RuleRefusal (no Willpower left, Willpower
    already spent this turn, an automatic success refused); nothing is written then.
    """
    seed = order.seed
    if rng is None:
        rng, seed = generator(seed)
    note = check_note(order.note)
    if order.character is not None:
        if gw is None:
            raise InvalidValue("a roll from a character sheet needs the store")
        return _sheet_roll(gw, order, rng, seed, note)
    return _bare_roll(gw, order, rng, seed, note)


def make_rolls(gw: Gateway | None, orders: list[RollOrder]) -> list[RollOutcome]:
    """Several rolls of one door (resisted, teamwork, multiple actions) in the caller's transaction, in
    order, with ONE generator seeded from the first order's seed. Raises what :func:`make_roll` raises
    (nothing is written then)."""
    rng, _ = generator(orders[0].seed if orders else None)
    return [make_roll(gw, order, rng=rng) for order in orders]


def _shown_seed(order: RollOrder, seed: int | None) -> int | None:
    return None if order.faces is not None or order.auto else seed


def _forgive(gw: Gateway | None, chronicle: str, result: RollResult, rules: ChronicleRules) -> Forgiveness:
    from stkit.store.house import Forgiveness, claim_free_botch  # lazy: start-up (`stkit log` rolls nothing)

    if gw is None:
        return Forgiveness(result)
    return claim_free_botch(gw, chronicle, result, rules)


def _bare_roll(gw: Gateway | None, order: RollOrder, rng: random.Random, seed: int | None, note: str | None):
    """A bare number of dice: no sheet, so no Willpower point to spend from it (its extra success stands)."""
    from stkit.dice import parse_pool_number, validate_pool  # lazy: start-up (`stkit log` rolls nothing)
    from stkit.dice.expr import pool_sum_note  # lazy: start-up (`stkit log` rolls nothing)
    from stkit.store.house import link_free_botch  # lazy: start-up (`stkit log` rolls nothing)

    chronicle = default_chronicle(order.chronicle)
    pool = validate_pool(parse_pool_number(order.expression))
    rules, made = _composed(gw, chronicle, order)
    result = _dice(order, pool, rules.difficulty, rules, rng, order.retry)
    forgiveness = _forgive(gw, chronicle, result, rules)
    result = forgiveness.result
    read_as = pool_sum_note(order.expression)
    out = RollOutcome(
        result,
        chronicle=chronicle,
        notes=[read_as] if read_as else [],
        rules=rules,
        forgiveness=forgiveness,
        note=note,
        seed=_shown_seed(order, seed),
    )
    if gw is None or not (order.log or forgiveness.forgiven):
        return out
    scene = None
    if order.purpose in _IN_SCENE:
        from stkit.store.scenes import open_scene  # lazy: start-up (a plain roll does not load this)

        scene = open_scene(gw, chronicle)
    detail = _detail(
        order,
        rules,
        result,
        seed,
        breakdown=counted(pool, "die", "dice"),
        asked_difficulty=_asked(rules, made),
        note=note,
        forgiven_botch=forgiveness.night if forgiveness.forgiven else None,
    )
    entry = write_log(
        gw,
        chronicle=chronicle,
        character_id=None,
        character_name="",
        expression=order.expression.strip(),
        result=result,
        detail=detail,
        scene_id=scene.id if scene else None,
        turn=scene.turn if scene else None,
        kind=order.kind,
        secret=order.secret,
    )
    link_free_botch(gw, chronicle, forgiveness, entry.id)
    return RollOutcome(
        result,
        log_id=entry.id,
        chronicle=chronicle,
        scene_id=entry.scene_id,
        turn=entry.turn,
        rules=rules,
        forgiveness=forgiveness,
        note=note,
        seed=_shown_seed(order, seed),
    )


def saved_instead(sheet: Any, order: RollOrder) -> RollOrder:
    """``order`` rolling the sheet's saved roll when its expression is a saved roll's name (case and accents
    ignored) that names no Trait: the saved pool, with the saved difficulty and specialty unless the order
    gives its own. Any other order is returned unchanged."""
    from dataclasses import replace  # lazy: start-up (a plain roll does not load this)

    from stkit.sheet.pools import build_pool  # lazy: start-up (a plain roll does not load this)
    from stkit.text import fold_name  # lazy: start-up (a plain roll does not load this)

    key = fold_name(order.expression.strip())
    hit = next((e for n, e in sheet.saved_rolls.items() if fold_name(n) == key), None)
    if hit is None:
        return order
    try:
        build_pool(sheet, order.expression)
        return order  # a Trait of that name comes first
    except RuleRefusal:
        return order  # a Trait of that name, with no dice left today
    except InvalidValue:
        pass
    preset = order.preset_difficulty if order.preset_difficulty is not None else hit["difficulty"]
    return replace(order, expression=str(hit["pool"]), preset_difficulty=preset, spec=order.spec or bool(hit["spec"]))


def _composed(gw: Gateway | None, chronicle: str, order: RollOrder, **sheet_and_pool: Any):
    """(the rules in force, the :class:`stkit.sheet.compose.Composition`) of ``order``: the chronicle's
    house rules read ONCE, composed with the roll's own choices (:func:`stkit.sheet.compose.compose_roll`)."""
    from stkit.sheet.compose import compose_roll  # lazy: start-up (a plain roll does not load this)
    from stkit.store.house import rules_in_force  # lazy: start-up (`stkit log` rolls nothing)

    stored = rules_in_force(gw, chronicle)
    made = compose_roll(
        stored,
        order.overrides,
        by_player=order.by_player,
        preset_difficulty=order.preset_difficulty,
        unskilled_rule=order.built is None and not order.never_botches,
        **sheet_and_pool,
    )
    return stored.override(made.overrides), made


def _asked(rules: ChronicleRules, made: Any) -> int:
    """The difficulty the roll asked for before the unskilled rule (what making it again starts from)."""
    return made.asked if made.asked is not None else rules.difficulty


def _composed_sheet(gw: Gateway, chronicle: str, order: RollOrder, sheet: Any):
    """(rules in force, the pool as built, the composition) of a sheet roll: the pool from the sheet (a door's own
    ``built`` pool as is; a damage or soak pool without the wound penalty), then the composition, and
    the pool built again when the unskilled rule takes dice off."""
    from stkit.sheet.pools import build_pool, unhurt_pool  # lazy: start-up (a plain roll does not load this)

    def built(expression: str):
        if order.built is not None:
            return order.built
        if order.never_botches:
            return unhurt_pool(sheet, expression)
        return build_pool(sheet, expression, empty_ok=True)

    breakdown = built(order.expression)
    rules, made = _composed(gw, chronicle, order, sheet=sheet, pool=breakdown)
    if made.dice_change:
        change = made.dice_change
        breakdown = built(f"{order.expression} - {-change}" if change < 0 else f"{order.expression} + {change}")
    if order.built is None and not order.never_botches and not breakdown.possible:
        build_pool(sheet, breakdown.expression)  # raises the refusal: no dice left
    return rules, breakdown, made


def _sheet_roll(gw: Gateway, order: RollOrder, rng: random.Random, seed: int | None, note: str | None):
    """A roll from a character's sheet (imported here: a plain roll reads no sheet, and the sheet's
    modules cost a plain roll's start-up)."""
    from stkit.dice import retry_difficulty  # lazy: start-up (`stkit log` rolls nothing)
    from stkit.store import scenes  # lazy: start-up (a plain roll does not load this)
    from stkit.store.characters import find_character, save_sheet  # lazy: start-up (a plain roll does not load this)
    from stkit.store.fight.fates import refuse_dead  # lazy: start-up (a plain roll does not load this)
    from stkit.store.house import (  # lazy: start-up (`stkit log` rolls nothing)
        claim_free_botch,
        link_free_botch,
    )

    assert order.character is not None
    character = find_character(gw, order.character, order.chronicle, for_update=True)
    refuse_dead(gw, character, "roll")  # the dead roll nothing, by any door
    sheet = character.to_sheet()
    if order.built is None:
        order = saved_instead(sheet, order)  # `roll claws -c NAME` rolls the saved roll 'claws'
    rules, breakdown, made = _composed_sheet(gw, character.chronicle, order, sheet)
    notes = list(made.notes)
    specialty = None
    if order.spec:
        from stkit.sheet.specialties import apply_specialty  # lazy: start-up (a plain roll does not load this)

        _, specialty = apply_specialty(sheet, breakdown, rules.dice_rules(True))
        notes.append(specialty.text)
    ctx = scenes.find_turn_context(gw, character)
    if not order.never_botches and any(p.name.startswith("Gnosis") for p in breakdown.parts):
        from stkit.store.fight.rules import use_turn_power  # lazy: start-up (a plain roll does not load this)

        use_turn_power(gw, character, ctx, "gnosis roll", 1)
    if order.willpower:
        scenes.check_willpower_allowed(gw, character, ctx)
        if sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{sheet.name} has no Willpower points left; nothing was spent or rolled")
    task_retry = scenes.retry_count_for_task(gw, character, order.task) or 0
    total_retry = order.retry + task_retry
    if task_retry:
        used = retry_difficulty(rules.difficulty, total_retry)
        notes.append(
            f"try again: {task_retry} earlier failure{'s' if task_retry != 1 else ''} at {order.task!r} "
            f"{'raises' if task_retry == 1 else 'raise'} the difficulty from {rules.difficulty} to {used}"
        )
    result = _dice(order, breakdown.dice, rules.difficulty, rules, rng, total_retry)
    forgiveness = claim_free_botch(gw, character.chronicle, result, rules)
    result = forgiveness.result
    left = None
    if order.willpower:
        sheet.spend("Willpower", 1)
        left = sheet.powers["Willpower"].temporary
        save_sheet(
            gw, character, sheet, summary=f"{character.name} spends 1 Willpower: {left} left", secret=order.secret
        )
    detail = _detail(
        order,
        rules,
        result,
        seed,
        breakdown=breakdown.text,
        base_difficulty=rules.difficulty,
        asked_difficulty=_asked(rules, made),
        note=note,
        forgiven_botch=forgiveness.night if forgiveness.forgiven else None,
        specialty_used=specialty.to_dict() if specialty is not None else None,
    )
    scene_id, turn = getattr(ctx, "scene_id", None), getattr(ctx, "turn", None)
    entry = write_log(
        gw,
        chronicle=character.chronicle,
        character_id=character.id,
        character_name=character.name,
        expression=order.expression.strip(),
        result=result,
        detail=detail,
        scene_id=scene_id,
        turn=turn,
        task=order.task,
        kind=order.kind,
        secret=order.secret,
    )
    if not order.never_botches:
        scenes.record_roll_in_scene(gw, character, entry, ctx, order.task)
    link_free_botch(gw, character.chronicle, forgiveness, entry.id)
    return RollOutcome(
        result,
        pool=breakdown,
        log_id=entry.id,
        character=character.name,
        chronicle=character.chronicle,
        willpower_left=left,
        scene_id=scene_id,
        turn=turn,
        task=order.task,
        task_retry=task_retry,
        notes=notes,
        rules=rules,
        forgiveness=forgiveness,
        note=note,
        specialty_used=specialty.to_dict() if specialty is not None else None,
        seed=_shown_seed(order, seed),
    )


# ---------------------------------------------------------------------------------------------- odds


@dataclass(frozen=True)
class OddsAnswer:
    """The exact chances of one roll: the rules in force, the pool (dice and how it was built) and the
    distribution (:class:`stkit.dice.odds.RollOdds`)."""

    rules: ChronicleRules
    pool: int
    label: str
    odds: RollOdds
    character: str | None = None  # the sheet's name, for a pool built from a sheet
    notes: tuple[str, ...] = ()  # the composition's lines (the unskilled rule)


def odds_for(gw: Gateway | None, order: RollOrder) -> OddsAnswer:
    """The exact odds of the roll ``order`` describes, under the same rules :func:`make_roll` would use
    (``gw`` None: no store, the rules as written). Reads the sheet for a character's pool; writes
    nothing. Raises InvalidValue, NotFound."""
    from stkit.dice import (  # lazy: start-up (`stkit log` rolls nothing)
        parse_pool_number,
        retry_difficulty,
        validate_pool,
    )
    from stkit.dice.odds import roll_distribution  # lazy: start-up (a plain roll does not load this)

    notes: list[str]
    if order.character is not None:
        if gw is None:
            raise InvalidValue("the odds of a roll from a character sheet need the store")
        from stkit.store.characters import find_character  # lazy: start-up (a plain roll does not load this)

        row = find_character(gw, order.character, order.chronicle)
        sheet = row.to_sheet()
        order = saved_instead(sheet, order)
        rules, built, made = _composed_sheet(gw, row.chronicle, order, sheet)
        notes = list(made.notes)
        pool, label, name = built.dice, built.text, row.name
    else:
        chronicle = default_chronicle(order.chronicle)
        pool = validate_pool(parse_pool_number(order.expression))
        label, name = counted(pool, "die", "dice"), None
        rules, _ = _composed(gw, chronicle, order)
        notes = []
    used = retry_difficulty(rules.difficulty, order.retry)
    odds = roll_distribution(
        pool, used, rules=rules.dice_rules(order.spec), willpower=order.willpower, automatic=order.successes
    )
    return OddsAnswer(rules, pool, label, odds, name, tuple(notes))


# ------------------------------------------------------------------------------------- the log read back


def log_dict(values: tuple | list) -> dict:
    """A log entry, given its :data:`LOG_COLUMNS` values in order, as the JSON ``stkit log --json`` prints."""
    (rid, created, chron, cid, cname, kind, expr, pool, diff, dice, outcome, result, wp, scene, turn, task, detail) = (
        values
    )
    import json  # lazy: start-up (a plain roll logs nothing)

    from stkit.store.db.gateway import iso_utc  # lazy: start-up (a plain roll does not load this)

    return {
        "id": rid,
        "created_at": iso_utc(created),
        "chronicle": chron,
        "character_id": cid,
        "character": cname or None,
        "kind": kind,
        "expression": expr,
        "pool": pool,
        "difficulty": diff,
        "dice": json.loads(dice),
        "outcome": outcome,
        "result": result,
        "willpower": bool(wp),
        "scene_id": scene,
        "turn": turn,
        "task": task,
        "detail": json.loads(detail or "{}"),
    }


def check_log_limit(limit: int) -> None:
    """Raise InvalidValue unless ``limit`` (how many log entries) is 1..10000."""
    if not 1 <= limit <= 10_000:
        raise InvalidValue(f"--limit {limit} is outside the allowed range 1 to 10000")


def recent_log(
    gw: Gateway,
    *,
    name: str | None = None,
    chronicle: str | None = None,
    limit: int = 20,
    scene: str | int | None = None,
    task: str | None = None,
) -> list[dict]:
    """The newest ``limit`` (1..10000) log entries as :func:`log_dict` dicts, newest first; of one character
    when ``name`` is given (else of ``chronicle``, else all), of one ``scene`` (an id, or a name or unique
    prefix of one) and of one ``task`` (case-insensitive) when given. Raises NotFound, InvalidValue."""
    check_log_limit(limit)
    sql = f"SELECT {', '.join(LOG_COLUMNS)} FROM roll_log"
    where: list[str] = []
    params: dict[str, object] = {"limit": limit}
    if name:
        where.append("character_id = :cid")
        from stkit.store.characters import find_character  # lazy: start-up (a plain roll does not load this)

        params["cid"] = find_character(gw, name, chronicle).id
    elif chronicle:
        where.append("chronicle = :chronicle")
        params["chronicle"] = chronicle
    if scene is not None:
        where.append("scene_id = :scene")
        from stkit.store.scenes import scene_id_of  # lazy: start-up (a plain roll does not load this)

        params["scene"] = scene_id_of(gw, scene)
    if task:
        where.append("LOWER(task) = :task")
        params["task"] = task.strip().lower()
    if where:
        sql += " WHERE " + " AND ".join(where)
    return [log_dict(r) for r in gw.rows(sql + " ORDER BY id DESC LIMIT :limit", **params)]
