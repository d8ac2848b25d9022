"""The fight rules as functions of a sheet, and the fight's state in the store: who soaks what, maneuvers
and weapons, the Rage cap, frenzy, regeneration and shifting verdicts, the moon, the dead, and the powers
used in a turn.

The tables of numbers are packaged data (``fight_rules.yaml``, read by :mod:`stkit.sheet.fight_data`),
each with its public source named beside it; docs/combat.md restates the rules in words, with the readings
where sources disagree (each a `stkit house` key, Revised by default: ``homid-aggravated-soak``,
``rage-cap``). The use cases that roll dice for these rules are in :mod:`stkit.store.fight.night`; this module
imports no other use-case module, so the combat and character use cases can call it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.fight_data import rules_data
from stkit.sheet.forms import METIS_BREEDS, breed_form, form_label, form_slots, in_form
from stkit.sheet.sheet import Sheet
from stkit.sheet.traits import did_you_mean, norm
from stkit.store.db.gateway import Gateway
from stkit.store.fight.fates import is_dead as is_dead  # defined apart: reading and rolling need only these
from stkit.store.fight.fates import refuse_dead as refuse_dead

if TYPE_CHECKING:
    from stkit.store.scenes import TurnContext


class _Row(Protocol):
    """What these rules read of a stored character (:class:`stkit.store.characters.CharacterRow`, which
    imports this module, so it is named by its shape)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def chronicle(self) -> str: ...


#: The moon's phases, new to full (`stkit scene moon PHASE`).
MOON_PHASES = ("new", "crescent", "half", "gibbous", "full")

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
            who = "by a metis" if sheet.breed in METIS_BREEDS else f"outside the breed form ({home or 'none known'})"
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


def wound_kind(sheet: Sheet, damage_type: str, *, silver: bool = False) -> str:
    """The damage type a hit's wounds are marked as on ``sheet``'s track: a silver weapon's against a
    shapeshifter by the soak rules (lethal in the breed form, aggravated elsewhere; Mirror Play Pantheon's
    silver rules, as for the soak above), any other hit as dealt."""
    if silver and sheet.creature == "shapeshifter":
        return soak_rule(sheet, damage_type, silver=True).soaks_as
    return str(damage_type)


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


def frenzies(successes: int, needed: int | None = None) -> bool:
    """Four (``needed`` when given) or more successes on a Rage roll send the werewolf into frenzy
    (``frenzy`` table)."""
    return successes >= (int(rules_data()["frenzy"]["successes"]) if needed is None else needed)


def frenzy_terms(sheet: Sheet, moon: str | None, rules: Any) -> tuple[int, int, list[str]]:
    """(difficulty, successes needed, notes) of ``sheet``'s Rage roll under ``moon`` and the chronicle's
    house ``rules`` (:class:`stkit.dice.house.ChronicleRules`): the moon's difficulty (:func:`frenzy_difficulty`)
    and four successes, as the Revised text has them; the `frenzy-crinos` and `frenzy-auspice-moon` keys
    take one off the difficulty in Crinos or under the auspice's own moon (once, when both apply), and
    `frenzy-rank` asks 5 successes at Rank 5 and 6 at Rank 6 (Foundry WoD20, dialog-checkfrenzy.js)."""
    diff = frenzy_difficulty(moon)
    needed = int(rules_data()["frenzy"]["successes"])
    notes: list[str] = []
    crinos = rules.frenzy_crinos and norm(sheet.form) == "crinos"
    own_moon = (
        rules.frenzy_auspice_moon
        and moon is not None
        and rules_data()["rage_by_moon"]["auspice_moon"].get(sheet.auspice) == moon
    )
    if crinos or own_moon:
        diff -= 1
        why = "in Crinos" if crinos else f"under the {sheet.auspice}'s own moon"
        notes.append(f"house rule frenzy-{'crinos' if crinos else 'auspice-moon'}: difficulty -1 {why}")
    if rules.frenzy_rank and sheet.rank >= 5:
        needed = min(sheet.rank, 6)
        notes.append(f"house rule frenzy-rank: Rank {sheet.rank} frenzies at {needed} successes")
    return max(diff, 2), needed, notes


def check_moon(text: str) -> str:
    """'Full' -> 'full'. Raises InvalidValue naming the phases."""
    t = norm(text or "").replace("moon", "")
    if t not in MOON_PHASES:
        raise InvalidValue(f"unknown moon phase {text!r}; allowed: {', '.join(MOON_PHASES)}")
    return t


