"""A fight night by the book: who soaks what, maneuvers and weapons, the Rage cap, frenzy, regeneration,
shifting, staying active past Incapacitated, the moon, the dead, and the powers used in a turn.

The tables of numbers are packaged data (``fight_rules.yaml`` beside this module), each with its public
source named beside it; this module restates the rules in code and docs/combat.md in words, with the
readings where sources disagree (each a `stkit house` key, Revised by default: ``homid-aggravated-soak``,
``rage-cap``).

Pure rule functions come first (a sheet in, a verdict out); the use cases after them take a
:class:`~stkit.store.gateway.Gateway` (one transaction: the caller's), write a roll-log row (when dice are
rolled) and a table event, and return frozen results with ``to_dict()``. A refusal raises before anything
is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any

from stkit.dice import RollResult
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.store.forms import METIS_BREEDS, breed_form, form_label, form_slots, in_form, lookup_form
from stkit.store.gateway import Gateway, as_gateway
from stkit.store.sheet import Sheet
from stkit.store.traits import did_you_mean, norm

#: The moon's phases, new to full (`stkit scene moon PHASE`).
MOON_PHASES = ("new", "crescent", "half", "gibbous", "full")
#: The damage sources that change who may soak: silver burns a shapeshifter outside the breed form.
RULES_FILE = "fight_rules.yaml"


@cache
def rules_data() -> dict[str, Any]:
    """The packaged combat tables (``fight_rules.yaml``), read once. Raises DataFileError if damaged."""
    from importlib.resources import files

    from stkit import yamlsafe

    text = files("stkit.store").joinpath(RULES_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = yamlsafe.load(text, RULES_FILE)
    return data


# ------------------------------------------------------------------------------------------------ soak


@dataclass(frozen=True)
class SoakRule:
    """Who may soak one hit, and with what.

    Attributes:
        stamina: the target's Stamina (in form) soaks this damage.
        soaks_as: the damage type the soak treats it as ('lethal' for silver in breed form).
        armour: dice the target's equipped armour, worn in the current form, adds against it (0..).
        why: the rule in a few words, for the output.
    """

    stamina: bool
    soaks_as: str
    armour: int
    why: str

    @property
    def dice_from_rules(self) -> bool:
        """True when any soak roll is allowed (Stamina or armour)."""
        return self.stamina or self.armour > 0

    def to_dict(self) -> dict[str, Any]:
        return {"stamina": self.stamina, "soaks_as": self.soaks_as, "armour": self.armour, "why": self.why}


def worn_armour(sheet: Sheet) -> list[dict[str, Any]]:
    """The equipped armour that can be worn in the sheet's current form."""
    return [a for a in sheet.armor if a.get("equipped") and sheet.form in (a.get("forms") or ("Homid",))]


def armour_penalty(sheet: Sheet) -> int:
    """Dice the worn armour takes off Dexterity pools (the sum of their Dexterity penalties)."""
    return sum(int(a.get("dexterity_penalty") or 0) for a in worn_armour(sheet))


def soak_rule(sheet: Sheet, damage_type: str, *, silver: bool = False, homid_aggravated: bool = False) -> SoakRule:
    """Whether ``sheet`` may soak ``damage_type`` damage (a silver weapon when ``silver``), by creature, form
    and source (``soak`` table): mortals and Kinfolk soak bashing with Stamina, and lethal or aggravated
    only with armour; shapeshifters soak bashing and lethal in every form, aggravated in every form but
    Homid (``homid_aggravated``: the W20 reading, every form); silver only in the breed form, there as
    lethal damage, and never for a metis (no armour either).

    E.g. a mortal hit for lethal with a vest of lethal 2: ``SoakRule(False, 'lethal', 2, ...)``.
    """
    table = rules_data()["soak"]
    kind = str(damage_type)
    creature = sheet.creature
    if silver and creature == "shapeshifter":
        home = breed_form(sheet.fera, sheet.breed)
        if home is None or sheet.form != home:
            who = "a metis" if sheet.breed in METIS_BREEDS else f"outside the breed form ({home or 'none known'})"
            return SoakRule(False, "aggravated", 0, f"silver cannot be soaked {who}")
        kind = str(table["silver"]["breed_form_as"])
    row = table.get(creature, table["mortal"])
    types = set(row["stamina"])
    if creature == "shapeshifter" and sheet.form in row.get("no_aggravated_in", ()) and not homid_aggravated:
        types.discard("aggravated")
    stamina = kind in types
    armour = sum(int(a.get(kind) or 0) for a in worn_armour(sheet))
    if stamina:
        why = f"Stamina soaks {kind} damage"
    elif creature != "shapeshifter":
        why = f"{sheet.creature_label} soaks {kind} damage only with armour"
    else:
        why = f"{kind} damage cannot be soaked in {sheet.form} (house rule homid-aggravated-soak is off)"
    if silver and creature == "shapeshifter":
        why = "silver in the breed form soaks as lethal damage"
    return SoakRule(stamina, kind, armour, why)


