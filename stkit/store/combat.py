"""Combat use cases on the store: initiative on the scene's turn, damage and soak rolls from a sheet, a hit
with its soak, a whole attack, and Rage spent for extra actions (specialties: :mod:`stkit.store.specialties`).

Each use case takes a :class:`~stkit.store.gateway.Gateway` (one transaction: the caller's) and returns a
frozen result; a refusal raises before anything is written, so nothing is stored half-done. The dice rules
are in :mod:`stkit.dice.combat` (its docstring says where each comes from); this module only reads and
writes sheets, the roll log and the scene.

Readings of stkit's own (the rules chapter gives no combat system; see docs/combat.md):

- A soak or damage pool takes no wound penalty: wound penalties lower the dice of actions, and soak is
  reflexive ("Game Terms", Reflexive); damage is the attack's effect, not a second action.
- The soak pool is the target's Stamina by default, with the form's change (Crinos Stamina +3).
- "In the scene": when initiative has been rolled in the open scene, the characters in its order; else
  every character of the scene's chronicle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from stkit.dice import RollResult
from stkit.dice.combat import (
    MAX_HIT_LEVELS,
    STANDARD_COMBAT,
    AttackResult,
    AttackSpec,
    CombatRules,
    InitiativeEntry,
    InitiativeRoll,
    RollPurpose,
    roll_initiative,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.store.events import record_event
from stkit.store.forms import in_form
from stkit.store.gateway import DuplicateRow, Gateway
from stkit.store.house import rules_in_force
from stkit.store.pools import PoolBreakdown, build_pool, unhurt_pool
from stkit.store.rolling import Purpose, RollOrder, add_log_detail, fresh_seed, generator, make_roll
from stkit.store.sheet import Sheet
from stkit.store.sheet import damage_type as check_damage_type
from stkit.store.specialties import SpecialtyUse, apply_specialty
from stkit.store.vocab import DamageType, LogKind
from stkit.text import check_range

if TYPE_CHECKING:
    from stkit.dice.house import ChronicleRules
    from stkit.store.characters import CharacterRow
    from stkit.store.fight_rules import AttackPlan, SoakRule
    from stkit.store.scenes import TurnContext


#: The soak pool when none is named.
DEFAULT_SOAK = "Stamina"


# ---------------------------------------------------------------------------------------------- helpers


def soak_expression(rule: Any) -> str:
    """The soak pool a :class:`stkit.store.fight_rules.SoakRule` allows: 'Stamina', 'Stamina + 2' with
    armour, or the armour's dice alone ('2') when Stamina may not soak."""
    if not rule.stamina:
        return str(rule.armour)
    return DEFAULT_SOAK + (f" + {rule.armour}" if rule.armour else "")


def _check_levels(levels: int) -> int:
    if isinstance(levels, bool) or not isinstance(levels, int):
        raise InvalidValue(f"health levels of a hit {levels!r} is not a whole number; allowed: 1 to {MAX_HIT_LEVELS}")
    return check_range(levels, "health levels of a hit", 1, MAX_HIT_LEVELS)


def _now(gw: Gateway) -> object:
    return gw.timestamp(datetime.now(UTC))


def _dice_words(roll: RollResult) -> str:
    n = roll.final_successes
    return f"{', '.join(map(str, roll.dice))} -> {n} success{'es' if n != 1 else ''}"


def pool_words(pool: PoolBreakdown) -> str:
    """'Stamina 4' for the pool 'Stamina 4 = 4 dice' (the dice count is said elsewhere)."""
    return pool.text.rsplit(" = ", 1)[0]


@dataclass(frozen=True)
class Health:
    """A sheet's health after a change: damage per type, the deepest level, the wound penalty."""

    damage: dict[str, int]
    level: str | None
    wound_penalty: int
    incapacitated: bool

    @classmethod
    def of(cls, sheet: Sheet) -> Health:
        return cls(dict(sheet.health), sheet.health_level, sheet.wound_penalty, sheet.incapacitated)

    @property
    def words(self) -> str:
        """'now Hurt, -1 dice', 'now Incapacitated', 'unhurt'."""
        if self.incapacitated:
            return "now Incapacitated"
        if self.level is None:
            return "unhurt"
        return f"now {self.level}" + (f", -{self.wound_penalty} dice" if self.wound_penalty else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "damage": dict(self.damage),
            "level": self.level,
            "wound_penalty": self.wound_penalty,
            "incapacitated": self.incapacitated,
        }


# ---------------------------------------------------------------------------------------------- one roll


@dataclass(frozen=True)
class PurposeRoll:
    """A damage or soak roll made from a sheet (`stkit roll POOL -c NAME --damage`): the pool, the roll, the
    log entry."""

    character: str
    chronicle: str
    purpose: RollPurpose
    pool: PoolBreakdown
    roll: RollResult
    log_id: int
    scene_id: int | None = None
    turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "character": self.character,
            "chronicle": self.chronicle,
            "kind": self.purpose.value,
            "pool_breakdown": self.pool.to_dict(),
            "log_id": self.log_id,
            "scene_id": self.scene_id,
            "turn": self.turn,
        }


def roll_for_purpose(
    gw: Gateway,
    name: str,
    expression: str,
    purpose: RollPurpose | str,
    *,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    seed: int | None = None,
    overrides: RuleOverrides = NO_OVERRIDES,
    combat: CombatRules = STANDARD_COMBAT,
) -> PurposeRoll:
    """A damage or soak roll of ``expression`` from character ``name``'s sheet through
    :func:`stkit.store.rolling.make_roll`: the pool without the wound penalty (see the module docstring),
    never a botch, logged with its kind in the open scene's turn, under the chronicle's house rules with
    ``overrides`` on top. Raises NotFound, InvalidValue (an action is not a purpose here; bad pool or
    faces), RuleRefusal."""
    purpose = RollPurpose(purpose)
    if purpose is RollPurpose.ACTION:
        raise InvalidValue("an action from the sheet is an ordinary roll: stkit roll POOL -c NAME")
    order = RollOrder(
        expression,
        character=name,
        chronicle=chronicle,
        purpose=Purpose(purpose.value),
        overrides=overrides,
        faces=tuple(faces) if faces is not None else None,
        seed=seed,
        combat=combat,
    )
    done = make_roll(gw, order)
    assert done.pool is not None and done.log_id is not None and done.character is not None
    return PurposeRoll(
        done.character, done.chronicle, purpose, done.pool, done.roll, done.log_id, done.scene_id, done.turn
    )


# ---------------------------------------------------------------------------------------------- a hit


