"""Several actions in one turn, each pool built from the character's sheet (`stkit multi --char`), and the
extra actions Rage buys (`--rage K`).

Rules: Chapter Five: Rules, "Multiple Actions" (its last paragraph: Rage gives extra actions at no penalty).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stkit.dice.combat import STANDARD_COMBAT, CombatRules, rage_action_penalties
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue
from stkit.sheet.pools import build_pool
from stkit.sheet.vocab import LogKind
from stkit.store.characters import get_character
from stkit.store.fight.initiative import spend_rage_for_actions
from stkit.store.rolling import Purpose, RollOrder, SheetRoll, generator, make_roll
from stkit.text import check_range, counted

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


# ------------------------------------------------------------------------------------- multiple actions


@dataclass(frozen=True)
class SheetActionSlot:
    """One of several actions declared by a character in a turn: the pool the sheet gives (form and wounds
    applied), the multiple-action penalty, the dice left, and the logged roll (None when no dice are left)."""

    expression: str
    breakdown: str
    declared_pool: int
    penalty: int
    pool: int
    difficulty: int
    rolled: SheetRoll | None
    rage_left: int | None = None  # set on an extra action bought with Rage: the Rage points left after the spend

    def to_dict(self) -> dict:
        return {
            **({"rage_action": True, "rage_left": self.rage_left} if self.rage_left is not None else {}),
            "expression": self.expression,
            "breakdown": self.breakdown,
            "declared_pool": self.declared_pool,
            "penalty": self.penalty,
            "pool": self.pool,
            "possible": self.pool >= 1,
            "difficulty": self.difficulty,
            "roll": self.rolled.roll.to_dict() if self.rolled else None,
            "log_id": self.rolled.log_id if self.rolled else None,
            "scene_id": self.rolled.scene_id if self.rolled else None,
            "turn": self.rolled.turn if self.rolled else None,
        }


def multi_from_sheet(
    gw: Gateway,
    name: str,
    expressions: list[str],
    difficulties: list[int],
    *,
    chronicle: str | None = None,
    faces: list[list[int]] | None = None,
    seed: int | None = None,
    overrides: RuleOverrides = NO_OVERRIDES,
    rage: int = 0,
    combat: CombatRules = STANDARD_COMBAT,
    willpower_action: int | None = None,
) -> list[SheetActionSlot]:
    """Several actions declared by character ``name`` in one turn, each pool built from the sheet, then the
    multiple-action ladder applied (Chapter Five, "Multiple Actions": with N actions the first loses N dice,
    each later one a die more; an action left with no dice is not attempted). Each attempted action is rolled
    and logged through the character store's roll use case (so it lands in the open scene's turn).

    ``rage`` > 0 spends that many Rage points (see :func:`stkit.store.fight.initiative.spend_rage_for_actions`: at most
    the points and ``combat``'s cap, once per turn of a scene) for the last ``rage`` actions, which take no
    penalty; the others follow the ladder for their own number (:func:`stkit.dice.combat.rage_action_penalties`).

    ``faces``: physical dice, one list per action that can be attempted; ``seed``: the one generator's
    seed (the rolls share it); ``overrides``: the per-roll house rules (each action's difficulty is its
    own). ``willpower_action`` (1-based): the action that spends Willpower from the sheet (once a turn).
    Raises InvalidValue, NotFound, RuleRefusal; nothing is logged or spent then.
    """

    if len(difficulties) != len(expressions):
        raise InvalidValue(
            f"{counted(len(difficulties), 'difficulty', 'difficulties')} for {counted(len(expressions), 'action')}; "
            "give one for all, or one each"
        )
    char = get_character(gw, name, chronicle, for_update=True)
    sheet = char.to_sheet()
    built = [build_pool(sheet, e) for e in expressions]
    penalties = rage_action_penalties(len(built), rage)
    possible = sum(1 for b, pen in zip(built, penalties, strict=True) if b.dice - pen >= 1)
    if faces is not None and len(faces) != possible:
        raise InvalidValue(f"{len(faces)} --dice given but {possible} of the actions can be attempted; give one each")
    if willpower_action is not None:
        check_range(willpower_action, "Willpower action", 1, len(built))
        if built[willpower_action - 1].dice - penalties[willpower_action - 1] < 1:
            raise InvalidValue(
                f"action {willpower_action} has no dice left and cannot be attempted; Willpower cannot be spent on it"
            )
    rage_left: int | None = None
    if rage:
        rage_left = spend_rage_for_actions(gw, char, rage, combat=combat).left
    it = iter(faces or [])
    rng, _ = generator(seed)
    slots: list[SheetActionSlot] = []
    for i, (expr, b, pen, d) in enumerate(zip(expressions, built, penalties, difficulties, strict=True), 1):
        left = b.dice - pen
        rolled = None
        if left >= 1:
            hand = next(it) if faces is not None else None
            order = RollOrder(
                f"{expr.strip()} - {pen}" if pen else expr.strip(),
                character=char.name,
                chronicle=char.chronicle,
                purpose=Purpose.multi,
                overrides=overrides.at_difficulty(d),
                faces=tuple(hand) if hand is not None else None,
                seed=seed,
                willpower=i == willpower_action,
                log_kind=LogKind.rage_action if len(slots) >= len(built) - rage else LogKind.roll,
            )
            rolled = make_roll(gw, order, rng=rng)
        bought = rage_left if len(slots) >= len(built) - rage else None
        slots.append(SheetActionSlot(expr.strip(), b.text, b.dice, pen, left, d, rolled, bought))
    return slots
