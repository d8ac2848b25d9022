"""A whole attack on the store: the attack roll, the target's dodge, block or parry, damage, soak and the
wounds marked, each step through the one roll use case (:func:`stkit.store.rolling.make_roll`), and the
pools an attack would roll (``odds attack --char``).

The use case takes a :class:`~stkit.store.db.gateway.Gateway` (one transaction: the caller's) and returns a
frozen :class:`AttackExchange`; a refusal raises before anything is written, so nothing is stored
half-done. The dice rules are in :mod:`stkit.dice.combat`; the fight rules (weapons, maneuvers, who soaks
what) in :mod:`stkit.store.fight.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from stkit.dice import MAX_POOL
from stkit.dice.combat import (
    STANDARD_COMBAT,
    AttackResult,
    AttackSequence,
    AttackSpec,
    AttackStep,
    CombatRules,
    check_unused_faces,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal, about
from stkit.sheet.compose import compose_roll
from stkit.sheet.pools import PoolBreakdown, build_pool, pool_trait_names, unhurt_pool
from stkit.sheet.sheet import Sheet
from stkit.sheet.sheet import damage_type as check_damage_type
from stkit.sheet.specialties import SpecialtyUse, apply_specialty
from stkit.sheet.vocab import DamageType, LogKind
from stkit.store.characters import find_character, save_sheet
from stkit.store.db.gateway import Gateway
from stkit.store.fight.hit import Health, soak_choice
from stkit.store.fight.initiative import acted_this_turn, actions_this_turn, check_in_scene
from stkit.store.fight.rules import (
    armour_penalty,
    is_dead,
    legacy_rage_actions,
    maneuver_plan,
    mark_dead,
    spend_rage_action,
    turn_power,
    weapon_plan,
    wound_kind,
)
from stkit.store.house import rules_in_force
from stkit.store.rolling import Purpose, RollOrder, RollOutcome, add_log_detail, fresh_seed, generator, make_roll
from stkit.store.scenes import check_willpower_allowed, find_turn_context

if TYPE_CHECKING:
    from stkit.dice.house import ChronicleRules
    from stkit.store.characters import CharacterRow
    from stkit.store.fight.rules import AttackPlan, SoakRule
    from stkit.store.scenes import TurnContext


@dataclass(frozen=True)
class AttackExchange:
    """`stkit attack`: who, the pools built, the dice of each step, the wounds and what the sheets show now.

    Attributes:
        attacker, target, chronicle: the two characters.
        attack_pool, damage_pool, soak_pool: the pools as built (soak None when the target rolls no soak).
        result: the dice (:class:`stkit.dice.combat.AttackResult`).
        damage_type: bashing, lethal or aggravated.
        taken: the target's health-track report (None without wounds).
        health: the target's health afterwards.
        log_ids: the log entries written, in order (attack, then damage and soak when rolled).
        specialty: the specialty used on the attack (``--spec``), or None.
        soaked_by: 'rules' (the target's soak rules), 'pool' (a pool of the table's call) or 'none' (no
            soak roll: ``--no-soak``, a coup de grace, or nothing the target may soak).
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
    plan: Any = None  # stkit.store.fight.night.AttackPlan (weapon or maneuver), or None
    soak_rule: Any = None  # stkit.store.fight.night.SoakRule, or None without --soak
    dead: bool = False
    coup_de_grace: bool = False
    rage_action: bool = False
    soaked_by: str = "rules"

    def to_dict(self) -> dict[str, Any]:
        return {
            "soaked_by": self.soaked_by,
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


def _find_target(gw: Gateway, name: str, attacker: Any) -> Any:
    """The (locked) target in the attacker's chronicle; one found only in another chronicle is out of the
    scene (RuleRefusal); none at all is NotFound."""

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


def _with_armour(sheet: Sheet, expression: str, notes: list[str]) -> str:
    """``expression`` less the worn armour's Dexterity penalty when it rolls Dexterity."""

    penalty = armour_penalty(sheet)
    if penalty and "Dexterity" in pool_trait_names(sheet, expression):
        notes.append(f"{sheet.name}'s armour: -{penalty} Dexterity dice")
        return f"{expression} - {penalty}"
    return expression


def _unskilled(
    in_force: ChronicleRules,
    sheet: Sheet,
    built: PoolBreakdown,
    difficulty: int,
    rebuild: Callable[[str], PoolBreakdown],
    notes: list[str],
    label: str,
) -> tuple[PoolBreakdown, int]:
    """(the pool, its difficulty) after the unskilled rule, decided by the composition every roll goes
    through (:func:`stkit.sheet.compose.compose_roll`, as :func:`stkit.store.rolling.make_roll` applies it
    to a roll from the sheet): an untrained Skill +1 difficulty (``unskilled-skill dice``: the pool built
    again two dice fewer with ``rebuild``), a Talent no penalty, an unrated Knowledge refused (RuleRefusal).
    The step's roll is then made with this pool as built, so the rule is applied once."""
    made = compose_roll(in_force, RuleOverrides(difficulty=difficulty), sheet=sheet, pool=built)
    notes.extend(f"{label}: {n}" for n in made.notes)
    if made.dice_change:
        built = rebuild(f"{built.expression} - {-made.dice_change}")
    return built, made.overrides.difficulty if made.overrides.difficulty is not None else difficulty


#: The defences a target may roll against an attack (the Revised combat chapter's defensive maneuvers).
DEFENCES = ("dodge", "block", "parry")


def _refuse_attack(
    gw: Gateway, a_row: CharacterRow, t_row: CharacterRow, t_sheet: Sheet, *, coup_de_grace: bool, defended: bool
) -> None:
    """Raise RuleRefusal when ``a_row`` cannot attack ``t_row`` now: the target is out of the scene, either is
    dead, an Incapacitated target without ``coup_de_grace`` (or a coup de grace on one who is not, or with a
    dodge or soak: ``defended``)."""

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
        raise RuleRefusal("coup de grace: a downed foe neither dodges nor soaks; leave out --dodge and --soak-pool")


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
    acted = acted_this_turn(gw, t_row, ctx)
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
    """(the target's soak pool, the soak rules' verdict): who soaks what as `char hit` decides it
    (:func:`stkit.store.fight.hit.soak_choice`); None when nothing may be soaked."""

    chosen = soak_choice(
        t_sheet, kind, soak, combat=combat, silver=silver, homid_aggravated=in_force.homid_aggravated_soak
    )
    notes.extend(chosen.notes)
    soak_pool = unhurt_pool(t_sheet, chosen.expression) if chosen.expression is not None else None
    return soak_pool, chosen.verdict


def _wound(
    gw: Gateway,
    t_row: CharacterRow,
    t_sheet: Sheet,
    wounds: int,
    kind: DamageType,
    ctx: TurnContext | None,
    silver: bool = False,
    mortal_overflow: str = "kill",
) -> tuple[dict[str, Any] | None, list[str], bool]:
    """Put ``wounds`` levels of ``kind`` (a silver weapon's as :func:`wound_kind` says) on the target's
    health track and save it (a killing level marks them dead): (what was taken, or None for no wound;
    warnings; dead)."""

    if not wounds:
        return None, [], False
    marked = wound_kind(t_sheet, kind.value, silver=silver)
    report = t_sheet.take_damage(wounds, marked, mortal_overflow=mortal_overflow)
    save_sheet(gw, t_row, t_sheet, summary=f"{t_sheet.name} takes {wounds} {marked}: {Health.of(t_sheet).words}")
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


@dataclass(frozen=True)
class AttackOrder:
    """One attack asked for, by any door (CLI, the table page, ...): who attacks whom with what.

    Attributes:
        attacker, target: characters' names (the target in the attacker's chronicle).
        pool: the attack pool ('Dexterity + Brawl'); None: the weapon's or maneuver's.
        damage: the damage pool before extra successes ('Strength + 1'); None: the weapon's or maneuver's.
        difficulty: the attack's difficulty (2..10); None: the weapon's or maneuver's, else the chronicle's.
        damage_type: bashing, lethal or aggravated; None: the weapon's or maneuver's, else bashing.
        soak: '' (default): the target soaks by the soak rules (:func:`stkit.store.fight.rules.soak_rule`);
            a pool text: the target soaks with that pool (the table's call); None: no soak roll
            (``--no-soak``).
        damage_difficulty, soak_difficulty: 2..10 (default 6).
        chronicle: the attacker's chronicle (None: any holding the name).
        spec: the attack roll names a specialty of a pool Trait (``--spec``).
        damage_spec: the damage roll names a specialty of a damage pool Trait (``--damage-spec``).
        attack_faces, damage_faces, soak_faces, defence_faces: dice rolled by hand (faces 1..10), or None.
        seed: the generator's seed (None: a fresh one, reported).
        overrides: the roll's own house-rule choices, for every roll of the exchange.
        combat: the combat house rules.
        willpower: a Willpower point on the attack roll.
        weapon: a weapon on the attacker's sheet; maneuver: punch, kick, claw, bite or firearms;
            range_: a firearms range.
        defence: the target's dodge, block or parry pool (None: no defence); defence_kind: which;
            defence_difficulty: 2..10; defender_actions: the defender's actions this turn (1..10).
        silver: a silver weapon.
        coup_de_grace: finish an Incapacitated foe (no defence, no soak).
        rage_action: the attack is an extra action bought with a Rage point.
        force: the Storyteller lets the attacker act again this turn without Rage (``--force``).
    """

    attacker: str
    target: str
    pool: str | None = None
    damage: str | None = None
    difficulty: int | None = None
    damage_type: str | DamageType | None = None
    soak: str | None = ""
    damage_difficulty: int = 6
    soak_difficulty: int = 6
    chronicle: str | None = None
    spec: bool = False
    damage_spec: bool = False
    attack_faces: Sequence[int] | None = None
    damage_faces: Sequence[int] | None = None
    soak_faces: Sequence[int] | None = None
    defence_faces: Sequence[int] | None = None
    seed: int | None = None
    overrides: RuleOverrides = NO_OVERRIDES
    combat: CombatRules = STANDARD_COMBAT
    willpower: bool = False
    weapon: str | None = None
    maneuver: str | None = None
    range_: str | None = None
    defence: str | None = None
    defence_kind: str = "dodge"
    defence_difficulty: int = 6
    defender_actions: int = 1
    silver: bool = False
    coup_de_grace: bool = False
    rage_action: bool = False
    force: bool = False

    def __post_init__(self) -> None:
        for name in ("attack_faces", "damage_faces", "soak_faces", "defence_faces"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, tuple(value))

    def faces(self) -> dict[AttackStep, Sequence[int] | None]:
        """The dice given by hand, by step."""
        return {
            AttackStep.ATTACK: self.attack_faces,
            AttackStep.DEFENCE: self.defence_faces,
            AttackStep.DAMAGE: self.damage_faces,
            AttackStep.SOAK: self.soak_faces,
        }


def refuse_second_action(
    gw: Gateway, a_row: CharacterRow, ctx: TurnContext | None, *, rage_action: bool = False, force: bool = False
) -> None:
    """Refuse (RuleRefusal) an attack by one who has used up their actions this turn: one action a turn,
    plus one per Rage point spent for extra actions (Chapter Five, "Multiple Actions", last paragraph: Rage
    buys extra actions). A Rage action (``rage_action``) buys its own; ``force`` is the Storyteller's
    override. Nothing is counted outside an open scene (there is no turn)."""
    if ctx is None or rage_action or force:
        return
    first = acted_this_turn(gw, a_row, ctx)
    if first is None:
        return
    done = actions_this_turn(gw, a_row, ctx)
    bought = legacy_rage_actions(gw, ctx, a_row.id) + turn_power(gw, ctx, a_row.id, "rage actions")
    if done < 1 + bought:
        return
    raise RuleRefusal(
        f"{a_row.name} already acted in turn {ctx.turn} (roll #{first}"
        + (f", {done} actions of {1 + bought}" if bought else "")
        + "): a second action needs Rage (--rage) or the Storyteller's --force"
    )


def attack(gw: Gateway, order: AttackOrder) -> AttackExchange:
    """`stkit attack`: ``order.attacker`` rolls ``order.pool`` (their sheet: form, wounds, worn armour's
    Dexterity penalty) at the difficulty (the order's, else the weapon's or maneuver's, else the
    chronicle's); the target's defence roll (a dodge, block or parry pool) cancels attack successes one for
    one; on a hit the damage pool (their sheet, no wound penalty) plus one die per net success beyond the
    first; then the target's soak roll: by the soak rules by default
    (:func:`stkit.store.fight.rules.soak_rule`: who may soak what, armour by form, silver), with a pool of
    the table's call, or none (``soak`` None); the wounds go on the target's health track (past
    Incapacitated: :meth:`Sheet.take_damage`; a killing level marks them dead). The steps are those of
    :class:`stkit.dice.combat.AttackSequence`, each one :func:`stkit.store.rolling.make_roll` call (logged
    as kinds attack, dodge, damage, soak, with a table event each) under the rules the sequence gives it
    (:meth:`stkit.dice.combat.AttackSpec.step_rules`); one transaction.

    ``weapon`` or ``maneuver`` fill the pool, damage, difficulty and damage type; explicit values win.
    ``defender_actions`` (1..): the defender's actions this turn, the dodge among them; more than one
    takes the multiple-action penalty. A defender who already acted this turn cannot dodge unless they
    declared several actions. An attacker who already acted this turn cannot attack again unless Rage
    bought the action (``rage_action``, or Rage spent for extra actions this turn) or ``force``.
    ``coup_de_grace``: the only way to attack an Incapacitated foe: no defence and no soak.
    ``rage_action``: the attack is an extra action bought with one Rage point (no penalty), refused beyond
    the chronicle's `rage-cap` reading or in a turn Gnosis was spent.
    The rolls are scored under :func:`stkit.store.house.rules_in_force` (the attacker's chronicle's house
    rules with ``overrides`` on top, read once; the free botch may forgive the attack roll's botch) and
    rolled with one generator seeded from ``seed`` inside this transaction. ``spec`` / ``damage_spec``:
    the specialty house rule on the attack / damage roll (a Trait of that pool must have a specialty);
    ``willpower``: a Willpower point on the attack, once per turn in a scene (Chapter Five, "Automatic
    Successes").

    Raises NotFound, InvalidValue (bad pools, faces, type, an unknown maneuver), RuleRefusal (the attacker
    cannot act or already acted; a weapon the sheet does not hold; the target is the attacker, out of the
    scene, dead, or Incapacitated without ``coup_de_grace``; a dodge after the defender acted; Rage beyond
    the cap); nothing is written then.
    """

    a_row = find_character(gw, order.attacker, order.chronicle, for_update=True)
    t_row = _find_target(gw, order.target, a_row)
    if a_row.id == t_row.id:
        raise RuleRefusal(f"{a_row.name} cannot attack themselves")
    a_sheet, t_sheet = a_row.to_sheet(), t_row.to_sheet()
    _refuse_attack(
        gw,
        a_row,
        t_row,
        t_sheet,
        coup_de_grace=order.coup_de_grace,
        defended=order.defence is not None or bool(order.soak),
    )
    plan, pool, damage, difficulty, kind = _attack_plan(
        a_sheet,
        order.pool,
        order.damage,
        order.difficulty,
        order.damage_type,
        weapon=order.weapon,
        maneuver=order.maneuver,
        range_=order.range_,
    )
    notes: list[str] = []
    if plan is not None:
        notes.append(f"{plan.source}: {pool} at {difficulty}, damage {damage} {kind.value}")
    with about(ROLL_NAMES["attack"]):
        attack_pool = build_pool(a_sheet, _with_armour(a_sheet, pool, notes))
    ctx = find_turn_context(gw, a_row)
    refuse_second_action(gw, a_row, ctx, rage_action=order.rage_action, force=order.force)
    if order.willpower:
        check_willpower_allowed(gw, a_row, ctx)
        if a_sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{a_sheet.name} has no Willpower points left; nothing was spent or rolled")
    overrides = order.overrides.at_difficulty(difficulty)
    in_force = rules_in_force(gw, a_row.chronicle, overrides)
    with about(ROLL_NAMES["attack"]):
        attack_pool, attack_difficulty = _unskilled(
            in_force, a_sheet, attack_pool, in_force.difficulty, lambda e: build_pool(a_sheet, e), notes, "attack"
        )
    rules = in_force.dice_rules(order.spec)
    rage_count = None
    if order.rage_action:
        rage_count = spend_rage_action(gw, a_row, a_sheet, ctx, in_force.rage_cap)
    used: SpecialtyUse | None = None
    if order.spec:
        rules, used = apply_specialty(a_sheet, attack_pool, rules)
    with about(ROLL_NAMES["damage"]):
        damage_pool, damage_difficulty = _unskilled(
            in_force,
            a_sheet,
            unhurt_pool(a_sheet, damage),
            order.damage_difficulty,
            lambda e: unhurt_pool(a_sheet, e),
            notes,
            "damage",
        )
    damage_used = apply_specialty(a_sheet, damage_pool, rules)[1] if order.damage_spec else None
    defence_pool = None
    if order.defence is not None:
        # _defence_pool's errors name the defence already ("dodge: ...")
        defence_pool = _defence_pool(
            gw, t_row, t_sheet, ctx, order.defence, order.defence_kind, order.defender_actions, notes
        )
    elif order.defence_faces is not None:
        raise InvalidValue(f"{order.defence_kind} dice were given without a --{order.defence_kind} pool")
    defence_difficulty = order.defence_difficulty
    if defence_pool is not None:
        with about(f"the defence roll ({order.defence_kind})"):
            defence_pool, defence_difficulty = _unskilled(
                in_force,
                t_sheet,
                defence_pool,
                defence_difficulty,
                lambda e: build_pool(t_sheet, e),
                notes,
                order.defence_kind,
            )
    soak_pool = None
    verdict = None
    soak_difficulty = order.soak_difficulty
    if order.soak is not None and not order.coup_de_grace:
        with about(ROLL_NAMES["soak"]):
            soak_pool, verdict = _soak_pool(
                t_row, t_sheet, kind, order.soak, order.silver, in_force, order.combat, notes
            )
        if soak_pool is not None:
            with about(ROLL_NAMES["soak"]):
                soak_pool, soak_difficulty = _unskilled(
                    in_force, t_sheet, soak_pool, soak_difficulty, lambda e: unhurt_pool(t_sheet, e), notes, "soak"
                )
        if soak_pool is None and order.soak_faces is not None:
            raise InvalidValue(f"soak dice were given but {t_row.name} cannot soak this {kind.value} damage")
    elif order.soak_faces is not None:
        raise InvalidValue("soak dice were given without a soak roll (--no-soak or a coup de grace)")
    else:
        why = "a coup de grace is not soaked" if order.coup_de_grace else "--no-soak"
        notes.append(f"no soak: {why}")
    spec_ = AttackSpec(
        attack_pool=attack_pool.dice,
        damage_pool=damage_pool.dice,
        soak_pool=soak_pool.dice if soak_pool else 0,
        attack_difficulty=attack_difficulty,
        damage_difficulty=damage_difficulty,
        soak_difficulty=soak_difficulty,
        rules=rules,
        combat=order.combat,
        willpower=order.willpower,
        defence_pool=defence_pool.dice if defence_pool else 0,
        defence_difficulty=defence_difficulty,
        damage_specialised=order.damage_spec,
    )
    if damage_used is not None:
        notes.append(f"damage: {damage_used.text}")
    seed = fresh_seed(order.seed)
    made = _roll_exchange(
        gw,
        spec_,
        seed,
        rolls={
            AttackStep.ATTACK: (a_row, attack_pool),
            AttackStep.DEFENCE: (t_row, defence_pool),
            AttackStep.DAMAGE: (a_row, damage_pool),
            AttackStep.SOAK: (t_row, soak_pool),
        },
        faces=order.faces(),
        overrides=overrides,
        attack_kind=LogKind.rage_action if order.rage_action else LogKind.attack,
        extra={"attacker": a_row.name, "target": t_row.name, "damage_type": kind.value, "seed": seed},
        defence_kind=order.defence_kind,
        named={AttackStep.ATTACK: order.spec, AttackStep.DAMAGE: order.damage_spec},
    )
    result = made.result
    if made.forgiven:
        notes.append("Free botch: the first botch of the night is forgiven and counts as a failure")
    taken, warnings, dead = _wound(
        gw, t_row, t_sheet, result.wounds, kind, ctx, order.silver, mortal_overflow=in_force.mortal_overflow
    )
    _attacker_costs(gw, a_row, a_sheet, order.willpower, rage_count, in_force.rage_cap, notes)
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
        defence_kind=order.defence_kind if defence_pool else None,
        plan=plan,
        soak_rule=verdict,
        dead=dead,
        coup_de_grace=order.coup_de_grace,
        rage_action=order.rage_action,
        soaked_by=_soaked_by(order, soak_pool),
    )