@dataclass(frozen=True)
class HitResult:
    """What `char hit` did.

    Attributes:
        character, chronicle: who took the hit.
        levels, damage_type: the hit as given (1..MAX_HIT_LEVELS levels).
        soak_pool: the soak pool built (None without ``--soak``, or when the type may not be soaked).
        soak: the soak roll (None when none was made).
        soaked, wounds: levels soaked and levels left to mark (``soaked + wounds == levels``).
        taken: the health track's report (:meth:`stkit.store.sheet.DamageTaken.to_dict`), None for no wounds.
        health: the character's health afterwards.
        log_id, scene_id, turn: the soak roll's log entry (None when no roll was made).
        notes, warnings: lines for the user.
    """

    character: str
    chronicle: str
    levels: int
    damage_type: DamageType
    soak_pool: PoolBreakdown | None
    soak: RollResult | None
    soaked: int
    wounds: int
    taken: dict[str, Any] | None
    health: Health
    log_id: int | None = None
    scene_id: int | None = None
    turn: int | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """'3 lethal, soaked 1 (Stamina 4: 2, 1, 8, 9 -> 1 success) -> 2 levels: now Hurt, -1 dice'."""
        head = f"{self.levels} {self.damage_type.value}"
        if self.soak is not None and self.soak_pool is not None:
            head += f", soaked {self.soaked} ({pool_words(self.soak_pool)}: {_dice_words(self.soak)})"
        levels = f"{self.wounds} level{'s' if self.wounds != 1 else ''}"
        return f"{head} -> {levels}: {self.health.words}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "character": self.character,
            "chronicle": self.chronicle,
            "levels": self.levels,
            "damage_type": self.damage_type.value,
            "soak_pool": self.soak_pool.to_dict() if self.soak_pool else None,
            "soak": self.soak.to_dict() if self.soak else None,
            "soaked": self.soaked,
            "wounds": self.wounds,
            "taken": self.taken,
            "health": self.health.to_dict(),
            "log_id": self.log_id,
            "scene_id": self.scene_id,
            "turn": self.turn,
            "summary": self.summary,
            "notes": list(self.notes),
            "warnings": list(self.warnings),
        }


def _soak_choice(
    sheet: Sheet,
    damage: int,
    damage_type: DamageType,
    soak: str | None,
    *,
    faces: list[int] | None,
    combat: CombatRules,
    silver: bool = False,
    homid_aggravated: bool = False,
) -> tuple[str | None, list[str]]:
    """(the soak pool expression to roll, or None for no soak roll; notes) for ``damage`` levels against
    ``sheet``'s soak. The default soak ('') follows the soak rules (:func:`stkit.store.fight_rules.soak_rule`);
    a named pool is the table's call and is rolled as given. Raises InvalidValue for soak dice given where no
    soak roll is made."""
    from stkit.store.fight_rules import soak_rule

    notes: list[str] = []
    if soak is None or damage == 0:
        if faces is not None and soak is None:
            raise InvalidValue("soak dice were given without --soak")
        if faces is not None:
            raise InvalidValue("soak dice were given but there is no damage to soak")
        return None, notes
    if not combat.may_soak(damage_type):
        if faces is not None:
            raise InvalidValue(f"soak dice were given but {damage_type.value} damage may not be soaked here")
        notes.append(f"{damage_type.value} damage cannot be soaked (house rule); no soak roll")
        return None, notes
    if soak:
        return soak, notes
    verdict = soak_rule(sheet, damage_type.value, silver=silver, homid_aggravated=homid_aggravated)
    if not verdict.dice_from_rules:
        if faces is not None:
            raise InvalidValue(f"soak dice were given but {verdict.why}")
        notes.append(f"no soak: {verdict.why}")
        return None, notes
    notes.append(f"soak: {verdict.why}" + (f", armour +{verdict.armour}" if verdict.armour else ""))
    return soak_expression(verdict), notes


def take_hit(
    gw: Gateway,
    name: str,
    levels: int,
    damage_type: str | DamageType = DamageType.bashing,
    *,
    soak: str | None = None,
    difficulty: int | None = None,
    chronicle: str | None = None,
    faces: list[int] | None = None,
    seed: int | None = None,
    overrides: RuleOverrides = NO_OVERRIDES,
    combat: CombatRules = STANDARD_COMBAT,
    silver: bool = False,
) -> HitResult:
    """`char hit NAME LEVELS --type T [--soak [POOL]]`: ``levels`` (1..MAX_HIT_LEVELS) of ``damage_type``.

    With ``soak`` (a pool expression; '' for the soak rules' pool) the character's soak roll (never a botch;
    made by :func:`stkit.store.rolling.make_roll` at ``difficulty``, None: the chronicle's, under its house
    rules with ``overrides`` on top) takes successes off the levels first; the rest go on the health track
    (its overflow past Incapacitated is reported; a killing level marks the character dead) and the sheet
    change is one table event. The default soak follows the soak rules (who may soak what, by creature and
    form; ``silver`` for a silver weapon; the `homid-aggravated-soak` house rule). The soak roll is logged
    like any roll, in the open scene's turn. One transaction: a refusal (bad levels or type, an impossible
    soak pool, a dead character) changes nothing. Raises NotFound, InvalidValue, RuleRefusal.
    """
    from stkit.store.characters import find_character, save_sheet
    from stkit.store.fight_rules import mark_dead, refuse_dead
    from stkit.store.scenes import find_turn_context

    _check_levels(levels)
    kind = DamageType(check_damage_type(damage_type))
    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "hit")
    house = rules_in_force(gw, row.chronicle)
    expression, notes = _soak_choice(
        sheet,
        levels,
        kind,
        soak,
        faces=faces,
        combat=combat,
        silver=silver,
        homid_aggravated=house.homid_aggravated_soak,
    )
    done = None
    soaked, left = 0, levels
    if expression is not None:
        order = RollOrder(
            expression,
            character=row.name,
            chronicle=row.chronicle,
            purpose=Purpose.soak,
            overrides=overrides.at_difficulty(difficulty),
            faces=tuple(faces) if faces is not None else None,
            seed=seed,
            combat=combat,
            extra={"hit": levels, "damage_type": kind.value},
        )
        done = make_roll(gw, order)
        soaked = min(done.roll.final_successes, levels)
        left = levels - soaked
        add_log_detail(gw, done.log_id, soaked=soaked, wounds=left)
    taken = None
    warnings: list[str] = []
    ctx = find_turn_context(gw, row)
    if left:
        report = sheet.take_damage(left, kind.value)
        taken = report.to_dict()
        warnings = report.warnings(sheet.name)
        save_sheet(gw, row, sheet, summary=f"{sheet.name} takes {left} {kind.value}: {Health.of(sheet).words}")
        if report.killed:
            mark_dead(gw, row, ctx)
    return HitResult(
        row.name,
        row.chronicle,
        levels,
        kind,
        done.pool if done is not None else None,
        done.roll if done is not None else None,
        soaked,
        left,
        taken,
        Health.of(sheet),
        done.log_id if done is not None else None,
        getattr(ctx, "scene_id", None),
        getattr(ctx, "turn", None),
        tuple(notes),
        tuple(warnings),
    )


