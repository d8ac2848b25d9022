"""The exact odds of one roll: ``pool`` d10 against a difficulty, under the house rules, with or without
Willpower (:class:`RollOdds`, :func:`roll_distribution`).

Source: Chapter Five, "Difficulties", "Botches", "Automatic Successes" (Willpower), of the Werewolf: The
Apocalypse Revised rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from stkit.dice.model import STANDARD_RULES, HouseRules, Specialty, validate_difficulty, validate_pool
from stkit.dice.odds.generating import net_weights
from stkit.errors import InvalidValue


@dataclass(frozen=True)
class RollOdds:
    """The exact odds of one roll of ``pool`` dice against ``difficulty``.

    Probabilities are integer ``weights`` over one ``denominator``: ``weights[k] / denominator`` is
    P(final result == k) for k = 0 .. ``max_result``. ``tail_weight`` is the chance (same denominator) of a
    result above ``max_result``: 0 unless the ``reroll`` specialty is on. Fractions are built on demand.

    Attributes:
        pool, difficulty, rules, willpower: the roll asked about.
        denominator: a power of ten.
        weights: see above (tuple of ints, ``weights[0]`` includes botches).
        botch_weight: the botch chance's numerator.
        tail_weight: see above.
    """

    pool: int
    difficulty: int
    rules: HouseRules
    willpower: bool
    denominator: int
    weights: tuple[int, ...]
    botch_weight: int
    tail_weight: int
    _expected: Fraction | None = None  # given under reroll (the list is truncated); else from the weights

    @cached_property
    def expected(self) -> Fraction:
        """The exact expected final result (under reroll including the unlisted tail)."""
        if self._expected is not None:
            return self._expected
        return Fraction(sum(k * w for k, w in enumerate(self.weights)), self.denominator)

    @property
    def max_result(self) -> int:
        """The highest final result listed (every possible one, except the infinite tail of ``reroll``)."""
        return len(self.weights) - 1

    @property
    def p_botch(self) -> Fraction:
        """P(botch): no die at or above the difficulty and at least one 1 (0 with Willpower)."""
        return Fraction(self.botch_weight, self.denominator)

    @property
    def p_success(self) -> Fraction:
        """P(final result >= 1)."""
        return Fraction(self.denominator - self.weights[0], self.denominator)

    @property
    def p_failure(self) -> Fraction:
        """P(final result == 0 without a botch)."""
        return Fraction(self.weights[0] - self.botch_weight, self.denominator)

    @property
    def tail(self) -> Fraction:
        """P(final result > max_result): exactly 0 without ``reroll``, below TAIL_EPSILON with it."""
        return Fraction(self.tail_weight, self.denominator)

    @cached_property
    def distribution(self) -> tuple[Fraction, ...]:
        """P(final result == k) for k = 0 .. max_result, as exact Fractions."""
        d = self.denominator
        return tuple(Fraction(w, d) for w in self.weights)

    @cached_property
    def at_least_weights(self) -> tuple[int, ...]:
        """Numerators of P(final result >= k) for k = 0 .. max_result (over ``denominator``)."""
        out = []
        acc = self.tail_weight
        for w in reversed(self.weights):
            acc += w
            out.append(acc)
        return tuple(reversed(out))

    @cached_property
    def at_least(self) -> tuple[Fraction, ...]:
        """P(final result >= k) for k = 0 .. max_result, as exact Fractions (``at_least[0] == 1``)."""
        d = self.denominator
        return tuple(Fraction(w, d) for w in self.at_least_weights)

    def p_at_least(self, k: int) -> Fraction:
        """P(final result >= k) for any whole k. Raises InvalidValue beyond the listed results under
        ``reroll`` (there only the tail's total is known)."""
        if k <= 0:
            return Fraction(1)
        if k <= self.max_result:
            return Fraction(self.at_least_weights[k], self.denominator)
        if k == self.max_result + 1 or self.tail_weight == 0:
            return self.tail
        raise InvalidValue(f"P(at least {k}) is beyond the listed results (0 to {self.max_result + 1})")

    def p_exactly(self, k: int) -> Fraction:
        """P(final result == k); 0 outside 0 .. max_result when there is no tail."""
        if 0 <= k <= self.max_result:
            return Fraction(self.weights[k], self.denominator)
        if k < 0 or self.tail_weight == 0:
            return Fraction(0)
        raise InvalidValue(f"P(exactly {k}) is beyond the listed results (0 to {self.max_result})")


def die_mean(difficulty: int, rules: HouseRules) -> Fraction:
    """Expected net ``successes - ones`` of one die (reroll chains included), exactly."""
    d = difficulty
    one = Fraction(-1 if rules.ones_cancel else 0, 10)
    high = Fraction(10 - d, 10)
    if rules.specialty is Specialty.NONE:
        return one + high + Fraction(1, 10)
    if rules.specialty is Specialty.DOUBLE:
        return one + high + Fraction(2, 10)
    # an extra die's chain: e = (-c + (10 - d) + 1 + e) / 10  ->  e = (11 - d - c) / 9
    c = 1 if (rules.extra_ones_cancel and rules.ones_cancel) else 0
    chain = Fraction(11 - d - c, 9)
    return one + high + (1 + chain) / 10


def check_rules(rules: HouseRules) -> HouseRules:
    """``rules`` itself when it is a :class:`HouseRules` value; InvalidValue otherwise."""
    if not isinstance(rules, HouseRules):
        raise InvalidValue(f"house rules {rules!r} are not a HouseRules value")
    return rules


def roll_distribution(
    pool: int, difficulty: int = 6, *, rules: HouseRules = STANDARD_RULES, willpower: bool = False
) -> RollOdds:
    """The exact odds of one roll: ``pool`` d10 (1..MAX_POOL) against ``difficulty`` (2..10).

    Same meanings as :func:`stkit.dice.roll.score_dice` (Chapter Five, "Difficulties", "Botches",
    "Automatic Successes" for Willpower). P(botch) is ``((d-1)/10)**n - ((d-2)/10)**n`` under every house
    rule (a 10 always succeeds), 0 with Willpower. Under ``reroll`` the results are listed up to the first
    one past which less than TAIL_EPSILON remains; that remainder is ``RollOdds.tail``.

    Raises InvalidValue for a pool or difficulty out of range.
    """
    validate_pool(pool)
    validate_difficulty(difficulty)
    check_rules(rules)
    return roll_odds(pool, difficulty, rules, bool(willpower), 0)


@lru_cache(maxsize=256)
def roll_odds(pool: int, difficulty: int, rules: HouseRules, willpower: bool, min_top: int) -> RollOdds:
    """:func:`roll_distribution`, listing reroll results at least up to net ``min_top``."""
    lowest, net, den = net_weights(pool, difficulty, rules, min_top)
    # final result = max(net, 0) (+1 for Willpower)
    zero_at = -lowest  # index of net == 0
    res = [sum(net[: zero_at + 1]), *net[zero_at + 1 :]]
    reroll = rules.specialty is Specialty.REROLL
    tail = den - sum(net) if reroll else 0
    expected = None
    if reroll:
        # E[max(net, 0)] = E[net] + sum over net < 0 of -net * P(net); E[net] is exact by linearity, so the
        # unlisted tail is counted too
        neg = sum((zero_at - i) * net[i] for i in range(zero_at))
        expected = pool * die_mean(difficulty, rules) + Fraction(neg, den) + (1 if willpower else 0)
    botch = 0
    if not willpower:
        botch = ((difficulty - 1) ** pool - (difficulty - 2) ** pool) * (den // 10**pool)
    else:
        res.insert(0, 0)
    return RollOdds(
        pool=pool,
        difficulty=difficulty,
        rules=rules,
        willpower=willpower,
        denominator=den,
        weights=tuple(res),
        botch_weight=botch,
        tail_weight=tail,
        _expected=expected,
    )
