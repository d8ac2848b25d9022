"""Several actions in one turn, each pool built from the character's sheet (`stkit multi --char`).

Rules: Chapter Five: Rules, "Multiple Actions".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stkit.dice import (
    STANDARD_RULES,
    HouseRules,
    multiple_action_penalties,
)
from stkit.errors import InvalidValue
from stkit.store.characters import get_character
from stkit.store.pools import build_pool
from stkit.store.rolls import roll_from_sheet

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
    rolled: Any | None  # stkit.store.rolls.SheetRoll

    def to_dict(self) -> dict:
        return {
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
    session: Any,
    name: str,
    expressions: list[str],
    difficulties: list[int],
    *,
    chronicle: str | None = None,
    faces: list[list[int]] | None = None,
    rng: Any,
    rules: HouseRules = STANDARD_RULES,
) -> list[SheetActionSlot]:
    """Several actions declared by character ``name`` in one turn, each pool built from the sheet, then the
    multiple-action ladder applied (Chapter Five, "Multiple Actions": with N actions the first loses N dice,
    each later one a die more; an action left with no dice is not attempted). Each attempted action is rolled
    and logged through the character store's roll use case (so it lands in the open scene's turn).

    ``faces``: physical dice, one list per action that can be attempted. Raises InvalidValue, NotFound,
    RuleRefusal; nothing is logged then.
    """

    if len(difficulties) != len(expressions):
        raise InvalidValue(
            f"{len(difficulties)} difficulties for {len(expressions)} actions; give one for all, or one each"
        )
    char = get_character(session, name, chronicle, for_update=True)
    sheet = char.to_sheet()
    built = [build_pool(sheet, e) for e in expressions]
    penalties = multiple_action_penalties(len(built))
    possible = sum(1 for b, pen in zip(built, penalties, strict=True) if b.dice - pen >= 1)
    if faces is not None and len(faces) != possible:
        raise InvalidValue(f"{len(faces)} --dice given but {possible} of the actions can be attempted; give one each")
    it = iter(faces or [])
    slots = []
    for expr, b, pen, d in zip(expressions, built, penalties, difficulties, strict=True):
        left = b.dice - pen
        rolled = None
        if left >= 1:
            rolled = roll_from_sheet(
                session,
                char.name,
                f"{expr.strip()} - {pen}",
                difficulty=d,
                chronicle=char.chronicle,
                faces=next(it) if faces is not None else None,
                rng=rng,
                rules=rules,
            )
        slots.append(SheetActionSlot(expr.strip(), b.text, b.dice, pen, left, d, rolled))
    return slots