# ------------------------------------------------------------------------------------------ maneuvers


@dataclass(frozen=True)
class AttackPlan:
    """An attack's pools and difficulty as a maneuver or weapon sets them.

    Attributes:
        pool, damage: pool expressions ('Dexterity + Brawl', 'Strength + 1'); damage '' when the weapon or
            the caller must give it.
        difficulty: 2..10.
        damage_type: bashing, lethal or aggravated.
        source: 'maneuver claw', 'weapon Klaive'.
        weapon: the sheet's weapon entry (None for a maneuver).
    """

    pool: str
    damage: str
    difficulty: int
    damage_type: str
    source: str
    weapon: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "damage": self.damage,
            "difficulty": self.difficulty,
            "damage_type": self.damage_type,
            "source": self.source,
            "weapon": dict(self.weapon) if self.weapon else None,
        }


def maneuver_names() -> tuple[str, ...]:
    return tuple(k for k in rules_data()["maneuvers"] if k != "source")


def maneuver_plan(sheet: Sheet, name: str, *, range_: str | None = None) -> AttackPlan:
    """The pools, difficulty and damage type of maneuver ``name`` for ``sheet`` in its form (``maneuvers``
    table): a claw needs claws (Glabro, Crinos, Hispo, Lupus) and is aggravated in Crinos and Hispo; a bite
    needs fangs (Crinos, Hispo, Lupus); firearms take ``range_`` (point-blank 4, normal 6, long 8).

    Raises InvalidValue for an unknown maneuver or range, RuleRefusal for a form or creature without it.
    """
    table = rules_data()["maneuvers"]
    key = norm(name or "")
    names = maneuver_names()
    hit = next((n for n in names if norm(n) == key), None)
    if hit is None:
        raise InvalidValue(f"unknown maneuver {name!r}{did_you_mean(name or '', names)}; allowed: {', '.join(names)}")
    row = table[hit]
    forms = row.get("forms")
    if forms and (sheet.creature != "shapeshifter" or sheet.form not in forms):
        where = sheet.creature_label if sheet.creature != "shapeshifter" else f"in {sheet.form}"
        raise RuleRefusal(f"maneuver {hit}: {sheet.name} has no {hit} {where}; it needs {', '.join(forms)}")
    difficulty = int(row["difficulty"])
    if row.get("range_difficulty"):
        ranges = row["range_difficulty"]
        r = norm(range_ or "normal")
        match = next((k for k in ranges if norm(k) == r), None)
        if match is None:
            raise InvalidValue(f"unknown range {range_!r} for {hit}; allowed: {', '.join(ranges)}")
        difficulty = int(ranges[match])
    elif range_ is not None:
        raise InvalidValue(f"--range is for firearms, not the {hit} maneuver")
    kind = str(row["type"])
    if sheet.creature == "shapeshifter" and sheet.form in row.get("aggravated_in", ()):
        kind = "aggravated"
    damage = str((row.get("form_damage") or {}).get(sheet.form, row.get("damage", "")))
    return AttackPlan(str(row["pool"]), damage, difficulty, kind, f"maneuver {hit}")


