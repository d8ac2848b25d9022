"""Rolling and counting one dice pool (Chapter Five: "Rolling Dice", "Difficulties", "Botches",
"Automatic Successes", "Try, Try Again").

Randomness is always passed in: any object with ``randint(a, b)`` (``random.Random`` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from stkit.dice.model import (
    MAX_POOL,
    STANDARD_RULES,
    Degree,
    HouseRules,
    Outcome,
    RollResult,
    retry_difficulty,
    validate_difficulty,
    validate_pool,
)
from stkit.dice.score import FaceScore, pool_result, score_face, willpower_dice
from stkit.errors import InvalidValue, RuleRefusal
from stkit.text import counted


class RandomSource(Protocol):
    """What a roll needs from a random generator (``random.Random`` fits)."""

    def randint(self, a: int, b: int) -> int: ...


def _extra_dice_needed(faces: Sequence[int], difficulty: int, rules: HouseRules, *, extra: bool = False) -> int:
    """How many extra dice ``faces`` call for (one per face whose score says it rolls again)."""
    return sum(1 for f in faces if score_face(f, difficulty, rules, extra=extra).again)


def check_faces(pool: int, dice: Sequence[int], rules: HouseRules = STANDARD_RULES, difficulty: int = 6) -> None:
    """Check that ``dice`` are faces a pool of ``pool`` dice can show: each a whole number 1..10, exactly
    ``pool`` of them, plus, where 10s roll again, exactly one extra face behind every 10 (extra faces
    included).

    Raises InvalidValue naming the face or the count expected.
    """
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
            raise InvalidValue(f"die face {face!r} is not possible on a ten-sided die; allowed: 1 to 10")
    base = list(dice[:pool])
    extra = list(dice[pool:])
    if len(base) < pool:
        raise InvalidValue(
            f"{counted(len(dice), 'die', 'dice')} given but the dice pool is {pool}; "
            f"give exactly {counted(pool, 'face')}"
        )
    if rules.explodes:
        # Each 10 (in the pool or among the extra dice) must have exactly one extra die behind it.
        needed, given = _extra_dice_needed(base, difficulty, rules), 0
        while given < needed and given < len(extra):
            needed += _extra_dice_needed(extra[given : given + 1], difficulty, rules, extra=True)
            given += 1
        if len(extra) != needed:
            raise InvalidValue(
                f"{counted(len(dice), 'die', 'dice')} given but a pool of {pool} with these 10s re-rolled needs "
                f"{pool + needed} faces (each 10 adds one extra die)"
            )
    elif extra:
        raise InvalidValue(
            f"{len(dice)} dice given but the dice pool is {pool}; give exactly {pool} face{'s' if pool != 1 else ''}"
        )


def face_scores(pool: int, difficulty: int, dice: Sequence[int], rules: HouseRules) -> list[FaceScore]:
    """The :class:`FaceScore` of each face of ``dice`` (the pool's ``pool`` faces, then extra dice)."""
    return [score_face(f, difficulty, rules, extra=i >= pool) for i, f in enumerate(dice)]


def score_dice(
    pool: int,
    difficulty: int,
    dice: Sequence[int],
    *,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    base_difficulty: int | None = None,
    retry: int = 0,
    automatic: int = 0,
) -> RollResult:
    """Score faces already rolled. ``dice`` holds the pool's faces (``pool`` of them, plus three under the
    ``three-dice`` Willpower reading when Willpower is spent), then any extra dice 10s brought.

    What each face is worth is :func:`stkit.dice.score.score_face`; what the pool comes to is
    :func:`stkit.dice.score.pool_result` (Chapter Five: a die at or above the difficulty is a success; each
    1 cancels one success; a botch is no die at or above the difficulty and at least one 1; Willpower adds
    one success that 1s cannot cancel). ``automatic``: successes given without dice (0..), which 1s cancel.

    Raises InvalidValue for a face outside 1..10, a count of dice that does not fit the pool, or a
    negative ``automatic``.
    """
    validate_pool(pool)
    validate_difficulty(difficulty)
    check_automatic(automatic)
    rolled = pool + willpower_dice(rules, willpower)
    check_faces(rolled, dice, rules, difficulty)
    total = pool_result(face_scores(rolled, difficulty, dice, rules), rules, willpower=willpower, automatic=automatic)
    return RollResult(
        pool=rolled,
        difficulty=difficulty,
        dice=tuple(dice),
        successes_rolled=total.successes,
        ones=total.ones,
        net=total.net,
        final_successes=total.final,
        outcome=total.outcome,
        degree=Degree.of(total.final),
        willpower=willpower,
        automatic=False,
        base_difficulty=base_difficulty if base_difficulty is not None else difficulty,
        retry=retry,
        rules=rules,
        automatic_successes=automatic,
    )


def check_automatic(automatic: int) -> int:
    """``automatic`` (successes given without dice) if it is a whole number 0..MAX_POOL; else InvalidValue."""
    if isinstance(automatic, bool) or not isinstance(automatic, int) or not 0 <= automatic <= MAX_POOL:
        raise InvalidValue(f"automatic successes {automatic!r}: allowed 0 to {MAX_POOL}")
    return automatic


def roll_faces(
    pool: int, *, rng: RandomSource, rules: HouseRules = STANDARD_RULES, difficulty: int = 6
) -> tuple[int, ...]:
    """Roll ``pool`` ten-sided dice, then one extra die per face that rolls again (extra dice included)."""
    validate_pool(pool)
    faces = [rng.randint(1, 10) for _ in range(pool)]
    pending = _extra_dice_needed(faces, difficulty, rules)
    while pending:
        face = rng.randint(1, 10)
        faces.append(face)
        pending += _extra_dice_needed([face], difficulty, rules, extra=True) - 1
    return tuple(faces)


def roll_pool(
    pool: int,
    difficulty: int = 6,
    *,
    rng: RandomSource,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    retry: int = 0,
    automatic: int = 0,
) -> RollResult:
    """Roll a dice pool of ``pool`` d10 (1..MAX_POOL) against ``difficulty`` (2..10).

    ``retry`` > 0 is the retry-th try of a failed task: the difficulty used is ``difficulty + retry``
    capped at 10 (Chapter Five, "Try, Try Again"). Raises InvalidValue for a pool or difficulty out of range.
    """
    used = retry_difficulty(difficulty, retry)
    faces = roll_faces(validate_pool(pool) + willpower_dice(rules, willpower), rng=rng, rules=rules, difficulty=used)
    return score_dice(
        pool,
        used,
        faces,
        rules=rules,
        willpower=willpower,
        base_difficulty=difficulty,
        retry=retry,
        automatic=automatic,
    )


def count_dice(
    pool: int,
    difficulty: int,
    faces: Iterable[int],
    *,
    rules: HouseRules = STANDARD_RULES,
    willpower: bool = False,
    retry: int = 0,
    automatic: int = 0,
) -> RollResult:
    """Score physical dice a player rolled by hand: exactly ``pool`` faces (three more under the
    ``three-dice`` Willpower reading, plus one extra face per 10 that rolls again), each 1..10. Same rules
    and errors as :func:`roll_pool`."""
    used = retry_difficulty(difficulty, retry)
    return score_dice(
        pool,
        used,
        tuple(faces),
        rules=rules,
        willpower=willpower,
        base_difficulty=difficulty,
        retry=retry,
        automatic=automatic,
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
    needs two 1s to be struck out); automatic successes are struck before any die. Chapter Five, "Rolling
    Dice" (each 1 cancels a success)."""
    if roll.cancelled <= 0:
        return set(), set()
    scores = face_scores(roll.pool, roll.difficulty, roll.dice, roll.rules)
    ones_idx = [i for i, s in enumerate(scores) if s.counted_one]
    # 10s that took 1s away leave the last 1s standing
    ones_idx = ones_idx[len(ones_idx) - roll.ones :] if roll.ones else []
    succ_idx = sorted((i for i, s in enumerate(scores) if s.successes), key=lambda i: roll.dice[i])
    left = roll.cancelled - min(roll.automatic_successes, roll.cancelled)
    ones_iter = iter(ones_idx[roll.cancelled - left :])
    struck: set[int] = set()
    used_ones: set[int] = set(ones_idx[: roll.cancelled - left])
    for i in succ_idx:
        if left <= 0:
            break
        worth = scores[i].successes
        take = min(worth, left)
        for _ in range(take):
            used_ones.add(next(ones_iter))
        left -= take
        if take == worth:
            struck.add(i)
    return struck, used_ones
