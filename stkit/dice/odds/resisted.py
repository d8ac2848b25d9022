"""The exact odds of a resisted action: two rolls compared, the side with more keeping the margin
(:class:`ResistedOdds`, :func:`p_resisted`).

Source: Chapter Five, "Resisted Actions", of the Werewolf: The Apocalypse Revised rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from stkit.dice.model import STANDARD_RULES, HouseRules
from stkit.dice.odds.generating import convolve
from stkit.dice.odds.single import RollOdds, roll_distribution


@dataclass(frozen=True)
class ResistedOdds:
    """The exact odds of a resisted action (Chapter Five, "Resisted Actions"): each side's final result is
    compared; the side with more keeps only the margin; equal results (both 0 included) mean nobody wins.

    Attributes:
        a, b: the two sides' single-roll odds.
        denominator: common denominator of every weight below.
        margin_a: ``margin_a[m]`` over denominator is P(A wins by exactly m), m = 1 .. (index 0 unused, 0).
        margin_b: the same for B.
        tie_weight: P(equal results).
        unresolved_weight: chance mass beyond the listed ``reroll`` results (0 without ``reroll``).
    """

    a: RollOdds
    b: RollOdds
    denominator: int
    margin_a: tuple[int, ...]
    margin_b: tuple[int, ...]
    tie_weight: int
    unresolved_weight: int

    @property
    def p_a_wins(self) -> Fraction:
        return Fraction(sum(self.margin_a), self.denominator)

    @property
    def p_b_wins(self) -> Fraction:
        return Fraction(sum(self.margin_b), self.denominator)

    @property
    def p_tie(self) -> Fraction:
        """P(both sides end with the same result, nobody winning; both at zero included)."""
        return Fraction(self.tie_weight, self.denominator)

    @property
    def p_unresolved(self) -> Fraction:
        return Fraction(self.unresolved_weight, self.denominator)

    def p_margin(self, side: str, m: int) -> Fraction:
        """P(``side`` ("a" or "b") wins by exactly ``m`` >= 1)."""
        seq = self.margin_a if side == "a" else self.margin_b
        return Fraction(seq[m], self.denominator) if 0 < m < len(seq) else Fraction(0)


def p_resisted(
    pool_a: int,
    pool_b: int,
    difficulty: int = 6,
    *,
    difficulty_b: int | None = None,
    rules: HouseRules = STANDARD_RULES,
    willpower_a: bool = False,
    willpower_b: bool = False,
) -> ResistedOdds:
    """Exact odds of a resisted action between ``pool_a`` dice at ``difficulty`` and ``pool_b`` dice at
    ``difficulty_b`` (same as ``difficulty`` when None), as :func:`stkit.dice.actions.resolve_resisted`
    decides it: a botching side counts zero. Source: Chapter Five, "Resisted Actions".

    Raises InvalidValue for a pool or difficulty out of range.
    """
    a = roll_distribution(pool_a, difficulty, rules=rules, willpower=willpower_a)
    b = roll_distribution(
        pool_b, difficulty if difficulty_b is None else difficulty_b, rules=rules, willpower=willpower_b
    )
    den = a.denominator * b.denominator
    # conv[i + (len_b - 1) - j] = sum a_i b_j; index len_b - 1 + m is margin m (A minus B)
    conv = convolve(a.weights, b.weights[::-1], den)
    zero = len(b.weights) - 1
    margin_a = (0, *conv[zero + 1 :])
    margin_b = (0, *conv[:zero][::-1])
    return ResistedOdds(
        a=a,
        b=b,
        denominator=den,
        margin_a=margin_a,
        margin_b=margin_b,
        tie_weight=conv[zero],
        unresolved_weight=den - sum(a.weights) * sum(b.weights),
    )