def weapon_plan(sheet: Sheet, name: str, *, range_: str | None = None) -> AttackPlan:
    """The attack a weapon on ``sheet`` makes: the pool (its Attribute + Ability, + accuracy), the damage
    (its damage Attribute + bonus dice), its difficulty and damage type; a ranged weapon takes the firearms
    range difficulty when ``range_`` is given. Raises RuleRefusal naming the weapons held when the sheet
    does not hold ``name``."""
    held = [w for w in sheet.weapons if w.get("name")]
    key = norm(name or "")
    hit = next((w for w in held if norm(str(w["name"])) == key), None)
    if hit is None:
        names = ", ".join(str(w["name"]) for w in held) or "none"
        raise RuleRefusal(f"weapon: {sheet.name} does not hold {name!r}; weapons on the sheet: {names}")
    pool = " + ".join(
        p for p in (str(hit.get("attack_attribute") or "Dexterity"), str(hit.get("attack_ability") or "")) if p
    )
    accuracy = int(hit.get("accuracy") or 0)
    if accuracy:
        pool += f" {'+' if accuracy > 0 else '-'} {abs(accuracy)}"
    bonus = int(hit.get("damage_bonus") or 0)
    attribute = str(hit.get("damage_attribute") or "")
    damage = " + ".join(p for p in (attribute, str(bonus) if bonus else "") if p)
    difficulty = int(hit.get("difficulty") or 6)
    if range_ is not None:
        if hit.get("kind") != "ranged":
            raise InvalidValue(f"--range is for ranged weapons; {hit['name']} is a melee weapon")
        ranges = rules_data()["maneuvers"]["firearms"]["range_difficulty"]
        match = next((k for k in ranges if norm(k) == norm(range_)), None)
        if match is None:
            raise InvalidValue(f"unknown range {range_!r}; allowed: {', '.join(ranges)}")
        difficulty = int(ranges[match])
    return AttackPlan(
        pool, damage, difficulty, str(hit.get("damage_type") or "bashing"), f"weapon {hit['name']}", dict(hit)
    )


# ------------------------------------------------------------------------------------------ Rage, frenzy


def rage_cap(reading: str, sheet: Sheet) -> int | None:
    """Most Rage points ``sheet`` may spend on actions in one turn under the `rage-cap` house key:
    ``revised``, the lower of the form's Dexterity and Wits; ``w20``, half the permanent Rage rounded up;
    ``points``, None (only the current points limit it). E.g. Dexterity 3 (Crinos 4), Wits 2: revised 2;
    Rage 5: w20 3."""
    if reading == "w20":
        return math.ceil(sheet.powers["Rage"].permanent / 2)
    if reading == "points":
        return None
    return min(in_form(sheet, "Dexterity"), in_form(sheet, "Wits"))


def frenzy_difficulty(moon: str | None) -> int:
    """The Rage roll's difficulty under ``moon`` (``frenzy`` table: new 8 ... full 4); 6 with no moon set."""
    if moon is None:
        return 6
    return int(rules_data()["frenzy"]["difficulty_by_moon"][moon])


def frenzies(successes: int) -> bool:
    """Four or more successes on a Rage roll send the werewolf into frenzy (``frenzy`` table)."""
    return successes >= int(rules_data()["frenzy"]["successes"])


def check_moon(text: str) -> str:
    """'Full' -> 'full'. Raises InvalidValue naming the phases."""
    t = norm(text or "").replace("moon", "")
    if t not in MOON_PHASES:
        raise InvalidValue(f"unknown moon phase {text!r}; allowed: {', '.join(MOON_PHASES)}")
    return t


def moonrise_rage(sheet: Sheet, moon: str) -> int:
    """Rage points ``sheet`` regains at the first sight of ``moon`` in a night (``rage_by_moon``): the
    phase's points, or back to the full rating under the auspice's own moon (never fewer than the
    phase's). E.g. an Ahroun (Rage 5, 1 point) under the full moon regains 4 (to 5)."""
    table = rules_data()["rage_by_moon"]
    gain = int(table["points"][moon])
    if table["auspice_moon"].get(sheet.auspice) == moon:
        track = sheet.powers["Rage"]
        gain = max(gain, track.permanent - track.temporary)
    return gain


# ------------------------------------------------------------------------------------ healing, shifting


def regeneration_refusal(sheet: Sheet) -> str | None:
    """Why ``sheet`` cannot regenerate now (a line), or None: only shapeshifters regenerate, and not in their
    breed form unless metis (``regeneration`` table)."""
    if sheet.creature != "shapeshifter":
        return f"regeneration: {sheet.name} is {sheet.creature_label} and heals as humans do"
    home = breed_form(sheet.fera, sheet.breed)
    if home is not None and sheet.form == home:
        return (
            f"regeneration: {sheet.name} is {sheet.breed}-born and in {form_label(home, sheet.fera)}, the breed "
            f"form, where only metis regenerate"
        )
    return None


