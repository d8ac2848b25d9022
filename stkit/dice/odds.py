"""Exact odds for every roll the dice engine can make (Chapter Five: Rules).

Everything here is exact rational arithmetic: Python integers inside, :class:`fractions.Fraction` at the
surface, floats never. The rule meanings are those of :func:`stkit.dice.roll.score_dice`:

- a die at or above the difficulty is a success (a 10 counts two under the ``double`` specialty, and rolls
  one extra die under ``reroll``, again and again while 10s come up);
- each 1 on a pool die cancels one success (1s on extra dice too with ``extra_ones_cancel``; no 1 cancels
  anything with ``ones_cancel=False``); the final result is ``max(successes - ones, 0)``, plus one for
  Willpower;
- a botch is a roll where no die reached the difficulty and at least one 1 showed (never with Willpower).

How the numbers are found (no enumeration, no simulation):

- A pool is ``n`` independent dice, so the net count ``successes - ones`` has the generating function
  ``g(x) ** n`` where ``g`` is one die's. Its coefficients come from the identity ``g * (g^n)' = n g' g^n``,
  which gives each coefficient from the few before it by one exact integer division: a linear number of
  big-integer steps, so a 1000-die pool takes milliseconds.
- Under ``reroll`` one die's generating function is rational (a chain of 10s is geometric), and the same
  identity applies to it. Each value's probability is still exact; the list of results simply has to stop
  somewhere. It stops at the first result ``k`` past which the remaining chance is below ``TAIL_EPSILON``
  (one in 10**12); that remaining chance is kept, exactly, as ``RollOdds.tail``.
- Extended actions are a Markov chain over the running tally; mean and finishing chances solve its linear
  equations exactly, and the turn-by-turn chances come from stepping the exact state vector forward.

Sources: Chapter Five, "Difficulties", "Botches", "Automatic Successes" (Willpower), "Multiple Actions",
"Extended Actions", "Resisted Actions", "Teamwork" (the Werewolf: The Apocalypse Revised rulebook).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache

from stkit.dice.actions import multiple_action_penalties
from stkit.dice.model import (
    MAX_TARGET,
    STANDARD_RULES,
    HouseRules,
    Specialty,
    validate_difficulty,
    validate_pool,
    validate_target,
)
from stkit.errors import InvalidValue

#: Largest extended-action target stkit solves exactly (the chain has one state per tally value). A target
#: itself may go up to ``MAX_TARGET`` (``stkit.dice.model``, re-exported here); the odds stop at this.
MAX_EXACT_TARGET = 100
#: Largest pool x target an extended-action query takes: the exact chain's numbers grow with both, and so
#: does the time (50 dice with target 100 at difficulty 10, a slow action, take a few seconds).
MAX_EXTENDED_WORK = 5_000
#: Under the ``reroll`` specialty each roll's list of results is longer and its denominator larger, so the
#: exact chain is far slower: it takes targets up to this (1 die at difficulty 10 with target 100 took 12 s)...
MAX_REROLL_TARGET = 40
#: ...and pool x target up to this (5 dice with target 100 at difficulty 10 took 15 s; the cap keeps ~1 s).
MAX_REROLL_EXTENDED_WORK = 500
#: Teamwork adds every participant's roll exactly: the numbers grow with the dice of the whole team (two
#: pools of 1000 at difficulty 10 took 4 s, three 25 s), so it takes this many dice in all...
MAX_TEAMWORK_DICE = 1000
#: ...(this many under the ``reroll`` specialty, whose rolls have longer lists of results)...
MAX_TEAMWORK_REROLL_DICE = 300
#: ...from at most this many participants (1000 participants of 1 die took 5 s)...
MAX_TEAMWORK_PARTICIPANTS = 100
#: ...or this many under ``reroll`` (100 participants of 3 dice took 8 s; 20 of 15 dice take under 1 s).
MAX_TEAMWORK_REROLL_PARTICIPANTS = 20
#: Most turns an extended-action query reports (and steps forward while looking for the median).
MAX_TURNS = 200
#: Under the ``reroll`` specialty the list of results stops once the chance of anything higher is below this.
TAIL_EPSILON = Fraction(1, 10**12)
#: Without ``max_turns``, extended odds are listed until the chance of still being unfinished (but able to
#: finish) is below this.
TURNS_EPSILON = Fraction(1, 10**4)

__all__ = [
    "MAX_EXACT_TARGET",
    "MAX_EXTENDED_WORK",
    "MAX_REROLL_EXTENDED_WORK",
    "MAX_REROLL_TARGET",
    "MAX_TARGET",
    "MAX_TEAMWORK_DICE",
    "MAX_TEAMWORK_PARTICIPANTS",
    "MAX_TEAMWORK_REROLL_DICE",
    "MAX_TEAMWORK_REROLL_PARTICIPANTS",
    "MAX_TURNS",
    "TAIL_EPSILON",
    "TURNS_EPSILON",
    "ActionOdds",
    "ExtendedOdds",
    "MultipleActionOdds",
    "ResistedOdds",
    "RollOdds",
    "TeamworkOdds",
    "check_exact_target",
    "p_extended",
    "p_multiple",
    "p_resisted",
    "p_teamwork",
    "roll_distribution",
    "validate_target",
]


# --------------------------------------------------------------------------------------------------------
# One die as a generating function, and the n-th power by the differential-equation recurrence.


def _poly_mul(a: Sequence[int], b: Sequence[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _poly_sub(a: Sequence[int], b: Sequence[int]) -> list[int]:
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) - (b[i] if i < len(b) else 0) for i in range(n)]


def _poly_deriv(a: Sequence[int]) -> list[int]:
    return [i * a[i] for i in range(1, len(a))] or [0]


@cache
def _die_parts(difficulty: int, rules: HouseRules) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """One die's generating function for the net ``successes - ones``, as ``(A, B, shift)``.

    The function is ``x**-shift * A(x) / B(x)`` with integer polynomials A, B and B(0) == 1. Without
    ``reroll``: B = 1 and A's coefficients (summing to 10) count faces, so the pool's coefficient ``m`` is
    over ``10**n``. With ``reroll`` x is scaled by 10 (see :func:`_net_weights`), making A and B integral.
    """
    d = difficulty
    shift = 1 if rules.ones_cancel else 0
    low, high = d - 2, 10 - d  # faces 2..d-1 score nothing; faces d..9 score one
    # a(x) = x**shift * (face 1 + low faces + high faces), as a polynomial in x. A 1 is x**-1 when 1s
    # cancel (shift 1) and x**0 when they do not (shift 0): either way x**0 after the shift.
    a = [1, 0, 0, 0]
    a[shift] += low
    a[shift + 1] += high
    if rules.specialty is Specialty.NONE:
        a[shift + 1] += 1
        return tuple(_trim(a)), (1,), shift
    if rules.specialty is Specialty.DOUBLE:
        a[shift + 2] += 1
        return tuple(_trim(a)), (1,), shift
    # reroll: the 10 is worth one and brings an extra die E(x) = (o + low + high x) / (10 - x).
    # 10 g(x) x**shift = a(x) + x**(shift+1) E(x). Scaling x -> 10x makes everything integral:
    # F(x) = V(x) / (1 - x) with V(x) = a(10x) (1 - x) + e(10x) / 10, e(x) = x**(shift+1) (o + low + high x).
    extra_one_cancels = rules.extra_ones_cancel and rules.ones_cancel
    e = [0, 0, 0, 0]
    if extra_one_cancels:
        e[shift] += 1  # x**(shift+1) * x**-1
    else:
        e[shift + 1] += 1
    e[shift + 1] += low
    e[shift + 2] += high
    a10 = [c * 10**i for i, c in enumerate(a)]
    # e has no constant term, so every coefficient of e(10x) is a multiple of 10
    e10_over_10 = [c * 10 ** (i - 1) if i else 0 for i, c in enumerate(e)]
    v = _poly_sub(_poly_mul(a10, [1, -1]), [-c for c in e10_over_10])
    return tuple(_trim(v)), (1, -1), shift


def _trim(p: list[int]) -> list[int]:
    while len(p) > 1 and p[-1] == 0:
        p.pop()
    return p


def _power_series(a: Sequence[int], b: Sequence[int], n: int, upto: int | None) -> Iterator[int]:
    """Yield the coefficients c_0, c_1, ... of ``(A/B)**n`` (B(0) == 1), exactly, up to ``upto`` if given.

    From ``A B P' = n (A' B - A B') P`` with ``P = (A/B)**n``:
    ``l0 (m+1) c[m+1] = sum_j r_j c[m-j] - sum_{j>=1} l_j (m+1-j) c[m+1-j]`` with ``L = A B``,
    ``R = n (A' B - A B')``; every c is an integer, so the division is exact.
    """
    lhs = _poly_mul(a, b)
    r = [n * c for c in _poly_sub(_poly_mul(_poly_deriv(a), b), _poly_mul(a, _poly_deriv(b)))]
    l0 = lhs[0]
    lt = [(j, lj) for j, lj in enumerate(lhs) if j >= 1 and lj]
    rt = [(j, rj) for j, rj in enumerate(r) if rj]
    c = [a[0] ** n]
    yield c[0]
    m = 0
    while upto is None or m + 1 <= upto:
        acc = 0
        for j, rj in rt:
            if m - j >= 0:
                acc += rj * c[m - j]
        for j, lj in lt:
            k = m + 1 - j
            if k >= 0:
                acc -= lj * k * c[k]
        nxt = acc // (l0 * (m + 1))
        c.append(nxt)
        yield nxt
        m += 1


#: Below this pool size one big-integer power (Kronecker substitution) beats the recurrence's Python loop.
KRONECKER_MAX_POOL = 40
_WORDS = array("Q")


def _kronecker_power(a: Sequence[int], n: int, bound: int) -> list[int]:
    """Coefficients of ``A(x)**n`` for a polynomial with non-negative coefficients, each at most ``bound``:
    evaluate A at a power of two wide enough that no coefficient spills into the next, raise the single
    integer to the n-th power, and read the coefficients back off its bytes."""
    width = (bound.bit_length() + 8) // 8
    if width <= 8:
        width = 8  # machine words: the bytes unpack in one call
    x = _packed(tuple(a), width)
    count = (len(a) - 1) * n + 1
    raw = (x**n).to_bytes(count * width, "little")
    if width == 8 and _WORDS.itemsize == 8:
        words = array("Q")
        words.frombytes(raw)
        return words.tolist()
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(count)]


@lru_cache(maxsize=1024)
def _packed(a: tuple[int, ...], width: int) -> int:
    """One die's polynomial evaluated at 2**(8*width) (cached: a handful of dice, many pool sizes)."""
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in a), "little")