# ---------------------------------------------------------------------------------------------- initiative


@dataclass(frozen=True)
class InitiativeOrder:
    """Initiative rolled for a scene's turn: the order (place 1 first), who could not act, the seed."""

    scene_id: int
    scene: str
    turn: int
    order: tuple[InitiativeRoll, ...]
    cannot_act: tuple[str, ...] = ()
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scene_id": self.scene_id,
            "scene": self.scene,
            "turn": self.turn,
            "order": [o.to_dict() for o in self.order],
            "cannot_act": list(self.cannot_act),
            "seed": self.seed,
        }


def _open_scene(gw: Gateway, chronicle: str, *, lock: bool = False) -> tuple[int, str, int]:
    sql = "SELECT id, name, turn FROM scenes WHERE chronicle = :chronicle AND status = 'open'"
    row = gw.row(sql + (gw.lock if lock else ""), chronicle=chronicle)
    if row is None:
        raise NotFound(f"no scene is open in chronicle {chronicle!r}; start one with: stkit scene start NAME")
    return int(row[0]), str(row[1]), int(row[2])


def _scene_roster(gw: Gateway, scene_id: int) -> list[str]:
    """Names of the characters who have rolled in the scene, in the order they first rolled."""
    rows = gw.rows(
        "SELECT c.name, MIN(l.id) FROM roll_log l JOIN characters c ON c.id = l.character_id "
        "WHERE l.scene_id = :sid GROUP BY c.name ORDER BY MIN(l.id)",
        sid=scene_id,
    )
    return [str(r[0]) for r in rows]


def initiative_entry(sheet: Sheet) -> InitiativeEntry:
    """The initiative of ``sheet``: the form's Dexterity, Wits, and the wound penalty."""
    dexterity = in_form(sheet, "Dexterity")
    wits = in_form(sheet, "Wits")
    return InitiativeEntry(sheet.name, dexterity, wits, sheet.wound_penalty)


def roll_scene_initiative(
    gw: Gateway,
    chronicle: str,
    names: list[str] | None = None,
    *,
    dice: list[int] | None = None,
    seed: int | None = None,
) -> InitiativeOrder:
    """`scene initiative [NAME ...]`: one die + Dexterity + Wits - wound penalty for each named character
    (default: every character who has rolled in the open scene of ``chronicle``), ordered by
    :data:`stkit.dice.combat.INITIATIVE_TIE_RULE`, stored on the scene's current turn (later turns keep it
    until initiative is rolled again). Incapacitated characters cannot act and are left out (listed in
    ``cannot_act``). ``dice``: one face per character who can act, in the order named.

    Raises NotFound (no open scene, unknown name), InvalidValue (no one to order, bad dice).
    """
    from stkit.store.characters import find_character

    scene_id, scene_name, turn = _open_scene(gw, chronicle, lock=True)
    wanted = list(names or []) or _scene_roster(gw, scene_id)
    if not wanted:
        raise InvalidValue(
            "nobody has rolled in this scene yet; name the characters: stkit scene initiative NAME [NAME ...]"
        )
    entries: list[InitiativeEntry] = []
    cannot_act: list[str] = []
    for name in wanted:
        sheet = find_character(gw, name, chronicle).to_sheet()
        if sheet.incapacitated:
            cannot_act.append(sheet.name)
            continue
        entries.append(initiative_entry(sheet))
    if not entries:
        raise RuleRefusal(f"{', '.join(cannot_act)}: Incapacitated, nobody can act")
    rng, seed = generator(seed)  # in the transaction: a retry rolls the same dice
    order = roll_initiative(entries, rng=rng, dice=dice)
    result = InitiativeOrder(scene_id, scene_name, turn, order, tuple(cannot_act), None if dice else seed)
    gw.execute(
        "UPDATE scene_turns SET initiative = :data WHERE scene_id = :sid AND turn = :turn",
        data=json.dumps(result.to_dict(), sort_keys=True),
        sid=scene_id,
        turn=turn,
    )
    record_event(
        gw,
        chronicle=chronicle,
        kind="scene",
        data={
            "scene_id": scene_id,
            "name": scene_name,
            "turn": turn,
            "status": "open",
            "change": "initiative",
            "order": [o.name for o in order],
        },
    )
    return result


def current_initiative(gw: Gateway, scene_id: int, turn: int) -> dict[str, Any] | None:
    """The initiative stored for ``turn`` of the scene (or the latest earlier turn that has one), as
    :meth:`InitiativeOrder.to_dict` stored it with ``rolled_turn`` added; None when none was rolled."""
    row = gw.row(
        "SELECT turn, initiative FROM scene_turns WHERE scene_id = :sid AND turn <= :turn AND initiative IS NOT NULL "
        "ORDER BY turn DESC LIMIT 1",
        sid=scene_id,
        turn=turn,
    )
    if row is None:
        return None
    data: dict[str, Any] = json.loads(row[1])
    data["rolled_turn"] = row[0]
    return data


# ---------------------------------------------------------------------------------------------- an attack


@dataclass(frozen=True)
class AttackExchange:
    """`stkit attack`: who, the pools built, the dice of each step, the wounds and what the sheets show now.

    Attributes:
        attacker, target, chronicle: the two characters.
        attack_pool, damage_pool, soak_pool: the pools as built (soak None without ``--soak``).
        result: the dice (:class:`stkit.dice.combat.AttackResult`).
        damage_type: bashing, lethal or aggravated.
        taken: the target's health-track report (None without wounds).
        health: the target's health afterwards.
        log_ids: the log entries written, in order (attack, then damage and soak when rolled).
        specialty: the specialty used on the attack (``--spec``), or None.
    """

    attacker: str
    target: str
    chronicle: str
    attack_pool: PoolBreakdown
    damage_pool: PoolBreakdown
    soak_pool: PoolBreakdown | None
    result: AttackResult
    damage_type: DamageType
    taken: dict[str, Any] | None
    health: Health
    log_ids: tuple[int, ...]
    scene_id: int | None = None
    turn: int | None = None
    specialty: SpecialtyUse | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    seed: int | None = None
    defence_pool: PoolBreakdown | None = None
    defence_kind: str | None = None
    plan: Any = None  # stkit.store.fight.AttackPlan (weapon or maneuver), or None
    soak_rule: Any = None  # stkit.store.fight.SoakRule, or None without --soak
    dead: bool = False
    coup_de_grace: bool = False
    rage_action: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "defence_pool_breakdown": self.defence_pool.to_dict() if self.defence_pool else None,
            "defence_kind": self.defence_kind,
            "plan": self.plan.to_dict() if self.plan else None,
            "soak_rule": self.soak_rule.to_dict() if self.soak_rule else None,
            "dead": self.dead,
            "coup_de_grace": self.coup_de_grace,
            "rage_action": self.rage_action,
            "attacker": self.attacker,
            "target": self.target,
            "chronicle": self.chronicle,
            "attack_pool": self.attack_pool.to_dict(),
            "damage_pool_base": self.damage_pool.to_dict(),
            "soak_pool_breakdown": self.soak_pool.to_dict() if self.soak_pool else None,
            **self.result.to_dict(),
            "damage_type": self.damage_type.value,
            "taken": self.taken,
            "health": self.health.to_dict(),
            "log_ids": list(self.log_ids),
            "scene_id": self.scene_id,
            "turn": self.turn,
            "specialty": self.specialty.to_dict() if self.specialty else None,
            "notes": list(self.notes),
            "warnings": list(self.warnings),
            "seed": self.seed,
        }