def worst_healable(sheet: Sheet) -> str | None:
    """The worst level regeneration heals in a turn: 'lethal', else 'bashing', else None."""
    for kind in ("lethal", "bashing"):
        if sheet.health.get(kind):
            return kind
    return None


def shift_distance(sheet: Sheet, start: str, target: str) -> int:
    """Forms crossed from ``start`` to ``target`` among the breed's own forms (Homid to Crinos: 2 for the
    Garou, 1 for the Corax, who have no Glabro)."""
    slots = form_slots(sheet.fera)
    return abs(slots.index(target) - slots.index(start))


def shift_difficulty(form: str) -> int:
    """The shifting roll's difficulty: the starting form's (``shifting`` table: Homid 6, Glabro 7, ...)."""
    return int(rules_data()["shifting"]["difficulty"][form])


# ------------------------------------------------------------------------------ state: moon, dead, turn


def _now(gw: Gateway) -> object:
    return gw.timestamp(datetime.now(UTC))


def get_moon(gw: Any, chronicle: str) -> str | None:
    """The moon phase set for ``chronicle``, or None."""
    row = as_gateway(gw).row("SELECT phase FROM chronicle_moon WHERE chronicle = :c", c=chronicle)
    return None if row is None else str(row[0])


@dataclass(frozen=True)
class MoonSet:
    chronicle: str
    phase: str
    rage_difficulty: int

    def to_dict(self) -> dict[str, Any]:
        return {"chronicle": self.chronicle, "phase": self.phase, "rage_difficulty": self.rage_difficulty}


def set_moon(gw: Any, chronicle: str, phase: str) -> MoonSet:
    """`scene moon PHASE`: store the chronicle's moon (it sets Rage rolls' difficulty), with an event."""
    from stkit.store.events import record_event

    gw = as_gateway(gw)
    moon = check_moon(phase)
    gw.execute("DELETE FROM chronicle_moon WHERE chronicle = :c", c=chronicle)
    gw.execute(
        "INSERT INTO chronicle_moon (chronicle, phase, updated_at) VALUES (:c, :p, :now)",
        c=chronicle,
        p=moon,
        now=_now(gw),
    )
    done = MoonSet(chronicle, moon, frenzy_difficulty(moon))
    record_event(gw, chronicle=chronicle, kind="scene", data={"moon": done.to_dict()})
    return done


def is_dead(gw: Any, character_id: int) -> bool:
    return as_gateway(gw).row("SELECT 1 FROM character_fates WHERE character_id = :id", id=character_id) is not None


def mark_dead(gw: Any, row: Any, ctx: Any) -> None:
    """Record ``row`` (a character) as dead, in the open scene's turn ``ctx`` (or None)."""
    gw = as_gateway(gw)
    if is_dead(gw, row.id):
        return
    gw.execute(
        "INSERT INTO character_fates (character_id, state, scene_id, turn, created_at) "
        "VALUES (:id, 'dead', :s, :t, :now)",
        id=row.id,
        s=getattr(ctx, "scene_id", None),
        t=getattr(ctx, "turn", None),
        now=_now(gw),
    )


def refuse_dead(gw: Any, row: Any, doing: str) -> None:
    """RuleRefusal when ``row`` is dead."""
    if is_dead(gw, row.id):
        raise RuleRefusal(f"{doing}: {row.name} is dead")


def turn_power(gw: Any, ctx: Any, character_id: int, power: str) -> int:
    """Points of ``power`` ('rage actions', 'rage', 'gnosis', 'regen') used in the turn ``ctx``."""
    if ctx is None:
        return 0
    row = as_gateway(gw).row(
        "SELECT points FROM turn_powers WHERE scene_id = :s AND turn = :t AND character_id = :c AND power = :p",
        s=ctx.scene_id,
        t=ctx.turn,
        c=character_id,
        p=power,
    )
    return 0 if row is None else int(row[0])


def legacy_rage_actions(gw: Any, ctx: Any, character_id: int) -> int:
    """Rage spent on extra actions through `multi --rage` in the turn (its own table)."""
    if ctx is None:
        return 0
    row = as_gateway(gw).row(
        "SELECT points FROM rage_spends WHERE scene_id = :s AND turn = :t AND character_id = :c",
        s=ctx.scene_id,
        t=ctx.turn,
        c=character_id,
    )
    return 0 if row is None else int(row[0])