@lru_cache(maxsize=512)
def _net_weights(pool: int, difficulty: int, rules: HouseRules, min_top: int = 0) -> tuple[int, tuple[int, ...], int]:
    """The net ``successes - ones`` of a pool: ``(lowest_net, weights, denominator)``.

    ``weights[i] / denominator`` is P(net == lowest_net + i). Without ``reroll`` the weights cover every
    possible net and sum to the denominator ``10**pool``. With ``reroll`` they stop at the first net past
    which less than TAIL_EPSILON remains (the remainder is ``denominator - sum(weights)``), and not before
    net ``min_top``.
    """
    a, b, shift = _die_parts(difficulty, rules)
    lowest = -shift * pool
    if rules.specialty is not Specialty.REROLL:
        degree = (len(a) - 1) * pool
        if pool <= KRONECKER_MAX_POOL:
            weights = tuple(_kronecker_power(a, pool, 10**pool))
        else:
            weights = tuple(_power_series(a, b, pool, degree))
        return lowest, weights, 10**pool
    # Scaled by x -> 10x: P(net == lowest + m) = c_m / 10**(m + pool). Keep a running sum over 10**(m+pool)
    # and stop when the tail is below TAIL_EPSILON (and past the highest net without any 10s, and 0).
    coeffs: list[int] = []
    running = 0
    den = 10**pool
    eps_num, eps_den = TAIL_EPSILON.numerator, TAIL_EPSILON.denominator
    floor_m = max(pool * (shift + 1), 1, min_top - lowest)
    for m, cm in enumerate(_power_series(a, b, pool, None)):
        if m:
            den *= 10
            running *= 10
        running += cm
        coeffs.append(cm)
        if m >= floor_m and (den - running) * eps_den < eps_num * den:
            break
    top = len(coeffs) - 1
    weights = tuple(cm * 10 ** (top - m) for m, cm in enumerate(coeffs))
    return lowest, weights, den