def check_in_scene(gw: Gateway, target: Any, attacker: Any) -> None:
    """Refuse (RuleRefusal) a target out of the attacker's scene: another chronicle, or not in the initiative
    order when one was rolled in the open scene."""
    from stkit.store.scenes import find_turn_context

    if target.chronicle != attacker.chronicle:
        raise RuleRefusal(
            f"{target.name} is out of the scene: they are in chronicle {target.chronicle!r}, "
            f"{attacker.name} in {attacker.chronicle!r}"
        )
    ctx = find_turn_context(gw, attacker)
    if ctx is None:
        return
    order = current_initiative(gw, ctx.scene_id, ctx.turn)
    if order is None:
        return
    names = [o["name"] for o in order["order"]]
    for who in (attacker, target):
        if who.name not in names:
            raise RuleRefusal(
                f"{who.name} is out of the scene: not in the initiative order ({', '.join(names)}); "
                f"roll initiative again to bring them in"
            )


def _find_target(gw: Gateway, name: str, attacker: Any) -> Any:
    """The (locked) target in the attacker's chronicle; one found only in another chronicle is out of the
    scene (RuleRefusal); none at all is NotFound."""
    from stkit.store.characters import find_character

    try:
        return find_character(gw, name, attacker.chronicle, for_update=True)
    except NotFound:
        try:
            elsewhere = find_character(gw, name)
        except (NotFound, InvalidValue):
            raise NotFound(
                f"no character {name!r} in chronicle {attacker.chronicle!r}, where {attacker.name} fights"
            ) from None
        raise RuleRefusal(
            f"{elsewhere.name} is out of the scene: they are in chronicle {elsewhere.chronicle!r}, "
            f"{attacker.name} in {attacker.chronicle!r}"
        ) from None


def _acted_this_turn(gw: Gateway, row: CharacterRow, ctx: TurnContext | None) -> int | None:
    """The id of the first action roll (a roll, an attack, a Rage action, a shift) ``row`` made in the turn
    ``ctx``, or None."""
    if ctx is None:
        return None
    found = gw.row(
        "SELECT MIN(id) FROM roll_log WHERE scene_id = :s AND turn = :t AND character_id = :c "
        "AND kind IN ('roll', 'attack', 'rage action', 'shift', 'extended', 'contest')",
        s=ctx.scene_id,
        t=ctx.turn,
        c=row.id,
    )
    return None if found is None or found[0] is None else int(found[0])


def _with_armour(sheet: Sheet, expression: str, notes: list[str]) -> str:
    """``expression`` less the worn armour's Dexterity penalty when it rolls Dexterity."""
    from stkit.store.fight_rules import armour_penalty

    penalty = armour_penalty(sheet)
    if penalty and "dexterity" in expression.casefold():
        notes.append(f"{sheet.name}'s armour: -{penalty} Dexterity dice")
        return f"{expression} - {penalty}"
    return expression


#: The defences a target may roll against an attack (the Revised combat chapter's defensive maneuvers).
DEFENCES = ("dodge", "block", "parry")


def _refuse_attack(
    gw: Gateway, a_row: CharacterRow, t_row: CharacterRow, t_sheet: Sheet, *, coup_de_grace: bool, defended: bool
) -> None:
    """Raise RuleRefusal when ``a_row`` cannot attack ``t_row`` now: the target is out of the scene, either is
    dead, an Incapacitated target without ``coup_de_grace`` (or a coup de grace on one who is not, or with a
    dodge or soak: ``defended``)."""
    from stkit.store.fight_rules import is_dead

    check_in_scene(gw, t_row, a_row)
    if is_dead(gw, a_row.id):
        raise RuleRefusal(f"attack: {a_row.name} is dead")
    if is_dead(gw, t_row.id):
        raise RuleRefusal(f"attack: {t_row.name} is already dead")
    if t_sheet.incapacitated and not coup_de_grace:
        raise RuleRefusal(
            f"{t_sheet.name} is already Incapacitated; finishing them is a coup de grace (--coup-de-grace)"
        )
    if coup_de_grace and not t_sheet.incapacitated:
        raise RuleRefusal(f"coup de grace: {t_sheet.name} is not Incapacitated ({t_sheet.health_level or 'unhurt'})")
    if coup_de_grace and defended:
        raise RuleRefusal("coup de grace: a downed foe neither dodges nor soaks; leave out --dodge and --soak")


def _attack_plan(
    a_sheet: Sheet,
    pool: str | None,
    damage: str | None,
    difficulty: int | None,
    damage_type: str | DamageType | None,
    *,
    weapon: str | None,
    maneuver: str | None,
    range_: str | None,
) -> tuple[AttackPlan | None, str, str, int | None, DamageType]:
    """(plan, attack pool, damage pool, difficulty, damage type) of an attack: a ``weapon`` on the sheet or a
    ``maneuver`` fills what is not given (None difficulty: the chronicle's). Raises InvalidValue (both a
    weapon and a maneuver, a range without either, no pool or damage, an unknown type), RuleRefusal (a weapon
    the sheet does not hold)."""
    from stkit.store.fight_rules import maneuver_plan, weapon_plan

    if weapon is not None and maneuver is not None:
        raise InvalidValue("give --weapon or --maneuver, not both")
    plan = None
    if weapon is not None:
        plan = weapon_plan(a_sheet, weapon, range_=range_)
    elif maneuver is not None:
        plan = maneuver_plan(a_sheet, maneuver, range_=range_)
    elif range_ is not None:
        raise InvalidValue("--range goes with --maneuver firearms or a ranged --weapon")
    pool = pool if pool is not None else (plan.pool if plan else None)
    damage = damage if damage is not None else (plan.damage if plan and plan.damage else None)
    if not pool:
        raise InvalidValue("the attack needs a pool: --pool, --weapon or --maneuver")
    if not damage:
        raise InvalidValue("the attack needs a damage pool: --damage (the weapon or maneuver gives none)")
    difficulty = difficulty if difficulty is not None else (plan.difficulty if plan else None)
    kind = DamageType(
        check_damage_type(damage_type if damage_type is not None else (plan.damage_type if plan else "bashing"))
    )
    return plan, pool, damage, difficulty, kind


