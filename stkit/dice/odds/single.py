"""The exact odds of one roll: ``pool`` d10 against a difficulty, under the house rules, with or without
Willpower (:class:`RollOdds`, :func:`roll_distribution`).

Source: Chapter Five, "Difficulties", "Botches", "Automatic Successes" (Willpower), of the Werewolf: The
Apocalypse Revised rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb

from stkit.dice.model import STANDARD_RULES, HouseRules, validate_difficulty, validate_pool
from stkit.dice.odds.generating import face_nets, net_weights
from stkit.dice.roll import check_automatic
from stkit.dice.score import FACES, may_botch, score_face, willpower_dice, willpower_success
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
    """Expected net ``successes - ones`` of one die (chains of extra dice included), exactly, from the
    faces' scores (:func:`stkit.dice.odds.generating.face_nets`)."""
    plain, ten = face_nets(difficulty, rules)
    if ten is None:
        return Fraction(sum(plain), 10)
    extra_plain, extra_ten = face_nets(difficulty, rules, extra=True)
    assert extra_ten is not None
    # an extra die's chain: e = (sum of its stopping nets + u + e) / 10  ->  e = (sum + u) / 9
    chain = Fraction(sum(extra_plain) + extra_ten, 9)
    return (sum(plain) + ten + chain) / 10


def check_rules(rules: HouseRules) -> HouseRules:
    """``rules`` itself when it is a :class:`HouseRules` value; InvalidValue otherwise."""
    if not isinstance(rules, HouseRules):
        raise InvalidValue(f"house rules {rules!r} are not a HouseRules value")
    return rules


def roll_distribution(
    pool: int,
    difficulty: int = 6,
    *,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    automatic: int = 0,
) -> RollOdds:
    """The exact odds of one roll: ``pool`` d10 (1..MAX_POOL) against ``difficulty`` (2..10), plus
    ``automatic`` successes given without dice (0..MAX_POOL), which the 1s may cancel.

    Same meanings as :func:`stkit.dice.roll.score_dice`, every face's worth read from
    :func:`stkit.dice.score.score_face` (Chapter Five, "Difficulties", "Botches", "Automatic Successes"
    for Willpower). Where 10s roll again the results are listed up to the first one past which less than
    TAIL_EPSILON remains; that remainder is ``RollOdds.tail``.

    Raises InvalidValue for a pool or difficulty out of range, and for ``tens_cancel_ones`` with more than
    MAX_TENS_CANCEL_POOL dice or with 10s that roll again (no exact odds computed there).
    """
    validate_pool(pool)
    validate_difficulty(difficulty)
    check_rules(rules)
    check_automatic(automatic)
    return roll_odds(pool, difficulty, rules, bool(willpower), 0, automatic)


#: The largest pool whose exact odds are counted under ``tens_cancel_ones`` (a count over two tallies).
MAX_TENS_CANCEL_POOL = 60


def _joint_net_weights(pool: int, difficulty: int, rules: HouseRules) -> tuple[int, tuple[int, ...], int]:
    """``(lowest_net, weights, 10**pool)`` when 10s take 1s away: the net is not a sum of one number per
    die, so the pool's (successes, 1s minus 10s) pairs are counted die by die, from the faces' scores."""
    if rules.explodes:
        raise InvalidValue("no exact odds for tens-cancel-ones together with 10s that roll again")
    if pool > MAX_TENS_CANCEL_POOL:
        raise InvalidValue(
            f"exact odds under tens-cancel-ones are counted up to {MAX_TENS_CANCEL_POOL} dice, not {pool}"
        )
    kinds: dict[tuple[int, int], int] = {}
    for face in FACES:
        sc = score_face(face, difficulty, rules)
        key = (sc.successes, sc.cancels - sc.cancels_one)
        kinds[key] = kinds.get(key, 0) + 1
    states = {(0, 0): 1}
    for _ in range(pool):
        nxt: dict[tuple[int, int], int] = {}
        for (s0, d0), w in states.items():
            for (s1, d1), k in kinds.items():
                key = (s0 + s1, d0 + d1)
                nxt[key] = nxt.get(key, 0) + w * k
        states = nxt
    nets: dict[int, int] = {}
    for (succ, diff), w in states.items():
        net = succ - max(diff, 0)
        nets[net] = nets.get(net, 0) + w
    lowest = min(nets)
    return lowest, tuple(nets.get(n, 0) for n in range(lowest, max(nets) + 1)), 10**pool


def _botch_weight(pool: int, difficulty: int, rules: HouseRules, automatic: int) -> int:
    """Numerator over ``10**pool`` of P(botch): no face reaches the difficulty, a 1 shows, and the 1s that
    cancel take away every automatic success. Faces counted from their scores."""
    scores = [score_face(f, difficulty, rules) for f in FACES]
    cancelling = sum(1 for s in scores if not s.hit and s.one and s.cancels)
    other_ones = sum(1 for s in scores if not s.hit and s.one and not s.cancels)
    blank = sum(1 for s in scores if not s.hit and not s.one)
    if automatic == 0:
        return int((cancelling + other_ones + blank) ** pool - blank**pool)
    rest = other_ones + blank
    return sum(comb(pool, k) * cancelling**k * rest ** (pool - k) for k in range(automatic, pool + 1))


@lru_cache(maxsize=256)
def roll_odds(
    pool: int, difficulty: int, rules: HouseRules, willpower: bool, min_top: int, automatic: int = 0
) -> RollOdds:
    """:func:`roll_distribution`, listing results where 10s roll again at least up to net ``min_top``."""
    rolled = pool + willpower_dice(rules, willpower)
    joint = rules.tens_cancel_ones and rules.ones_cancel
    if joint:
        lowest, net, den = _joint_net_weights(rolled, difficulty, rules)
    else:
        lowest, net, den = net_weights(rolled, difficulty, rules, max(min_top - automatic, 0))
    lowest += automatic
    # final result = max(net, 0) (+1 for Willpower's success)
    zero_at = -lowest  # index of net == 0
    res = [sum(net[: zero_at + 1]), *net[zero_at + 1 :]] if zero_at >= 0 else [0] * lowest + list(net)
    explodes = rules.explodes
    tail = den - sum(net) if explodes and not joint else 0
    bonus = willpower_success(rules, willpower)
    expected = None
    if explodes and not joint:
        # E[max(net, 0)] = E[net] + sum over net < 0 of -net * P(net); E[net] is exact by linearity, so the
        # unlisted tail is counted too
        neg = sum((zero_at - i) * net[i] for i in range(max(zero_at, 0)))
        expected = rolled * die_mean(difficulty, rules) + automatic + Fraction(neg, den) + bonus
    botch = 0
    if may_botch(rules, willpower):
        botch = _botch_weight(rolled, difficulty, rules, automatic) * (den // 10**rolled)
    res = [0] * bonus + res
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
