"""Contests: extended and resisted actions between two sides, rolled exchange by exchange; each exchange
(both rolls, their log entries and the tallies) is one transaction.

Rules: Chapter Five: Rules, "Resisted Actions", "Extended Actions", "Try It Out" (see stkit.dice.contest).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from stkit import config
from stkit.dice.contest import (
    ContestState,
    advance_contest,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.vocab import ActionStatus, LogKind
from stkit.store.characters import character_by_id, character_names
from stkit.store.db.gateway import Gateway
from stkit.store.extended import _Columns, abandon_row, get_locked, insert_row, newest_first, now_stamp
from stkit.store.participants import (
    Participant,
    check_pool,
    check_scene_chronicle,
    check_target,
    faces_list,
    numeric_pool,
    opponent_difficulty,
    participant,
    roll_for,
)
from stkit.store.rolling import generator
from stkit.store.scenes import iso_local, open_scene, resolve_tracked_id
from stkit.store.table.events import record_tracked_event
from stkit.text import MAX_NAME, check_text

# ---------------------------------------------------------------------------------------------- contests


@dataclass(frozen=True)
class ContestRow(_Columns):
    """A stored contest (table ``contests``): two sides, each a character (``*_character_id``) with a pool
    expression or a bare number of dice, and a difficulty each; ``mode`` tally | lead; ``status`` open |
    done | abandoned; ``winner`` 'a', 'b' or None; timestamps as ISO 8601 text."""

    TABLE: ClassVar[str] = "contests"
    _BOOLS: ClassVar[tuple[str, ...]] = ("botch_wipes",)

    id: int
    chronicle: str
    scene_id: int | None
    name: str
    mode: str
    target: int
    botch_wipes: bool
    a_character_id: int | None
    a_pool_expr: str
    a_difficulty: int
    b_character_id: int | None
    b_pool_expr: str
    b_difficulty: int
    tally_a: int
    tally_b: int
    exchanges: int
    status: str
    winner: str | None
    created_at: str | None
    finished_at: str | None


@dataclass(frozen=True)
class ContestRollRecord(_Columns):
    """One side's roll in one exchange (table ``contest_rolls``); ``side`` 'a' or 'b', ``dice`` the faces."""

    TABLE: ClassVar[str] = "contest_rolls"
    _BOOLS: ClassVar[tuple[str, ...]] = ("willpower",)

    id: int
    contest_id: int
    exchange: int
    side: str
    character_id: int | None
    roll_log_id: int | None
    pool_expr: str
    pool: int
    difficulty: int
    dice: tuple[int, ...]
    result: int
    outcome: str
    willpower: bool
    created_at: str | None

    @classmethod
    def from_row(cls, row: tuple) -> Any:
        rec = super().from_row(row)
        return replace(rec, dice=tuple(json.loads(rec.dice)))

    def to_dict(self) -> dict:
        """The entry of one side in an exchange of ``contest status --json``."""
        return {
            "pool_expr": self.pool_expr,
            "pool": self.pool,
            "difficulty": self.difficulty,
            "dice": list(self.dice),
            "result": self.result,
            "outcome": self.outcome,
            "willpower": self.willpower,
            "roll_id": self.roll_log_id,
        }


def contest_id_for(gw: Gateway, typed: str | int) -> int:
    """The contest's id from an id or a (short) name; see :func:`stkit.store.scenes.resolve_tracked_id`."""

    return resolve_tracked_id(gw, "contests", typed, "contest", "stkit contest list")


def get_contest(gw: Gateway, contest_id: int, *, lock: bool = False) -> ContestRow:
    """The contest ``contest_id``; NotFound otherwise. ``lock``: row lock for an update."""
    return get_locked(gw, ContestRow, contest_id, lock, f"no contest with id {contest_id}; see: stkit contest list")