def _defence_pool(
    gw: Gateway,
    t_row: CharacterRow,
    t_sheet: Sheet,
    ctx: TurnContext | None,
    defence: str,
    defence_kind: str,
    defender_actions: int,
    notes: list[str],
) -> PoolBreakdown | None:
    """The target's dodge, block or parry pool ``defence`` (worn armour's Dexterity penalty; with more than
    one ``defender_actions`` the multiple-action penalty); None when no dice are left (no roll). Raises
    InvalidValue (unknown kind, actions outside 1..10), RuleRefusal (the target already acted this turn and
    declared one action)."""
    if defence_kind not in DEFENCES:
        raise InvalidValue(f"unknown defence {defence_kind!r}; allowed: {', '.join(DEFENCES)}")
    if isinstance(defender_actions, bool) or not isinstance(defender_actions, int) or not 1 <= defender_actions <= 10:
        raise InvalidValue(f"defender's actions {defender_actions!r} must be a whole number from 1 to 10")
    acted = _acted_this_turn(gw, t_row, ctx)
    if acted is not None and ctx is not None and defender_actions == 1:
        raise RuleRefusal(
            f"{defence_kind}: {t_row.name} already acted in turn {ctx.turn} (roll #{acted}); a defender "
            f"who has acted has no action left to {defence_kind} with (declare it: --defender-actions 2)"
        )
    expression = _with_armour(t_sheet, defence, notes)
    if defender_actions > 1:
        expression += f" - {defender_actions}"
        notes.append(
            f"{t_row.name} takes {defender_actions} actions this turn: the {defence_kind} loses {defender_actions} dice"
        )
    built = build_pool(t_sheet, expression, empty_ok=True)
    if not built.possible:  # no dice left to defend with: the attack goes ahead undefended
        notes.append(f"{t_row.name} has no dice left to {defence_kind} with ({built.text}): no {defence_kind} roll")
        return None
    return built


def _soak_pool(
    t_row: CharacterRow,
    t_sheet: Sheet,
    kind: DamageType,
    soak: str,
    silver: bool,
    in_force: ChronicleRules,
    combat: CombatRules,
    notes: list[str],
) -> tuple[PoolBreakdown | None, SoakRule]:
    """(the target's soak pool, the soak rules' verdict): ``soak`` names a pool (the table's call) or is ''
    for the soak rules' pool (:func:`stkit.store.fight_rules.soak_rule`); None when nothing may be soaked."""
    from stkit.store.fight_rules import soak_rule

    soak_pool = None
    verdict = soak_rule(t_sheet, kind.value, silver=silver, homid_aggravated=in_force.homid_aggravated_soak)
    if not combat.may_soak(kind):
        notes.append(f"{kind.value} damage cannot be soaked (house rule); no soak roll")
    elif soak:  # an explicit soak pool: the table's call
        soak_pool = unhurt_pool(t_sheet, soak)
    elif verdict.dice_from_rules:
        soak_pool = unhurt_pool(t_sheet, soak_expression(verdict))
        notes.append(f"soak: {verdict.why}" + (f", armour +{verdict.armour}" if verdict.armour else ""))
    else:
        notes.append(f"no soak: {verdict.why}")
    return soak_pool, verdict


def _wound(
    gw: Gateway, t_row: CharacterRow, t_sheet: Sheet, wounds: int, kind: DamageType, ctx: TurnContext | None
) -> tuple[dict[str, Any] | None, list[str], bool]:
    """Put ``wounds`` levels of ``kind`` on the target's health track and save it (a killing level marks them
    dead): (what was taken, or None for no wound; warnings; dead)."""
    from stkit.store.characters import save_sheet
    from stkit.store.fight_rules import mark_dead

    if not wounds:
        return None, [], False
    report = t_sheet.take_damage(wounds, kind.value)
    save_sheet(gw, t_row, t_sheet, summary=f"{t_sheet.name} takes {wounds} {kind.value}: {Health.of(t_sheet).words}")
    if report.killed:
        mark_dead(gw, t_row, ctx)
    return report.to_dict(), report.warnings(t_sheet.name), report.killed


def _attacker_costs(
    gw: Gateway,
    a_row: CharacterRow,
    a_sheet: Sheet,
    willpower: bool,
    rage_count: tuple[int, int | None] | None,
    rage_cap: str,
    notes: list[str],
) -> None:
    """Keep the attacker's sheet in step with what the attack cost and say so in ``notes``: the Willpower
    point (make_roll spent and saved it) and the Rage point of a Rage action (``rage_count``: the Rage
    actions this turn and the cap; saved here)."""
    from stkit.store.characters import save_sheet

    if willpower:
        left = a_sheet.spend("Willpower", 1).temporary
        notes.append(f"Willpower spent on the attack: {left} point{'s' if left != 1 else ''} left")
    if rage_count is None:
        return
    rage = a_sheet.powers["Rage"].temporary
    save_sheet(gw, a_row, a_sheet, summary=f"{a_sheet.name} spends 1 Rage: {rage} left")
    done, cap = rage_count
    notes.append(
        f"a Rage action: {rage} Rage left; {done} Rage action{'s' if done != 1 else ''} this turn"
        + (f" of at most {cap} ({rage_cap})" if cap is not None else "")
    )


