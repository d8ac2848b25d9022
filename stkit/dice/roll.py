"""Rolling and counting one dice pool (Chapter Five: "Rolling Dice", "Difficulties", "Botches",
"Automatic Successes", "Try, Try Again").

Randomness is always passed in: any object with ``randint(a, b)`` (``random.Random`` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from stkit.dice.model import (
    STANDARD_RULES,
    Degree,
    HouseRules,
    Outcome,
    RollResult,
    Specialty,
    retry_difficulty,
    validate_difficulty,
    validate_pool,
)
from stkit.errors import InvalidValue, RuleRefusal


class RandomSource(Protocol):
    """What a roll needs from a random generator (``random.Random`` fits)."""

    def randint(self, a: int, b: int) -> int: ...


def _extra_dice_needed(faces: Sequence[int]) -> int:
    """Under ``reroll``, each 10 asks for one more die: how many extra dice ``faces`` call for in all."""
    return sum(1 for f in faces if f == 10)


def check_faces(pool: int, dice: Sequence[int], rules: HouseRules = STANDARD_RULES) -> None:
    """Check that ``dice`` are faces a pool of ``pool`` dice can show: each a whole number 1..10, exactly
    ``pool`` of them, plus under ``reroll`` exactly one extra face behind every 10 (extra faces included).

    Raises InvalidValue naming the face or the count expected.
    """
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
            raise InvalidValue(f"die face {face!r} is not possible on a ten-sided die; allowed: 1 to 10")
    base = list(dice[:pool])
    extra = list(dice[pool:])
    if len(base) < pool:
        raise InvalidValue(
            f"{len(dice)} dice given but the dice pool is {pool}; give exactly {pool} face{'s' if pool != 1 else ''}"
        )
    if rules.specialty is Specialty.REROLL:
        # Each 10 (in the pool or among the extra dice) must have exactly one extra die behind it.
        needed, given = _extra_dice_needed(base), 0
        while given < needed and given < len(extra):
            needed += 1 if extra[given] == 10 else 0
            given += 1
        if len(extra) != needed:
            raise InvalidValue(
                f"{len(dice)} dice given but a pool of {pool} with these 10s re-rolled needs "
                f"{pool + needed} faces (each 10 adds one extra die)"
            )
    elif extra:
        raise InvalidValue(
            f"{len(dice)} dice given but the dice pool is {pool}; give exactly {pool} face{'s' if pool != 1 else ''}"
        )


def score_dice(
    pool: int,
    difficulty: int,
    dice: Sequence[int],
    *,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    base_difficulty: int | None = None,
    retry: int = 0,
) -> RollResult:
    """Score faces already rolled. ``dice`` holds the pool's faces, then any extra ``reroll`` dice.

    The rules (Chapter Five): a die at or above the difficulty is a success; each 1 cancels one success;
    a botch is no die at or above the difficulty and at least one 1; Willpower adds one success that 1s
    cannot cancel, so the roll cannot fail or botch.

    Raises InvalidValue for a face outside 1..10 or a count of dice that does not fit the pool.
    """
    validate_pool(pool)
    validate_difficulty(difficulty)
    check_faces(pool, dice, rules)
    base = dice[:pool]
    extra = dice[pool:]
    per_ten = rules.ten_value
    success_dice = sum(1 for f in dice if f >= difficulty)
    successes_rolled = sum((per_ten if f == 10 else 1) for f in dice if f >= difficulty)
    ones = sum(1 for f in base if f == 1)
    if rules.extra_ones_cancel:
        ones += sum(1 for f in extra if f == 1)
    any_one = any(f == 1 for f in dice)
    net = successes_rolled - ones if rules.ones_cancel else successes_rolled
    final = max(net, 0) + (1 if willpower else 0)
    if final >= 1:
        outcome = Outcome.SUCCESS
    elif success_dice == 0 and any_one:
        outcome = Outcome.BOTCH
    else:
        outcome = Outcome.FAILURE
    return RollResult(
        pool=pool,
        difficulty=difficulty,
        dice=tuple(dice),
        successes_rolled=successes_rolled,
        ones=ones,
        net=net,
        final_successes=final,
        outcome=outcome,
        degree=Degree.of(final),
        willpower=willpower,
        automatic=False,
        base_difficulty=base_difficulty if base_difficulty is not None else difficulty,
        retry=retry,
        rules=rules,
    )


def roll_faces(pool: int, *, rng: RandomSource, rules: HouseRules = STANDARD_RULES) -> tuple[int, ...]:
    """Roll ``pool`` ten-sided dice, then under ``reroll`` one extra die per 10 (extra dice included)."""
    validate_pool(pool)
    faces = [rng.randint(1, 10) for _ in range(pool)]
    if rules.specialty is Specialty.REROLL:
        pending = _extra_dice_needed(faces)
        while pending:
            face = rng.randint(1, 10)
            faces.append(face)
            pending += (1 if face == 10 else 0) - 1
    return tuple(faces)


def roll_pool(
    pool: int,
    difficulty: int = 6,
    *,
    rng: RandomSource,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    retry: int = 0,
) -> RollResult:
    """Roll a dice pool of ``pool`` d10 (1..MAX_POOL) against ``difficulty`` (2..10).

    ``retry`` > 0 is the retry-th try of a failed task: the difficulty used is ``difficulty + retry``
    capped at 10 (Chapter Five, "Try, Try Again"). Raises InvalidValue for a pool or difficulty out of range.
    """
    used = retry_difficulty(difficulty, retry)
    faces = roll_faces(pool, rng=rng, rules=rules)
    return score_dice(pool, used, faces, rules=rules, willpower=willpower, base_difficulty=difficulty, retry=retry)


def count_dice(
    pool: int,
    difficulty: int,
    faces: Iterable[int],
    *,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    retry: int = 0,
) -> RollResult:
    """Score physical dice a player rolled by hand: exactly ``pool`` faces (plus one extra face per 10
    under the ``reroll`` specialty), each 1..10. Same rules and errors as :func:`roll_pool`."""
    used = retry_difficulty(difficulty, retry)
    return score_dice(
        pool, used, tuple(faces), rules=rules, willpower=willpower, base_difficulty=difficulty, retry=retry
    )


def take_automatic_success(pool: int, difficulty: int = 6, *, stressful: bool = False, retry: int = 0) -> RollResult:
    """Take one marginal success without rolling (Chapter Five, "Automatic Successes").

    Allowed when the dice pool is at least the difficulty actually used; never in combat or another
    stressful situation. Raises RuleRefusal otherwise, InvalidValue for values out of range.
    """
    validate_pool(pool)
    used = retry_difficulty(difficulty, retry)
    if stressful:
        raise RuleRefusal("an automatic success cannot be taken in combat or any other stressful action")
    if pool < used:
        raise RuleRefusal(
            f"an automatic success needs a dice pool at least equal to the difficulty: "
            f"pool {pool} is below difficulty {used}"
        )
    return RollResult(
        pool=pool,
        difficulty=used,
        dice=(),
        successes_rolled=0,
        ones=0,
        net=0,
        final_successes=1,
        outcome=Outcome.SUCCESS,
        degree=Degree.MARGINAL,
        automatic=True,
        base_difficulty=difficulty,
        retry=retry,
    )


def cancelled_dice(roll: RollResult) -> tuple[set[int], set[int]]:
    """Which dice (indices into ``roll.dice``) the rule of one pairs off, for showing a roll: (the success
    dice struck out, the 1s that struck them). The lowest successes go first, one 1 each (a doubled 10
    needs two 1s to be struck out). Chapter Five, "Rolling Dice" (each 1 cancels a success)."""
    if roll.cancelled <= 0:
        return set(), set()
    rules = roll.rules
    ones_idx = [i for i, f in enumerate(roll.dice) if f == 1 and (i < roll.pool or rules.extra_ones_cancel)]
    succ_idx = sorted((i for i, f in enumerate(roll.dice) if f >= roll.difficulty), key=lambda i: roll.dice[i])
    per_ten = rules.ten_value
    left = roll.cancelled
    struck: set[int] = set()
    used_ones: set[int] = set()
    ones_iter = iter(ones_idx)
    for i in succ_idx:
        if left <= 0:
            break
        worth = per_ten if roll.dice[i] == 10 else 1
        take = min(worth, left)
        for _ in range(take):
            used_ones.add(next(ones_iter))
        left -= take
        if take == worth:
            struck.add(i)
    return struck, used_ones