def start_contest(
    gw: Gateway,
    name: str,
    *,
    chronicle: str | None,
    a: str,
    b: str,
    pool_a: str | None,
    pool_b: str | None,
    difficulty: int | str,
    difficulty_b: int | str | None,
    target: int,
    mode: str = "tally",
    botch_wipes: bool = True,
) -> ContestRow:
    """Start an extended and resisted contest between side ``a`` and side ``b`` (character names with sheet
    expressions, or numbers of dice); returns the stored contest. Both characters must share the contest's
    chronicle. ``difficulty`` is side A's (and B's too unless ``difficulty_b``): a number, or the other
    side's Traits ("Wits + 3"), worked out now.

    Raises InvalidValue (target below 1, difficulty, mode), NotFound, RuleRefusal (chronicles differ).
    Source: Chapter Five, "Resisted Actions" and "Try It Out".
    """
    name = (name or "").strip()
    if not name:
        raise InvalidValue('a contest needs a name, e.g. "Debate at the moot"')
    check_text(name, "contest name", limit=MAX_NAME)
    check_target(target)
    ContestState(target=target, mode=mode)  # validates target and mode
    side_a, side_b, chron = _contest_sides(gw, a, pool_a, b, pool_b, chronicle)
    d_a, _ = opponent_difficulty(difficulty, side_b)
    d_b, _ = opponent_difficulty(difficulty if difficulty_b is None else difficulty_b, side_a)
    scene = open_scene(gw, chron)
    values: dict[str, Any] = dict(
        chronicle=chron,
        scene_id=scene.id if scene else None,
        name=name,
        mode=mode,
        target=target,
        botch_wipes=botch_wipes,
        a_character_id=side_a.character_id,
        a_pool_expr=side_a.expression,
        a_difficulty=d_a,
        b_character_id=side_b.character_id,
        b_pool_expr=side_b.expression,
        b_difficulty=d_b,
    )
    contest = insert_row(
        gw, ContestRow, values | {"tally_a": 0, "tally_b": 0, "exchanges": 0, "status": ActionStatus.open}
    )
    record_tracked_event(gw, contest, "contest", "started")
    return contest


def _contest_sides(
    gw: Gateway, a: str, pool_a: str | None, b: str, pool_b: str | None, chronicle: str | None
) -> tuple[Participant, Participant, str]:
    """Both sides of a new contest and its chronicle (``chronicle``, else the first character's, else the
    default). RuleRefusal for one character on both sides or a side outside the chronicle."""
    side_a = participant(gw, a, pool_a, chronicle)
    chron = chronicle
    if chron is None and side_a.character is not None:
        chron = side_a.character.chronicle
    side_b = participant(gw, b, pool_b, chron)
    if chron is None and side_b.character is not None:
        chron = side_b.character.chronicle
    chron = config.default_chronicle(chron)
    if side_a.character_id is not None and side_a.character_id == side_b.character_id:
        raise RuleRefusal(
            f"{side_a.label} is on both sides of the contest; side B needs another character or a number of dice"
        )
    for who in (side_a, side_b):
        check_scene_chronicle(gw, chronicle, who)
        if who.character is not None and who.character.chronicle != chron:
            raise RuleRefusal(f"{who.character.name} is in chronicle {who.character.chronicle!r}, not in {chron!r}")
        check_pool(gw, who)
    return side_a, side_b, chron


def _side(gw: Gateway, contest: ContestRow, side: str, expression: str | None) -> Participant:
    char_id = contest.a_character_id if side == "a" else contest.b_character_id
    expr = (expression or (contest.a_pool_expr if side == "a" else contest.b_pool_expr)).strip()
    if char_id is None:
        numeric_pool(expr)
        return Participant(None, expr)
    char = character_by_id(gw, char_id)
    if char is None:
        raise NotFound(f"side {side.upper()}'s character no longer exists")
    return Participant(char, expr)


def contest_rolls(gw: Gateway, contest_id: int) -> list[ContestRollRecord]:
    """The rolls of a contest in order of exchange, side A first."""
    rows = gw.rows(
        f"SELECT {ContestRollRecord.columns()} FROM contest_rolls WHERE contest_id = :id ORDER BY exchange, side",
        id=contest_id,
    )
    return [ContestRollRecord.from_row(r) for r in rows]