def attack(
    gw: Gateway,
    attacker: str,
    target: str,
    *,
    pool: str | None = None,
    damage: str | None = None,
    difficulty: int | None = None,
    damage_type: str | DamageType | None = None,
    soak: str | None = None,
    damage_difficulty: int = 6,
    soak_difficulty: int = 6,
    chronicle: str | None = None,
    spec: bool = False,
    attack_faces: list[int] | None = None,
    damage_faces: list[int] | None = None,
    soak_faces: list[int] | None = None,
    seed: int | None = None,
    overrides: RuleOverrides = NO_OVERRIDES,
    combat: CombatRules = STANDARD_COMBAT,
    willpower: bool = False,
    weapon: str | None = None,
    maneuver: str | None = None,
    range_: str | None = None,
    defence: str | None = None,
    defence_kind: str = "dodge",
    defence_difficulty: int = 6,
    defender_actions: int = 1,
    defence_faces: list[int] | None = None,
    silver: bool = False,
    coup_de_grace: bool = False,
    rage_action: bool = False,
) -> AttackExchange:
    """`stkit attack`: ``attacker`` rolls ``pool`` (their sheet: form, wounds, worn armour's Dexterity penalty)
    at ``difficulty`` (None: the weapon's or maneuver's, else the chronicle's); the target's ``defence`` roll (a
    dodge, block or parry pool) cancels attack successes one for one; on a hit the damage pool ``damage`` (their
    sheet, no wound penalty) plus one die per net success beyond the first, then with ``soak`` ('' for
    DEFAULT_SOAK) the target's soak roll under the soak rules (:func:`stkit.store.fight_rules.soak_rule`: who
    may soak what, armour by form, silver); the wounds go on the target's health track (past Incapacitated:
    :meth:`Sheet.take_damage`; a killing level marks them dead). Every roll is logged (kinds attack, dodge,
    damage, soak) in the open scene's turn, with a table event per sheet changed; one transaction.

    ``weapon`` (a weapon the attacker's sheet holds) or ``maneuver`` (punch, kick, claw, bite, firearms;
    ``range_`` for firearms) fill the pool, damage, difficulty and damage type; explicit values win.
    ``defender_actions`` (1..): the defender's actions this turn, the dodge among them; more than one
    takes the multiple-action penalty (the dodge is their first action: it loses that many dice). A
    defender who already acted this turn cannot dodge unless they declared several actions.
    ``coup_de_grace``: the only way to attack an Incapacitated foe: no defence and no soak.
    ``rage_action``: the attack is an extra action bought with one Rage point (no penalty), refused beyond
    the chronicle's `rage-cap` reading or in a turn Gnosis was spent.
    The rolls are scored under :func:`stkit.store.house.rules_in_force` (the attacker's chronicle's house
    rules with ``overrides`` on top; the free botch may forgive the attack roll's botch) and rolled with
    one generator seeded from ``seed`` inside this transaction.
    ``spec`` and ``willpower``: the specialty house rule on the attack roll; a Willpower point
    on it, once per turn in a scene (Chapter Five, "Automatic Successes").

    Raises NotFound, InvalidValue (bad pools, faces, type, an unknown maneuver), RuleRefusal (the attacker
    cannot act; a weapon the sheet does not hold; the target is the attacker, out of the scene, dead, or
    Incapacitated without ``coup_de_grace``; a dodge after the defender acted; Rage beyond the cap);
    nothing is written then.
    """
    from stkit.store.characters import find_character
    from stkit.store.fight_rules import (
        spend_rage_action,
    )
    from stkit.store.scenes import check_willpower_allowed, find_turn_context

    a_row = find_character(gw, attacker, chronicle, for_update=True)
    t_row = _find_target(gw, target, a_row)
    if a_row.id == t_row.id:
        raise RuleRefusal(f"{a_row.name} cannot attack themselves")
    a_sheet, t_sheet = a_row.to_sheet(), t_row.to_sheet()
    _refuse_attack(
        gw, a_row, t_row, t_sheet, coup_de_grace=coup_de_grace, defended=defence is not None or soak is not None
    )
    plan, pool, damage, difficulty, kind = _attack_plan(
        a_sheet, pool, damage, difficulty, damage_type, weapon=weapon, maneuver=maneuver, range_=range_
    )
    notes: list[str] = []
    if plan is not None:
        notes.append(f"{plan.source}: {pool} at {difficulty}, damage {damage} {kind.value}")
    attack_pool = build_pool(a_sheet, _with_armour(a_sheet, pool, notes))
    ctx = find_turn_context(gw, a_row)
    if willpower:
        check_willpower_allowed(gw, a_row, ctx)
        if a_sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{a_sheet.name} has no Willpower points left; nothing was spent or rolled")
    in_force = rules_in_force(gw, a_row.chronicle, overrides.at_difficulty(difficulty))
    rules = in_force.dice_rules()
    rage_count = None
    if rage_action:
        rage_count = spend_rage_action(gw, a_row, a_sheet, ctx, in_force.rage_cap)
    used: SpecialtyUse | None = None
    attack_rules = rules
    if spec:
        attack_rules, used = apply_specialty(a_sheet, attack_pool, rules)
    damage_pool = unhurt_pool(a_sheet, damage)
    defence_pool = None
    if defence is not None:
        defence_pool = _defence_pool(gw, t_row, t_sheet, ctx, defence, defence_kind, defender_actions, notes)
    elif defence_faces is not None:
        raise InvalidValue(f"{defence_kind} dice were given without a --{defence_kind} pool")
    soak_pool = None
    verdict = None
    if soak is not None:
        soak_pool, verdict = _soak_pool(t_row, t_sheet, kind, soak, silver, in_force, combat, notes)
        if soak_pool is None and soak_faces is not None:
            raise InvalidValue(f"soak dice were given but {t_row.name} cannot soak this {kind.value} damage")
    elif soak_faces is not None:
        raise InvalidValue("soak dice were given without --soak")
    spec_ = AttackSpec(
        attack_pool=attack_pool.dice,
        damage_pool=damage_pool.dice,
        soak_pool=soak_pool.dice if soak_pool else 0,
        attack_difficulty=in_force.difficulty,
        damage_difficulty=damage_difficulty,
        soak_difficulty=soak_difficulty,
        rules=attack_rules,
        combat=combat,
        willpower=willpower,
        defence_pool=defence_pool.dice if defence_pool else 0,
        defence_difficulty=defence_difficulty,
    )
    seed = fresh_seed(seed)
    kinds = {"attack": LogKind.rage_action if rage_action else LogKind.attack}
    made = _roll_exchange(
        gw,
        spec_,
        seed,
        rolls={"attack": (a_row, attack_pool), "dodge": (t_row, defence_pool), "damage": (a_row, damage_pool),
               "soak": (t_row, soak_pool)},
        faces={"attack": attack_faces, "dodge": defence_faces, "damage": damage_faces, "soak": soak_faces},
        overrides=overrides.at_difficulty(difficulty),
        kinds=kinds,
        extra={"attacker": a_row.name, "target": t_row.name, "damage_type": kind.value, "seed": seed},
        defence_kind=defence_kind,
        specialty=spec,
    )  # fmt: skip
    result = made.result
    if made.forgiven:
        notes.append("Free botch: the first botch of the night is forgiven and counts as a failure")
    taken, warnings, dead = _wound(gw, t_row, t_sheet, result.wounds, kind, ctx)
    _attacker_costs(gw, a_row, a_sheet, willpower, rage_count, in_force.rage_cap, notes)
    scene_id, turn = getattr(ctx, "scene_id", None), getattr(ctx, "turn", None)
    return AttackExchange(
        a_row.name,
        t_row.name,
        a_row.chronicle,
        attack_pool,
        damage_pool,
        soak_pool,
        result,
        kind,
        taken,
        Health.of(t_sheet),
        made.log_ids,
        scene_id,
        turn,
        used,
        tuple(notes),
        tuple(warnings),
        seed,
        defence_pool=defence_pool,
        defence_kind=defence_kind if defence_pool else None,
        plan=plan,
        soak_rule=verdict,
        dead=dead,
        coup_de_grace=coup_de_grace,
        rage_action=rage_action,
    )


