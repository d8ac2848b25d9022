"""Extended actions that last across commands: start, roll (one transaction: the roll, its log entry and
the tally), list, abandon, status with the exact odds of finishing. All SQL through the gateway
(:mod:`stkit.store.db.gateway`); every function takes a Gateway first and returns frozen rows.

Rules: Chapter Five: Rules, "Extended Actions" (the tally, a botch's effect) and "Teamwork" (see
stkit.dice.contest).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from typing import Any, ClassVar, TypeVar, cast

from stkit import config
from stkit.dice import (
    STANDARD_RULES,
    ExtendedTally,
    HouseRules,
    validate_difficulty,
)
from stkit.dice.contest import (
    advance_extended_roll,
    format_duration,
    replay_extended,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.dice.odds import p_extended
from stkit.errors import InvalidValue, NotFound, RuleRefusal, StkitError, about
from stkit.sheet.vocab import ActionStatus, LogKind
from stkit.store.characters import character_by_id, character_names
from stkit.store.db.gateway import Gateway
from stkit.store.house import rules_in_force
from stkit.store.participants import (
    Participant,
    ParticipantRoll,
    check_interval,
    check_pool,
    check_scene_chronicle,
    check_target,
    faces_list,
    participant,
    roll_for,
)
from stkit.store.rolling import generator
from stkit.store.scenes import iso_local, open_scene, resolve_tracked_id
from stkit.store.table.events import record_tracked_event
from stkit.text import MAX_NAME, check_text

# ------------------------------------------------------------------------------------------ tracked rows


_R = TypeVar("_R")


class _Columns:
    """Mixin for a frozen row dataclass whose fields are its table's columns, in order."""

    TABLE: ClassVar[str] = ""
    _BOOLS: ClassVar[tuple[str, ...]] = ()
    _TIMES: ClassVar[tuple[str, ...]] = ("created_at", "finished_at")

    @classmethod
    def columns(cls) -> str:
        return ", ".join(f.name for f in fields(cast(Any, cls)))

    @classmethod
    def from_row(cls, row: tuple) -> Any:
        values = dict(zip((f.name for f in fields(cast(Any, cls))), row, strict=True))
        for name in cls._BOOLS:
            values[name] = bool(values[name])
        for name in cls._TIMES:
            if name in values:
                values[name] = iso_local(values[name])
        return cls(**values)


@dataclass(frozen=True)
class ExtendedAction(_Columns):
    """A tracked extended action (table ``tracked_actions``). ``pool_expr``: the sheet expression its
    character rolls, else a number of dice; ``status``: open | done | failed | abandoned; ``tally`` the
    successes gathered toward ``target``; timestamps as ISO 8601 text."""

    TABLE: ClassVar[str] = "tracked_actions"
    _BOOLS: ClassVar[tuple[str, ...]] = ("botch_ends", "botch_spoils")

    id: int
    chronicle: str
    scene_id: int | None
    name: str
    character_id: int | None
    pool_expr: str
    difficulty: int
    target: int
    interval_seconds: int | None
    interval_text: str | None
    botch_ends: bool
    botch_spoils: bool
    tally: int
    rolls: int
    botches: int
    status: str
    created_at: str | None
    finished_at: str | None


@dataclass(frozen=True)
class ExtendedRollRecord(_Columns):
    """One roll on an extended action (table ``tracked_rolls``); ``seq`` 1, 2, ... in the order applied,
    ``dice`` the faces, ``tally_after`` the tally once it was applied."""

    TABLE: ClassVar[str] = "tracked_rolls"
    _BOOLS: ClassVar[tuple[str, ...]] = ("willpower",)

    id: int
    action_id: int
    seq: int
    character_id: int | None
    roll_log_id: int | None
    scene_id: int | None
    turn: int | None
    pool: int
    difficulty: int
    dice: tuple[int, ...]
    result: int
    outcome: str
    willpower: bool
    tally_after: int
    created_at: str | None

    @classmethod
    def from_row(cls, row: tuple) -> Any:
        rec = super().from_row(row)
        return replace(rec, dice=tuple(json.loads(rec.dice)))


def now_stamp(gw: Gateway) -> object:
    """Now (UTC) as the gateway stores a timestamp."""
    return gw.timestamp(datetime.now(UTC))