def moonrise_rage(sheet: Sheet, moon: str) -> int:
    """Rage points ``sheet`` regains at the first sight of ``moon`` in a night (``rage_by_moon``): the
    phase's points, up to the rating; under the auspice's own moon back to the full rating. E.g. an Ahroun
    (Rage 5, 1 point): the half moon gives 3 (to 4), the full moon, hers, 4 (to 5)."""
    table = rules_data()["rage_by_moon"]
    track = sheet.powers["Rage"]
    room = max(track.permanent - track.temporary, 0)
    if table["auspice_moon"].get(sheet.auspice) == moon:
        return room
    return min(int(table["points"][moon]), room)


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


def get_moon(gw: Gateway, chronicle: str) -> str | None:
    """The moon phase set for ``chronicle``, or None."""
    row = gw.row("SELECT phase FROM chronicle_moon WHERE chronicle = :c", c=chronicle)
    return None if row is None else str(row[0])


@dataclass(frozen=True)
class MoonSet:
    chronicle: str
    phase: str
    rage_difficulty: int

    def to_dict(self) -> dict[str, Any]:
        return {"chronicle": self.chronicle, "phase": self.phase, "rage_difficulty": self.rage_difficulty}


def set_moon(gw: Gateway, chronicle: str, phase: str) -> MoonSet:
    """`scene moon PHASE`: store the chronicle's moon (it sets Rage rolls' difficulty), with an event."""
    from stkit.store.table.events import record_event  # lazy: start-up (`char list` and `char heal` record no event)

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


def mark_dead(gw: Gateway, row: _Row, ctx: TurnContext | None) -> None:
    """Record ``row`` (a character) as dead, in the open scene's turn ``ctx`` (or None)."""
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


def turn_power(gw: Gateway, ctx: TurnContext | None, character_id: int, power: str) -> int:
    """Points of ``power`` ('rage actions', 'rage', 'gnosis', 'regen') used in the turn ``ctx``."""
    if ctx is None:
        return 0
    row = gw.row(
        "SELECT points FROM turn_powers WHERE scene_id = :s AND turn = :t AND character_id = :c AND power = :p",
        s=ctx.scene_id,
        t=ctx.turn,
        c=character_id,
        p=power,
    )
    return 0 if row is None else int(row[0])


def legacy_rage_actions(gw: Gateway, ctx: TurnContext | None, character_id: int) -> int:
    """Rage spent on extra actions through `multi --rage` in the turn (its own table)."""
    if ctx is None:
        return 0
    row = gw.row(
        "SELECT points FROM rage_spends WHERE scene_id = :s AND turn = :t AND character_id = :c",
        s=ctx.scene_id,
        t=ctx.turn,
        c=character_id,
    )
    return 0 if row is None else int(row[0])


#: The uses of Gnosis that shut Rage out of the turn: a point spent, or a roll of the Gnosis pool (Revised,
#: "Rage and Gnosis": a character may not use both in one turn).
GNOSIS_USES = ("gnosis", "gnosis roll")


def use_turn_power(gw: Gateway, row: _Row, ctx: TurnContext | None, power: str, points: int) -> int:
    """Count ``points`` of ``power`` used by ``row`` in the turn ``ctx`` (nothing outside a scene) and return
    the turn's total. Rage (for actions or anything else) and Gnosis are never both spent in one turn
    (Revised, "Rage and Gnosis"): RuleRefusal naming the one already spent."""
    if ctx is None:
        return points
    rage = power.startswith("rage")
    other = GNOSIS_USES if rage else ("rage", "rage actions") if power in GNOSIS_USES else ()
    for o in other:
        used = turn_power(gw, ctx, row.id, o) + (legacy_rage_actions(gw, ctx, row.id) if o == "rage actions" else 0)
        if used:
            what = "rolled Gnosis" if o == "gnosis roll" else f"spent {used} {'Gnosis' if o == 'gnosis' else 'Rage'}"
            raise RuleRefusal(
                f"Rage and Gnosis: {row.name} already {what} in turn {ctx.turn}; "
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


def spend_rage_action(
    gw: Gateway, row: _Row, sheet: Sheet, ctx: TurnContext | None, reading: str
) -> tuple[int, int | None]:
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