@dataclass(frozen=True)
class ContestStatus:
    """A contest with its sides' character names (None: a dice pool or a deleted character), every roll so
    far, and which side the open exchange waits for ('a', 'b' or None)."""

    contest: ContestRow
    a_character: str | None
    b_character: str | None
    rolls: tuple[ContestRollRecord, ...]
    waiting_for: str | None

    def to_dict(self, *, history: bool = True) -> dict:
        """The ``--json`` object; ``history=False`` leaves the exchanges out (``contest list``)."""
        c = self.contest
        exchanges: dict[int, dict] = {}
        for r in self.rolls:
            exchanges.setdefault(r.exchange, {"exchange": r.exchange})[r.side] = r.to_dict()
        data: dict[str, Any] = {
            "id": c.id,
            "name": c.name,
            "chronicle": c.chronicle,
            "scene_id": c.scene_id,
            "mode": c.mode,
            "target": c.target,
            "botch_wipes": c.botch_wipes,
            "a": {
                "character": self.a_character,
                "pool": c.a_pool_expr,
                "difficulty": c.a_difficulty,
                "tally": c.tally_a,
            },
            "b": {
                "character": self.b_character,
                "pool": c.b_pool_expr,
                "difficulty": c.b_difficulty,
                "tally": c.tally_b,
            },
            "lead": c.tally_a - c.tally_b,
            "exchanges": c.exchanges,
            "status": c.status,
            "winner": c.winner,
            "waiting_for": self.waiting_for,
        }
        if history:
            data["history"] = [exchanges[k] for k in sorted(exchanges)]
        return data


@dataclass(frozen=True)
class SideRoll:
    """One side's roll made by :func:`roll_contest`: the dice, how the pool was built, who rolled
    (``who``: a name or 'N dice'; ``character`` None for a dice pool) and how a difficulty given as the
    other side's Traits was worked out (None for a number)."""

    roll: Any  # stkit.dice.RollResult
    explanation: str
    who: str
    character: str | None
    difficulty_from: str | None

    def to_dict(self) -> dict:
        return {
            "roll": self.roll.to_dict(),
            "explanation": self.explanation,
            "who": self.who,
            "character": self.character,
            "difficulty_from": self.difficulty_from,
        }


@dataclass(frozen=True)
class ExchangeResult:
    """A resolved exchange: who won it ('a', 'b' or None for a tie) by how much, both results and
    botches, and which sides a botch wiped (see stkit.dice.contest.advance_contest)."""

    exchange: int
    winner: str | None
    margin: int
    result_a: int
    result_b: int
    botch_a: bool
    botch_b: bool
    wiped: tuple[str, ...]

    def to_dict(self) -> dict:
        return {
            "exchange": self.exchange,
            "winner": self.winner,
            "margin": self.margin,
            "result_a": self.result_a,
            "result_b": self.result_b,
            "botch_a": self.botch_a,
            "botch_b": self.botch_b,
            "wiped": list(self.wiped),
        }


@dataclass(frozen=True)
class ContestRollOutcome:
    """What :func:`roll_contest` did: the contest's status afterwards, this call's rolls by side, and the
    exchange it resolved (None while the other side has yet to roll)."""

    status: ContestStatus
    rolled: dict[str, SideRoll]
    exchange: ExchangeResult | None

    def to_dict(self) -> dict:
        """``stkit contest roll --json`` (without the seed, which the caller adds)."""
        return self.status.to_dict() | {
            "rolled": {side: r.to_dict() for side, r in self.rolled.items()},
            "exchange": self.exchange.to_dict() if self.exchange else None,
        }


def _sides_to_roll(side: str | None, exchange: int, pending: dict, args: dict) -> list[str]:
    """The sides rolling now; RuleRefusal for a side that already rolled this exchange, InvalidValue for
    options given to a side that does not roll."""
    sides = [side] if side else [s for s in ("a", "b") if s not in pending]
    for s in sides:
        if s in pending:
            other = "b" if s == "a" else "a"
            raise RuleRefusal(
                f"side {s.upper()} has already rolled exchange {exchange}; waiting for side {other.upper()}"
            )
    for s in ("a", "b"):
        expr, diff, faces, wp, _ = args[s]
        if s not in sides and (expr or diff is not None or faces is not None or wp):
            raise InvalidValue(f"options for side {s.upper()} were given but side {s.upper()} does not roll now")
    return sides