def insert_row(gw: Gateway, row_type: type[_R], values: dict[str, Any]) -> _R:
    """INSERT ``values`` (column: value) and ``created_at`` = now into ``row_type``'s table; the new row as
    stored (columns not given are None). Raises DuplicateRow on a unique key."""
    rt: Any = row_type
    cols = values | {"created_at": now_stamp(gw)}
    new_id = gw.insert(
        f"INSERT INTO {rt.TABLE} ({', '.join(cols)}) VALUES ({', '.join(':' + k for k in cols)})", **cols
    )
    stored = cols | {"id": new_id}
    return rt.from_row(tuple(stored.get(f.name) for f in fields(rt)))


def get_locked(gw: Gateway, row_type: type[_R], row_id: int, lock: bool, missing: str) -> _R:
    """The ``row_type`` row ``row_id`` (``lock``: row lock for an update); NotFound(``missing``) otherwise."""
    rt: Any = row_type
    found = gw.row(f"SELECT {rt.columns()} FROM {rt.TABLE} WHERE id = :id" + (gw.lock if lock else ""), id=row_id)
    if found is None:
        raise NotFound(missing)
    return rt.from_row(found)


def newest_first(gw: Gateway, row_type: type[_R], chronicle: str | None, status: ActionStatus | None) -> list[_R]:
    """Rows of a tracked table, newest first; optionally one chronicle's, or only those with ``status``."""
    rt: Any = row_type
    where, params = [], {}
    if chronicle is not None:
        where.append("chronicle = :chronicle")
        params["chronicle"] = chronicle
    if status is not None:
        where.append("status = :status")
        params["status"] = status
    sql = f"SELECT {rt.columns()} FROM {rt.TABLE}" + (" WHERE " + " AND ".join(where) if where else "")
    return [rt.from_row(r) for r in gw.rows(sql + " ORDER BY id DESC", **params)]


def abandon_row(gw: Gateway, row: _R, what: str) -> _R:
    """Mark an open tracked row (extended action or contest, read locked) abandoned and return it as it now
    stands; RuleRefusal when it is already finished."""
    r: Any = row
    if r.status != ActionStatus.open:
        raise RuleRefusal(f"{what} {r.id} ({r.name!r}) is already {r.status}")
    now = now_stamp(gw)
    gw.execute(f"UPDATE {r.TABLE} SET status = 'abandoned', finished_at = :now WHERE id = :id", now=now, id=r.id)
    gw.changed(r.TABLE, r.id)
    return replace(r, status=ActionStatus.abandoned, finished_at=iso_local(now))


# -------------------------------------------------------------------------------------- extended actions


def action_id_for(gw: Gateway, typed: str | int) -> int:
    """The extended action's id from an id or a (short) name; see :func:`resolve_tracked_id`."""
    return resolve_tracked_id(gw, "tracked_actions", typed, "extended action", "stkit extended list")


def get_action(gw: Gateway, action_id: int, *, lock: bool = False) -> ExtendedAction:
    """The tracked extended action ``action_id``; NotFound otherwise. ``lock``: row lock for an update."""
    return get_locked(
        gw, ExtendedAction, action_id, lock, f"no extended action with id {action_id}; see: stkit extended list"
    )


def start_extended(
    gw: Gateway,
    name: str,
    *,
    chronicle: str | None,
    character: str | None,
    pool: str,
    difficulty: int,
    target: int,
    interval: str | None = None,
    botch_ends: bool = False,
    botch_spoils: bool = True,
) -> ExtendedAction:
    """Start tracking an extended action; returns it as stored (its id set, tally 0, status open).

    ``character`` rolls ``pool`` from the sheet ("Stamina + Stealth"); without a character ``pool`` is a number
    of dice. The action belongs to the character's chronicle (or ``chronicle``) and to its open scene, if any.
    Raises InvalidValue (target below 1, difficulty outside 2..10, bad interval or pool), NotFound (unknown
    character), RuleRefusal (a character outside ``chronicle``). Source: Chapter Five, "Extended Actions".
    """
    name = (name or "").strip()
    if not name:
        raise InvalidValue('an extended action needs a name, e.g. "Stay hidden"')
    check_text(name, "extended action name", limit=MAX_NAME)
    check_target(target)
    validate_difficulty(difficulty)
    seconds = check_interval(interval) if interval else None
    who = participant(gw, character, pool, chronicle)
    check_scene_chronicle(gw, chronicle, who)
    check_pool(gw, who)  # a typo in the pool fails now, not at the first roll
    chron = who.character.chronicle if who.character is not None else config.default_chronicle(chronicle)
    scene = open_scene(gw, chron)
    values: dict[str, Any] = dict(
        chronicle=chron,
        scene_id=scene.id if scene else None,
        name=name,
        character_id=who.character_id,
        pool_expr=who.expression,
        difficulty=difficulty,
        target=target,
        interval_seconds=seconds,
        interval_text=interval.strip() if interval else None,
        botch_ends=botch_ends,
        botch_spoils=botch_spoils,
    )
    action = insert_row(
        gw, ExtendedAction, values | {"tally": 0, "rolls": 0, "botches": 0, "status": ActionStatus.open}
    )
    record_tracked_event(gw, action, "extended", "started")
    return action