def _soaked_by(order: AttackOrder, soak_pool: PoolBreakdown | None) -> str:
    """How the target soaked: 'rules' (the soak rules' pool), 'pool' (the table's), or 'none'."""
    if soak_pool is None:
        return "none"
    return "pool" if order.soak else "rules"


@dataclass(frozen=True)
class _Exchange:
    """The rolls of one attack as :func:`_roll_exchange` made them."""

    result: AttackResult
    log_ids: tuple[int, ...]
    forgiven: bool


#: How an error names each roll of an attack (the same check, e.g. the number of dice given, runs on all
#: four); the defence roll is named with its kind (dodge, block or parry).
ROLL_NAMES = {"attack": "the attack roll", "damage": "the damage roll", "soak": "the soak roll"}
#: The door (pool building, log kind) of each step's roll.
_PURPOSES = {
    AttackStep.ATTACK: Purpose.attack,
    AttackStep.DEFENCE: Purpose.sheet,
    AttackStep.DAMAGE: Purpose.damage,
    AttackStep.SOAK: Purpose.soak,
}


def _roll_exchange(
    gw: Gateway,
    spec: AttackSpec,
    seed: int,
    *,
    rolls: dict[AttackStep, tuple[Any, PoolBreakdown | None]],
    faces: dict[AttackStep, Sequence[int] | None],
    overrides: RuleOverrides,
    attack_kind: LogKind,
    extra: dict[str, Any],
    defence_kind: str,
    named: dict[AttackStep, bool],
) -> _Exchange:
    """Walk :class:`stkit.dice.combat.AttackSequence` for ``spec``, each step one
    :func:`stkit.store.rolling.make_roll` call under the step's own rules (:class:`StepRoll`: the same
    rules :func:`stkit.dice.combat.roll_attack` and :func:`stkit.dice.combat.p_attack` use), sharing ONE
    generator seeded from ``seed`` (so a seed replays the same dice as ``roll_attack``). Every roll is
    logged, with ``extra`` in its detail; the soak's entry gets the levels soaked.

    ``rolls``: step -> (the character row rolling it, the pool built from their sheet, None when the step
    has no pool); ``faces``: step -> dice given by hand; ``named``: step -> the roll names a specialty of
    its pool (checked on the sheet and noted by make_roll). Raises InvalidValue for faces of a step that is
    not rolled and a damage pool beyond the limit, RuleRefusal as make_roll does; nothing is written then.
    """

    rng, _ = generator(seed)
    state = AttackSequence(spec)
    made: dict[AttackStep, RollOutcome] = {}
    while (step := state.next_step()) is not None:
        row, built = rolls[step.step]
        assert built is not None
        more: dict[str, Any] = {}
        if step.step is AttackStep.DAMAGE:
            if step.pool > MAX_POOL:
                raise InvalidValue(
                    f"the damage pool of {step.pool} dice is larger than stkit's limit of {MAX_POOL} dice"
                )
            plus = step.pool - built.dice
            built = replace(
                built,
                expression=built.expression + (f" + {plus}" if plus else ""),
                extra=built.extra + ((plus,) if plus else ()),
                dice=step.pool,
            )
            more["extra_successes"] = plus
        if step.step is AttackStep.DEFENCE:
            more["defence"] = defence_kind
        roll_order = RollOrder(
            expression=built.expression,
            character=row.name,
            chronicle=row.chronicle,
            purpose=_PURPOSES[step.step],
            overrides=overrides.at_difficulty(step.difficulty),
            faces=tuple(given) if (given := faces[step.step]) is not None else None,
            seed=seed,
            willpower=step.willpower,
            spec=named.get(step.step, False),
            combat=step.combat,
            log_kind=attack_kind if step.step is AttackStep.ATTACK else LogKind(_LOG_NAMES[step.step]),
            extra=extra | more,
            built=built,
            dice_rules=step.rules,
        )
        label = f"the defence roll ({defence_kind})" if step.step is AttackStep.DEFENCE else ROLL_NAMES[step.step]
        with about(label):
            done = make_roll(gw, roll_order, rng=rng)
        made[step.step] = done
        state = state.feed(done.roll.final_successes)
        check_unused_faces(spec, made, faces, state)
    result = AttackResult.of_rolls(spec, {s: o.roll for s, o in made.items()}, state)
    if AttackStep.SOAK in made:
        add_log_detail(gw, made[AttackStep.SOAK].log_id, soaked=result.soaked, wounds=result.wounds)
    log_ids = tuple(o.log_id for o in made.values() if o.log_id is not None)
    return _Exchange(result, log_ids, made[AttackStep.ATTACK].forgiven_botch)


