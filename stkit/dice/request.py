"""One roll asked for, validated once, resolved by one function.

A :class:`RollRequest` holds everything a single dice pool roll needs: the pool, the difficulty, the
house rules, Willpower, which retry of a failed task it is, an automatic success, and the faces of dice
rolled by hand. Building one checks every value that can be checked without rolling; :func:`resolve_roll`
then rolls, counts or takes the automatic success (Chapter Five: "Rolling Dice", "Automatic Successes",
"Try, Try Again", "Willpower").

Pure standard library; randomness is passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from stkit.dice.model import (
    DEFAULT_DIFFICULTY,
    STANDARD_RULES,
    HouseRules,
    RollResult,
    retry_difficulty,
    validate_difficulty,
    validate_pool,
)
from stkit.dice.roll import RandomSource, check_automatic, check_faces, count_dice, roll_pool, take_automatic_success
from stkit.dice.score import willpower_dice
from stkit.errors import InvalidValue
from stkit.text import check_range, counted

if TYPE_CHECKING:
    from stkit.dice.actions import ActionSlot

__all__ = [
    "RollKind",
    "RollRequest",
    "plan_multiple_actions",
    "resolve_roll",
    "roll_multiple_actions",
    "validate_roll_options",
]


class RollKind(StrEnum):
    """How a request is resolved: dice rolled with a random source, dice rolled by hand and counted, or
    an automatic success taken without rolling."""

    ROLL = "roll"
    COUNT = "count"
    AUTO = "auto"


def validate_roll_options(
    difficulty: int,
    *,
    retry: int = 0,
    automatic: bool = False,
    willpower: bool = False,
    has_faces: bool = False,
) -> int:
    """Check what a roll asks for apart from its pool; return the difficulty used after the try-again raise.

    - ``difficulty``: 2..10 (Chapter Five, "Difficulties").
    - ``retry``: earlier failures of the same task, 0 or more; each raises the difficulty by one, at most
      to 10 (Chapter Five, "Try, Try Again").
    - ``automatic``: an automatic success rolls nothing, so it cannot go with Willpower or with dice rolled
      by hand (``has_faces``).

    For callers that learn the pool later (from a character sheet) and want bad options refused before
    anything is looked up; :class:`RollRequest` calls it too. Raises InvalidValue.
    """
    used = retry_difficulty(difficulty, retry)
    if automatic and (willpower or has_faces):
        raise InvalidValue(
            "an automatic success is taken without rolling; it cannot go with Willpower or with dice rolled by hand"
        )
    return used


@dataclass(frozen=True)
class RollRequest:
    """One dice pool roll asked for. Construction validates; a built request can always be resolved,
    except for the rules refusing an automatic success (see :func:`resolve_roll`).

    Attributes:
        pool: dice in the pool, 1..MAX_POOL (after every modifier: wounds, form, multiple actions).
        difficulty: the difficulty before any try-again raise, 2..10 (default 6).
        rules: the house rules in force (default: the rules chapter as written).
        willpower: spend Willpower for one success the 1s cannot cancel (Chapter Five, "Willpower").
        retry: earlier failures of this task, 0 or more: the difficulty used is ``difficulty + retry``,
            at most 10 (Chapter Five, "Try, Try Again").
        automatic: take one marginal success without rolling (Chapter Five, "Automatic Successes").
        stressful: combat or another stressful situation, where no automatic success may be taken.
        faces: the faces of dice rolled by hand, each 1..10: exactly ``pool`` of them, plus one extra face
            per 10 that rolls again (three more under the ``three-dice`` Willpower reading); None to roll
            with a random source.
        successes: automatic successes added to the dice's (``--successes N``), 0..MAX_POOL; 1s cancel them.

    Raises InvalidValue for any value out of range, a face list that does not fit the pool, or an
    automatic success asked together with Willpower or faces.
    """

    pool: int
    difficulty: int = DEFAULT_DIFFICULTY
    rules: HouseRules = STANDARD_RULES
    willpower: bool = False
    retry: int = 0
    automatic: bool = False
    stressful: bool = False
    faces: tuple[int, ...] | None = None
    successes: int = 0

    def __post_init__(self) -> None:
        validate_pool(self.pool)
        validate_roll_options(
            self.difficulty,
            retry=self.retry,
            automatic=self.automatic,
            willpower=self.willpower,
            has_faces=self.faces is not None,
        )
        if self.faces is not None:
            # A list given by a caller is kept as an immutable tuple.
            object.__setattr__(self, "faces", tuple(self.faces))
            rolled = self.pool + willpower_dice(self.rules, self.willpower)
            check_faces(rolled, self.faces, self.rules, self.used_difficulty)
        check_automatic(self.successes)

    @property
    def kind(self) -> RollKind:
        """How :func:`resolve_roll` resolves this request."""
        if self.automatic:
            return RollKind.AUTO
        if self.faces is not None:
            return RollKind.COUNT
        return RollKind.ROLL

    @property
    def used_difficulty(self) -> int:
        """The difficulty the dice are scored against: ``difficulty + retry``, at most 10."""
        return retry_difficulty(self.difficulty, self.retry)


def resolve_roll(request: RollRequest, *, rng: RandomSource | None = None) -> RollResult:
    """Resolve ``request``: roll its pool with ``rng``, count its hand-rolled faces, or take its automatic
    success, by :attr:`RollRequest.kind`.

    ``rng`` (anything with ``randint(a, b)``, e.g. ``random.Random``) is needed only to roll; it is not
    touched when counting or taking an automatic success, so a replay with the same seed gives the same
    dice. Raises RuleRefusal for an automatic success in a stressful situation or with a pool below the
    difficulty used (Chapter Five, "Automatic Successes"); InvalidValue when dice must be rolled and no
    ``rng`` is given.
    """
    kind = request.kind
    if kind is RollKind.AUTO:
        return take_automatic_success(
            request.pool, request.difficulty, stressful=request.stressful, retry=request.retry
        )
    if kind is RollKind.COUNT:
        assert request.faces is not None  # RollKind.COUNT means faces were given
        return count_dice(
            request.pool,
            request.difficulty,
            request.faces,
            rules=request.rules,
            willpower=request.willpower,
            retry=request.retry,
            automatic=request.successes,
        )
    if rng is None:
        raise InvalidValue("a roll needs a random source (or the faces of dice rolled by hand)")
    return roll_pool(
        request.pool,
        request.difficulty,
        rng=rng,
        rules=request.rules,
        willpower=request.willpower,
        retry=request.retry,
        automatic=request.successes,
    )


def plan_multiple_actions(
    pools: Sequence[int],
    difficulties: Sequence[int],
    *,
    faces_given: int | None = None,
    willpower_action: int | None = None,
) -> list[tuple[int, int, int]]:
    """Several actions declared in one turn, before any die is rolled: (declared pool, penalty, dice left)
    per action, in order, by the penalty ladder (Chapter Five, "Multiple Actions").

    ``pools``: the declared dice pools (at least 2, 1..MAX_POOL each); ``difficulties``: one per action (2..10);
    ``faces_given``: how many sets of hand-rolled dice were given (None: the dice are rolled), which must
    be one per action that can be attempted; ``willpower_action``: the action (1-based) that spends
    Willpower, once a turn (Chapter Five, "Automatic Successes"), one that can be attempted. Raises
    InvalidValue for any of these out of range or of the wrong length.
    """
    from stkit.dice.actions import multiple_action_penalties  # lazy: start-up (a single roll needs no plan)

    for p in pools:
        validate_pool(p)
    if len(difficulties) != len(pools):
        raise InvalidValue(
            f"{counted(len(difficulties), 'difficulty', 'difficulties')} given for {counted(len(pools), 'action')}; "
            "give one each"
        )
    for d in difficulties:
        validate_difficulty(d)
    penalties = multiple_action_penalties(len(pools))
    plan = [(p, pen, p - pen) for p, pen in zip(pools, penalties, strict=True)]
    possible = sum(1 for _, _, left in plan if left >= 1)
    if willpower_action is not None:
        check_range(willpower_action, "Willpower action", 1, len(pools))
        if plan[willpower_action - 1][2] < 1:
            raise InvalidValue(
                f"action {willpower_action} has no dice left and cannot be attempted; Willpower cannot be spent on it"
            )
    if faces_given is not None and faces_given != possible:
        raise InvalidValue(
            f"{counted(faces_given, 'set of dice', 'sets of dice')} given but {possible} of the actions can be "
            "attempted; give one each"
        )
    return plan


def roll_multiple_actions(
    pools: Sequence[int],
    difficulties: Sequence[int],
    *,
    rng: RandomSource,
    rules: HouseRules = STANDARD_RULES,
    faces: Sequence[Iterable[int]] | None = None,
    willpower_action: int | None = None,
) -> list[ActionSlot]:
    """Several actions declared in one turn, planned by :func:`plan_multiple_actions` (see it for the
    arguments and errors), each action that can be attempted rolled with ``rng`` (or counted from its
    ``faces``) in order. Returns one ``ActionSlot`` per action; an action left with no dice has no roll."""
    from stkit.dice.actions import ActionSlot  # lazy: start-up (a single roll needs no plan)

    plan = plan_multiple_actions(
        pools, difficulties, faces_given=None if faces is None else len(faces), willpower_action=willpower_action
    )
    slots: list[ActionSlot] = []
    given = iter(faces or ())
    for i, ((p, pen, left), d) in enumerate(zip(plan, difficulties, strict=True), 1):
        result = None
        if left >= 1:
            hand = tuple(next(given)) if faces is not None else None
            request = RollRequest(left, d, rules=rules, faces=hand, willpower=i == willpower_action)
            result = resolve_roll(request, rng=rng)
        slots.append(ActionSlot(p, pen, left, result))
    return slots