@dataclass(frozen=True)
class ExtendedRollOutcome:
    """What one roll did to an extended action: the action as it now stands, the stored roll, the roll
    made (dice, log entry, who), the tally before it, and whether a botch spoiled the effort."""

    action: ExtendedAction
    record: ExtendedRollRecord
    made: ParticipantRoll
    tally_before: int
    spoiled: bool

    def to_dict(self, status: ExtendedStatus, *, seed: int | None) -> dict:
        """``stkit extended roll --json``: the action's ``status`` (:func:`extended_status`, read after the
        roll) plus this roll (with ``seed``: None for physical dice), ``tally_before`` and ``spoiled``."""
        roll = self.made.roll.to_dict()
        roll["seed"] = seed
        roll["who"] = self.made.participant.label
        roll["pool_text"] = self.made.explanation
        return status.to_dict() | {"roll": roll, "tally_before": self.tally_before, "spoiled": self.spoiled}


def _roller(gw: Gateway, action: ExtendedAction, character: str | None, pool: str | None) -> Participant:
    """Who rolls this time: ``character`` (teamwork over time), else the action's own character or pool."""
    if character:
        return participant(gw, character, pool or action.pool_expr, action.chronicle)
    if action.character_id is not None:
        char = character_by_id(gw, action.character_id)
        if char is None:
            raise NotFound(f"the character who started extended action {action.id} no longer exists; use --char")
        return Participant(char, (pool or action.pool_expr).strip())
    return participant(gw, None, pool or action.pool_expr, action.chronicle)


def roll_extended(
    gw: Gateway,
    action_id: int,
    *,
    character: str | None = None,
    pool: str | None = None,
    faces: list[int] | None = None,
    willpower: bool = False,
    seed: int | None = None,
    difficulty: int | None = None,
    overrides: RuleOverrides = NO_OVERRIDES,
) -> ExtendedRollOutcome:
    """Make one roll on extended action ``action_id`` and apply it to the tally (one transaction).

    ``difficulty``: this roll's own difficulty (2..10; default the action's), as when the situation
    changes between rolls. The chronicle's house rules apply with ``overrides`` on top; ``seed`` seeds the
    dice (None: a fresh seed), inside this transaction.

    The roller is ``character`` (another participant, teamwork over time) or the action's own character; it
    rolls ``pool`` or the action's expression. Successes add up; a botch wipes the tally (ends the attempt
    with botch_ends) unless the action was started with botch_spoils off; reaching the target completes it.
    Raises NotFound (unknown id or character), RuleRefusal (action finished or abandoned, character of another
    chronicle, no Willpower left, Willpower already spent this turn), InvalidValue (bad dice).
    """
    action = get_action(gw, action_id, lock=True)
    if action.status != ActionStatus.open:
        raise RuleRefusal(f"extended action {action.id} ({action.name!r}) is {action.status}; it takes no more rolls")
    who = _roller(gw, action, character, pool)
    with about(f"the roll for extended action {action.id} ({action.name!r})"):
        made = roll_for(
            gw,
            who,
            action.difficulty if difficulty is None else difficulty,
            chronicle=action.chronicle,
            faces=faces_list(faces),
            willpower=willpower,
            rng=generator(seed)[0],
            kind=LogKind.extended,
            overrides=overrides,
        )
    before = ExtendedTally(
        target=action.target,
        tally=action.tally,
        rolls=action.rolls,
        botches=action.botches,
        botch_ends=action.botch_ends,
        status=action.status,
    )
    after = advance_extended_roll(before, made.roll.result, made.roll.botch, botch_spoils=action.botch_spoils)
    record = _store_roll(gw, action, who, made, after)
    action = _store_tally(gw, action, after)
    record_tracked_event(gw, action, "extended", "rolled")
    spoiled = made.roll.botch and action.botch_spoils
    return ExtendedRollOutcome(action, record, made, before.tally, spoiled)


