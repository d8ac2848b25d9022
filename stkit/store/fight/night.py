"""A fight night's use cases: regeneration, shifting, staying active past Incapacitated, a Rage roll with
its frenzy verdict, Rage at moonrise, and the fight board of `scene show`.

The rules themselves (who soaks what, maneuvers, the Rage cap, the moon's difficulties, ...) are in
:mod:`stkit.store.fight.rules` and re-exported here. Each use case takes a
:class:`~stkit.store.db.gateway.Gateway` (one transaction: the caller's), writes a roll-log row (when dice are
rolled) and a table event, and returns a frozen result with ``to_dict()``. A refusal raises before anything
is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stkit.dice import RollResult, validate_difficulty
from stkit.dice.house import RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.fight_data import rules_data
from stkit.sheet.forms import METIS_BREEDS, breed_form, form_label, form_slots, lookup_form
from stkit.sheet.pools import PoolBreakdown, PoolPart, build_pool, unhurt_pool
from stkit.sheet.sheet import Sheet
from stkit.sheet.vocab import LogKind
from stkit.store.characters import find_character, save_sheet
from stkit.store.db.gateway import Gateway
from stkit.store.fight.hit import Health
from stkit.store.fight.initiative import acted_this_turn, current_initiative
from stkit.store.fight.rules import (
    MOON_PHASES,
    AttackPlan,
    MoonSet,
    SoakRule,
    armour_penalty,
    check_moon,
    frenzies,
    frenzy_difficulty,
    frenzy_terms,
    get_moon,
    is_dead,
    maneuver_names,
    maneuver_plan,
    mark_dead,
    moonrise_rage,
    rage_cap,
    refuse_dead,
    regeneration_refusal,
    set_moon,
    shift_difficulty,
    shift_distance,
    soak_rule,
    spend_rage_action,
    turn_power,
    use_turn_power,
    weapon_plan,
    worst_healable,
)
from stkit.store.house import rules_in_force
from stkit.store.rolling import Purpose, RollOrder, add_log_detail, make_roll
from stkit.store.scenes import TurnContext, find_turn_context
from stkit.store.table.events import record_event
from stkit.text import counted

if TYPE_CHECKING:
    from stkit.sheet.pools import PoolBreakdown
    from stkit.store.characters import CharacterRow
    from stkit.store.rolling import RollOutcome
    from stkit.store.scenes import TurnContext


# ------------------------------------------------------------------------------------------- use cases


@dataclass(frozen=True)
class PowerRoll:
    """A roll of a fight rule (regeneration, shifting, staying active, a Rage roll): what was rolled, what
    changed, and the log row and scene turn.

    Attributes:
        character, chronicle: who.
        rule: 'regeneration', 'shift', 'stay active', 'rage'.
        pool, difficulty: the dice rolled (0 and None when no roll was made).
        roll: the roll (None when nothing was rolled: calm regeneration, a shift to the breed form, ...).
        summary: one line for people.
        changes: what the sheet shows now (rule-specific keys: healed, form, frenzy, ...).
        health: the character's health afterwards (:meth:`stkit.store.fight.hit.Health.to_dict`).
        log_id, scene_id, turn: the roll-log row and the open scene's turn (None outside one).
        notes: further lines.
        house_rules_in_force: the chronicle's house rules in force for the roll, a phrase each.
        forgiven_botch: the free botch forgave the roll's botch (it counts as a failure).
    """

    character: str
    chronicle: str
    rule: str
    pool: int
    difficulty: int | None
    roll: RollResult | None
    summary: str
    changes: dict[str, Any]
    health: dict[str, Any]
    log_id: int | None = None
    scene_id: int | None = None
    turn: int | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    house_rules_in_force: tuple[str, ...] = ()
    forgiven_botch: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "character": self.character,
            "chronicle": self.chronicle,
            "rule": self.rule,
            "pool": self.pool,
            "difficulty": self.difficulty,
            "roll": self.roll.to_dict() if self.roll else None,
            "summary": self.summary,
            "changes": dict(self.changes),
            "health": dict(self.health),
            "log_id": self.log_id,
            "scene_id": self.scene_id,
            "turn": self.turn,
            "notes": list(self.notes),
            "house_rules_in_force": list(self.house_rules_in_force),
            "forgiven_botch": self.forgiven_botch,
        } | {k: v for k, v in self.changes.items() if k not in _POWER_KEYS}


_POWER_KEYS = frozenset(
    [
        "character",
        "chronicle",
        "rule",
        "pool",
        "difficulty",
        "roll",
        "summary",
        "changes",
        "health",
        "log_id",
        "scene_id",
        "turn",
        "notes",
        "house_rules_in_force",
        "forgiven_botch",
    ]
)


def _health(sheet: Sheet) -> dict[str, Any]:

    return Health.of(sheet).to_dict()


def _finish(
    gw: Gateway,
    row: CharacterRow,
    sheet: Sheet,
    ctx: TurnContext | None,
    rule: str,
    *,
    made: RollOutcome | None,
    summary: str,
    changes: dict[str, Any],
    notes: list[str],
    save: bool = True,
) -> PowerRoll:
    """Save the sheet (its 'sheet' table event says ``summary``) and add the rule, the summary and
    ``changes`` to the detail of the roll's log row (``made``, written by :func:`_power_roll`); without
    ``save`` (no sheet change) one table event says ``summary``; the result."""

    if save:
        save_sheet(gw, row, sheet, summary=summary)
    if made is not None:
        add_log_detail(gw, made.log_id, rule=rule, summary=summary, **changes)
        if made.forgiven_botch:
            notes = [*notes, "Free botch: the first botch of the night is forgiven and counts as a failure"]
    if not save:
        record_event(
            gw,
            chronicle=row.chronicle,
            kind="sheet",
            character_id=row.id,
            data={"character": row.name, "summary": summary, "combat": rule, **changes},
        )
    return PowerRoll(
        row.name,
        row.chronicle,
        rule,
        made.roll.pool if made else 0,
        made.roll.difficulty if made else None,
        made.roll if made else None,
        summary,
        changes,
        _health(sheet),
        made.log_id if made else None,
        made.scene_id if made else getattr(ctx, "scene_id", None),
        made.turn if made else getattr(ctx, "turn", None),
        tuple(notes),
        house_rules_in_force=made.house_in_force if made else (),
        forgiven_botch=made.forgiven_botch if made else False,
    )


def _power_roll(
    gw: Gateway,
    row: CharacterRow,
    rule: LogKind,
    built: PoolBreakdown,
    difficulty: int,
    faces: list[int] | None,
    seed: int | None,
) -> RollOutcome:
    """Roll a fight rule's pool ``built`` (its dice as the rule counts them) at ``difficulty`` through
    :func:`stkit.store.rolling.make_roll`: the chronicle's dice house rules (1s cancelling, the free
    botch) apply as to every roll, the generator is seeded from ``seed`` inside this transaction, and the
    log row (kind ``rule``) and its table event are written. Raises InvalidValue (bad faces)."""

    order = RollOrder(
        expression=built.expression,
        character=row.name,
        chronicle=row.chronicle,
        purpose=Purpose.power,
        overrides=RuleOverrides(difficulty=difficulty),
        faces=tuple(faces) if faces is not None else None,
        seed=seed,
        log_kind=rule,
        built=built,
    )
    return make_roll(gw, order)


def _points_pool(sheet: Sheet, label: str, dice: int) -> PoolBreakdown:
    """A pool of ``dice`` counted from a power track (Rage), shown as ``label``: no wound penalty."""

    return PoolBreakdown(label, (PoolPart("Rage", dice, dice),), form=sheet.form, dice=dice)


def regenerate(
    gw: Gateway,
    name: str,
    *,
    calm: bool = False,
    days: int = 0,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    seed: int | None = None,
) -> PowerRoll:
    """`char regen NAME`: a shapeshifter heals the worst bashing or lethal level (lethal first), once a turn
    in a scene; under stress (the default) only on a success of a reflexive Stamina roll (the form's, no
    wound penalty) at difficulty 8, automatically when ``calm``; never in the breed form unless metis.
    ``days`` (1..) instead heals that many aggravated levels, one a day of rest in a form that
    regenerates, with no roll (``regeneration`` table).

    Raises NotFound, InvalidValue (bad days or faces), RuleRefusal (not a shapeshifter, the breed form,
    dead, nothing to heal, already this turn); nothing is written then.
    """

    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "regeneration")
    why = regeneration_refusal(sheet)
    if why:
        raise RuleRefusal(why)
    table = rules_data()["regeneration"]
    ctx = find_turn_context(gw, row)
    if days:
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 365:
            raise InvalidValue(f"days of rest {days!r} must be a whole number from 1 to 365")
        if faces is not None:
            raise InvalidValue("aggravated healing by days rolls no dice; leave out --dice")
        if not sheet.health["aggravated"]:
            raise RuleRefusal(f"regeneration: {sheet.name} has no aggravated damage to heal")
        healed = min(days * int(table["aggravated_a_day"]), sheet.health["aggravated"])
        sheet.health["aggravated"] -= healed
        summary = f"{sheet.name} rests {days} day{'s' if days != 1 else ''}: heals {healed} aggravated"
        return _finish(
            gw,
            row,
            sheet,
            ctx,
            "regeneration",
            made=None,
            summary=summary,
            changes={"healed": healed, "healed_type": "aggravated", "days": days},
            notes=[],
        )
    kind = worst_healable(sheet)
    if kind is None:
        raise RuleRefusal(f"regeneration: {sheet.name} has no bashing or lethal damage to heal")
    if ctx is not None and turn_power(gw, ctx, row.id, "regen"):
        raise RuleRefusal(f"regeneration: {sheet.name} already regenerated in turn {ctx.turn}; one level a turn")
    made = None
    if calm:
        if faces is not None:
            raise InvalidValue("calm regeneration rolls no dice; leave out --dice")
        ok = True
    else:
        difficulty = int(table["stress_difficulty"])
        made = _power_roll(gw, row, LogKind.regeneration, unhurt_pool(sheet, "Stamina"), difficulty, faces, seed)
        ok = made.roll.final_successes >= 1
    notes: list[str] = []
    if ok:
        sheet.health[kind] -= 1
        summary = f"{sheet.name} regenerates 1 {kind} level" + (" (calm)" if calm else " (Stamina roll under stress)")
    else:
        summary = f"{sheet.name} does not regenerate this turn (no success on Stamina at {difficulty})"
        if made is not None and made.roll.botch:
            notes.append("a botch: no regeneration until the werewolf has rested")
    if ctx is not None:
        use_turn_power(gw, row, ctx, "regen", 1)
    return _finish(
        gw,
        row,
        sheet,
        ctx,
        "regeneration",
        made=made,
        summary=summary,
        changes={"healed": 1 if ok else 0, "healed_type": kind if ok else None},
        notes=notes,
    )


def shift_form(
    gw: Gateway,
    name: str,
    form: str,
    *,
    rage: bool = False,
    instant: bool = False,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    seed: int | None = None,
) -> PowerRoll:
    """`char shift NAME FORM`: Stamina + Primal-Urge (an action: form and wounds apply) at the starting
    form's difficulty, one success per form crossed among the breed's forms; fewer successes move that many
    forms toward the target. ``rage`` spends a Rage point for an instant shift (refused in a turn Gnosis was
    spent); the breed form is always instant; ``instant`` is the Storyteller's shift with no roll (between
    scenes, a Gift). The form's Attribute changes are the breed's (:mod:`stkit.sheet.forms`).

    Raises NotFound, InvalidValue (unknown form), RuleRefusal (a form the breed lacks, not a shapeshifter,
    already in it, no Rage, dead); nothing is written then.
    """

    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "shift")
    target = lookup_form(form, sheet.fera)
    if sheet.creature != "shapeshifter" and target != "Homid":
        raise RuleRefusal(f"shift: {sheet.name} is {sheet.creature_label} and has no {target} form; only Homid")
    start = sheet.form
    if target == start:
        raise RuleRefusal(f"shift: {sheet.name} is already in {form_label(start, sheet.fera)}")
    ctx = find_turn_context(gw, row)
    home = breed_form(sheet.fera, sheet.breed) or ("Crinos" if sheet.breed in METIS_BREEDS else None)
    label = form_label(target, sheet.fera)
    if faces is not None and (rage or instant or target == home):
        raise InvalidValue("this shift rolls no dice; leave out --dice")
    made = None
    notes: list[str] = []
    if instant:
        sheet.form = target
        summary = f"{sheet.name} shifts from {form_label(start, sheet.fera)} to {label} (no roll)"
    elif target == home:
        sheet.form = target
        summary = f"{sheet.name} returns to {label}, the breed form: instant, no roll"
    elif rage:
        use_turn_power(gw, row, ctx, "rage", 1)
        left = sheet.spend("Rage", 1).temporary
        sheet.form = target
        summary = f"{sheet.name} spends 1 Rage and shifts to {label} at once ({left} Rage left)"
    else:
        need = shift_distance(sheet, start, target)
        built = build_pool(sheet, "Stamina + Primal Urge")
        made = _power_roll(gw, row, LogKind.shift, built, shift_difficulty(start), faces, seed)
        got = made.roll.final_successes
        slots = form_slots(sheet.fera)
        step = 1 if slots.index(target) > slots.index(start) else -1
        moved = min(got, need)
        sheet.form = slots[slots.index(start) + step * moved]
        now = form_label(sheet.form, sheet.fera)
        got_words = f"{got} success{'es' if got != 1 else ''}"
        if moved == need:
            summary = f"{sheet.name} shifts to {label}: {got_words}, {need} needed"
        elif moved:
            summary = f"{sheet.name} gets as far as {now}: {got_words}, {need} needed for {label}"
        else:
            summary = (
                f"{sheet.name} fails to shift and stays in {now} ({need} success{'es' if need != 1 else ''} needed)"
            )
    changes = {"from": start, "form": sheet.form, "form_name": form_label(sheet.form, sheet.fera), "target": target}
    return _finish(
        gw,
        row,
        sheet,
        ctx,
        "shift",
        made=made,
        summary=summary,
        changes=changes,
        notes=notes,
    )


def stay_active(
    gw: Gateway,
    name: str,
    *,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    seed: int | None = None,
) -> PowerRoll:
    """`char stay-active NAME`: a shapeshifter downed with lethal or worse past Incapacitated rolls the
    permanent Rage at difficulty 8; each success heals one level, worst first, and any success keeps them
    in the fight (entering frenzy, by the book) (``stay_active`` table). Raises RuleRefusal when the
    character is not a shapeshifter so downed, or is dead."""

    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "stay active")
    if sheet.creature != "shapeshifter" or not sheet.incapacitated or sheet.health["bashing"]:
        raise RuleRefusal(
            f"stay active: {sheet.name} is not a shapeshifter downed with lethal or aggravated damage past "
            f"Incapacitated; the Rage roll to stay active is for them"
        )
    rating = sheet.powers["Rage"].permanent
    if rating < 1:
        raise RuleRefusal(f"stay active: {sheet.name} has no Rage to roll")
    difficulty = int(rules_data()["stay_active"]["difficulty"])
    made = _power_roll(gw, row, LogKind.stay_active, _points_pool(sheet, "Rage", rating), difficulty, faces, seed)
    healed = 0
    for _ in range(made.roll.final_successes):
        for kind in ("aggravated", "lethal", "bashing"):
            if sheet.health[kind]:
                sheet.health[kind] -= 1
                healed += 1
                break
    ctx = find_turn_context(gw, row)
    notes = []
    if healed:
        summary = f"{sheet.name} rages back: heals {healed} level{'s' if healed != 1 else ''} and stays in the fight"
        notes.append(f"{sheet.name} enters a frenzy (the price of staying active)")
    else:
        summary = f"{sheet.name} cannot rage back and stays down"
    return _finish(
        gw,
        row,
        sheet,
        ctx,
        "stay active",
        made=made,
        summary=summary,
        changes={"healed": healed, "active": healed > 0, "frenzy": healed > 0},
        notes=notes,
    )


def rage_roll(
    gw: Gateway,
    name: str,
    *,
    difficulty: int | None = None,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    seed: int | None = None,
) -> PowerRoll:
    """`char rage NAME`: a Rage roll (the rating, or the points when they run above it) at the chronicle
    moon's difficulty (``frenzy`` table; 6 with no moon, or ``difficulty``), with the frenzy verdict: four
    or more successes. Raises RuleRefusal for no Rage or a dead character."""

    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "Rage roll")
    track = sheet.powers["Rage"]
    dice = max(track.permanent, track.temporary)
    if dice < 1:
        raise RuleRefusal(f"Rage roll: {sheet.name} has no Rage")
    moon = get_moon(gw, row.chronicle)
    diff, needed, notes = frenzy_terms(sheet, moon, rules_in_force(gw, row.chronicle))
    diff = validate_difficulty(difficulty) if difficulty is not None else diff
    made = _power_roll(gw, row, LogKind.rage, _points_pool(sheet, f"Rage {dice}", dice), diff, faces, seed)
    roll = made.roll
    frenzy = frenzies(roll.final_successes, needed)
    where = f"the {moon} moon" if moon and difficulty is None else f"difficulty {diff}"
    summary = f"{sheet.name} rolls Rage {dice} under {where}: " + (
        f"{counted(roll.final_successes, 'success')}, " + ("FRENZY" if frenzy else "no frenzy")
    )
    ctx = find_turn_context(gw, row)
    return _finish(
        gw,
        row,
        sheet,
        ctx,
        "rage",
        made=made,
        summary=summary,
        changes={"frenzy": frenzy, "moon": moon, "successes_needed": needed},
        notes=notes,
        save=False,
    )


def moonrise(gw: Gateway, name: str, *, chronicle: str | None = None) -> PowerRoll:
    """`char moonrise NAME`: Rage regained at the first sight of the chronicle's moon in a night
    (:func:`moonrise_rage`). Raises NotFound when no moon is set (`stkit scene moon PHASE`)."""

    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    moon = get_moon(gw, row.chronicle)
    if moon is None:
        raise NotFound(f"no moon phase is set in chronicle {row.chronicle!r}; set one with: stkit scene moon PHASE")
    gain = moonrise_rage(sheet, moon)
    notes: list[str] = []
    if gain:
        _, notes = sheet.regain("Rage", gain)
    left = sheet.powers["Rage"].temporary
    summary = f"{sheet.name} sees the {moon} moon: regains {gain} Rage ({counted(left, 'point')})"
    return _finish(
        gw,
        row,
        sheet,
        find_turn_context(gw, row),
        "moonrise",
        made=None,
        summary=summary,
        changes={"moon": moon, "regained": gain, "rage": left},
        notes=notes,
    )


@dataclass(frozen=True)
class FightBoard:
    """A scene's fight at a glance: the initiative order of the turn (place 1 first), whether each has
    acted this turn, who acts next, and every combatant's form, health and fate.

    Attributes:
        scene_id, turn: the scene and its current turn.
        moon: the chronicle's moon phase (or None).
        combatants: one dict per character in initiative order: name, place, total, acted, form,
            form_name, health (:meth:`stkit.store.fight.hit.Health.to_dict`), boxes (seven, worst first), dead.
        up_next: the first in the order who has not acted this turn and can act (None when all have).
    """

    scene_id: int
    turn: int
    moon: str | None
    combatants: tuple[dict[str, Any], ...]
    up_next: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scene_id": self.scene_id,
            "turn": self.turn,
            "moon": self.moon,
            "combatants": [dict(c) for c in self.combatants],
            "up_next": self.up_next,
        }


def fight_board(gw: Gateway, chronicle: str) -> FightBoard | None:
    """The open scene's :class:`FightBoard` in ``chronicle``, or None when no scene is open or no
    initiative was rolled in it. Reads only."""

    row = gw.row("SELECT id, turn FROM scenes WHERE chronicle = :c AND status = 'open'", c=chronicle)
    if row is None:
        return None
    ctx = TurnContext(scene_id=int(row[0]), turn=int(row[1]))
    order = current_initiative(gw, ctx.scene_id, ctx.turn)
    if order is None:
        return None
    out: list[dict[str, Any]] = []
    up_next = None
    for o in order["order"]:
        try:
            char = find_character(gw, o["name"], chronicle)
        except (NotFound, InvalidValue):
            continue
        sheet = char.to_sheet()
        acted = acted_this_turn(gw, char, ctx) is not None
        dead = is_dead(gw, char.id)
        if up_next is None and not acted and not dead and not sheet.incapacitated:
            up_next = sheet.name
        out.append(
            {
                "name": sheet.name,
                "place": o["place"],
                "total": o["total"],
                "acted": acted,
                "form": sheet.form,
                "form_name": form_label(sheet.form, sheet.fera),
                "health": Health.of(sheet).to_dict(),
                "boxes": sheet.health_boxes(),
                "dead": dead,
            }
        )
    return FightBoard(ctx.scene_id, ctx.turn, get_moon(gw, chronicle), tuple(out), up_next)


__all__ = [
    "MOON_PHASES",
    "AttackPlan",
    "FightBoard",
    "MoonSet",
    "PowerRoll",
    "SoakRule",
    "armour_penalty",
    "check_moon",
    "fight_board",
    "frenzies",
    "frenzy_difficulty",
    "get_moon",
    "is_dead",
    "maneuver_names",
    "maneuver_plan",
    "mark_dead",
    "moonrise",
    "moonrise_rage",
    "rage_cap",
    "rage_roll",
    "regenerate",
    "regeneration_refusal",
    "rules_data",
    "set_moon",
    "shift_distance",
    "shift_form",
    "soak_rule",
    "spend_rage_action",
    "stay_active",
    "turn_power",
    "use_turn_power",
    "weapon_plan",
    "worst_healable",
]
