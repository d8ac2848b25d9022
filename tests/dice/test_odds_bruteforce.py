"""stkit.dice.odds against brute force: every one of the 10**n faces of n <= 5 dice, scored by the dice
engine itself (score_dice), at every difficulty and under every house rule.

Faces are enumerated in full; rolls showing the same faces in another order score the same, so each
distinct sorted hand is scored once and weighted by how many of the 10**n orderings show it.

The ``reroll`` specialty's chains are unbounded, so its brute force is bounded by a budget of 10s: each
extra die is enumerated (faces that score alike grouped, with their count of faces) until the roll holds
more than ``n + K`` tens, where enumeration stops and the rest is lumped together. Every roll whose final
result is at most K has at most ``n + K`` tens (each 10 is a success; the 1s that can cancel number at most
the pool's non-10 dice plus one per chain, i.e. at most n), so the brute force is exact for results 0..K:
there the odds must agree exactly, and above K the brute force can only fall short.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from stkit.dice import HouseRules, Specialty, score_dice
from stkit.dice.odds import roll_distribution

DIFFICULTIES = range(2, 11)
FINITE_RULES = [
    HouseRules(),
    HouseRules(specialty=Specialty.DOUBLE),
    HouseRules(ones_cancel=False),
    HouseRules(specialty=Specialty.DOUBLE, ones_cancel=False),
]
REROLL_RULES = [
    HouseRules(specialty=Specialty.REROLL),
    HouseRules(specialty=Specialty.REROLL, extra_ones_cancel=True),
    HouseRules(specialty=Specialty.REROLL, ones_cancel=False),
    HouseRules(specialty=Specialty.REROLL, extra_ones_cancel=True, ones_cancel=False),
]


@cache
def hands(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every sorted hand of n faces with the number of the 10**n ordered rolls that show it."""
    counts = Counter(tuple(sorted(faces)) for faces in itertools.product(range(1, 11), repeat=n))
    assert sum(counts.values()) == 10**n
    return tuple(counts.items())


def brute_force(n: int, d: int, rules: HouseRules, willpower: bool):
    results: Counter[int] = Counter()
    botch = 0
    for hand, count in hands(n):
        r = score_dice(n, d, hand, rules=rules, willpower=willpower)
        results[r.final_successes] += count
        botch += count if r.botch else 0
    den = 10**n
    return {k: Fraction(c, den) for k, c in results.items()}, Fraction(botch, den)


@pytest.mark.parametrize("n", [1, 2, 3, 4, pytest.param(5, marks=pytest.mark.slow)])
@pytest.mark.parametrize("rules", FINITE_RULES, ids=lambda r: f"{r.specialty.value}-ones{r.ones_cancel}")
def test_finite_rules_match_every_face(n, rules):
    for d in DIFFICULTIES:
        for willpower in (False, True):
            dist, botch = brute_force(n, d, rules, willpower)
            odds = roll_distribution(n, d, rules=rules, willpower=willpower)
            listed = {k: p for k, p in enumerate(odds.distribution) if p}
            assert listed == dist, (n, d, rules, willpower)
            assert odds.p_botch == botch
            assert odds.p_success == sum(p for k, p in dist.items() if k >= 1)
            assert odds.p_failure == 1 - odds.p_success - botch
            assert odds.expected == sum(k * p for k, p in dist.items())
            assert odds.tail == 0
            for k in range(odds.max_result + 2):
                assert odds.p_at_least(k) == sum(p for j, p in dist.items() if j >= k)


def reroll_brute_force(n: int, d: int, rules: HouseRules, budget_k: int):
    """Brute force with a budget of ``n + budget_k`` tens; returns ({result: P}, P(botch), lumped mass)."""
    # (representative face, how many faces score alike): 1; 2..d-1; d..9; 10
    classes = [(f, m) for f, m in [(1, 1), (2, d - 2), (d, 10 - d), (10, 1)] if m > 0]
    budget = n + budget_k
    results: Counter[int] = Counter()
    botch = 0
    lumped = 0
    scale = 10 ** (budget + 1)  # every enumerated leaf's weight is a whole number over 10**n * scale
    for hand, count in hands(n):
        tens = hand.count(10)
        stack = [((), tens, tens, count * scale)]
        scored = {}  # extra dice in another order score the same: score each multiset once
        while stack:
            extra, pending, total_tens, weight = stack.pop()
            if pending == 0:
                key = tuple(sorted(extra))
                if key not in scored:
                    scored[key] = score_dice(n, d, hand + extra, rules=rules)
                r = scored[key]
                results[r.final_successes] += weight
                botch += weight if r.botch else 0
                continue
            for face, mult in classes:
                w = weight * mult // 10
                if face == 10:
                    if total_tens + 1 > budget:
                        lumped += w
                        continue
                    stack.append(((*extra, 10), pending, total_tens + 1, w))
                else:
                    stack.append(((*extra, face), pending - 1, total_tens, w))
    den = 10**n * scale
    return {k: Fraction(c, den) for k, c in results.items()}, Fraction(botch, den), Fraction(lumped, den)


# (n, K): exact for results 0..K. Larger n gets a smaller K to keep the enumeration to seconds.
REROLL_CASES = [
    (1, 3),
    (2, 3),
    (3, 3),
    pytest.param(4, 1, marks=pytest.mark.slow),
    pytest.param(5, 0, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("n", "budget_k"), REROLL_CASES)
@pytest.mark.parametrize("rules", REROLL_RULES, ids=lambda r: f"extra{r.extra_ones_cancel}-ones{r.ones_cancel}")
def test_reroll_matches_bounded_brute_force(n, budget_k, rules):
    for d in DIFFICULTIES:
        dist, botch, lumped = reroll_brute_force(n, d, rules, budget_k)
        assert sum(dist.values()) + lumped == 1
        odds = roll_distribution(n, d, rules=rules)
        assert odds.p_botch == botch
        for k in range(budget_k + 1):
            assert odds.p_exactly(k) == dist.get(k, 0), (n, d, rules, k)
        for k, p in dist.items():
            if k > budget_k:
                assert p <= odds.p_exactly(k) if k <= odds.max_result else p <= odds.tail
        # the brute force's lumped mass is exactly what lies beyond its results: everything the odds list
        # above budget_k, minus what the brute force did reach there
        above = 1 - sum(odds.p_exactly(k) for k in range(budget_k + 1))
        assert above == lumped + sum(p for k, p in dist.items() if k > budget_k)


@pytest.mark.parametrize("rules", REROLL_RULES, ids=lambda r: f"extra{r.extra_ones_cancel}-ones{r.ones_cancel}")
def test_reroll_willpower_shifts_by_one(rules):
    for n in (1, 3):
        for d in DIFFICULTIES:
            plain = roll_distribution(n, d, rules=rules)
            wp = roll_distribution(n, d, rules=rules, willpower=True)
            assert wp.distribution == (Fraction(0), *plain.distribution)
            assert wp.p_botch == 0 and wp.p_success == 1
            assert wp.expected == plain.expected + 1
            assert wp.tail == plain.tail