def _store_roll(
    gw: Gateway, action: ExtendedAction, who: Participant, made: ParticipantRoll, after: ExtendedTally
) -> ExtendedRollRecord:
    """Store one roll of ``action`` (number ``after.rolls``, leaving the tally at ``after.tally``)."""
    values: dict[str, Any] = dict(
        action_id=action.id,
        seq=after.rolls,
        character_id=who.character_id,
        roll_log_id=made.log.id,
        scene_id=made.log.scene_id,
        turn=made.log.turn,
        pool=made.roll.pool,
        difficulty=made.roll.difficulty,
        dice=json.dumps(list(made.roll.dice)),
        result=made.roll.result,
        outcome=made.roll.outcome.value,
        willpower=bool(made.roll.willpower),
        tally_after=after.tally,
    )
    return insert_row(gw, ExtendedRollRecord, values)


def _store_tally(gw: Gateway, action: ExtendedAction, after: ExtendedTally) -> ExtendedAction:
    """Write the tally ``after`` into ``action``'s row (and when it finished); the action as it now stands."""
    now = now_stamp(gw)
    finished = iso_local(now) if after.status != ActionStatus.open else None
    gw.execute(
        "UPDATE tracked_actions SET tally = :tally, rolls = :rolls, botches = :botches, status = :status"
        + (", finished_at = :now" if finished else "")
        + " WHERE id = :id",
        tally=after.tally,
        rolls=after.rolls,
        botches=after.botches,
        status=after.status,
        id=action.id,
        **({"now": now} if finished else {}),
    )
    gw.changed("tracked_actions", action.id)
    return replace(
        action,
        tally=after.tally,
        rolls=after.rolls,
        botches=after.botches,
        status=after.status,
        finished_at=finished or action.finished_at,
    )


def abandon_extended(gw: Gateway, action_id: int) -> ExtendedAction:
    """Give up an open extended action. RuleRefusal when it is already finished, NotFound for a bad id."""
    action = abandon_row(gw, get_action(gw, action_id, lock=True), "extended action")
    record_tracked_event(gw, action, "extended", "abandoned")
    return action


def list_extended(
    gw: Gateway, *, chronicle: str | None = None, status: ActionStatus | None = None
) -> list[ExtendedAction]:
    """Tracked extended actions, newest first; optionally one chronicle's, or only those with ``status``."""
    return newest_first(gw, ExtendedAction, chronicle, status)


def extended_rolls(gw: Gateway, action_id: int) -> list[ExtendedRollRecord]:
    """The rolls of an action in order (seq 1, 2, ...)."""
    rows = gw.rows(
        f"SELECT {ExtendedRollRecord.columns()} FROM tracked_rolls WHERE action_id = :id ORDER BY seq", id=action_id
    )
    return [ExtendedRollRecord.from_row(r) for r in rows]


ODDS_HORIZONS = (1, 2, 4, 8)


def finish_odds(
    pool: int,
    difficulty: int,
    target: int,
    tally: int,
    *,
    botch_ends: bool,
    botch_spoils: bool,
    horizons: tuple[int, ...] = ODDS_HORIZONS,
    rules: HouseRules = STANDARD_RULES,
) -> dict:
    """Exact chances to finish within the next k rolls (k in ``horizons``), from the odds engine
    (``stkit.dice.odds.p_extended``): ``{"within": {"1": {"exact": "p/q", "probability": float}, ...},
    "mean_rolls": float | None}``, or ``{"unavailable": reason}`` when it cannot answer (no odds engine, a
    pool x target beyond its exact range, or --no-botch-spoils, which it does not model). ``rules``: the
    house rules the rolls are scored under (the chronicle's)."""
    if not botch_spoils:
        return {"unavailable": "the odds engine counts every botch as wiping the tally (not --no-botch-spoils)"}

    try:
        odds = p_extended(
            pool, difficulty, target, start=tally, botch_ends=botch_ends, max_turns=max(horizons), rules=rules
        )
        out = {}
        for k in horizons:
            p = odds.p_done_by(k)
            out[str(k)] = {"exact": str(p), "probability": float(p)}
        mean = getattr(odds, "mean", None)
        return {"within": out, "mean_rolls": float(mean) if mean is not None else None}
    except StkitError as exc:
        return {"unavailable": str(exc)}
    except Exception as exc:
        return {"unavailable": f"the odds engine failed: {type(exc).__name__}"}


@dataclass(frozen=True)
class ExtendedHistoryEntry:
    """One roll of an extended action as its status shows it: who rolled (None: a bare dice pool or a
    deleted character) and what it did to the tally."""

    record: ExtendedRollRecord
    character: str | None

    def to_dict(self) -> dict:
        r = self.record
        return {
            "seq": r.seq,
            "character": self.character,
            "pool": r.pool,
            "difficulty": r.difficulty,
            "dice": list(r.dice),
            "result": r.result,
            "outcome": r.outcome,
            "willpower": r.willpower,
            "tally_after": r.tally_after,
            "roll_id": r.roll_log_id,
            "turn": r.turn,
        }