def use_turn_power(gw: Any, row: Any, ctx: Any, power: str, points: int) -> int:
    """Count ``points`` of ``power`` used by ``row`` in the turn ``ctx`` (nothing outside a scene) and return
    the turn's total. Rage (for actions or anything else) and Gnosis are never both spent in one turn
    (Revised, "Rage and Gnosis"): RuleRefusal naming the one already spent."""
    if ctx is None:
        return points
    gw = as_gateway(gw)
    rage = power.startswith("rage")
    other = ("gnosis",) if rage else ("rage", "rage actions") if power == "gnosis" else ()
    for o in other:
        used = turn_power(gw, ctx, row.id, o) + (legacy_rage_actions(gw, ctx, row.id) if o == "rage actions" else 0)
        if used:
            what = "Gnosis" if o == "gnosis" else "Rage"
            raise RuleRefusal(
                f"Rage and Gnosis: {row.name} already spent {used} {what} in turn {ctx.turn}; "
                f"Rage and Gnosis cannot both be spent in one turn"
            )
    total = turn_power(gw, ctx, row.id, power) + points
    gw.execute(
        "DELETE FROM turn_powers WHERE scene_id = :s AND turn = :t AND character_id = :c AND power = :p",
        s=ctx.scene_id,
        t=ctx.turn,
        c=row.id,
        p=power,
    )
    gw.execute(
        "INSERT INTO turn_powers (scene_id, turn, character_id, power, points, created_at) "
        "VALUES (:s, :t, :c, :p, :n, :now)",
        s=ctx.scene_id,
        t=ctx.turn,
        c=row.id,
        p=power,
        n=total,
        now=_now(gw),
    )
    return total


def spend_rage_action(gw: Any, row: Any, sheet: Sheet, ctx: Any, reading: str) -> tuple[int, int | None]:
    """One Rage point of ``row`` for an extra action this turn (an attack with ``--rage``): refused beyond
    the current points or the `rage-cap` reading's cap (counting `multi --rage` spends of the same turn),
    or when Gnosis was spent this turn. Returns (Rage actions this turn, the cap)."""
    cap = rage_cap(reading, sheet)
    done = turn_power(gw, ctx, row.id, "rage actions") + legacy_rage_actions(gw, ctx, row.id)
    if cap is not None and done + 1 > cap:
        raise RuleRefusal(
            f"Rage cap ({reading}): {sheet.name} may spend at most {cap} Rage on actions a turn and already spent "
            f"{done}; a Rage action would make {done + 1}"
        )
    if sheet.powers["Rage"].temporary < 1:
        raise RuleRefusal(f"Rage: {sheet.name} has no Rage points left for a Rage action")
    use_turn_power(gw, row, ctx, "rage actions", 1)
    sheet.spend("Rage", 1)
    return done + 1, cap


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
        health: the character's health afterwards (:meth:`stkit.store.combat.Health.to_dict`).
        log_id, scene_id, turn: the roll-log row and the open scene's turn (None outside one).
        notes: further lines.
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
        }


def _health(sheet: Sheet) -> dict[str, Any]:
    from stkit.store.combat import Health

    return Health.of(sheet).to_dict()


def _finish(
    gw: Gateway,
    row: Any,
    sheet: Sheet,
    ctx: Any,
    rule: str,
    *,
    pool_text: str,
    pool: int,
    difficulty: int | None,
    roll: RollResult | None,
    summary: str,
    changes: dict[str, Any],
    notes: list[str],
    save: bool = True,
) -> PowerRoll:
    """Save the sheet, log the roll (kind ``rule``) and write the table event; the result."""
    from stkit.store.characters import save_sheet
    from stkit.store.events import record_event
    from stkit.store.rolls import write_log

    if save:
        save_sheet(gw, row, sheet)
    scene_id, turn = getattr(ctx, "scene_id", None), getattr(ctx, "turn", None)
    log_id = None
    if roll is not None:
        entry = write_log(
            gw,
            chronicle=row.chronicle,
            character_id=row.id,
            character_name=row.name,
            expression=pool_text,
            result=roll,
            detail={"rule": rule, "summary": summary, **changes},
            scene_id=scene_id,
            turn=turn,
            kind=rule,
        )
        log_id = entry.id
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
        pool,
        difficulty,
        roll,
        summary,
        changes,
        _health(sheet),
        log_id,
        scene_id,
        turn,
        tuple(notes),
    )


