"""What one die face is worth under the rules in force: the ONE definition every scorer reads.

:func:`score_face` turns a face (1..10), the difficulty and the :class:`HouseRules` into a
:class:`FaceScore`; :func:`pool_result` turns the summed scores of a pool into its net, final result and
outcome. :func:`stkit.dice.roll.score_dice` sums the faces rolled; the exact odds
(:mod:`stkit.dice.odds.generating`, :func:`stkit.dice.odds.single.die_mean`) build one die's generating
function by asking :func:`score_face` about each of the ten faces. A new house rule on what a die scores is
a change here (and a key in :mod:`stkit.dice.house` and a line in docs/dice.md), nothing else.

Sources: Chapter Five: Rules, "Difficulties" (a die at or above the difficulty succeeds), "Botches" (each
1 takes away a success; no success and a 1 is a botch), "Automatic Successes" (Willpower's success, which
no 1 cancels and which prevents a botch). The house rules are each named with their source in
:class:`HouseRules` and docs/dice.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stkit.dice.model import HouseRules, Outcome, Specialty, WillpowerRule

FACES = range(1, 11)


@dataclass(frozen=True)
class FaceScore:
    """What one die face contributes to its pool.

    Attributes:
        successes: successes it adds (0, 1, or 2 for a doubled 10).
        cancels: 1 when it is a 1 that takes a success away, else 0.
        counted_one: 1 when it is a 1 the rule of one counts (a pool die, or an extra die under
            ``extra_ones_cancel``), whether or not 1s cancel (``ones_cancel``), else 0.
        cancels_one: 1 when it is a 10 that takes one 1 away first (``tens_cancel_ones``), else 0.
        again: True when it brings one more die (a 10 under ``reroll`` or exploding tens).
        hit: True when it reached the difficulty (a roll with a hit cannot botch).
        one: True when it shows a 1 (a roll with a 1 and no hit botches, where botching is allowed).
    """

    successes: int = 0
    cancels: int = 0
    cancels_one: int = 0
    counted_one: int = 0
    again: bool = False
    hit: bool = False
    one: bool = False

    @property
    def net(self) -> int:
        """Its own successes minus the success it cancels (the additive part, without ``tens_cancel_ones``)."""
        return self.successes - self.cancels


def tens_explode(rules: HouseRules) -> bool:
    """Whether a 10 brings one more die under ``rules`` (:attr:`HouseRules.explodes`)."""
    return rules.explodes


def score_face(face: int, difficulty: int, rules: HouseRules, *, extra: bool = False) -> FaceScore:
    """The contribution of one die showing ``face`` (1..10) against ``difficulty`` (2..10) under ``rules``;
    ``extra`` for a die a 10 brought (its 1 cancels only under ``extra_ones_cancel``)."""
    hit = face >= difficulty
    successes = 0
    if hit:
        doubled = face == 10 and rules.specialised and rules.specialty is Specialty.DOUBLE
        successes = 2 if doubled else 1
    one = face == 1
    counted = 1 if one and (not extra or rules.extra_ones_cancel) else 0
    cancels = counted if rules.ones_cancel else 0
    cancels_one = 1 if face == 10 and rules.tens_cancel_ones else 0
    return FaceScore(successes, cancels, cancels_one, counted, face == 10 and tens_explode(rules), hit, one)


def may_botch(rules: HouseRules, willpower: bool) -> bool:
    """Whether the roll may botch at all: not with Willpower spent (either reading), not on a specialised roll
    under ``specialty_botch`` off."""
    if willpower:
        return False
    return not (rules.specialised and not rules.specialty_botch)


def botch_spared(dice: Sequence[int], difficulty: int, left: int, can_botch: bool) -> bool:
    """Whether a roll that could not botch (``can_botch`` False: Willpower spent, or a specialised roll under
    ``specialty-botch no``; see :func:`may_botch`) would have botched otherwise: no die of ``dice`` (faces
    1..10) reached ``difficulty``, a 1 showed, and ``left`` (the successes left after the 1s, before
    Willpower's, ``max(net, 0)``) is 0 -- the botch condition of :func:`pool_result`."""
    return not can_botch and left == 0 and 1 in dice and all(face < difficulty for face in dice)


def willpower_dice(rules: HouseRules, willpower: bool) -> int:
    """Dice Willpower adds to the pool: 3 under the ``three-dice`` reading, else 0."""
    return 3 if willpower and rules.willpower is WillpowerRule.THREE_DICE else 0


def willpower_success(rules: HouseRules, willpower: bool) -> int:
    """Successes Willpower adds after the 1s: 1 under the rules as written, 0 under ``three-dice``."""
    return 1 if willpower and rules.willpower is WillpowerRule.SUCCESS else 0


@dataclass(frozen=True)
class PoolScore:
    """A pool's summed :class:`FaceScore` values and what they come to.

    Attributes:
        successes: successes the dice show, automatic ones not included.
        ones: 1s the rule of one counts, after any 10s took some away (they cancel only under
            ``ones_cancel``).
        net: ``successes + automatic - ones`` (may be negative).
        final: ``max(net, 0)`` plus Willpower's success.
        outcome: success when ``final >= 1``; botch when nothing hit, a 1 showed, the final result is 0 and
            botching is allowed; failure otherwise.
    """

    successes: int
    ones: int
    net: int
    final: int
    outcome: Outcome


def pool_result(
    scores: list[FaceScore] | tuple[FaceScore, ...], rules: HouseRules, *, willpower: bool = False, automatic: int = 0
) -> PoolScore:
    """Sum the faces' scores into a pool's result. ``automatic``: successes given without dice (0..), which
    the 1s cancel like rolled ones."""
    successes = sum(s.successes for s in scores)
    tens = sum(s.cancels_one for s in scores)
    ones = net_ones(sum(s.counted_one for s in scores), tens)
    net = successes + automatic - net_ones(sum(s.cancels for s in scores), tens)
    final = max(net, 0) + willpower_success(rules, willpower)
    hit = any(s.hit for s in scores)
    one = any(s.one for s in scores)
    if final >= 1:
        outcome = Outcome.SUCCESS
    elif not hit and one and may_botch(rules, willpower):
        outcome = Outcome.BOTCH
    else:
        outcome = Outcome.FAILURE
    return PoolScore(successes, ones, net, final, outcome)


def net_ones(cancels: int, tens: int) -> int:
    """The 1s left to cancel successes once ``tens`` 10s have each taken one away."""
    return max(cancels - tens, 0)