@dataclass(frozen=True)
class ExtendedStatus:
    """An extended action with its history and chances (``stkit extended status``).

    ``character``: the name of its character (None: a dice pool, or deleted: ``character_deleted``);
    ``odds``: :func:`finish_odds`'s ``within`` answer while open (else None), for a pool of ``odds_pool``
    dice; ``odds_note`` says why there are none. In-game time spent is rolls x interval, in seconds."""

    action: ExtendedAction
    character: str | None
    history: tuple[ExtendedHistoryEntry, ...]
    character_deleted: bool
    odds: dict | None = None
    odds_pool: int | None = None
    odds_note: str | None = None

    @property
    def time_spent_seconds(self) -> int | None:
        a = self.action
        return a.rolls * a.interval_seconds if a.interval_seconds else None

    def to_dict(self, *, history: bool = True) -> dict:
        """The ``--json`` object; ``history=False`` leaves the rolls out (``extended list``)."""
        a, spent = self.action, self.time_spent_seconds
        data: dict[str, Any] = {
            "id": a.id,
            "name": a.name,
            "chronicle": a.chronicle,
            "scene_id": a.scene_id,
            "character": self.character,
            "pool": a.pool_expr,
            "difficulty": a.difficulty,
            "target": a.target,
            "tally": a.tally,
            "remaining": max(a.target - a.tally, 0),
            "rolls": a.rolls,
            "botches": a.botches,
            "status": a.status,
            "botch_ends": a.botch_ends,
            "botch_spoils": a.botch_spoils,
            "interval": a.interval_text,
            "interval_seconds": a.interval_seconds,
            "time_spent_seconds": spent,
            "time_spent": format_duration(spent) if spent is not None else None,
            "history": [h.to_dict() for h in self.history],
            "odds": self.odds,
            "odds_pool": self.odds_pool,
            "odds_note": self.odds_note,
            "character_deleted": self.character_deleted,
        }
        if not history:
            del data["history"]
        return data


def extended_status(gw: Gateway, action: ExtendedAction | int, *, odds: bool = True) -> ExtendedStatus:
    """``action`` (or the action with that id: NotFound) with the rolls so far and who made them, and,
    while open and ``odds``, the exact chance to finish within 1, 2, 4, 8 rolls."""
    if not isinstance(action, ExtendedAction):
        action = get_action(gw, action)
    rolls = extended_rolls(gw, action.id)
    names = character_names(gw, {action.character_id} | {r.character_id for r in rolls})
    history = tuple(ExtendedHistoryEntry(r, names.get(r.character_id) if r.character_id else None) for r in rolls)
    deleted = action.character_id is not None and action.character_id not in names
    status = ExtendedStatus(action, names.get(action.character_id) if action.character_id else None, history, deleted)
    if deleted:
        note = "the character who rolls this was deleted; roll on with --char NAME --pool ..., or abandon it"
        return replace(status, odds_note=note)
    if not (odds and action.status == ActionStatus.open):
        return status
    try:
        pool: int | None = check_pool(gw, _default_participant(gw, action))[0]
    except Exception:
        pool = None
    if not pool:
        return status
    found = finish_odds(
        pool,
        action.difficulty,
        action.target,
        action.tally,
        botch_ends=action.botch_ends,
        botch_spoils=action.botch_spoils,
        rules=rules_in_force(gw, action.chronicle).dice_rules(),  # the odds of rolls as they will be scored
    )
    return replace(
        status, odds=found if "within" in found else None, odds_pool=pool, odds_note=found.get("unavailable")
    )


def _default_participant(gw: Gateway, action: ExtendedAction) -> Participant:
    if action.character_id is None:
        return Participant(None, action.pool_expr)
    char = character_by_id(gw, action.character_id)
    if char is None:
        raise NotFound("character gone")
    return Participant(char, action.pool_expr)


def replay_check(gw: Gateway, action: ExtendedAction) -> tuple[int, int]:
    """(stored tally, tally implied by replaying the logged rolls in order): equal unless a roll was lost."""
    rolls = extended_rolls(gw, action.id)
    state = replay_extended(
        action.target,
        [(r.result, r.outcome == "botch") for r in rolls],
        botch_ends=action.botch_ends,
        botch_spoils=action.botch_spoils,
    )
    return action.tally, state.tally
