"""The exact odds of an extended action: rolls add their results to a tally until it reaches a target; a
botch wipes the tally or ends the attempt (:class:`ExtendedOdds`, :func:`p_extended`).

The action is a Markov chain over the running tally: the mean and the chances of ever finishing solve its
linear equations exactly, and the turn-by-turn chances come from stepping the exact state vector forward.

Source: Chapter Five, "Extended Actions", of the Werewolf: The Apocalypse Revised rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from stkit.dice.model import STANDARD_RULES, HouseRules, validate_difficulty, validate_pool, validate_target
from stkit.dice.odds.single import RollOdds, check_rules, roll_odds
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
#: Most turns an extended-action query reports (and steps forward while looking for the median).
MAX_TURNS = 200
#: Without ``max_turns``, extended odds are listed until the chance of still being unfinished (but able to
#: finish) is below this.
TURNS_EPSILON = Fraction(1, 10**4)


def check_exact_target(target: int) -> int:
    """Return ``target`` if it is a whole number of successes from 1 to MAX_EXACT_TARGET, the targets the
    exact engine solves, else raise InvalidValue naming that range (a tracked action's target may go up to
    MAX_TARGET, :func:`stkit.dice.model.validate_target`; its odds may not).

    Source: Chapter Five, "Extended Actions" (a set number of successes collected over several rolls).
    """
    allowed = f"allowed: 1 to {MAX_EXACT_TARGET} for exact odds"
    if isinstance(target, bool) or not isinstance(target, int):
        raise InvalidValue(f"target {target!r} is not a whole number of successes; {allowed}")
    if target < 1:
        raise InvalidValue(f"target {target} must be at least 1 success; {allowed}")
    if target > MAX_EXACT_TARGET:
        raise InvalidValue(
            f"target {target} is larger than stkit's limit of {MAX_EXACT_TARGET} successes for exact odds; {allowed}"
        )
    return validate_target(target)


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
    check_rules(rules)
    if pool * target > MAX_EXTENDED_WORK:
        raise InvalidValue(
            f"dice pool {pool} with target {target} is too large for exact extended odds: pool x target must be "
            f"at most {MAX_EXTENDED_WORK} (here {pool * target})"
        )
    if rules.explodes and (target > MAX_REROLL_TARGET or pool * target > MAX_REROLL_EXTENDED_WORK):
        raise InvalidValue(
            f"dice pool {pool} with target {target} is too large for exact extended odds with the reroll specialty: "
            f"the target must be at most {MAX_REROLL_TARGET} and pool x target at most {MAX_REROLL_EXTENDED_WORK} "
            f"(here {pool * target})"
        )
    odds = roll_odds(pool, difficulty, rules, bool(willpower), target)
    return solve_extended(odds, target, start, bool(botch_ends), max_turns)


@lru_cache(maxsize=128)
def solve_extended(odds: RollOdds, target: int, start: int, botch_ends: bool, max_turns: int | None) -> ExtendedOdds:
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