def _roll_side(
    gw: Gateway,
    contest: ContestRow,
    s: str,
    exchange: int,
    side_args: tuple,
    rng: random.Random,
    overrides: RuleOverrides,
) -> tuple[ContestRollRecord, SideRoll]:
    """Roll side ``s`` of ``exchange`` and store the roll (its log entry written by :func:`roll_for`,
    under the chronicle's house rules with ``overrides`` on top)."""
    expr, diff, faces, wp, base_diff = side_args
    who = _side(gw, contest, s, expr)
    how = None
    if diff is not None:
        diff, how = opponent_difficulty(diff, _side(gw, contest, "b" if s == "a" else "a", None))
    made = roll_for(
        gw,
        who,
        base_diff if diff is None else diff,
        chronicle=contest.chronicle,
        faces=faces_list(faces),
        willpower=wp,
        rng=rng,
        kind=LogKind.contest,
        overrides=overrides,
    )
    values: dict[str, Any] = dict(
        contest_id=contest.id,
        exchange=exchange,
        side=s,
        character_id=who.character_id,
        roll_log_id=made.log.id,
        pool_expr=who.expression,
        pool=made.roll.pool,
        difficulty=made.roll.difficulty,
        dice=json.dumps(list(made.roll.dice)),
        result=made.roll.result,
        outcome=made.roll.outcome.value,
        willpower=bool(made.roll.willpower),
    )
    record = insert_row(gw, ContestRollRecord, values)
    label = who.character.name if who.character is not None else None
    return record, SideRoll(made.roll, made.explanation, who.label, label, how)


def _resolve_exchange(
    gw: Gateway, contest: ContestRow, exchange: int, ra: ContestRollRecord, rb: ContestRollRecord
) -> tuple[ContestRow, ExchangeResult]:
    """Apply both sides' rolls of ``exchange`` to the tallies and store them; the contest as it now stands."""
    state = ContestState(
        target=contest.target,
        mode=contest.mode,
        tally_a=contest.tally_a,
        tally_b=contest.tally_b,
        exchanges=contest.exchanges,
        botch_wipes=contest.botch_wipes,
    )
    new, ex = advance_contest(state, ra.result, ra.outcome == "botch", rb.result, rb.outcome == "botch")
    finished = now_stamp(gw) if new.status != ActionStatus.open else None
    gw.execute(
        "UPDATE contests SET tally_a = :tally_a, tally_b = :tally_b, exchanges = :exchanges, status = :status, "
        "winner = :winner" + (", finished_at = :now" if finished else "") + " WHERE id = :id",
        tally_a=new.tally_a,
        tally_b=new.tally_b,
        exchanges=new.exchanges,
        status=new.status,
        winner=new.winner,
        id=contest.id,
        **({"now": finished} if finished else {}),
    )
    gw.changed("contests", contest.id)
    after = replace(
        contest,
        tally_a=new.tally_a,
        tally_b=new.tally_b,
        exchanges=new.exchanges,
        status=new.status,
        winner=new.winner,
        finished_at=iso_local(finished) if finished else contest.finished_at,
    )
    result = ExchangeResult(
        exchange, ex.winner, ex.margin, ex.result_a, ex.result_b, ex.botch_a, ex.botch_b, tuple(ex.wiped)
    )
    return after, result


