"""A whole attack on the store: the attack roll, the target's dodge, block or parry, damage, soak and the
wounds marked, each step through the one roll use case (:func:`stkit.store.rolling.make_roll`), and the
pools an attack would roll (``odds attack --char``).

The use case takes a :class:`~stkit.store.db.gateway.Gateway` (one transaction: the caller's) and returns a
frozen :class:`AttackExchange`; a refusal raises before anything is written, so nothing is stored
half-done. The dice rules are in :mod:`stkit.dice.combat`; the fight rules (weapons, maneuvers, who soaks
what) in :mod:`stkit.store.fight_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from stkit.dice import MAX_POOL
from stkit.dice.combat import (
    STANDARD_COMBAT,
    AttackResult,
    AttackSpec,
    CombatRules,
    net_attack,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal, about
from stkit.sheet.pools import PoolBreakdown, build_pool, pool_trait_names, unhurt_pool
from stkit.sheet.sheet import Sheet
from stkit.sheet.sheet import damage_type as check_damage_type
from stkit.sheet.specialties import SpecialtyUse, apply_specialty
from stkit.sheet.vocab import DamageType, LogKind
from stkit.store.characters import find_character, save_sheet
from stkit.store.db.gateway import Gateway
from stkit.store.fight_rules import (
    armour_penalty,
    is_dead,
    maneuver_plan,
    mark_dead,
    soak_rule,
    spend_rage_action,
    weapon_plan,
    wound_kind,
)
from stkit.store.hit import Health, soak_expression
from stkit.store.house import rules_in_force
from stkit.store.initiative import acted_this_turn, check_in_scene
from stkit.store.rolling import Purpose, RollOrder, add_log_detail, fresh_seed, generator, make_roll
from stkit.store.scenes import check_willpower_allowed, find_turn_context

if TYPE_CHECKING:
    from stkit.dice.house import ChronicleRules
    from stkit.store.characters import CharacterRow
    from stkit.store.fight_rules import AttackPlan, SoakRule
    from stkit.store.scenes import TurnContext


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
    """(the target's soak pool, the soak rules' verdict): ``soak`` names a pool (the table's call) or is ''
    for the soak rules' pool (:func:`stkit.store.fight_rules.soak_rule`); None when nothing may be soaked."""

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
    gw: Gateway,
    t_row: CharacterRow,
    t_sheet: Sheet,
    wounds: int,
    kind: DamageType,
    ctx: TurnContext | None,
    silver: bool = False,
) -> tuple[dict[str, Any] | None, list[str], bool]:
    """Put ``wounds`` levels of ``kind`` (a silver weapon's as :func:`wound_kind` says) on the target's
    health track and save it (a killing level marks them dead): (what was taken, or None for no wound;
    warnings; dead)."""

    if not wounds:
        return None, [], False
    marked = wound_kind(t_sheet, kind.value, silver=silver)
    report = t_sheet.take_damage(wounds, marked)
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
    with about(ROLL_NAMES["attack"]):
        attack_pool = build_pool(a_sheet, _with_armour(a_sheet, pool, notes))
    ctx = find_turn_context(gw, a_row)
    if willpower:
        check_willpower_allowed(gw, a_row, ctx)
        if a_sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{a_sheet.name} has no Willpower points left; nothing was spent or rolled")
    in_force = rules_in_force(gw, a_row.chronicle, overrides.at_difficulty(difficulty))
    rules = in_force.dice_rules(spec)
    rage_count = None
    if rage_action:
        rage_count = spend_rage_action(gw, a_row, a_sheet, ctx, in_force.rage_cap)
    used: SpecialtyUse | None = None
    attack_rules = rules
    if spec:
        attack_rules, used = apply_specialty(a_sheet, attack_pool, rules)
    with about(ROLL_NAMES["damage"]):
        damage_pool = unhurt_pool(a_sheet, damage)
    defence_pool = None
    if defence is not None:
        # _defence_pool's errors name the defence already ("dodge: ...")
        defence_pool = _defence_pool(gw, t_row, t_sheet, ctx, defence, defence_kind, defender_actions, notes)
    elif defence_faces is not None:
        raise InvalidValue(f"{defence_kind} dice were given without a --{defence_kind} pool")
    soak_pool = None
    verdict = None
    if soak is not None:
        with about(ROLL_NAMES["soak"]):
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
    taken, warnings, dead = _wound(gw, t_row, t_sheet, result.wounds, kind, ctx, silver)
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


#: How an error names each roll of an attack (the same check, e.g. the number of dice given, runs on all
#: four); the defence roll is named with its kind (dodge, block or parry).
ROLL_NAMES = {"attack": "the attack roll", "damage": "the damage roll", "soak": "the soak roll"}


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
        named = f"the defence roll ({defence_kind})" if step == "dodge" else ROLL_NAMES[step]
        with about(named):
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


__all__ = [
    "DEFENCES",
    "AttackExchange",
    "AttackPools",
    "attack",
    "attack_pools",
]
