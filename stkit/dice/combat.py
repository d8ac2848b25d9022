"""Combat on the dice engine: damage and soak rolls, an attack from the swing to the wounds, initiative, and
Rage spent for extra actions. Pure standard library; randomness is passed in.

Where each rule comes from (the Revised rulebook's Chapter Five: Rules, and stkit's readings):

- More successes on an attack make it more damaging ("Try It Out": the more successes, the more accurate and
  the more lethal the shot). stkit's reading: a hit adds one damage die per success beyond the first.
- A soak roll is reflexive: it takes no action and no multiple-action penalty ("Game Terms", Reflexive).
- Rage can give a Garou extra actions in one turn with no penalty ("Multiple Actions", last paragraph).
- The chapter names health and wound penalties ("Game Terms", Health) but gives no damage or soak system;
  the parts below that it does not give are stkit's readings, each marked as such, and the ones a table may
  well read otherwise are house rules collected in :class:`CombatRules` with their defaults.

Damage and soak rolls never botch: the Revised rulebook's combat rules say so, but the shipped rules text
(Chapter Five) does not include them, so stkit states it as its reading; "Botches" there speaks of actions.
Whether their 1s still cancel successes is a house rule, off by default: the chapter ties the rule
of one to botching ("Botches": the rule of one *is* botching), so a roll that cannot botch keeps its
successes. Turn on :attr:`CombatRules.damage_ones_cancel` for the stricter reading.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

from stkit.dice.actions import ActionSlot, multiple_action_penalties
from stkit.dice.model import (
    DEFAULT_DIFFICULTY,
    MAX_POOL,
    STANDARD_RULES,
    HouseRules,
    Outcome,
    RollResult,
    validate_difficulty,
    validate_pool,
)
from stkit.dice.odds import RollOdds, roll_distribution
from stkit.dice.request import RollRequest, resolve_roll
from stkit.dice.roll import RandomSource
from stkit.errors import InvalidValue, RuleRefusal
from stkit.text import check_range, counted

#: Most dice an exact attack query takes: the attack pool plus the damage pool (each hit's extra successes
#: add damage dice, so the work grows with both; 100 + 100 dice take about 0.3 s).
MAX_ATTACK_DICE = 200
#: Highest rating an initiative entry takes for Dexterity or Wits (forms lift Dexterity past 5).
MAX_INITIATIVE_TRAIT = 50
#: Most wound levels one hit may deal (a typo guard: far beyond any health track).
MAX_HIT_LEVELS = 100


class RollPurpose(StrEnum):
    """What a roll is for. Only an action can botch."""

    ACTION = "action"
    DAMAGE = "damage"
    SOAK = "soak"


@dataclass(frozen=True)
class CombatRules:
    """The combat house rules, in one place, with the defaults stkit ships.

    Attributes:
        damage_ones_cancel: 1s on damage and soak rolls cancel successes (default False: those rolls cannot
            botch, and the chapter ties the rule of one to botching, "Botches"). The general
            ``HouseRules.ones_cancel=False`` switches them off on every roll, these included.
        rage_cap: most Rage points spent on extra actions in one turn, beyond the limit the points themselves
            set (default None: only the current Rage points limit it; the chapter leaves the rest to the
            Storyteller, "Multiple Actions").
        unsoakable: damage types no form may soak, by name ("aggravated"; default none: the chapter gives no
            soak table, so every form soaks every type unless the table restricts it). The names are the
            store's (:class:`stkit.sheet.vocab.DamageType`); the dice engine only compares them.
    """

    damage_ones_cancel: bool = False
    rage_cap: int | None = None
    unsoakable: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.rage_cap is not None and (
            isinstance(self.rage_cap, bool) or not isinstance(self.rage_cap, int) or self.rage_cap < 1
        ):
            raise InvalidValue(f"Rage cap {self.rage_cap!r} must be a whole number of Rage points, 1 or more")
        object.__setattr__(self, "unsoakable", frozenset(str(t) for t in self.unsoakable))

    def may_soak(self, damage_type: str) -> bool:
        """Whether damage of ``damage_type`` (a damage type's name) may be soaked under these rules."""
        return str(damage_type) not in self.unsoakable

    def to_dict(self) -> dict[str, object]:
        return {
            "damage_ones_cancel": self.damage_ones_cancel,
            "rage_cap": self.rage_cap,
            "unsoakable": sorted(self.unsoakable),
        }


STANDARD_COMBAT = CombatRules()


def kind_rules(
    kind: RollPurpose, rules: HouseRules = STANDARD_RULES, combat: CombatRules = STANDARD_COMBAT
) -> HouseRules:
    """The house rules a roll of ``kind`` is scored under: an action keeps ``rules``; a damage or soak roll
    lets its 1s cancel only when both the general rule and ``combat.damage_ones_cancel`` say so."""
    if RollPurpose(kind) is RollPurpose.ACTION:
        return rules
    return replace(rules, ones_cancel=rules.ones_cancel and combat.damage_ones_cancel)


def _never_botch(result: RollResult) -> RollResult:
    """A roll that cannot botch: what would have been a botch is a plain failure."""
    return replace(result, outcome=Outcome.FAILURE) if result.outcome is Outcome.BOTCH else result


def score_kind(
    kind: RollPurpose,
    pool: int,
    difficulty: int,
    dice: Sequence[int],
    *,
    rules: HouseRules = STANDARD_RULES,
    combat: CombatRules = STANDARD_COMBAT,
    willpower: bool = False,
) -> RollResult:
    """Score faces rolled for a roll of ``kind``: as an ordinary count for an action; for a damage or soak
    roll under :func:`kind_rules`, and never a botch (a roll with no success is a failure).

    ``pool`` 1..MAX_POOL, ``difficulty`` 2..10, ``dice`` faces 1..10 (plus extra dice under ``reroll``).
    Raises InvalidValue as :class:`stkit.dice.request.RollRequest` does.
    """
    return roll_kind(kind, pool, difficulty, faces=dice, rules=rules, combat=combat, willpower=willpower)


def roll_kind(
    kind: RollPurpose,
    pool: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    *,
    rng: RandomSource | None = None,
    faces: Sequence[int] | None = None,
    rules: HouseRules = STANDARD_RULES,
    combat: CombatRules = STANDARD_COMBAT,
    willpower: bool = False,
) -> RollResult:
    """Roll (with ``rng``) or count (``faces``) a roll of ``kind``: one :class:`RollRequest` under
    :func:`kind_rules`, resolved by :func:`resolve_roll`; a damage or soak roll's botch is a failure.

    Raises InvalidValue for a pool or difficulty out of range, bad faces, or neither ``rng`` nor ``faces``.
    """
    kind = RollPurpose(kind)
    request = RollRequest(
        pool,
        difficulty,
        rules=kind_rules(kind, rules, combat),
        willpower=willpower,
        faces=tuple(faces) if faces is not None else None,
    )
    result = resolve_roll(request, rng=rng)
    return result if kind is RollPurpose.ACTION else _never_botch(result)


def p_kind(
    kind: RollPurpose,
    pool: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    *,
    rules: HouseRules = STANDARD_RULES,
    combat: CombatRules = STANDARD_COMBAT,
    willpower: bool = False,
) -> RollOdds:
    """The exact odds of one roll of ``kind``: :func:`stkit.dice.odds.roll_distribution` under
    :func:`kind_rules`, with the botch chance folded into failure for damage and soak rolls.

    Raises InvalidValue for a pool or difficulty out of range.
    """
    kind = RollPurpose(kind)
    odds = roll_distribution(pool, difficulty, rules=kind_rules(kind, rules, combat), willpower=willpower)
    return odds if kind is RollPurpose.ACTION else replace(odds, botch_weight=0)


# --------------------------------------------------------------------------------------------------------
# An attack: the attack roll, the defence, the damage roll it opens, the soak, the wounds.


class AttackStep(StrEnum):
    """The rolls of an attack, in the order they are made (a step may be skipped, never repeated)."""

    ATTACK = "attack"
    DEFENCE = "defence"
    DAMAGE = "damage"
    SOAK = "soak"


#: Each step's place in the sequence and the kind of roll it is (only the attack and the defence may botch).
_STEP_ORDER = {AttackStep.ATTACK: 0, AttackStep.DEFENCE: 1, AttackStep.DAMAGE: 2, AttackStep.SOAK: 3}
_STEP_PURPOSE = {
    AttackStep.ATTACK: RollPurpose.ACTION,
    AttackStep.DEFENCE: RollPurpose.ACTION,
    AttackStep.DAMAGE: RollPurpose.DAMAGE,
    AttackStep.SOAK: RollPurpose.SOAK,
}


@dataclass(frozen=True)
class AttackSpec:
    """One attack as asked: the dice of each step and the rules they are rolled under.

    Attributes:
        attack_pool: the attacker's dice pool (1..MAX_POOL), e.g. Dexterity + Brawl after wound penalties.
        damage_pool: the damage pool before extra successes (1..MAX_POOL), e.g. Strength + 1.
        soak_pool: the target's soak dice (0..MAX_POOL); 0 means no soak roll.
        attack_difficulty, damage_difficulty, soak_difficulty: 2..10 each (default 6).
        rules: the house rules in force for the exchange (the chronicle's with the roll's overrides);
            ``rules.specialised`` says the attack roll names a specialty. :meth:`step_rules` gives each
            step's rules from it.
        combat: the combat house rules.
        willpower: Willpower spent on the attack roll.
        defence_pool: the defender's dodge, block or parry dice (0..MAX_POOL, after their own penalties);
            0 means no defence roll. Its successes cancel attack successes one for one before the extra
            damage dice are counted (Revised combat chapter, "Dodging"; see docs/combat.md).
        defence_difficulty: 2..10 (default 6).
        damage_specialised: the damage roll names a specialty of its own (``--damage-spec``).
        defence_specialised: the defence roll names a specialty of the defender's.
    """

    attack_pool: int
    damage_pool: int
    soak_pool: int = 0
    attack_difficulty: int = DEFAULT_DIFFICULTY
    damage_difficulty: int = DEFAULT_DIFFICULTY
    soak_difficulty: int = DEFAULT_DIFFICULTY
    rules: HouseRules = STANDARD_RULES
    combat: CombatRules = STANDARD_COMBAT
    willpower: bool = False
    defence_pool: int = 0
    defence_difficulty: int = DEFAULT_DIFFICULTY
    damage_specialised: bool = False
    defence_specialised: bool = False

    def __post_init__(self) -> None:
        validate_pool(self.attack_pool)
        validate_pool(self.damage_pool)
        if isinstance(self.defence_pool, bool) or not isinstance(self.defence_pool, int) or self.defence_pool < 0:
            raise InvalidValue(f"defence pool {self.defence_pool!r} must be a whole number of dice, 0 or more")
        if self.defence_pool:
            validate_pool(self.defence_pool)
        validate_difficulty(self.defence_difficulty)
        if isinstance(self.soak_pool, bool) or not isinstance(self.soak_pool, int) or self.soak_pool < 0:
            raise InvalidValue(f"soak pool {self.soak_pool!r} must be a whole number of dice, 0 or more")
        if self.soak_pool:
            validate_pool(self.soak_pool)
        for d in (self.attack_difficulty, self.damage_difficulty, self.soak_difficulty):
            validate_difficulty(d)

    def step_rules(self, step: AttackStep) -> HouseRules:
        """The house rules ``step`` is scored under (before :func:`kind_rules` turns them into a damage or
        soak roll's): every step takes :attr:`rules` (the chronicle's house rules with the roll's
        overrides: the rule of one, the 10s, the specialty rule, ...); a specialty reaches only the roll that
        names one (the attack: ``rules.specialised``; the damage: :attr:`damage_specialised`; the defence:
        :attr:`defence_specialised`; the soak never). The one place that decides it; docs/combat.md states
        it."""
        specialised = {
            AttackStep.ATTACK: self.rules.specialised,
            AttackStep.DEFENCE: self.defence_specialised,
            AttackStep.DAMAGE: self.damage_specialised,
            AttackStep.SOAK: False,
        }[AttackStep(step)]
        return replace(self.rules, specialised=specialised)

    def soak_step(self, levels: int) -> StepRoll | None:
        """This attack's soak roll of ``levels`` damage successes (:func:`soak_step`), None when none is made."""
        return soak_step(levels, self.soak_pool, self.soak_difficulty, self.rules, self.combat)


def net_attack(attack_result: int, defence_result: int) -> int:
    """Attack successes left after a dodge, block or parry: ``max(attack - defence, 0)`` (each defence
    success cancels one attack success; Revised combat chapter, "Dodging", as restated in docs/combat.md)."""
    return max(attack_result - max(defence_result, 0), 0)


def damage_dice(base: int, attack_result: int) -> int:
    """Dice in the damage pool after an attack with final result ``attack_result`` (>= 0): 0 for a miss,
    else ``base`` plus one die per success beyond the first (stkit's reading of "Try It Out")."""
    if attack_result < 1:
        return 0
    return base + attack_result - 1


def soak_left(levels: int, soak_successes: int) -> tuple[int, int]:
    """The soak's arithmetic, the one definition every door uses (an attack, `char hit`, the exact odds):
    ``(soaked, left)`` of ``levels`` (>= 0) damage levels after a soak roll with ``soak_successes`` (>= 0)
    final successes: each success takes one level off, never below none (stkit's reading of the soak
    roll; docs/combat.md, "Soak"). ``soaked + left == levels``."""
    soaked = min(max(soak_successes, 0), max(levels, 0))
    return soaked, max(levels, 0) - soaked


@dataclass(frozen=True)
class StepRoll:
    """The roll an attack sequence asks for next.

    Attributes:
        step: which roll (:class:`AttackStep`).
        purpose: an action (attack, defence: may botch), a damage or a soak roll (never botch).
        pool: dice (1..MAX_POOL; a damage pool past MAX_POOL is refused by the roll).
        difficulty: 2..10.
        rules: the house rules it is scored under (:meth:`AttackSpec.step_rules`); :func:`kind_rules`
            with ``combat`` makes a damage or soak roll's.
        combat: the combat house rules.
        willpower: Willpower spent on it (the attack only).
    """

    step: AttackStep
    purpose: RollPurpose
    pool: int
    difficulty: int
    rules: HouseRules
    combat: CombatRules
    willpower: bool = False


def soak_step(
    levels: int,
    soak_pool: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    rules: HouseRules = STANDARD_RULES,
    combat: CombatRules = STANDARD_COMBAT,
) -> StepRoll | None:
    """The soak roll of ``levels`` damage levels (>= 0) with ``soak_pool`` dice (>= 0) at ``difficulty``
    (2..10) under ``rules`` (the rules in force) and ``combat``: a :attr:`RollPurpose.SOAK` roll (never a
    botch; its 1s under :func:`kind_rules`) that names no specialty; None when no soak roll is made (no
    level to soak, or no soak dice). Which pool the target may soak with, if any, is the fight rules'
    (:func:`stkit.store.fight.rules.soak_rule`); what the soak does is :func:`soak_left`. The attack's soak
    step and `char hit` both ask this."""
    if levels < 1 or not soak_pool:
        return None
    return StepRoll(AttackStep.SOAK, RollPurpose.SOAK, soak_pool, difficulty, replace(rules, specialised=False), combat)


@dataclass(frozen=True)
class AttackSequence:
    """An attack as a state machine: :meth:`next_step` names the roll to make, :meth:`feed` takes its final
    successes and returns the next state, until :attr:`done`. Every driver (dice: :func:`roll_attack`,
    exact odds: :func:`p_attack`, the store's attack: one logged roll per step) walks this one definition.

    The states hold only what the rest of the attack depends on, so equal states merge in the exact odds:
    before the attack; before the defence (``carried`` = attack successes); before the damage
    (``carried`` = damage dice); before the soak (``carried`` = damage successes); done (``carried`` =
    wound levels).

    The steps (Revised, Chapter Five; stkit's readings as in docs/combat.md):

    1. the attack roll (an action: it may botch);
    2. when it has a success and the target a defence pool, the dodge, block or parry roll, whose
       successes cancel attack successes one for one (:func:`net_attack`);
    3. on a hit (a success left), the damage roll of :func:`damage_dice` dice (never botches);
    4. when that has a success and the target soak dice, the soak roll (never botches);
       the wounds are the damage successes the soak leaves.
    """

    spec: AttackSpec
    stage: AttackStep | None = AttackStep.ATTACK
    carried: int = 0

    @property
    def done(self) -> bool:
        return self.stage is None

    @property
    def wounds(self) -> int:
        """Wound levels dealt (>= 0; only once :attr:`done`). Raises InvalidValue before."""
        if not self.done:
            raise InvalidValue(f"the attack is not over: the {self.stage} roll is still to be made")
        return self.carried

    def next_step(self) -> StepRoll | None:
        """The roll to make next, or None when the attack is over."""
        if self.stage is None:
            return None
        spec = self.spec
        if self.stage is AttackStep.SOAK:
            return spec.soak_step(self.carried)
        pool, difficulty = {
            AttackStep.ATTACK: (spec.attack_pool, spec.attack_difficulty),
            AttackStep.DEFENCE: (spec.defence_pool, spec.defence_difficulty),
            AttackStep.DAMAGE: (self.carried, spec.damage_difficulty),
        }[self.stage]
        return StepRoll(
            self.stage,
            _STEP_PURPOSE[self.stage],
            pool,
            difficulty,
            spec.step_rules(self.stage),
            spec.combat,
            willpower=spec.willpower and self.stage is AttackStep.ATTACK,
        )

    def feed(self, successes: int) -> AttackSequence:
        """The state after the current step's roll gave ``successes`` final successes (>= 0; a botch is 0).
        Raises InvalidValue when the attack is over or ``successes`` is negative."""
        if self.stage is None:
            raise InvalidValue("the attack is over: no roll is left to take")
        if isinstance(successes, bool) or not isinstance(successes, int) or successes < 0:
            raise InvalidValue(f"successes {successes!r} must be a whole number, 0 or more")
        spec = self.spec
        if self.stage is AttackStep.ATTACK and spec.defence_pool and successes >= 1:
            return AttackSequence(spec, AttackStep.DEFENCE, successes)
        if self.stage in (AttackStep.ATTACK, AttackStep.DEFENCE):
            net = successes if self.stage is AttackStep.ATTACK else net_attack(self.carried, successes)
            pool = damage_dice(spec.damage_pool, net)
            return AttackSequence(spec, AttackStep.DAMAGE, pool) if pool else AttackSequence(spec, None, 0)
        if self.stage is AttackStep.DAMAGE:
            if spec.soak_step(successes) is not None:
                return AttackSequence(spec, AttackStep.SOAK, successes)
            return AttackSequence(spec, None, successes)
        return AttackSequence(spec, None, soak_left(self.carried, successes)[1])


@dataclass(frozen=True)
class AttackResult:
    """An attack rolled through (or counted from physical dice).

    Attributes:
        spec: what was asked.
        attack: the attack roll.
        defence: the defender's dodge, block or parry roll (None without one, or when the attack had no
            success to cancel).
        damage_pool: dice in the damage roll (0 on a miss).
        damage: the damage roll (None on a miss).
        soak: the soak roll (None when there was no soak pool or no damage success to soak).
        soaked: damage successes the soak took away (0..damage successes).
        wounds: health levels the attack deals (>= 0), before the health track caps them.
    """

    spec: AttackSpec
    attack: RollResult
    damage_pool: int
    damage: RollResult | None
    soak: RollResult | None
    soaked: int
    wounds: int
    defence: RollResult | None = None

    @classmethod
    def of_rolls(cls, spec: AttackSpec, rolls: dict[AttackStep, RollResult], end: AttackSequence) -> AttackResult:
        """The result of an :class:`AttackSequence` walked to ``end`` with ``rolls`` (step -> its roll)."""
        damage, soak = rolls.get(AttackStep.DAMAGE), rolls.get(AttackStep.SOAK)
        soaked = soak_left(damage.final_successes, soak.final_successes)[0] if soak and damage else 0
        return cls(
            spec,
            rolls[AttackStep.ATTACK],
            damage.pool if damage else 0,
            damage,
            soak,
            soaked,
            end.wounds,
            rolls.get(AttackStep.DEFENCE),
        )

    @property
    def net_successes(self) -> int:
        """Attack successes left after the defence cancels its own (0..)."""
        return net_attack(self.attack.final_successes, self.defence.final_successes if self.defence else 0)

    @property
    def hit(self) -> bool:
        return self.net_successes >= 1

    @property
    def extra_successes(self) -> int:
        """Attack successes beyond the first, after the defence (each a damage die)."""
        return max(self.net_successes - 1, 0)

    def to_dict(self) -> dict[str, object]:
        return {
            "hit": self.hit,
            "attack": self.attack.to_dict(),
            "defence": self.defence.to_dict() if self.defence else None,
            "defence_pool": self.spec.defence_pool,
            "net_successes": self.net_successes,
            "extra_successes": self.extra_successes,
            "damage_pool": self.damage_pool,
            "damage": self.damage.to_dict() if self.damage else None,
            "soak_pool": self.spec.soak_pool,
            "soak": self.soak.to_dict() if self.soak else None,
            "soaked": self.soaked,
            "wounds": self.wounds,
            "combat_rules": self.spec.combat.to_dict(),
        }


def soak_damage(
    damage_successes: int,
    soak_pool: int,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    rng: RandomSource | None = None,
    faces: Sequence[int] | None = None,
    rules: HouseRules = STANDARD_RULES,
    combat: CombatRules = STANDARD_COMBAT,
) -> tuple[RollResult | None, int, int]:
    """Soak ``damage_successes`` (>= 0) levels with ``soak_pool`` dice (>= 0): ``(soak roll, soaked, left)``.

    No roll is made (None) when there is nothing to soak or no soak dice; then ``faces`` must be None.
    The soak roll is a :attr:`RollPurpose.SOAK` roll. Raises InvalidValue for faces given where no roll is made.
    """
    if damage_successes < 0:
        raise InvalidValue(f"damage {damage_successes} must be 0 or more health levels")
    if damage_successes == 0 or soak_pool == 0:
        if faces is not None:
            why = "there is no damage to soak" if damage_successes == 0 else "there are no soak dice"
            raise InvalidValue(f"soak dice were given but no soak roll is made: {why}")
        return None, 0, damage_successes
    step = soak_step(damage_successes, soak_pool, difficulty, rules, combat)
    assert step is not None
    soak = roll_kind(step.purpose, step.pool, step.difficulty, rng=rng, faces=faces, rules=step.rules, combat=combat)
    soaked, left = soak_left(damage_successes, soak.final_successes)
    return soak, soaked, left


def _unused_faces(step: AttackStep, spec: AttackSpec, rolls: Collection[AttackStep]) -> str:
    """Why no ``step`` roll was made in an attack that made ``rolls`` (for the error when dice were given
    for it)."""
    if step is AttackStep.DEFENCE:
        return "there is no defence pool" if not spec.defence_pool else "the attack had no success to cancel"
    if AttackStep.DAMAGE not in rolls:
        return "the attack missed: no damage roll is made"
    if step is AttackStep.SOAK:
        return "there are no soak dice" if not spec.soak_pool else "there is no damage to soak"
    return "no such roll is made"  # pragma: no cover - every step is named above


def check_unused_faces(
    spec: AttackSpec, rolls: Collection[AttackStep], given: Mapping[AttackStep, object], now: AttackSequence
) -> None:
    """Raise InvalidValue when dice were given (``given``: step -> faces or None) for a step the attack has
    passed by without rolling it (``rolls``: the steps rolled; ``now``: the state reached)."""
    reached = 4 if now.stage is None else _STEP_ORDER[now.stage]
    for step in AttackStep:
        if _STEP_ORDER[step] < reached and given.get(step) is not None and step not in rolls:
            what = "defence" if step is AttackStep.DEFENCE else step.value
            raise InvalidValue(f"{what} dice were given but no {what} roll is made: {_unused_faces(step, spec, rolls)}")


def roll_attack(
    spec: AttackSpec,
    *,
    rng: RandomSource | None = None,
    attack_faces: Sequence[int] | None = None,
    damage_faces: Sequence[int] | None = None,
    soak_faces: Sequence[int] | None = None,
    defence_faces: Sequence[int] | None = None,
) -> AttackResult:
    """Roll an attack through by walking :class:`AttackSequence`: each step rolled with :func:`roll_kind`
    under its :class:`StepRoll`'s rules.

    Each step's faces may be given (physical dice) or rolled with ``rng`` in order. Raises InvalidValue for
    bad faces, faces for a step that is not rolled (no damage roll after a miss, no soak roll after damage
    with no success), or a damage pool beyond MAX_POOL.
    """
    given: dict[AttackStep, Sequence[int] | None] = {
        AttackStep.ATTACK: attack_faces,
        AttackStep.DEFENCE: defence_faces,
        AttackStep.DAMAGE: damage_faces,
        AttackStep.SOAK: soak_faces,
    }
    state = AttackSequence(spec)
    rolls: dict[AttackStep, RollResult] = {}
    while (step := state.next_step()) is not None:
        if step.pool > MAX_POOL:
            raise InvalidValue(f"the damage pool of {step.pool} dice is larger than stkit's limit of {MAX_POOL} dice")
        rolled = roll_kind(
            step.purpose,
            step.pool,
            step.difficulty,
            rng=rng,
            faces=given[step.step],
            rules=step.rules,
            combat=step.combat,
            willpower=step.willpower,
        )
        rolls[step.step] = rolled
        state = state.feed(rolled.final_successes)
        check_unused_faces(spec, rolls, given, state)
    return AttackResult.of_rolls(spec, rolls, state)


@dataclass(frozen=True)
class AttackOdds:
    """The exact distribution of the wound levels an attack deals after soak.

    Integer ``weights`` over one ``denominator``: ``weights[w] / denominator`` is P(exactly w levels), for
    w = 0 .. len(weights) - 1 (a miss, a damage roll with no success and a full soak all count as 0).
    ``unresolved_weight`` is the chance of a roll result beyond the listed ones (10s that roll again: the
    ``reroll`` specialty or exploding 10s; 0 otherwise). ``hit_weight``: the chance a success is left after
    the defence. ``attack``: the attack roll's own odds.
    """

    spec: AttackSpec
    attack: RollOdds
    denominator: int
    weights: tuple[int, ...]
    unresolved_weight: int
    hit_weight: int = 0

    @property
    def p_hit(self) -> Fraction:
        """P(a success is left after the defence)."""
        return Fraction(self.hit_weight, self.denominator)

    @property
    def p_botch(self) -> Fraction:
        """P(the attack roll botches)."""
        return self.attack.p_botch

    @property
    def p_unresolved(self) -> Fraction:
        return Fraction(self.unresolved_weight, self.denominator)

    @property
    def distribution(self) -> tuple[Fraction, ...]:
        """P(exactly w wound levels), w = 0 .., as exact Fractions."""
        return tuple(Fraction(w, self.denominator) for w in self.weights)

    @property
    def at_least(self) -> tuple[Fraction, ...]:
        """P(at least w wound levels), w = 0 .. (the unresolved chance counted in none of them)."""
        out: list[Fraction] = []
        acc = 0
        for w in reversed(self.weights):
            acc += w
            out.append(Fraction(acc, self.denominator))
        return tuple(reversed(out))

    @property
    def expected(self) -> Fraction:
        """The exact expected wound levels over the listed outcomes."""
        return Fraction(sum(k * w for k, w in enumerate(self.weights)), self.denominator)

    def p_wounds(self, w: int) -> Fraction:
        """P(exactly ``w`` wound levels); 0 outside the listed range."""
        return Fraction(self.weights[w], self.denominator) if 0 <= w < len(self.weights) else Fraction(0)


def step_odds(step: StepRoll) -> RollOdds:
    """The exact odds of one step's roll (:func:`p_kind` under its rules)."""
    return p_kind(
        step.purpose, step.pool, step.difficulty, rules=step.rules, combat=step.combat, willpower=step.willpower
    )


def p_attack(spec: AttackSpec) -> AttackOdds:
    """The exact wound distribution of ``spec``, by walking :class:`AttackSequence` over every outcome: the
    states of one step are expanded with that step's exact odds (:func:`step_odds`), equal states merge,
    and all weights share one integer denominator (no simulation). A result beyond the listed ones (10s
    that roll again) counts as unresolved.

    Raises InvalidValue when ``attack_pool + damage_pool`` exceeds MAX_ATTACK_DICE.
    """
    if spec.attack_pool + spec.damage_pool > MAX_ATTACK_DICE:
        raise InvalidValue(
            f"an attack of {spec.attack_pool} dice with a damage pool of {spec.damage_pool} is too large for exact "
            f"odds: the two pools may add up to at most {MAX_ATTACK_DICE} dice"
        )
    start = AttackSequence(spec)
    first = start.next_step()
    assert first is not None
    attack = step_odds(first)
    pending: dict[AttackSequence, int] = {start: 1}
    ended: dict[int, int] = {}
    denominator, unresolved, hit = 1, 0, 0
    while pending:
        stage = min(_STEP_ORDER[s.stage] for s in pending if s.stage is not None)
        now = {s: w for s, w in pending.items() if s.stage is not None and _STEP_ORDER[s.stage] == stage}
        odds = {s: step_odds(step) for s in now if (step := s.next_step()) is not None}
        scale = math.lcm(*(o.denominator for o in odds.values()))
        denominator *= scale
        unresolved *= scale
        hit *= scale
        ended = {k: w * scale for k, w in ended.items()}
        later: dict[AttackSequence, int] = {s: w * scale for s, w in pending.items() if s not in now}
        for state, weight in now.items():
            o = odds[state]
            per = weight * (scale // o.denominator)
            unresolved += per * o.tail_weight
            for result, w in enumerate(o.weights):
                if not w:
                    continue
                after = state.feed(result)
                if after.stage is AttackStep.DAMAGE:
                    hit += per * w
                if after.done:
                    ended[after.wounds] = ended.get(after.wounds, 0) + per * w
                else:
                    later[after] = later.get(after, 0) + per * w
        pending = later
    weights = [ended.get(k, 0) for k in range(max(ended, default=0) + 1)]
    return AttackOdds(spec, attack, denominator, tuple(weights), unresolved, hit)


# --------------------------------------------------------------------------------------------------------
# Initiative.


@dataclass(frozen=True)
class InitiativeEntry:
    """One character about to roll initiative.

    Attributes:
        name: how the character is shown (unique within one roll).
        dexterity: the form's Dexterity (0..MAX_INITIATIVE_TRAIT).
        wits: Wits (0..MAX_INITIATIVE_TRAIT).
        wound_penalty: dice lost to wounds (0 or more), subtracted from the total.
    """

    name: str
    dexterity: int
    wits: int
    wound_penalty: int = 0

    def __post_init__(self) -> None:
        for what, value, high in (
            ("Dexterity", self.dexterity, MAX_INITIATIVE_TRAIT),
            ("Wits", self.wits, MAX_INITIATIVE_TRAIT),
            ("wound penalty", self.wound_penalty, 10),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidValue(f"{self.name}'s {what} {value!r} is not a whole number; allowed: 0 to {high}")
            check_range(value, f"{self.name}'s {what}", 0, high)

    @property
    def rating(self) -> int:
        """The initiative rating: Dexterity + Wits."""
        return self.dexterity + self.wits


@dataclass(frozen=True)
class InitiativeRoll:
    """One character's initiative: ``total = die + rating - wound_penalty``; ``place`` 1 acts first, equal
    places act at the same moment (see :func:`order_initiative` for the tie rule)."""

    name: str
    die: int
    rating: int
    wits: int
    wound_penalty: int
    total: int
    place: int

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "place": self.place,
            "die": self.die,
            "rating": self.rating,
            "wits": self.wits,
            "wound_penalty": self.wound_penalty,
            "total": self.total,
        }


#: The tie rule, said once (shown by the CLI and the docs).
INITIATIVE_TIE_RULE = (
    "the higher total first; on equal totals the higher Dexterity + Wits, then the higher Wits; "
    "still equal, they act at the same moment"
)


def order_initiative(entries: Sequence[InitiativeEntry], dice: Sequence[int]) -> tuple[InitiativeRoll, ...]:
    """Initiative from one die per entry (faces 1..10, in the entries' order): each total is the die plus
    Dexterity + Wits less the wound penalty, and the order is :data:`INITIATIVE_TIE_RULE` (stkit's rule: the
    chapter gives none). Entries still tied keep their given order and share a place (1, 2, 2, 4).

    Raises InvalidValue for no entries, two entries of one name, a count of dice other than one per entry,
    or a face outside 1..10.
    """
    if not entries:
        raise InvalidValue("initiative needs at least one character")
    names = [e.name for e in entries]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InvalidValue(f"{', '.join(dupes)} named more than once; each character rolls initiative once")
    if len(dice) != len(entries):
        raise InvalidValue(
            f"{counted(len(dice), 'die', 'dice')} given for {counted(len(entries), 'character')}; "
            "give one die each, in order"
        )
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
            raise InvalidValue(f"die face {face!r} is not possible on a ten-sided die; allowed: 1 to 10")
    rolled = [(e, d, d + e.rating - e.wound_penalty) for e, d in zip(entries, dice, strict=True)]
    order = sorted(range(len(rolled)), key=lambda i: (-rolled[i][2], -rolled[i][0].rating, -rolled[i][0].wits, i))
    out: list[InitiativeRoll] = []
    previous: tuple[int, int, int] | None = None
    place = 0
    for position, i in enumerate(order, 1):
        e, die, total = rolled[i]
        key = (total, e.rating, e.wits)
        if key != previous:
            place, previous = position, key
        out.append(InitiativeRoll(e.name, die, e.rating, e.wits, e.wound_penalty, total, place))
    return tuple(out)


def roll_initiative(
    entries: Sequence[InitiativeEntry], *, rng: RandomSource | None = None, dice: Sequence[int] | None = None
) -> tuple[InitiativeRoll, ...]:
    """Roll one die per entry with ``rng`` (or take ``dice``) and order them; see :func:`order_initiative`."""
    if dice is None:
        if rng is None:
            raise InvalidValue("initiative needs either dice faces or a random source")
        dice = [rng.randint(1, 10) for _ in entries]
    return order_initiative(entries, list(dice))


# --------------------------------------------------------------------------------------------------------
# Rage for extra actions.


def rage_action_penalties(count: int, rage: int) -> list[int]:
    """Dice lost by each of ``count`` declared actions when the last ``rage`` of them are extra actions
    bought with Rage: those take no penalty ("Multiple Actions", last paragraph); the others follow the
    ladder for their own number (N, N+1, ...), and a lone other action is no multiple action at all (0).

    Raises InvalidValue for ``rage`` < 0, or ``rage`` >= ``count`` (Rage buys actions beyond a first one).
    """
    if isinstance(rage, bool) or not isinstance(rage, int) or rage < 0:
        raise InvalidValue(f"Rage for extra actions {rage!r} must be a whole number of points, 0 or more")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidValue(f"number of actions {count!r} must be at least 1")
    if rage == 0:
        return multiple_action_penalties(count)
    if rage >= count:
        raise InvalidValue(
            f"{rage} Rage buys {counted(rage, 'extra action')} beyond a first one: "
            f"declare at least {rage + 1} dice pools "
            f"(got {count})"
        )
    ordinary = count - rage
    ladder = [0] if ordinary == 1 else multiple_action_penalties(ordinary)
    return ladder + [0] * rage


def validate_rage_spend(rage: int, points: int, combat: CombatRules = STANDARD_COMBAT) -> int:
    """``rage`` unchanged when a Garou with ``points`` current Rage points may spend it on extra actions this
    turn: at least 1, at most the points, at most ``combat.rage_cap`` when set.

    Raises InvalidValue for ``rage`` < 1, RuleRefusal beyond the points or the cap.
    """
    if isinstance(rage, bool) or not isinstance(rage, int) or rage < 1:
        raise InvalidValue(f"--rage {rage!r} must be 1 or more Rage points")
    if rage > points:
        raise RuleRefusal(f"spending {rage} Rage needs {rage} Rage points; only {points} left")
    if combat.rage_cap is not None and rage > combat.rage_cap:
        raise RuleRefusal(
            f"spending {rage} Rage is beyond the house rule's cap of {combat.rage_cap} Rage points a turn"
        )
    return rage


def roll_rage_actions(
    pools: Sequence[int],
    difficulties: Sequence[int],
    rage: int,
    *,
    rng: RandomSource | None = None,
    rules: HouseRules = STANDARD_RULES,
    faces: Sequence[Sequence[int]] | None = None,
) -> list[ActionSlot]:
    """Several actions in one turn, the last ``rage`` bought with Rage (see :func:`rage_action_penalties`):
    one ``ActionSlot`` per declared pool, in order; an action left with no dice is not rolled.

    ``faces``: None to roll with ``rng``, else one list of faces per action that can be attempted. Raises
    InvalidValue as :func:`stkit.dice.roll.roll_multiple_actions` does, and for a bad ``rage``.
    """
    for p in pools:
        validate_pool(p)
    if len(difficulties) != len(pools):
        raise InvalidValue(
            f"{counted(len(difficulties), 'difficulty', 'difficulties')} given for {counted(len(pools), 'action')}; "
            "give one each"
        )
    for d in difficulties:
        validate_difficulty(d)
    penalties = rage_action_penalties(len(pools), rage)
    possible = sum(1 for p, pen in zip(pools, penalties, strict=True) if p - pen >= 1)
    if faces is not None and len(faces) != possible:
        raise InvalidValue(
            f"{counted(len(faces), 'set of dice', 'sets of dice')} given but {possible} of the actions can be "
            "attempted; give one each"
        )
    given = iter(faces or ())
    slots = []
    for p, pen, d in zip(pools, penalties, difficulties, strict=True):
        left = p - pen
        result = None
        if left >= 1:
            result = roll_kind(
                RollPurpose.ACTION, left, d, rng=rng, faces=next(given) if faces is not None else None, rules=rules
            )
        slots.append(ActionSlot(p, pen, left, result))
    return slots


__all__ = [
    "INITIATIVE_TIE_RULE",
    "MAX_ATTACK_DICE",
    "MAX_HIT_LEVELS",
    "MAX_INITIATIVE_TRAIT",
    "STANDARD_COMBAT",
    "AttackOdds",
    "AttackResult",
    "AttackSequence",
    "AttackSpec",
    "AttackStep",
    "CombatRules",
    "InitiativeEntry",
    "InitiativeRoll",
    "RollPurpose",
    "StepRoll",
    "check_unused_faces",
    "damage_dice",
    "kind_rules",
    "net_attack",
    "order_initiative",
    "p_attack",
    "p_kind",
    "rage_action_penalties",
    "roll_attack",
    "roll_initiative",
    "roll_kind",
    "roll_rage_actions",
    "score_kind",
    "soak_damage",
    "soak_left",
    "soak_step",
    "step_odds",
    "validate_rage_spend",
]