# --------------------------------------------------------------------------------------------------------
# A single roll.


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


def _die_mean(difficulty: int, rules: HouseRules) -> Fraction:
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


def _check_rules(rules: HouseRules) -> HouseRules:
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
    _check_rules(rules)
    return _roll_odds(pool, difficulty, rules, bool(willpower), 0)


@lru_cache(maxsize=256)
def _roll_odds(pool: int, difficulty: int, rules: HouseRules, willpower: bool, min_top: int) -> RollOdds:
    """:func:`roll_distribution`, listing reroll results at least up to net ``min_top``."""
    lowest, net, den = _net_weights(pool, difficulty, rules, min_top)
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
        expected = pool * _die_mean(difficulty, rules) + Fraction(neg, den) + (1 if willpower else 0)
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


# --------------------------------------------------------------------------------------------------------
# Extended actions.


def check_exact_target(target: int) -> int:
    """Return ``target`` if it is a valid target (:func:`stkit.dice.model.validate_target`, 1..MAX_TARGET)
    that the exact engine solves (at most MAX_EXACT_TARGET), else raise InvalidValue.

    Source: Chapter Five, "Extended Actions" (a set number of successes collected over several rolls).
    """
    validate_target(target)
    if target > MAX_EXACT_TARGET:
        raise InvalidValue(
            f"target {target} is larger than stkit's limit of {MAX_EXACT_TARGET} successes for exact odds"
        )
    return target