def roll_contest(
    gw: Gateway,
    contest_id: int,
    *,
    side: str | None = None,
    pool_a: str | None = None,
    pool_b: str | None = None,
    difficulty_a: int | str | None = None,
    difficulty_b: int | str | None = None,
    faces_a: list[int] | None = None,
    faces_b: list[int] | None = None,
    willpower_a: bool = False,
    willpower_b: bool = False,
    seed: int | None = None,
    overrides: RuleOverrides = NO_OVERRIDES,
) -> ContestRollOutcome:
    """Roll the next exchange of a contest: both sides, or only ``side`` ("a" or "b") when the players roll
    separately (the exchange resolves once both have rolled). ``pool_*`` and ``difficulty_*`` change the
    traits or difficulty for this exchange only (a debate changes them as it heats up); a difficulty may name
    the other side's Traits ("Intelligence + Expression"), see :func:`opponent_difficulty`.
    The chronicle's house rules apply with ``overrides`` on top; ``seed`` seeds the one generator both
    sides roll with (None: a fresh seed), inside this transaction.

    Returns a :class:`ContestRollOutcome`: the contest's status after the exchange, this call's rolls and
    the resolved exchange (None while waiting for the other side).
    Raises NotFound, RuleRefusal (contest over, side already rolled this exchange), InvalidValue.
    """
    if side not in (None, "a", "b"):
        raise InvalidValue(f"side {side!r} must be a or b")
    contest = get_contest(gw, contest_id, lock=True)
    if contest.status != ActionStatus.open:
        state = f"won by side {str(contest.winner).upper()}" if contest.status == ActionStatus.done else contest.status
        raise RuleRefusal(f"contest {contest.id} ({contest.name!r}) is {state}; it takes no more rolls")
    exchange = contest.exchanges + 1
    earlier = contest_rolls(gw, contest.id)
    pending = {r.side: r for r in earlier if r.exchange == exchange}
    args = {
        "a": (pool_a, difficulty_a, faces_a, willpower_a, contest.a_difficulty),
        "b": (pool_b, difficulty_b, faces_b, willpower_b, contest.b_difficulty),
    }
    rolled: dict[str, SideRoll] = {}
    made: list[ContestRollRecord] = []
    rng, _ = generator(seed)
    for s in _sides_to_roll(side, exchange, pending, args):
        pending[s], rolled[s] = _roll_side(gw, contest, s, exchange, args[s], rng, overrides)
        made.append(pending[s])
    resolved = None
    if "a" in pending and "b" in pending:
        contest, resolved = _resolve_exchange(gw, contest, exchange, pending["a"], pending["b"])
    record_tracked_event(gw, contest, "contest", "rolled")
    status = _status(gw, contest, sorted([*earlier, *made], key=lambda r: (r.exchange, r.side)))
    return ContestRollOutcome(status, rolled, resolved)


def abandon_contest(gw: Gateway, contest_id: int) -> ContestRow:
    """Call off an open contest. RuleRefusal when it is over, NotFound for a bad id."""
    contest = abandon_row(gw, get_contest(gw, contest_id, lock=True), "contest")
    record_tracked_event(gw, contest, "contest", "abandoned")
    return contest


def list_contests(gw: Gateway, *, chronicle: str | None = None, status: ActionStatus | None = None) -> list[ContestRow]:
    """Contests, newest first; optionally one chronicle's, or only those with ``status``."""
    return newest_first(gw, ContestRow, chronicle, status)


def _status(gw: Gateway, contest: ContestRow, rolls: list[ContestRollRecord]) -> ContestStatus:
    names = character_names(gw, {contest.a_character_id, contest.b_character_id})
    waiting = None
    if contest.status == ActionStatus.open:
        nxt = {r.side for r in rolls if r.exchange == contest.exchanges + 1}
        if nxt:
            waiting = "b" if "a" in nxt else "a"
    return ContestStatus(
        contest,
        names.get(contest.a_character_id) if contest.a_character_id else None,
        names.get(contest.b_character_id) if contest.b_character_id else None,
        tuple(rolls),
        waiting,
    )


def contest_status(gw: Gateway, contest: ContestRow | int) -> ContestStatus:
    """A contest (or the contest with that id: NotFound) with its sides, tallies (or the lead) and every
    exchange so far."""
    if not isinstance(contest, ContestRow):
        contest = get_contest(gw, contest)
    return _status(gw, contest, contest_rolls(gw, contest.id))