#: The roll-log kind of each step after the attack.
_LOG_NAMES = {AttackStep.DEFENCE: "dodge", AttackStep.DAMAGE: "damage", AttackStep.SOAK: "soak"}


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
    #: difficulty raised by the unskilled rule for the other steps: 'damage', 'soak', 'defence' -> 0 or 1
    raised: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


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
    combat: CombatRules = STANDARD_COMBAT,
) -> AttackPools:
    """The pools :func:`attack` would roll, read only: ``pool`` and ``damage`` from ``attacker``'s sheet
    (or a ``weapon`` / ``maneuver``), and with ``target`` the soak pool under the soak rules (``soak``
    names a pool instead: the table's call) and the ``defence`` pool. Raises NotFound, InvalidValue,
    RuleRefusal as :func:`attack` does for its pools."""

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
    in_force = rules_in_force(gw, a_sheet.chronicle, RuleOverrides(difficulty=asked))  # as attack() rolls
    notes: list[str] = []
    built, diff = _unskilled(
        in_force,
        a_sheet,
        build_pool(a_sheet, _with_armour(a_sheet, pool, notes)),
        in_force.difficulty,
        lambda e: build_pool(a_sheet, e),
        notes,
        "attack",
    )
    # the other steps' difficulties are the command's: what the rule adds is measured from the lowest, 2
    damage_built, damage_at = _unskilled(
        in_force, a_sheet, unhurt_pool(a_sheet, damage), 2, lambda e: unhurt_pool(a_sheet, e), notes, "damage"
    )
    out = AttackPools(built, damage_built, diff, kind, plan=plan, raised={"damage": damage_at - 2}, notes=tuple(notes))
    if target is None:
        if defence is not None or soak is not None:
            raise InvalidValue("a soak or dodge pool from a sheet needs --target")
        return out
    t_sheet = find_character(gw, target, chronicle or a_sheet.chronicle).to_sheet()
    chosen = soak_choice(
        t_sheet,
        DamageType(kind),
        soak or "",
        combat=combat,
        silver=silver,
        homid_aggravated=rules_in_force(gw, t_sheet.chronicle).homid_aggravated_soak,
    )
    verdict = chosen.verdict
    raised = dict(out.raised)
    soak_pool = unhurt_pool(t_sheet, chosen.expression) if chosen.expression is not None else None
    if soak_pool is not None:
        soak_pool, soak_at = _unskilled(
            in_force, t_sheet, soak_pool, 2, lambda e: unhurt_pool(t_sheet, e), notes, "soak"
        )
        raised["soak"] = soak_at - 2
    defence_pool = build_pool(t_sheet, _with_armour(t_sheet, defence, notes), empty_ok=True) if defence else None
    if defence_pool is not None and not defence_pool.possible:
        defence_pool = None  # no dice left to defend with: the attack is not defended
    if defence_pool is not None:
        defence_pool, defence_at = _unskilled(
            in_force, t_sheet, defence_pool, 2, lambda e: build_pool(t_sheet, e), notes, "defence"
        )
        raised["defence"] = defence_at - 2
    return AttackPools(
        built, out.damage, diff, kind, soak_pool, defence_pool, verdict, plan, raised=raised, notes=tuple(notes)
    )


__all__ = [
    "DEFENCES",
    "AttackExchange",
    "AttackOrder",
    "AttackPools",
    "attack",
    "attack_pools",
    "refuse_second_action",
]