@dataclass(frozen=True)
class ExtendedOdds:
    """The exact odds of an extended action (Chapter Five, "Extended Actions").

    Attributes:
        pool, difficulty, target, start, botch_ends, willpower, rules: the action asked about; ``start`` is the
            tally already collected (0 <= start < target).
        by_turn: P(done within k more rolls) for k = 1 .. len(by_turn), exact.
        p_never: P(the action is never finished): 0 unless ``botch_ends`` (then a botch ends it).
        mean: expected number of further rolls to finish; with ``botch_ends`` the expected number given
            that it does finish (None if it cannot finish).
        median: the smallest k with P(done within k rolls) >= 1/2, looked for up to MAX_TURNS rolls even
            when ``max_turns`` lists fewer; None if the chance of ever finishing is below one half or the
            median lies beyond MAX_TURNS.
    """

    pool: int
    difficulty: int
    target: int
    start: int
    botch_ends: bool
    willpower: bool
    rules: HouseRules
    by_turn: tuple[Fraction, ...]
    p_never: Fraction
    mean: Fraction | None
    median: int | None
    p_botch_per_roll: Fraction = field(default=Fraction(0))

    @property
    def max_turns(self) -> int:
        """How many turns ``by_turn`` covers."""
        return len(self.by_turn)

    def p_done_by(self, k: int) -> Fraction:
        """P(finished within the next ``k`` rolls), 0 <= k <= max_turns. Raises InvalidValue otherwise."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0 or k > len(self.by_turn):
            raise InvalidValue(f"turn {k!r} is outside the computed range 0 to {len(self.by_turn)}")
        return Fraction(0) if k == 0 else self.by_turn[k - 1]


def _step_weights(odds: RollOdds, cap: int) -> tuple[int, int, list[int], list[int]]:
    """Per-roll weights for the chain: ``(D, botch, w, ge)`` with ``w[j]`` the non-botch chance of result j
    (j < cap) and ``ge[m]`` the chance of a result >= m (m <= cap), all over ``D``. Needs the odds listed
    up to ``cap - 1`` at least (always so without reroll; :func:`p_extended` asks for it under reroll)."""
    top = odds.max_result
    if odds.tail_weight and top < cap - 1:
        raise InvalidValue(f"the reroll results are listed only up to {top}; {cap - 1} is needed")
    w = [odds.weights[j] if j <= top else 0 for j in range(cap)]
    w[0] -= odds.botch_weight
    ge = [odds.at_least_weights[m] if m <= top else odds.tail_weight for m in range(cap + 1)]
    return odds.denominator, odds.botch_weight, w, ge


def _solve_chain(q: int, w: list[int], wipe: int, rhs: list[int], target: int) -> tuple[list[int], list[int]]:
    """Solve ``q x_t = rhs_t + sum_{1<=j<target-t} w_j x_{t+j} + wipe x_0`` for t = target-1 .. 0.

    Returns integer lists (A, B) with ``x_t = (A_t + B_t x_0) / q**(target-t)``.
    """
    a = [0] * target
    b = [0] * target
    qp = [1]
    for _ in range(target):
        qp.append(qp[-1] * q)
    for t in range(target - 1, -1, -1):
        span = target - t
        at = qp[span - 1] * rhs[t]
        bt = qp[span - 1] * wipe
        for j in range(1, min(span, len(w))):
            wj = w[j]
            if wj:
                f = wj * qp[j - 1]
                at += f * a[t + j]
                bt += f * b[t + j]
        a[t], b[t] = at, bt
    return a, b


def p_extended(
    pool: int,
    difficulty: int,
    target: int,
    *,
    start: int = 0,
    botch_ends: bool = False,
    max_turns: int | None = None,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
) -> ExtendedOdds:
    """The exact odds of finishing an extended action: rolls of ``pool`` dice against ``difficulty`` add
    their final results to a tally until it reaches ``target`` (1..MAX_EXACT_TARGET), starting from ``start``
    successes already collected (0 <= start < target). A botch wipes the tally back to 0, or ends the
    attempt with ``botch_ends`` (Chapter Five, "Extended Actions"). ``willpower`` spends Willpower on every
    roll (so no roll botches).

    ``by_turn`` lists P(done within k rolls) for k = 1 .. max_turns (1..MAX_TURNS); without ``max_turns``
    it runs until the chance of being unfinished but still able to finish is below TURNS_EPSILON, capped at
    MAX_TURNS. The mean and P(never) are exact solutions of the chain's equations, not sums of the list.

    Raises InvalidValue for a pool, difficulty, target, start or max_turns out of range, or when
    ``pool * target`` exceeds MAX_EXTENDED_WORK (the exact chain would take too long); under the ``reroll``
    specialty also when the target exceeds MAX_REROLL_TARGET or ``pool * target`` MAX_REROLL_EXTENDED_WORK.
    """
    validate_pool(pool)
    validate_difficulty(difficulty)
    check_exact_target(target)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < target:
        raise InvalidValue(f"start tally {start!r} must be a whole number from 0 to {target - 1} (below the target)")
    if max_turns is not None and (
        isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS
    ):
        raise InvalidValue(f"max turns {max_turns!r} is outside the allowed range 1 to {MAX_TURNS}")
    _check_rules(rules)
    if pool * target > MAX_EXTENDED_WORK:
        raise InvalidValue(
            f"dice pool {pool} with target {target} is too large for exact extended odds: pool x target must be "
            f"at most {MAX_EXTENDED_WORK} (here {pool * target})"
        )
    if rules.specialty is Specialty.REROLL and (target > MAX_REROLL_TARGET or pool * target > MAX_REROLL_EXTENDED_WORK):
        raise InvalidValue(
            f"dice pool {pool} with target {target} is too large for exact extended odds with the reroll specialty: "
            f"the target must be at most {MAX_REROLL_TARGET} and pool x target at most {MAX_REROLL_EXTENDED_WORK} "
            f"(here {pool * target})"
        )
    odds = _roll_odds(pool, difficulty, rules, bool(willpower), target)
    return _extended(odds, target, start, bool(botch_ends), max_turns)


@lru_cache(maxsize=128)
def _extended(odds: RollOdds, target: int, start: int, botch_ends: bool, max_turns: int | None) -> ExtendedOdds:
    d, botch, w, ge = _step_weights(odds, target)
    q = d - w[0]  # a roll that adds nothing (and does not botch) leaves the state as it was
    wipe = 0 if botch_ends else botch
    if botch_ends:
        # f_t = P(finish from t): q f_t = ge[target-t] + sum w_j f_{t+j}
        fa, _ = _solve_chain(q, w, 0, [ge[target - t] for t in range(target)], target)
        qt = q**target
        # f_t = fa[t] / q**(target-t) = fa[t] q**t / q**target
        f_num = [fa[t] * q**t for t in range(target)]  # over qt
        p_done = Fraction(f_num[start], qt)
        # g_t = E[N 1{done}] from t: q g_t = d f_t + sum w_j g_{t+j}; rhs over qt
        ga, _ = _solve_chain(q, w, 0, [d * f_num[t] for t in range(target)], target)
        g = Fraction(ga[start], q ** (target - start) * qt)
        mean = g / p_done if p_done else None
        p_never = 1 - p_done
    else:
        a, b = _solve_chain(q, w, wipe, [d] * target, target)
        qt = q**target
        x0 = Fraction(a[0], qt - b[0])
        mean = (a[start] + b[start] * x0) / q ** (target - start)
        p_never = Fraction(0)
        p_done = Fraction(1)

    # Step the exact state vector forward: v[t] over d**k is P(open at tally t after k rolls).
    v = [0] * target
    v[start] = 1
    done = 0  # over scale == d**k
    scale = 1
    by_turn: list[Fraction] = []
    median = None
    can_half = 2 * p_done >= 1
    steps = [(j, wj) for j, wj in enumerate(w) if wj]
    k = 0
    while k < MAX_TURNS:
        k += 1
        nv = [0] * target
        new_done = 0
        open_mass = 0
        for t, vt in enumerate(v):
            if not vt:
                continue
            open_mass += vt
            span = target - t
            new_done += vt * ge[span]
            for j, wj in steps:
                if j >= span:
                    break
                nv[t + j] += vt * wj
        if wipe:
            nv[0] += wipe * open_mass
        v = nv
        scale *= d
        done = done * d + new_done
        if median is None and 2 * done >= scale:
            median = k
        if max_turns is None or k <= max_turns:
            by_turn.append(Fraction(done, scale))
        if max_turns is not None:
            # Keep stepping past max_turns (without listing) until the median is known.
            if k >= max_turns and (median is not None or not can_half):
                break
        elif p_done - by_turn[-1] < TURNS_EPSILON and (median is not None or not can_half):
            break
    return ExtendedOdds(
        pool=odds.pool,
        difficulty=odds.difficulty,
        target=target,
        start=start,
        botch_ends=botch_ends,
        willpower=odds.willpower,
        rules=odds.rules,
        by_turn=tuple(by_turn),
        p_never=p_never,
        mean=mean,
        median=median,
        p_botch_per_roll=odds.p_botch,
    )


# --------------------------------------------------------------------------------------------------------
# Sums and differences of independent rolls (resisted actions, teamwork).


def _convolve(a: Sequence[int], b: Sequence[int], bound: int) -> list[int]:
    """Exact convolution of two non-negative integer lists whose every output is <= ``bound``.

    Kronecker substitution: pack each list into one big integer with a slot wide enough for ``bound``,
    multiply once, unpack.
    """
    if not a or not b:
        return []
    width = (bound.bit_length() + 8) // 8  # bytes per slot, with room to spare
    pa = int.from_bytes(b"".join(x.to_bytes(width, "little") for x in a), "little")
    pb = int.from_bytes(b"".join(x.to_bytes(width, "little") for x in b), "little")
    n = len(a) + len(b) - 1
    raw = (pa * pb).to_bytes(n * width, "little")
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(n)]


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
    conv = _convolve(a.weights, b.weights[::-1], den)
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


@dataclass(frozen=True)
class TeamworkOdds:
    """The exact odds of teamwork (Chapter Five, "Teamwork"): separate rolls whose results are added.

    Attributes:
        rolls: each participant's single-roll odds.
        denominator: common denominator of the weights.
        total: ``total[k]`` is the weight of a summed result k when botches spoil nothing.
        total_spoils: the weight of a summed result k when one botch spoils all (a spoiled roll counts 0,
            so ``total_spoils[0]`` includes ``spoiled_weight``).
        spoiled_weight: P(at least one participant botches).
        all_botch_weight: P(every participant botches): the team's botch when botches do not spoil.
        unresolved_weight: chance mass beyond the listed ``reroll`` results when botches spoil nothing (0
            without ``reroll``).
        unresolved_spoils_weight: the same when one botch spoils all (spoiled rolls are all resolved).
    """

    rolls: tuple[RollOdds, ...]
    denominator: int
    total: tuple[int, ...]
    total_spoils: tuple[int, ...]
    spoiled_weight: int
    all_botch_weight: int
    unresolved_weight: int
    unresolved_spoils_weight: int

    def p_unresolved(self, botch_spoils: bool = True) -> Fraction:
        """Chance beyond the listed ``reroll`` results (0 without ``reroll``, below 10**-11 with it)."""
        w = self.unresolved_spoils_weight if botch_spoils else self.unresolved_weight
        return Fraction(w, self.denominator)

    @property
    def p_spoiled(self) -> Fraction:
        return Fraction(self.spoiled_weight, self.denominator)

    @property
    def p_all_botch(self) -> Fraction:
        return Fraction(self.all_botch_weight, self.denominator)

    def distribution(self, botch_spoils: bool = True) -> tuple[Fraction, ...]:
        """P(team total == k), k = 0 .., with or without "one botch spoils all"."""
        seq = self.total_spoils if botch_spoils else self.total
        return tuple(Fraction(w, self.denominator) for w in seq)

    def p_success(self, botch_spoils: bool = True) -> Fraction:
        seq = self.total_spoils if botch_spoils else self.total
        return Fraction(sum(seq[1:]), self.denominator)

    def p_botch(self, botch_spoils: bool = True) -> Fraction:
        return self.p_spoiled if botch_spoils else self.p_all_botch

    def expected(self, botch_spoils: bool = True) -> Fraction:
        """The exact expected team total (under ``reroll`` the unlisted tail included).

        By linearity: the sum of each roll's expected result; when a botch spoils all, each roll's expected
        result counts only when nobody else botches (a botching roll's own result is 0 anyway).
        """
        if not botch_spoils:
            return sum((r.expected for r in self.rolls), Fraction(0))
        total = Fraction(0)
        for i, r in enumerate(self.rolls):
            term = r.expected
            for j, other in enumerate(self.rolls):
                if j != i:
                    term *= 1 - other.p_botch
            total += term
        return total


def p_teamwork(pools: Sequence[int], difficulty: int = 6, *, rules: HouseRules = STANDARD_RULES) -> TeamworkOdds:
    """Exact odds of teamwork: each pool in ``pools`` (1..MAX_POOL each, at least one) rolls separately
    against ``difficulty`` and the final results are added, as :func:`stkit.dice.actions.combine_teamwork`
    does, with and without "one botch spoils all". Source: Chapter Five, "Teamwork".

    Raises InvalidValue for no participants, more than MAX_TEAMWORK_PARTICIPANTS (under ``reroll``
    MAX_TEAMWORK_REROLL_PARTICIPANTS), a pool or difficulty out of range, or more than MAX_TEAMWORK_DICE
    dice in all (MAX_TEAMWORK_REROLL_DICE under the ``reroll`` specialty): the exact sums would take too long.
    """
    pools = list(pools)
    if not pools:
        raise InvalidValue("teamwork needs at least one participant's dice pool")
    _check_rules(rules)
    reroll = rules.specialty is Specialty.REROLL
    most = MAX_TEAMWORK_REROLL_PARTICIPANTS if reroll else MAX_TEAMWORK_PARTICIPANTS
    if len(pools) > most:
        raise InvalidValue(
            f"{len(pools)} participants is too many for exact teamwork odds"
            f"{' with the reroll specialty' if reroll else ''}; allowed: 1 to {most}"
        )
    for p in pools:
        validate_pool(p)
    limit = MAX_TEAMWORK_REROLL_DICE if reroll else MAX_TEAMWORK_DICE
    if sum(pools) > limit:
        rerolls = " with the reroll specialty" if reroll else ""
        raise InvalidValue(
            f"teamwork of {sum(pools)} dice in all is too large for exact odds{rerolls}: the pools may add up to "
            f"at most {limit} dice"
        )
    rolls = tuple(roll_distribution(p, difficulty, rules=rules) for p in pools)
    total: list[int] = [1]
    clean: list[int] = [1]
    den = 1
    clean_mass = 1
    all_botch = 1
    listed = 1
    for r in rolls:
        den *= r.denominator
        total = _convolve(total, r.weights, den)
        nb = [r.weights[0] - r.botch_weight, *r.weights[1:]]
        clean = _convolve(clean, nb, den)
        clean_mass *= r.denominator - r.botch_weight
        all_botch *= r.botch_weight
        listed *= sum(r.weights)
    spoiled = den - clean_mass
    # listed outcomes with no botch plus every spoiled outcome (a spoiled roll needs no listed result)
    spoils = list(clean)
    spoils[0] += spoiled
    unresolved = den - listed
    unresolved_spoils = clean_mass - sum(clean)
    return TeamworkOdds(
        rolls=rolls,
        denominator=den,
        total=tuple(total),
        total_spoils=tuple(spoils),
        spoiled_weight=spoiled,
        all_botch_weight=all_botch,
        unresolved_weight=unresolved,
        unresolved_spoils_weight=unresolved_spoils,
    )


# --------------------------------------------------------------------------------------------------------
# Multiple actions.


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

    Raises InvalidValue for no actions, or a declared pool or difficulty out of range.
    """
    pools = list(pools)
    if not pools:
        raise InvalidValue("multiple actions need at least one declared dice pool")
    for p in pools:
        validate_pool(p)
    validate_difficulty(difficulty)
    actions = []
    for declared, penalty in zip(pools, multiple_action_penalties(len(pools)), strict=True):
        left = declared - penalty
        odds = roll_distribution(left, difficulty, rules=rules) if left >= 1 else None
        actions.append(ActionOdds(declared, penalty, left, odds))
    return MultipleActionOdds(tuple(actions))
