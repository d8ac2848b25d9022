"""A hit on the store: damage and soak rolled from a sheet for their purpose, and one hit taken with its
soak (``char hit``), the health track afterwards. Shared by the attack (:mod:`stkit.store.fight.attack`).

Each use case takes a :class:`~stkit.store.db.gateway.Gateway` (one transaction: the caller's) and returns a
frozen result; a refusal raises before anything is written. The dice rules are in :mod:`stkit.dice.combat`
(its docstring says where each comes from); this module only reads and writes sheets and the roll log.

Readings of stkit's own (the rules chapter gives no combat system; see docs/combat.md):

- A soak or damage pool takes no wound penalty: wound penalties lower the dice of actions, and soak is
  reflexive ("Game Terms", Reflexive); damage is the attack's effect, not a second action.
- The soak pool is the target's Stamina by default, with the form's change (Crinos Stamina +3).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from stkit.dice import RollResult
from stkit.dice.combat import (
    MAX_HIT_LEVELS,
    STANDARD_COMBAT,
    CombatRules,
    RollPurpose,
    soak_left,
    soak_step,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue
from stkit.sheet.pools import PoolBreakdown, unhurt_pool
from stkit.sheet.sheet import Sheet
from stkit.sheet.sheet import damage_type as check_damage_type
from stkit.sheet.vocab import DamageType
from stkit.store.characters import find_character, save_sheet
from stkit.store.db.gateway import Gateway
from stkit.store.fight.rules import mark_dead, refuse_dead, soak_rule, wound_kind
from stkit.store.house import rules_in_force
from stkit.store.rolling import Purpose, RollOrder, add_log_detail, make_roll
from stkit.store.scenes import find_turn_context
from stkit.text import check_range, counted

if TYPE_CHECKING:
    from stkit.store.fight.rules import SoakRule


#: The soak pool when none is named.
DEFAULT_SOAK = "Stamina"


def soak_expression(rule: Any) -> str:
    """The soak pool a :class:`stkit.store.fight.rules.SoakRule` allows: 'Stamina', 'Stamina + 2' with
    armour, or the armour's dice alone ('2') when Stamina may not soak."""
    if not rule.stamina:
        return str(rule.armour)
    return DEFAULT_SOAK + (f" + {rule.armour}" if rule.armour else "")


def check_levels(levels: int) -> int:
    if isinstance(levels, bool) or not isinstance(levels, int):
        raise InvalidValue(f"health levels of a hit {levels!r} is not a whole number; allowed: 1 to {MAX_HIT_LEVELS}")
    return check_range(levels, "health levels of a hit", 1, MAX_HIT_LEVELS)


def store_now(gw: Gateway) -> object:
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
        """'now Hurt, -1 die', 'now Incapacitated', 'unhurt'."""
        if self.incapacitated:
            return "now Incapacitated"
        if self.level is None:
            return "unhurt"
        return f"now {self.level}" + (f", {counted(-self.wound_penalty, 'die', 'dice')}" if self.wound_penalty else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "damage": dict(self.damage),
            "level": self.level,
            "wound_penalty": self.wound_penalty,
            "incapacitated": self.incapacitated,
        }


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