@dataclass(frozen=True)
class _Exchange:
    """The rolls of one attack as :func:`_roll_exchange` made them."""

    result: AttackResult
    log_ids: tuple[int, ...]
    forgiven: bool


def _roll_exchange(
    gw: Gateway,
    spec: AttackSpec,
    seed: int,
    *,
    rolls: dict[str, tuple[Any, PoolBreakdown | None]],
    faces: dict[str, list[int] | None],
    overrides: RuleOverrides,
    kinds: dict[str, LogKind],
    extra: dict[str, Any],
    defence_kind: str,
    specialty: bool,
) -> _Exchange:
    """Roll an attack through, each step a :func:`stkit.store.rolling.make_roll` call sharing ONE generator
    seeded from ``seed``, in the order of :func:`stkit.dice.combat.roll_attack` (so a seed replays the same
    dice): the attack roll (the attacker's chronicle's house rules with ``overrides``, the specialty and
    Willpower, the free botch); when it has a success and the target a ``dodge`` pool, the dodge, block or
    parry roll (the same house rules as any roll); on a hit the damage roll of the damage pool plus a die per
    net success beyond the first; when that has successes and the target soak dice, the soak roll (damage
    and soak never botch; ``spec.combat`` scores them). Every roll is logged, with ``extra`` in its detail.

    ``rolls``: step -> (the character row rolling it, the pool built from their sheet, None when the step
    has no pool); ``faces``: step -> dice given by hand. Raises InvalidValue for faces of a step that is not
    rolled and a damage pool beyond the limit, RuleRefusal as make_roll does; nothing is written then.
    """
    from stkit.dice import MAX_POOL
    from stkit.dice.combat import net_attack
    from stkit.store.rolling import Purpose, RollOrder, add_log_detail, generator, make_roll

    rng, _ = generator(seed)

    def roll(step: str, purpose: Purpose, built: PoolBreakdown, difficulty: RuleOverrides, **more: Any):
        row, given = rolls[step][0], faces[step]
        first = step == "attack"
        order = RollOrder(
            expression=built.expression,
            character=row.name,
            chronicle=row.chronicle,
            purpose=purpose,
            overrides=difficulty,
            faces=tuple(given) if given is not None else None,
            seed=seed,
            willpower=spec.willpower and first,
            spec=specialty and first,
            combat=spec.combat,
            log_kind=kinds.get(step, LogKind(step)),
            extra=extra | more,
            built=built,
        )
        return make_roll(gw, order, rng=rng)

    attack_pool, defence_pool = rolls["attack"][1], rolls["dodge"][1]
    assert attack_pool is not None
    hit = roll("attack", Purpose.attack, attack_pool, overrides)
    log_ids = [hit.log_id]
    defence = None
    if defence_pool is not None and defence_pool.dice and hit.roll.final_successes >= 1:
        fended = roll(
            "dodge",
            Purpose.sheet,
            defence_pool,
            RuleOverrides(difficulty=spec.defence_difficulty),
            defence=defence_kind,
        )
        defence, log_ids = fended.roll, [*log_ids, fended.log_id]
    elif faces["dodge"] is not None:
        why = "there is no defence pool" if not spec.defence_pool else "the attack had no success to cancel"
        raise InvalidValue(f"defence dice were given but no defence roll is made: {why}")
    net = net_attack(hit.roll.final_successes, defence.final_successes if defence else 0)
    pool = spec.damage_pool + net - 1 if net >= 1 else 0
    if pool == 0:
        if faces["damage"] is not None or faces["soak"] is not None:
            raise InvalidValue("damage or soak dice were given but the attack missed: no damage roll is made")
        return _Exchange(AttackResult(spec, hit.roll, 0, None, None, 0, 0, defence), tuple(log_ids), hit.forgiven_botch)
    if pool > MAX_POOL:
        raise InvalidValue(f"the damage pool of {pool} dice is larger than stkit's limit of {MAX_POOL} dice")
    base = rolls["damage"][1]
    assert base is not None
    more = net - 1
    damage_pool = replace(
        base,
        expression=base.expression + (f" + {more}" if more else ""),
        extra=base.extra + ((more,) if more else ()),
        dice=pool,
    )
    dealt = roll(
        "damage", Purpose.damage, damage_pool, RuleOverrides(difficulty=spec.damage_difficulty), extra_successes=more
    )
    log_ids.append(dealt.log_id)
    successes, soak_pool = dealt.roll.final_successes, rolls["soak"][1]
    if successes == 0 or soak_pool is None or not soak_pool.dice:
        if faces["soak"] is not None:
            why = "there is no damage to soak" if successes == 0 else "there are no soak dice"
            raise InvalidValue(f"soak dice were given but no soak roll is made: {why}")
        result = AttackResult(spec, hit.roll, pool, dealt.roll, None, 0, successes, defence)
        return _Exchange(result, tuple(log_ids), hit.forgiven_botch)
    soaked_roll = roll("soak", Purpose.soak, soak_pool, RuleOverrides(difficulty=spec.soak_difficulty))
    soaked = min(soaked_roll.roll.final_successes, successes)
    add_log_detail(gw, soaked_roll.log_id, soaked=soaked, wounds=successes - soaked)
    log_ids.append(soaked_roll.log_id)
    result = AttackResult(spec, hit.roll, pool, dealt.roll, soaked_roll.roll, soaked, successes - soaked, defence)
    return _Exchange(result, tuple(log_ids), hit.forgiven_botch)


@dataclass(frozen=True)
class AttackPools:
    """The pools :func:`attack` would roll, read only (for exact odds).

    Attributes:
        attack, damage: the attacker's pools (form, wounds and worn armour for the attack; no wound
            penalty for the damage).
        difficulty: the attack's difficulty (the weapon's or maneuver's, else the one asked).
        damage_type: the hit's damage type.
        soak: the target's soak pool under the soak rules (None: no target, or the rules allow no soak).
        defence: the target's dodge, block or parry pool (None without one).
        soak_rule: the soak rules' verdict (None without a target).
        plan: the weapon or maneuver used (None without one).
    """

    attack: PoolBreakdown
    damage: PoolBreakdown
    difficulty: int
    damage_type: str
    soak: PoolBreakdown | None = None
    defence: PoolBreakdown | None = None
    soak_rule: Any = None
    plan: Any = None


