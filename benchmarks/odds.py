"""Speed of `stkit odds` (stkit.dice.odds), against icepool as the reference.

Run: python benchmarks/odds.py   (needs the `bench` extra: pip install icepool)

1. The 270 single-roll distributions (pools 1..30 x difficulty 2..10, rules as written) with stkit and with
   icepool, checked to agree exactly (every final result, the botch chance, the failure chance), and the
   speed ratio (target: stkit at least 100x faster).
2. One 1000-die pool, exact (target: under 50 ms).
3. Extended actions (5 dice, difficulty 7, target 16) and (10 dice, difficulty 6, target 50) (target: each
   under 100 ms).

Caches are cleared before every stkit timing, so each figure is a cold computation. Each figure is the best
of a few runs, as timeit does, since the machine may be busy with other work; icepool's runs each happen in
a fresh process because icepool memoises evaluations within a process.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import time
from fractions import Fraction

import icepool

from stkit.dice import odds as engine

POOLS = range(1, 31)
DIFFICULTIES = range(2, 11)
STKIT_RUNS = 20
ICEPOOL_RUNS = 3
BOTCH = -1  # icepool outcome label for a botch (outcomes must be orderable, so an int below 0)


def clear_caches() -> None:
    engine.clear_caches()


def icepool_roll(pool: int, difficulty: int) -> icepool.Die:
    """The rules as icepool sees them. Each d10 becomes one integer carrying two counts: 1 for a die at or
    above the difficulty, plus ``pool + 1`` for a 1 (so a sum never carries between the two). The pool's sum
    then splits back into (success dice, ones): no success die and some 1 is a botch, otherwise the result
    is max(successes - ones, 0). (This `Die.pool(n).sum()` form was the fastest of those tried; summing
    `icepool.Vector` outcomes with `n @ die` gives the same numbers about ten times slower.)"""
    big = pool + 1
    die = icepool.d10.map(lambda f: (1 if f >= difficulty else 0) + (big if f == 1 else 0))
    total = die.pool(pool).sum()
    return total.map(lambda v: BOTCH if v % big == 0 and v // big > 0 else max(v % big - v // big, 0))


def stkit_roll(pool: int, difficulty: int):
    return engine.roll_distribution(pool, difficulty)


def agree(odds, die: icepool.Die) -> bool:
    den = die.denominator()
    if Fraction(die.quantity(BOTCH), den) != odds.p_botch:
        return False
    if Fraction(die.quantity(0), den) != odds.p_failure:
        return False
    return all(Fraction(die.quantity(k), den) == odds.distribution[k] for k in range(1, odds.max_result + 1))


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


def main() -> None:
    cases = [(n, d) for n in POOLS for d in DIFFICULTIES]
    # best of several runs for each side (the machine may be shared), each stkit run from cold caches
    t_stkit = t_fractions = t_icepool = float("inf")
    for _ in range(STKIT_RUNS):
        clear_caches()
        t0 = time.perf_counter()
        ours = {c: stkit_roll(*c) for c in cases}
        t_stkit = min(t_stkit, time.perf_counter() - t0)
        t0 = time.perf_counter()
        for odds in ours.values():
            odds.distribution  # noqa: B018 - the exact Fractions, built on first use
        t_fractions = min(t_fractions, time.perf_counter() - t0)
    # icepool memoises evaluations inside its evaluator objects, so a second run in one process is not a cold
    # computation: time each icepool run in a fresh process (this file imported, only the loop timed).
    for _ in range(ICEPOOL_RUNS):
        out = subprocess.run([sys.executable, __file__, "--icepool-only"], capture_output=True, text=True, check=True)
        t_icepool = min(t_icepool, float(out.stdout))
    theirs = {c: icepool_roll(*c) for c in cases}
    bad = [c for c in cases if not agree(ours[c], theirs[c])]
    print(
        f"270 distributions (pools 1-30 x difficulty 2-10), icepool {icepool.__version__}, best of "
        f"{STKIT_RUNS} / {ICEPOOL_RUNS} runs:"
    )
    print(f"  stkit   {t_stkit * 1000:9.2f} ms  (integer weights over 10**n, as icepool holds quantities)")
    print(f"          {t_fractions * 1000:9.2f} ms  more to build every probability as a Fraction")
    print(f"  icepool {t_icepool * 1000:9.2f} ms")
    print(f"  agree exactly: {'yes, all 270' if not bad else f'NO: {bad[:5]}'}")
    print(
        f"  speed ratio: {t_icepool / t_stkit:.0f}x (target >= 100x); "
        f"{t_icepool / (t_stkit + t_fractions):.0f}x counting the Fractions"
    )

    clear_caches()
    odds, t_int = timed(engine.roll_distribution, 1000, 6)
    _, t_frac = timed(lambda: odds.distribution)
    assert sum(odds.weights) == odds.denominator == 10**1000
    print("1000-die pool at difficulty 6, exact:")
    print(f"  integer weights over 10**1000: {t_int * 1000:.2f} ms (target < 50 ms)")
    print(f"  + building the 1001 Fractions: {t_frac * 1000:.2f} ms more")
    for d in (2, 10):
        clear_caches()
        _, t = timed(engine.roll_distribution, 1000, d)
        print(f"  difficulty {d}: {t * 1000:.2f} ms")

    for pool, d, target in ((5, 7, 16), (10, 6, 50)):
        clear_caches()
        ext, t = timed(engine.p_extended, pool, d, target)
        print(
            f"extended ({pool} dice, difficulty {d}, target {target}): {t * 1000:.2f} ms (target < 100 ms); "
            f"mean {float(ext.mean):.3f} rolls, median {ext.median}, {len(ext.by_turn)} turns listed"
        )
        clear_caches()
        ext, t = timed(functools.partial(engine.p_extended, pool, d, target, botch_ends=True))
        print(f"  with --botch-ends: {t * 1000:.2f} ms; P(never) {float(ext.p_never):.4f}")


def icepool_only() -> None:
    """One cold icepool run of the 270 distributions; prints its seconds."""
    cases = [(n, d) for n in POOLS for d in DIFFICULTIES]
    t0 = time.perf_counter()
    for c in cases:
        icepool_roll(*c)
    print(time.perf_counter() - t0)


if __name__ == "__main__":
    if sys.argv[1:] == ["--icepool-only"]:
        icepool_only()
    else:
        main()
