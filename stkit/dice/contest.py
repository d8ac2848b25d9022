"""Extended actions over time and extended-and-resisted contests, as pure state transitions.

Sources: Chapter Five, "Extended Actions" (a botch wipes the tally, or may end the attempt), "Teamwork" (one
participant's botch can ruin the whole effort), "Resisted Actions" (actions both extended and resisted: each
turn's successes over the rival's go to a running tally, first to the target wins), "Try It Out" (the moot
debate: five or more successes, a botch loses everything gathered) and "Examples of Rolls" (the truck chase:
five total successes more than the other side).

Standard library only; the store layer persists these states, the CLI renders them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

from stkit.dice.actions import ExtendedTally, advance_extended
from stkit.errors import InvalidValue, RuleRefusal
from stkit.text import parse_whole_number, printable

#: Contest modes. ``tally``: each side keeps its own running tally of the margins it won (the debate).
#: ``lead``: one running difference between the sides; whoever is ahead by the target wins (the truck chase).
CONTEST_MODES = ("tally", "lead")


def advance_extended_roll(
    state: ExtendedTally, roll_result: int, botched: bool, *, botch_spoils: bool = True
) -> ExtendedTally:
    """Apply one participant's roll to an extended action worked on over time (teamwork over time).

    ``roll_result`` (>= 0) successes are added. A botch wipes the tally (or ends the attempt when the action
    was started with ``botch_ends``) when ``botch_spoils`` is on, the rules as written; with it off, a
    botch simply adds nothing. Raises RuleRefusal when the action is finished, InvalidValue for a
    negative result. Source: Chapter Five, "Extended Actions" and "Teamwork".
    """
    if isinstance(roll_result, bool) or not isinstance(roll_result, int) or roll_result < 0:
        raise InvalidValue(f"roll result {roll_result!r} must be a whole number of successes, 0 or more")
    return advance_extended(state, roll_result, botched and botch_spoils)


def replay_extended(
    target: int, rolls: list[tuple[int, bool]], *, botch_ends: bool = False, botch_spoils: bool = True
) -> ExtendedTally:
    """The state an extended action reaches after ``rolls`` ((result, botched) pairs, in order).

    Used to check a stored tally against its logged rolls. Raises RuleRefusal if a roll follows the end.
    """
    state = ExtendedTally(target=target, botch_ends=botch_ends)
    for result, botched in rolls:
        state = advance_extended_roll(state, result, botched, botch_spoils=botch_spoils)
    return state


@dataclass(frozen=True)
class ContestState:
    """An extended and resisted contest between side ``a`` and side ``b`` between exchanges.

    Attributes:
        target: successes needed to win (>= 1).
        mode: ``"tally"`` or ``"lead"`` (see CONTEST_MODES).
        tally_a, tally_b: each side's running tally (``tally`` mode); in ``lead`` mode the side ahead holds
            the lead and the other holds 0.
        exchanges: exchanges resolved so far.
        botch_wipes: a side that botches loses what it has gathered (the debate's rule); on by default.
        status: ``"open"`` or ``"done"``.
        winner: ``"a"``, ``"b"`` or None while open.
    """

    target: int
    mode: str = "tally"
    tally_a: int = 0
    tally_b: int = 0
    exchanges: int = 0
    botch_wipes: bool = True
    status: str = "open"
    winner: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise InvalidValue(f"target {self.target!r} must be at least 1 success")
        if self.mode not in CONTEST_MODES:
            raise InvalidValue(f"contest mode {self.mode!r} is not one of: {', '.join(CONTEST_MODES)}")

    @property
    def lead(self) -> int:
        """Side A's lead over side B (negative when B is ahead)."""
        return self.tally_a - self.tally_b


@dataclass(frozen=True)
class Exchange:
    """One exchange of a contest: both sides' final results, botches, and what it did to the tallies.

    ``winner`` is the side that won the exchange (None on a tie) and ``margin`` its successes over the other.
    ``wiped`` lists the sides whose tally a botch wiped ("a", "b").
    """

    result_a: int
    result_b: int
    botch_a: bool
    botch_b: bool
    winner: str | None
    margin: int
    wiped: tuple[str, ...]


def advance_contest(
    state: ContestState, result_a: int, botch_a: bool, result_b: int, botch_b: bool
) -> tuple[ContestState, Exchange]:
    """Resolve one exchange of an extended and resisted contest.

    The side with more successes keeps the difference (Chapter Five, "Resisted Actions"); a tie gives
    nobody anything. In ``tally`` mode the difference is added to the winner's own tally; in ``lead`` mode it
    moves the single lead toward the winner. A botching side (when ``botch_wipes``) first loses what it had
    gathered: its tally in ``tally`` mode, its lead in ``lead`` mode. Reaching ``target`` wins the contest.

    Results are each side's final successes (>= 0). Raises RuleRefusal when the contest is over.
    """
    if state.status != "open":
        raise RuleRefusal(
            f"this contest is already over (side {str(state.winner).upper()} won); it takes no more rolls"
        )
    for r in (result_a, result_b):
        if isinstance(r, bool) or not isinstance(r, int) or r < 0:
            raise InvalidValue(f"roll result {r!r} must be a whole number of successes, 0 or more")
    a, b = state.tally_a, state.tally_b
    wiped: list[str] = []
    if state.botch_wipes and botch_a and a > 0:
        a, wiped = 0, [*wiped, "a"]
    if state.botch_wipes and botch_b and b > 0:
        b, wiped = 0, [*wiped, "b"]
    if result_a > result_b:
        winner, margin = "a", result_a - result_b
    elif result_b > result_a:
        winner, margin = "b", result_b - result_a
    else:
        winner, margin = None, 0
    if state.mode == "tally":
        if winner == "a":
            a += margin
        elif winner == "b":
            b += margin
    else:
        lead = a - b + (margin if winner == "a" else -margin if winner == "b" else 0)
        a, b = max(lead, 0), max(-lead, 0)
    status, champion = "open", None
    if a >= state.target:
        status, champion = "done", "a"
    elif b >= state.target:
        status, champion = "done", "b"
    new = replace(state, tally_a=a, tally_b=b, exchanges=state.exchanges + 1, status=status, winner=champion)
    return new, Exchange(result_a, result_b, botch_a, botch_b, winner, margin, tuple(wiped))


_UNITS = {
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "turn": 3,
    "turns": 3,
}


#: The largest number an interval may hold before its unit (a year is 31,536,000 seconds); a larger one
#: is refused before it is converted.
MAX_INTERVAL_NUMBER = 10**9
_INTERVAL = re.compile(r"\s*([0-9]+)(?:\.([0-9]{1,6}))?\s*([a-zA-Z]+)?\s*", re.ASCII)


def parse_interval(text: str) -> int:
    """In-game time between two rolls of an extended action, in seconds: '30 min', '1 h', '2 hours',
    '1.5 h', '1 turn' (a turn is taken at its usual 3 seconds; Chapter Five, "Time" allows up to 3
    minutes), '45s'. A bare number means minutes. The number is ASCII digits (at most six after a point),
    read by :func:`stkit.text.parse_whole_number`. Raises InvalidValue for anything else or zero, and
    OverflowError for a number above MAX_INTERVAL_NUMBER (the caller says how long an
    interval may be)."""
    m = _INTERVAL.fullmatch(text or "")
    unit = (m.group(3) or "min").lower() if m else None
    shown = printable(text if len(text or "") <= 40 else text[:39] + "…")
    if not m or unit not in _UNITS:
        raise InvalidValue(
            f"interval {shown!r} is not a time; write a number and a unit, e.g. '30 min', '1 h', '10 turns'"
        )
    number = m.group(1)
    whole = parse_whole_number(number, "interval", 0) if len(number.lstrip("0")) <= 12 else MAX_INTERVAL_NUMBER + 1
    if whole > MAX_INTERVAL_NUMBER:
        raise OverflowError(f"interval {shown!r} holds a number above {MAX_INTERVAL_NUMBER}")
    point = m.group(2) or ""
    seconds = round((whole + Fraction(int(point or "0"), 10 ** len(point))) * _UNITS[unit])
    if seconds < 1:
        raise InvalidValue(f"interval {shown!r} must be longer than zero")
    return seconds


def format_duration(seconds: int) -> str:
    """'4 h', '1 h 30 min', '45 min', '9 s' for a time in whole seconds (>= 0)."""
    if seconds < 60:
        return f"{seconds} s"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{days} d" if days else "",
        f"{hours} h" if hours else "",
        f"{minutes} min" if minutes else "",
        f"{secs} s" if secs else "",
    ]
    return " ".join(p for p in parts if p)