def attack_pools(
    gw: Gateway,
    attacker: str,
    pool: str | None,
    damage: str | None,
    *,
    target: str | None = None,
    soak: str | None = None,
    chronicle: str | None = None,
    weapon: str | None = None,
    maneuver: str | None = None,
    range_: str | None = None,
    damage_type: str | None = None,
    difficulty: int | None = None,
    defence: str | None = None,
    silver: bool = False,
) -> AttackPools:
    """The pools :func:`attack` would roll, read only: ``pool`` and ``damage`` from ``attacker``'s sheet
    (or a ``weapon`` / ``maneuver``), and with ``target`` the soak pool under the soak rules (``soak``
    names a pool instead: the table's call) and the ``defence`` pool. Raises NotFound, InvalidValue,
    RuleRefusal as :func:`attack` does for its pools."""
    from stkit.store.characters import find_character
    from stkit.store.fight_rules import maneuver_plan, soak_rule, weapon_plan

    a_sheet = find_character(gw, attacker, chronicle).to_sheet()
    plan = None
    if weapon is not None and maneuver is not None:
        raise InvalidValue("give --weapon or --maneuver, not both")
    if weapon is not None:
        plan = weapon_plan(a_sheet, weapon, range_=range_)
    elif maneuver is not None:
        plan = maneuver_plan(a_sheet, maneuver, range_=range_)
    pool = pool or (plan.pool if plan else None)
    damage = damage or (plan.damage if plan and plan.damage else None)
    if not pool or not damage:
        raise InvalidValue("the attack needs a pool and a damage pool (or a --weapon or --maneuver that gives them)")
    kind = check_damage_type(damage_type or (plan.damage_type if plan else "bashing"))
    asked = difficulty if difficulty is not None else (plan.difficulty if plan else None)
    diff = rules_in_force(gw, a_sheet.chronicle, RuleOverrides(difficulty=asked)).difficulty  # as attack() rolls
    notes: list[str] = []
    built = build_pool(a_sheet, _with_armour(a_sheet, pool, notes))
    out = AttackPools(built, unhurt_pool(a_sheet, damage), diff, kind, plan=plan)
    if target is None:
        if defence is not None or soak is not None:
            raise InvalidValue("a soak or dodge pool from a sheet needs --target")
        return out
    t_sheet = find_character(gw, target, chronicle or a_sheet.chronicle).to_sheet()
    verdict = soak_rule(
        t_sheet, kind, silver=silver, homid_aggravated=rules_in_force(gw, t_sheet.chronicle).homid_aggravated_soak
    )
    soak_pool = None
    if soak:
        soak_pool = unhurt_pool(t_sheet, soak)
    elif verdict.dice_from_rules:
        soak_pool = unhurt_pool(t_sheet, soak_expression(verdict))
    defence_pool = build_pool(t_sheet, _with_armour(t_sheet, defence, notes), empty_ok=True) if defence else None
    if defence_pool is not None and not defence_pool.possible:
        defence_pool = None  # no dice left to defend with: the attack is not defended
    return AttackPools(built, out.damage, diff, kind, soak_pool, defence_pool, verdict, plan)


# ---------------------------------------------------------------------------------------------- Rage


@dataclass(frozen=True)
class RageSpend:
    """Rage points spent for extra actions: how many, and the points left."""

    character: str
    points: int
    left: int
    scene_id: int | None = None
    turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "left": self.left, "scene_id": self.scene_id, "turn": self.turn}


def spend_rage_for_actions(
    gw: Gateway, row: CharacterRow, rage: int, *, combat: CombatRules = STANDARD_COMBAT
) -> RageSpend:
    """Spend ``rage`` Rage points of the (locked) character ``row`` for extra actions this turn: at most the
    current points (and the house rule's cap), once per turn of the open scene ("Multiple Actions": Rage
    gives extra actions at no penalty). Outside a scene there is no turn to count.

    Raises InvalidValue for ``rage`` < 1, RuleRefusal beyond the points or the cap, or for a second spend
    in the same turn (a unique key backs it against racing processes).
    """
    from stkit.dice.combat import validate_rage_spend
    from stkit.store.characters import save_sheet
    from stkit.store.fight_rules import rage_cap, turn_power
    from stkit.store.scenes import find_turn_context

    sheet = row.to_sheet()
    validate_rage_spend(rage, sheet.powers["Rage"].temporary, combat)
    ctx = find_turn_context(gw, row)
    reading = rules_in_force(gw, row.chronicle).rage_cap
    cap = rage_cap(reading, sheet)
    if ctx is not None:
        done = turn_power(gw, ctx, row.id, "rage actions")
        if cap is not None and done + rage > cap:
            raise RuleRefusal(
                f"Rage cap ({reading}): {sheet.name} may spend at most {cap} Rage on actions a turn; "
                f"{done} spent already and {rage} more would make {done + rage}"
            )
        gnosis = turn_power(gw, ctx, row.id, "gnosis")
        if gnosis:
            raise RuleRefusal(
                f"Rage and Gnosis: {sheet.name} already spent {gnosis} Gnosis in turn {ctx.turn}; "
                f"Rage and Gnosis cannot both be spent in one turn"
            )
    elif cap is not None and rage > cap:
        raise RuleRefusal(f"Rage cap ({reading}): {sheet.name} may spend at most {cap} Rage on actions a turn")
    if ctx is not None:
        already = gw.row(
            "SELECT points FROM rage_spends WHERE scene_id = :sid AND turn = :turn AND character_id = :cid",
            sid=ctx.scene_id,
            turn=ctx.turn,
            cid=row.id,
        )
        if already is not None:
            raise RuleRefusal(
                f"{sheet.name} already spent {already[0]} Rage for extra actions in turn {ctx.turn} of this scene; "
                f"Rage buys extra actions once per turn (next turn: stkit scene next)"
            )
        try:
            gw.insert(
                "INSERT INTO rage_spends (scene_id, turn, character_id, points, created_at) "
                "VALUES (:sid, :turn, :cid, :points, :now)",
                sid=ctx.scene_id,
                turn=ctx.turn,
                cid=row.id,
                points=rage,
                now=_now(gw),
            )
        except DuplicateRow:
            raise RuleRefusal(
                f"{sheet.name} already spent Rage for extra actions in turn {ctx.turn} of this scene"
            ) from None
    sheet.spend("Rage", rage)
    left = sheet.powers["Rage"].temporary
    save_sheet(gw, row, sheet, summary=f"{sheet.name} spends {rage} Rage for extra actions: {left} left")
    return RageSpend(sheet.name, rage, left, getattr(ctx, "scene_id", None), getattr(ctx, "turn", None))


__all__ = [
    "DEFAULT_SOAK",
    "AttackExchange",
    "AttackPools",
    "Health",
    "HitResult",
    "InitiativeOrder",
    "PurposeRoll",
    "RageSpend",
    "attack",
    "attack_pools",
    "check_in_scene",
    "current_initiative",
    "initiative_entry",
    "pool_words",
    "roll_for_purpose",
    "roll_scene_initiative",
    "spend_rage_for_actions",
    "take_hit",
    "unhurt_pool",
]