@dataclass(frozen=True)
class HitResult:
    """What `char hit` did.

    Attributes:
        character, chronicle: who took the hit.
        levels, damage_type: the hit as given (1..MAX_HIT_LEVELS levels).
        soak_pool: the soak pool built (None without ``--soak``, or when the type may not be soaked).
        soak: the soak roll (None when none was made).
        soaked, wounds: levels soaked and levels left to mark (``soaked + wounds == levels``).
        taken: the health track's report (:meth:`stkit.sheet.sheet.DamageTaken.to_dict`), None for no wounds.
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
        """'3 lethal, soaked 1 (Stamina 4: 2, 1, 8, 9 -> 1 success) -> 2 levels: now Hurt, -1 die'."""
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


@dataclass(frozen=True)
class SoakChoice:
    """Who soaks what, decided once for `stkit attack`, `char hit` and `odds attack --char`.

    Attributes:
        expression: the soak pool to roll ('Stamina + 2', a pool the table named), or None: no soak roll.
        verdict: the soak rules' verdict (:func:`stkit.store.fight.rules.soak_rule`).
        notes: lines for the user (how the target soaks, or why not).
        why_not: why no soak roll is made ('' when one is).
    """

    expression: str | None
    verdict: SoakRule
    notes: tuple[str, ...]
    why_not: str = ""


def soak_choice(
    sheet: Sheet,
    damage_type: DamageType,
    soak: str,
    *,
    combat: CombatRules,
    silver: bool = False,
    homid_aggravated: bool = False,
) -> SoakChoice:
    """The soak ``sheet`` rolls against ``damage_type``: ``soak`` '' follows the soak rules
    (:func:`stkit.store.fight.rules.soak_rule`: by creature and form; ``silver`` for a silver weapon; the
    `homid-aggravated-soak` house rule as ``homid_aggravated``), a pool text is the table's call and is rolled
    as given; a damage type the combat rules make unsoakable (``--unsoakable``) is never soaked."""
    kind = DamageType(damage_type)
    verdict = soak_rule(sheet, kind.value, silver=silver, homid_aggravated=homid_aggravated)
    if not combat.may_soak(kind):
        why = f"{kind.value} damage may not be soaked here"
        return SoakChoice(None, verdict, (f"{kind.value} damage cannot be soaked (house rule); no soak roll",), why)
    if soak:
        return SoakChoice(soak, verdict, ())
    if not verdict.dice_from_rules:
        return SoakChoice(None, verdict, (f"no soak: {verdict.why}",), verdict.why)
    note = f"soak: {verdict.why}" + (f", armour +{verdict.armour}" if verdict.armour else "")
    return SoakChoice(soak_expression(verdict), verdict, (note,))


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
    ``sheet``'s soak (:func:`soak_choice`). Raises InvalidValue for soak dice given where no soak roll is
    made."""

    if soak is None or damage == 0:
        if faces is not None and soak is None:
            raise InvalidValue("soak dice were given without --soak")
        if faces is not None:
            raise InvalidValue("soak dice were given but there is no damage to soak")
        return None, []
    chosen = soak_choice(sheet, damage_type, soak, combat=combat, silver=silver, homid_aggravated=homid_aggravated)
    if chosen.expression is None and faces is not None:
        raise InvalidValue(f"soak dice were given but {chosen.why_not}")
    return chosen.expression, list(chosen.notes)


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

    check_levels(levels)
    kind = DamageType(check_damage_type(damage_type))
    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    refuse_dead(gw, row, "hit")
    asked = overrides.at_difficulty(difficulty)
    house = rules_in_force(gw, row.chronicle, asked)
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
    built = unhurt_pool(sheet, expression) if expression is not None else None
    # the attack's own soak step (stkit.dice.combat.soak_step): the same roll, rules and arithmetic
    step = soak_step(levels, built.dice, house.difficulty, house.dice_rules(), combat) if built else None
    if step is not None and built is not None:
        order = RollOrder(
            built.expression,
            character=row.name,
            chronicle=row.chronicle,
            purpose=Purpose.soak,
            overrides=asked.at_difficulty(step.difficulty),
            faces=tuple(faces) if faces is not None else None,
            seed=seed,
            combat=step.combat,
            extra={"hit": levels, "damage_type": kind.value},
            built=built,
            dice_rules=step.rules,
        )
        done = make_roll(gw, order)
        soaked, left = soak_left(levels, done.roll.final_successes)
        add_log_detail(gw, done.log_id, soaked=soaked, wounds=left)
    elif faces is not None:
        raise InvalidValue(f"soak dice were given but {row.name} has no soak dice here")
    taken = None
    warnings: list[str] = []
    ctx = find_turn_context(gw, row)
    if left:
        marked = wound_kind(sheet, kind.value, silver=silver)
        report = sheet.take_damage(left, marked, mortal_overflow=house.mortal_overflow)
        taken = report.to_dict()
        warnings = report.warnings(sheet.name)
        save_sheet(gw, row, sheet, summary=f"{sheet.name} takes {left} {marked}: {Health.of(sheet).words}")
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


__all__ = [
    "DEFAULT_SOAK",
    "Health",
    "HitResult",
    "PurposeRoll",
    "SoakChoice",
    "check_levels",
    "pool_words",
    "roll_for_purpose",
    "soak_choice",
    "soak_expression",
    "take_hit",
]
