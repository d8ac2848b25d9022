"""Complications (Chapter Five): multiple actions, resisted actions, teamwork, extended actions.

Pure functions over :class:`~stkit.dice.model.RollResult`; rolling is left to the caller, so that the same
code serves random rolls, physical dice and stored rolls alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from stkit.dice.model import Degree, Outcome, RollResult, validate_pool
from stkit.errors import InvalidValue, RuleRefusal

#: The most actions one character may declare in a turn (as many as teamwork's participants): the 100th
#: already loses 199 dice, so more would only print "no dice left" and cost the odds time.
MAX_MULTIPLE_ACTIONS = 100


def multiple_action_penalties(count: int) -> list[int]:
    """Dice lost by each of ``count`` actions declared in one turn: N, N+1, ..., 2N-1.

    Source: Chapter Five, "Multiple Actions" (the first action loses as many dice as there are actions;
    each later one loses one die more than the one before). The rule is for "more than one action in a
    single turn", so ``count`` is 2 to :data:`MAX_MULTIPLE_ACTIONS`; raises InvalidValue otherwise.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 2:
        raise InvalidValue(
            f"{count!r} action{'' if count == 1 else 's'} declared; multiple actions need at least 2 "
            "(a single action takes no penalty: roll it on its own)"
        )
    if count > MAX_MULTIPLE_ACTIONS:
        raise InvalidValue(f"{count} actions declared in one turn; allowed: at most {MAX_MULTIPLE_ACTIONS}")
    return [count + i for i in range(count)]


def multiple_action_pools(pools: Sequence[int]) -> list[int]:
    """The pools left to each declared action after the penalty ladder; may be 0 or below (then the action
    cannot be attempted). The seed's example: ``[7, 6, 6] -> [4, 2, 1]``."""
    for p in pools:
        validate_pool(p)
    return [p - pen for p, pen in zip(pools, multiple_action_penalties(len(pools)), strict=True)]


@dataclass(frozen=True)
class ActionSlot:
    """One of several actions declared in a turn: the pool before and after the penalty, and its roll
    (None when the penalty leaves no dice, so the action cannot be attempted)."""

    declared_pool: int
    penalty: int
    pool: int
    roll: RollResult | None

    @property
    def possible(self) -> bool:
        return self.pool >= 1


@dataclass(frozen=True)
class ResistedResult:
    """A resisted action (Chapter Five, "Resisted Actions"): the side with more successes keeps only the
    margin over the other; on a tie nobody keeps any success.

    ``winner`` is ``"a"``, ``"b"`` or None (tie, including both at zero); ``margin`` >= 0.
    """

    a: RollResult
    b: RollResult
    winner: str | None
    margin: int

    @property
    def degree(self) -> Degree | None:
        return Degree.of(self.margin)


def resolve_resisted(a: RollResult, b: RollResult) -> ResistedResult:
    """Compare two rolls made against each other. Each side's final ``result`` (after the rule of one) is
    what counts; a botching side counts zero (its botch is reported on its own roll)."""
    if a.result > b.result:
        return ResistedResult(a, b, "a", a.result - b.result)
    if b.result > a.result:
        return ResistedResult(a, b, "b", b.result - a.result)
    return ResistedResult(a, b, None, 0)


@dataclass(frozen=True)
class TeamworkResult:
    """Teamwork (Chapter Five, "Teamwork"): separate rolls whose successes are added, pools never merged.

    ``spoiled`` is True when botch_spoils is on and some participant botched: then the total is 0 and the
    outcome a botch. Otherwise ``total`` is the sum of each roll's ``result``.
    """

    rolls: tuple[RollResult, ...]
    total: int
    spoiled: bool
    botch_spoils: bool

    @property
    def outcome(self) -> Outcome:
        if self.spoiled:
            return Outcome.BOTCH
        if self.total >= 1:
            return Outcome.SUCCESS
        if self.rolls and all(r.botch for r in self.rolls):
            return Outcome.BOTCH
        return Outcome.FAILURE

    @property
    def degree(self) -> Degree | None:
        return Degree.of(self.total)


#: Most participants one teamwork roll takes: far beyond a table (the rules' examples have two or three),
#: and small enough that the rolls, the log and the output stay instant (2,000 helpers of 1,000 dice took
#: twenty seconds).
MAX_TEAMWORK_PARTICIPANTS = 100


def check_teamwork_size(participants: int) -> int:
    """``participants`` when 2 to MAX_TEAMWORK_PARTICIPANTS; InvalidValue naming the range otherwise.
    Checked before any die is rolled. Source: Chapter Five, "Teamwork" ("two or more characters can make
    separate rolls and combine the successes")."""
    if participants < 2:
        raise InvalidValue(
            f"teamwork of {participants} participant{'' if participants == 1 else 's'} is no teamwork; allowed: "
            f"2 to {MAX_TEAMWORK_PARTICIPANTS} participants (one character alone makes an ordinary roll)"
        )
    if participants > MAX_TEAMWORK_PARTICIPANTS:
        raise InvalidValue(
            f"teamwork of {participants} participants is too many; allowed: at most {MAX_TEAMWORK_PARTICIPANTS}"
        )
    return participants


def combine_teamwork(rolls: Sequence[RollResult], *, botch_spoils: bool = True) -> TeamworkResult:
    """Add the successes of separate rolls; by default one participant's botch ruins everyone's work.
    Raises InvalidValue for fewer than 2 rolls (see :func:`check_teamwork_size`)."""
    if len(rolls) < 2:
        check_teamwork_size(len(rolls))
    spoiled = botch_spoils and any(r.botch for r in rolls)
    total = 0 if spoiled else sum(r.result for r in rolls)
    return TeamworkResult(tuple(rolls), total, spoiled, botch_spoils)


@dataclass(frozen=True)
class ExtendedTally:
    """The state of an extended action (Chapter Five, "Extended Actions") between rolls.

    Attributes:
        target: successes needed (>= 1).
        tally: successes collected so far (a botch sets it back to 0).
        rolls: rolls made so far.
        botches: botches so far.
        botch_ends: a botch ends the attempt instead of only wiping the tally.
        status: ``"open"``, ``"done"`` (tally reached the target) or ``"failed"`` (ended by a botch).
    """

    target: int
    tally: int = 0
    rolls: int = 0
    botches: int = 0
    botch_ends: bool = False
    status: str = "open"

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise InvalidValue(f"target {self.target!r} must be at least 1 success")

    @property
    def remaining(self) -> int:
        return max(self.target - self.tally, 0)


def advance_extended(state: ExtendedTally, roll_result: int, botched: bool) -> ExtendedTally:
    """Apply one roll to an extended action: add ``roll_result`` successes, or on a botch wipe the tally
    (and end the attempt when ``botch_ends``). Reaching the target finishes it.

    Raises RuleRefusal when the action is already finished.
    """
    if state.status != "open":
        raise RuleRefusal(f"this extended action is already {state.status}; it takes no more rolls")
    rolls = state.rolls + 1
    if botched:
        return replace(
            state, tally=0, rolls=rolls, botches=state.botches + 1, status="failed" if state.botch_ends else "open"
        )
    tally = state.tally + roll_result
    return replace(state, tally=tally, rolls=rolls, status="done" if tally >= state.target else "open")
