"""The exact odds of several actions declared in one turn, each under the multiple-action penalty ladder
(:class:`MultipleActionOdds`, :func:`p_multiple`).

Source: Chapter Five, "Multiple Actions", of the Werewolf: The Apocalypse Revised rulebook.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stkit.dice.actions import multiple_action_penalties
from stkit.dice.model import STANDARD_RULES, HouseRules, validate_difficulty, validate_pool
from stkit.dice.odds.single import RollOdds, roll_distribution


@dataclass(frozen=True)
class ActionOdds:
    """One of several actions declared in a turn: the pool before and after the penalty ladder, and the
    odds of its roll (None when the penalty leaves no dice: the action cannot be attempted)."""

    declared_pool: int
    penalty: int
    pool: int
    odds: RollOdds | None

    @property
    def possible(self) -> bool:
        return self.odds is not None

    @property
    def p_success(self) -> Fraction:
        return self.odds.p_success if self.odds else Fraction(0)


@dataclass(frozen=True)
class MultipleActionOdds:
    """The odds of every action declared in one turn (Chapter Five, "Multiple Actions")."""

    actions: tuple[ActionOdds, ...]

    @property
    def p_all_succeed(self) -> Fraction:
        """P(every declared action succeeds); the rolls are independent, so a product."""
        out = Fraction(1)
        for a in self.actions:
            out *= a.p_success
        return out


def p_multiple(pools: Sequence[int], difficulty: int = 6, *, rules: HouseRules = STANDARD_RULES) -> MultipleActionOdds:
    """Exact odds of each of several actions declared in one turn, each rolled at ``difficulty`` with the
    penalty ladder of :func:`stkit.dice.actions.multiple_action_pools` (N, N+1, ... dice lost). An action
    whose pool falls to zero or below cannot be attempted (odds None). Source: Chapter Five, "Multiple
    Actions".

    Raises InvalidValue for fewer than 2 actions, or a declared pool or difficulty out of range.
    """
    pools = list(pools)
    multiple_action_penalties(len(pools))
    for p in pools:
        validate_pool(p)
    validate_difficulty(difficulty)
    actions = []
    for declared, penalty in zip(pools, multiple_action_penalties(len(pools)), strict=True):
        left = declared - penalty
        odds = roll_distribution(left, difficulty, rules=rules) if left >= 1 else None
        actions.append(ActionOdds(declared, penalty, left, odds))
    return MultipleActionOdds(tuple(actions))
