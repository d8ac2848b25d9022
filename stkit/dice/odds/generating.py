"""One die of a roll as a generating function, and exact powers and products of such functions.

A pool of ``n`` independent dice has the net ``successes - ones`` generating function ``g(x) ** n``, with
``g`` one die's. Without the ``reroll`` specialty ``g`` is a polynomial whose coefficients count faces; with
it ``g`` is rational (a chain of 10s is geometric). Coefficients come either from one big-integer power
(Kronecker substitution, small pools) or from the identity ``g * (g^n)' = n g' g^n``, which gives each
coefficient from the few before it by one exact integer division. Sums of independent rolls (resisted
actions, teamwork, damage against soak) are products of such lists: :func:`convolve`.

Source: Chapter Five, "Difficulties", "Botches" (what one die scores), of the Werewolf: The Apocalypse
Revised rulebook.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache, lru_cache

from stkit.dice.model import HouseRules
from stkit.dice.score import FACES, score_face

#: Under the ``reroll`` specialty the list of results stops once the chance of anything higher is below this.
TAIL_EPSILON = Fraction(1, 10**12)


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


def face_nets(difficulty: int, rules: HouseRules, *, extra: bool = False) -> tuple[list[int], int | None]:
    """(The net of each face that brings no more die, the net of a 10 that does, or None), each net read
    from :func:`stkit.dice.score.score_face`: the only place a face's worth is decided."""
    plain: list[int] = []
    again = None
    for face in FACES:
        score = score_face(face, difficulty, rules, extra=extra)
        if score.again:
            again = score.net
        else:
            plain.append(score.net)
    return plain, again


def _counts(nets: list[int], shift: int) -> list[int]:
    """A polynomial counting ``nets``: coefficient ``k`` is how many equal ``k - shift``."""
    out = [0] * (max(nets) + shift + 1)
    for n in nets:
        out[n + shift] += 1
    return out


@cache
def _die_parts(difficulty: int, rules: HouseRules) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """One die's generating function for its net ``successes - ones``, as ``(A, B, shift)``, built from
    the ten faces' scores.

    The function is ``x**-shift * A(x) / B(x)`` with integer polynomials A, B and B(0) == 1. Without extra
    dice: B = 1 and A's coefficients (summing to 10) count faces, so the pool's coefficient ``m`` is over
    ``10**n``. With 10s that roll again, x is scaled by 10 (see :func:`net_weights`) to make A and B
    integral: a pool die is ``(P(x) + x**t E(x)) / 10`` with P the faces that stop, t a 10's net (>= 1);
    an extra die is ``E = Q(x) / (10 - x**u)``, Q its stopping faces, u its 10's net. With ``x -> 10y``,
    ``10 g(10y) y**shift = V(y) / (1 - 10**(u-1) y**u)`` and
    ``V = P(10y) (1 - 10**(u-1) y**u) + 10**(t-1) y**t Q(10y)``.
    """
    plain, ten = face_nets(difficulty, rules)
    if ten is None:
        shift = -min(0, *plain)
        return tuple(_trim(_counts(plain, shift))), (1,), shift
    extra_plain, extra_ten = face_nets(difficulty, rules, extra=True)
    assert extra_ten is not None and ten >= 1 and extra_ten >= 1  # a 10 always reaches the difficulty
    shift = -min(0, *plain, *extra_plain)
    p10 = [c * 10**i for i, c in enumerate(_counts(plain, shift))]
    q10 = [c * 10**i for i, c in enumerate(_counts(extra_plain, shift))]
    b = [1] + [0] * (extra_ten - 1) + [-(10 ** (extra_ten - 1))]
    tail = [0] * ten + [c * 10 ** (ten - 1) for c in q10]
    v = _poly_sub(_poly_mul(p10, b), [-c for c in tail])
    return tuple(_trim(v)), tuple(b), shift


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
def net_weights(pool: int, difficulty: int, rules: HouseRules, min_top: int = 0) -> tuple[int, tuple[int, ...], int]:
    """The net ``successes - ones`` of a pool: ``(lowest_net, weights, denominator)``.

    ``weights[i] / denominator`` is P(net == lowest_net + i). Without ``reroll`` the weights cover every
    possible net and sum to the denominator ``10**pool``. With ``reroll`` they stop at the first net past
    which less than TAIL_EPSILON remains (the remainder is ``denominator - sum(weights)``), and not before
    net ``min_top``.
    """
    a, b, shift = _die_parts(difficulty, rules)
    lowest = -shift * pool
    if b == (1,):
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
    floor_m = max(pool * (len(a) - 1), 1, min_top - lowest)
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


def convolve(a: Sequence[int], b: Sequence[int], bound: int) -> list[int]:
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