def _roll(pool: int, difficulty: int, faces: list[int] | None, rng: Any, *, reflexive: bool = False) -> RollResult:
    from stkit.dice.combat import RollPurpose, roll_kind

    return roll_kind(RollPurpose.ACTION, pool, difficulty, rng=rng, faces=faces)


def regenerate(
    session: Any,
    name: str,
    *,
    calm: bool = False,
    days: int = 0,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    rng: Any = None,
) -> PowerRoll:
    """`char regen NAME`: a shapeshifter heals the worst bashing or lethal level (lethal first), once a turn
    in a scene; under stress (the default) only on a success of a reflexive Stamina roll (the form's, no
    wound penalty) at difficulty 8, automatically when ``calm``; never in the breed form unless metis.
    ``days`` (1..) instead heals that many aggravated levels, one a day of rest in a form that
    regenerates, with no roll (``regeneration`` table).

    Raises NotFound, InvalidValue (bad days or faces), RuleRefusal (not a shapeshifter, the breed form,
    dead, nothing to heal, already this turn); nothing is written then.
    """
    from stkit.store.characters import find_character
    from stkit.store.combat import unhurt_pool
    from stkit.store.scenes import find_turn_context

    gw = as_gateway(session)
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
            pool_text="",
            pool=0,
            difficulty=None,
            roll=None,
            summary=summary,
            changes={"healed": healed, "healed_type": "aggravated", "days": days},
            notes=[],
        )
    kind = worst_healable(sheet)
    if kind is None:
        raise RuleRefusal(f"regeneration: {sheet.name} has no bashing or lethal damage to heal")
    if ctx is not None and turn_power(gw, ctx, row.id, "regen"):
        raise RuleRefusal(f"regeneration: {sheet.name} already regenerated in turn {ctx.turn}; one level a turn")
    roll = None
    pool_text, dice, difficulty = "", 0, None
    if calm:
        if faces is not None:
            raise InvalidValue("calm regeneration rolls no dice; leave out --dice")
        ok = True
    else:
        built = unhurt_pool(sheet, "Stamina")
        pool_text, dice, difficulty = built.expression, built.dice, int(table["stress_difficulty"])
        roll = _roll(dice, difficulty, faces, rng, reflexive=True)
        ok = roll.final_successes >= 1
    notes: list[str] = []
    if ok:
        sheet.health[kind] -= 1
        summary = f"{sheet.name} regenerates 1 {kind} level" + (" (calm)" if calm else " (Stamina roll under stress)")
    else:
        summary = f"{sheet.name} does not regenerate this turn (no success on Stamina at {difficulty})"
        if roll is not None and roll.botch:
            notes.append("a botch: no regeneration until the werewolf has rested")
    if ctx is not None:
        use_turn_power(gw, row, ctx, "regen", 1)
    return _finish(
        gw,
        row,
        sheet,
        ctx,
        "regeneration",
        pool_text=pool_text,
        pool=dice,
        difficulty=difficulty,
        roll=roll,
        summary=summary,
        changes={"healed": 1 if ok else 0, "healed_type": kind if ok else None},
        notes=notes,
    )


def shift_form(
    session: Any,
    name: str,
    form: str,
    *,
    rage: bool = False,
    instant: bool = False,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    rng: Any = None,
) -> PowerRoll:
    """`char shift NAME FORM`: Stamina + Primal-Urge (an action: form and wounds apply) at the starting
    form's difficulty, one success per form crossed among the breed's forms; fewer successes move that many
    forms toward the target. ``rage`` spends a Rage point for an instant shift (refused in a turn Gnosis was
    spent); the breed form is always instant; ``instant`` is the Storyteller's shift with no roll (between
    scenes, a Gift). The form's Attribute changes are the breed's (:mod:`stkit.store.forms`).

    Raises NotFound, InvalidValue (unknown form), RuleRefusal (a form the breed lacks, not a shapeshifter,
    already in it, no Rage, dead); nothing is written then.
    """
    from stkit.store.characters import find_character
    from stkit.store.pools import build_pool
    from stkit.store.scenes import find_turn_context

    gw = as_gateway(session)
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
    roll, pool_text, dice, difficulty = None, "", 0, None
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
        pool_text, dice, difficulty = built.expression, built.dice, shift_difficulty(start)
        roll = _roll(dice, difficulty, faces, rng)
        got = roll.final_successes
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
        pool_text=pool_text,
        pool=dice,
        difficulty=difficulty,
        roll=roll,
        summary=summary,
        changes=changes,
        notes=notes,
    )


def stay_active(
    session: Any, name: str, *, chronicle: str | None = None, faces: list[int] | None = None, rng: Any = None
) -> PowerRoll:
    """`char stay-active NAME`: a shapeshifter downed with lethal or worse past Incapacitated rolls the
    permanent Rage at difficulty 8; each success heals one level, worst first, and any success keeps them
    in the fight (entering frenzy, by the book) (``stay_active`` table). Raises RuleRefusal when the
    character is not a shapeshifter so downed, or is dead."""
    from stkit.store.characters import find_character
    from stkit.store.scenes import find_turn_context

    gw = as_gateway(session)
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
    roll = _roll(rating, difficulty, faces, rng)
    healed = 0
    for _ in range(roll.final_successes):
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
        pool_text="Rage",
        pool=rating,
        difficulty=difficulty,
        roll=roll,
        summary=summary,
        changes={"healed": healed, "active": healed > 0, "frenzy": healed > 0},
        notes=notes,
    )


def rage_roll(
    session: Any,
    name: str,
    *,
    difficulty: int | None = None,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    rng: Any = None,
) -> PowerRoll:
    """`char rage NAME`: a Rage roll (the rating, or the points when they run above it) at the chronicle
    moon's difficulty (``frenzy`` table; 6 with no moon, or ``difficulty``), with the frenzy verdict: four
    or more successes. Raises RuleRefusal for no Rage or a dead character."""
    from stkit.dice import validate_difficulty
    from stkit.store.characters import find_character
    from stkit.store.scenes import find_turn_context

    gw = as_gateway(session)
    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "Rage roll")
    track = sheet.powers["Rage"]
    dice = max(track.permanent, track.temporary)
    if dice < 1:
        raise RuleRefusal(f"Rage roll: {sheet.name} has no Rage")
    moon = get_moon(gw, row.chronicle)
    diff = validate_difficulty(difficulty) if difficulty is not None else frenzy_difficulty(moon)
    roll = _roll(dice, diff, faces, rng)
    frenzy = frenzies(roll.final_successes)
    where = f"the {moon} moon" if moon and difficulty is None else f"difficulty {diff}"
    summary = f"{sheet.name} rolls Rage {dice} under {where}: " + (
        f"{roll.final_successes} successes, FRENZY" if frenzy else f"{roll.final_successes} successes, no frenzy"
    )
    ctx = find_turn_context(gw, row)
    return _finish(
        gw,
        row,
        sheet,
        ctx,
        "rage",
        pool_text=f"Rage {dice}",
        pool=dice,
        difficulty=diff,
        roll=roll,
        summary=summary,
        changes={"frenzy": frenzy, "moon": moon},
        notes=[],
        save=False,
    )


def moonrise(session: Any, name: str, *, chronicle: str | None = None) -> PowerRoll:
    """`char moonrise NAME`: Rage regained at the first sight of the chronicle's moon in a night
    (:func:`moonrise_rage`). Raises NotFound when no moon is set (`stkit scene moon PHASE`)."""
    from stkit.store.characters import find_character
    from stkit.store.scenes import find_turn_context

    gw = as_gateway(session)
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
    summary = f"{sheet.name} sees the {moon} moon: regains {gain} Rage ({left} points)"
    return _finish(
        gw,
        row,
        sheet,
        find_turn_context(gw, row),
        "moonrise",
        pool_text="",
        pool=0,
        difficulty=None,
        roll=None,
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
            form_name, health (:meth:`stkit.store.combat.Health.to_dict`), boxes (seven, worst first), dead.
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


def fight_board(session: Any, chronicle: str) -> FightBoard | None:
    """The open scene's :class:`FightBoard` in ``chronicle``, or None when no scene is open or no
    initiative was rolled in it. Reads only."""
    from stkit.store.characters import find_character
    from stkit.store.combat import Health, _acted_this_turn, current_initiative
    from stkit.store.scenes import TurnContext

    gw = as_gateway(session)
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
        acted = _acted_this_turn(gw, char, ctx) is not None
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
