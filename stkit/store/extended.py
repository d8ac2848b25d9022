"""Extended actions that last across commands: start, roll (one transaction: the roll, its log entry and
the tally), list, abandon, status with the exact odds of finishing.

Rules: Chapter Five: Rules, "Extended Actions" (the tally, a botch's effect) and "Teamwork" (see
stkit.dice.contest).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import select

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
from stkit.errors import InvalidValue, NotFound, RuleRefusal, StkitError
from stkit.store.characters import character_by_id, character_names
from stkit.store.events import record_tracked_event
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
from stkit.store.scene_models import TrackedAction, TrackedRoll, utcnow
from stkit.store.scenes import open_scene
from stkit.text import MAX_NAME, check_text

# -------------------------------------------------------------------------------------- extended actions


def get_locked(session: Any, model: Any, row_id: int, lock: bool, missing: str) -> Any:
    """The ``model`` row ``row_id`` (``lock``: row lock for an update); NotFound(``missing``) otherwise."""
    stmt = select(model).where(model.id == row_id)
    if lock:
        stmt = stmt.with_for_update()
    row = session.exec(stmt).first()
    if row is None:
        raise NotFound(missing)
    return row


def get_action(session: Any, action_id: int, *, lock: bool = False) -> Any:
    """The tracked extended action ``action_id``; NotFound otherwise. ``lock``: row lock for an update."""
    return get_locked(
        session, TrackedAction, action_id, lock, f"no extended action with id {action_id}; see: stkit extended list"
    )


def start_extended(
    session: Any,
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
) -> Any:
    """Start tracking an extended action; returns the new TrackedAction (its id is set).

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
    who = participant(session, character, pool, chronicle)
    check_scene_chronicle(session, chronicle, who)
    check_pool(session, who)  # a typo in the pool fails now, not at the first roll
    chron = who.character.chronicle if who.character is not None else config.default_chronicle(chronicle)
    scene = open_scene(session, chron)
    action = TrackedAction(
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
        tally=0,
        rolls=0,
        botches=0,
        status="open",
    )
    session.add(action)
    session.flush()
    record_tracked_event(session, action, "extended", "started")
    return action


@dataclass(frozen=True)
class ExtendedRollOutcome:
    """What one roll did to an extended action."""

    action: Any
    record: Any
    made: ParticipantRoll
    tally_before: int
    spoiled: bool


def roll_extended(
    session: Any,
    action_id: int,
    *,
    character: str | None = None,
    pool: str | None = None,
    faces: list[int] | None = None,
    willpower: bool = False,
    rng: Any,
    rules: HouseRules = STANDARD_RULES,
) -> ExtendedRollOutcome:
    """Make one roll on extended action ``action_id`` and apply it to the tally (one transaction).

    The roller is ``character`` (another participant, teamwork over time) or the action's own character; it
    rolls ``pool`` or the action's expression. Successes add up; a botch wipes the tally (ends the attempt
    with botch_ends) unless the action was started with botch_spoils off; reaching the target completes it.
    Raises NotFound (unknown id or character), RuleRefusal (action finished or abandoned, character of another
    chronicle, no Willpower left, Willpower already spent this turn), InvalidValue (bad dice).
    """

    action = get_action(session, action_id, lock=True)
    if action.status != "open":
        raise RuleRefusal(f"extended action {action.id} ({action.name!r}) is {action.status}; it takes no more rolls")
    if character:
        who = participant(session, character, pool or action.pool_expr, action.chronicle)
    elif action.character_id is not None:
        char = character_by_id(session, action.character_id)
        if char is None:
            raise NotFound(f"the character who started extended action {action.id} no longer exists; use --char")
        who = Participant(char, (pool or action.pool_expr).strip())
    else:
        who = participant(session, None, pool or action.pool_expr, action.chronicle)
    made = roll_for(
        session,
        who,
        action.difficulty,
        chronicle=action.chronicle,
        faces=faces_list(faces),
        willpower=willpower,
        rng=rng,
        rules=rules,
        kind="extended",
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
    record = TrackedRoll(
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
        willpower=made.roll.willpower,
        tally_after=after.tally,
    )
    session.add(record)
    action.tally, action.rolls, action.botches, action.status = after.tally, after.rolls, after.botches, after.status
    if after.status != "open":
        action.finished_at = utcnow()
    session.add(action)
    session.flush()
    record_tracked_event(session, action, "extended", "rolled")
    spoiled = made.roll.botch and action.botch_spoils
    return ExtendedRollOutcome(action, record, made, before.tally, spoiled)


def abandon_row(row: Any, what: str) -> Any:
    """Mark an open tracked row (extended action or contest) abandoned; RuleRefusal when it is finished."""
    if row.status != "open":
        raise RuleRefusal(f"{what} {row.id} ({row.name!r}) is already {row.status}")
    row.status = "abandoned"
    row.finished_at = utcnow()
    return row


def newest_first(session: Any, model: Any, chronicle: str | None, status: str | None) -> list:
    """Rows of a tracked table, newest first; optionally one chronicle's, or only those with ``status``."""
    stmt = select(model).order_by(model.id.desc())
    if chronicle is not None:
        stmt = stmt.where(model.chronicle == chronicle)
    if status is not None:
        stmt = stmt.where(model.status == status)
    return list(session.exec(stmt))


def abandon_extended(session: Any, action_id: int) -> Any:
    """Give up an open extended action. RuleRefusal when it is already finished, NotFound for a bad id."""
    action = abandon_row(get_action(session, action_id, lock=True), "extended action")
    session.add(action)
    session.flush()
    record_tracked_event(session, action, "extended", "abandoned")
    return action


def list_extended(session: Any, *, chronicle: str | None = None, status: str | None = None) -> list:
    """Tracked extended actions, newest first; optionally one chronicle's, or only those with ``status``."""
    return newest_first(session, TrackedAction, chronicle, status)


def extended_rolls(session: Any, action_id: int) -> list:
    """The rolls of an action in order (seq 1, 2, ...)."""
    return list(session.exec(select(TrackedRoll).where(TrackedRoll.action_id == action_id).order_by(TrackedRoll.seq)))


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
) -> dict:
    """Exact chances to finish within the next k rolls (k in ``horizons``), from the odds engine
    (``stkit.dice.odds.p_extended``): ``{"within": {"1": {"exact": "p/q", "probability": float}, ...},
    "mean_rolls": float | None}``, or ``{"unavailable": reason}`` when it cannot answer (no odds engine, a
    pool x target beyond its exact range, or --no-botch-spoils, which it does not model)."""
    if not botch_spoils:
        return {"unavailable": "the odds engine counts every botch as wiping the tally (not --no-botch-spoils)"}
    try:
        from stkit.dice.odds import p_extended
    except ImportError:
        return {"unavailable": "the odds engine is not installed"}

    try:
        odds = p_extended(pool, difficulty, target, start=tally, botch_ends=botch_ends, max_turns=max(horizons))
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


def extended_status(session: Any, action: Any, *, odds: bool = True) -> dict:
    """A JSON-ready description of ``action``: tally against target, the rolls so far with who made them,
    the in-game time spent (rolls x interval) and, while open, the chance to finish within 1, 2, 4, 8 rolls."""
    rolls = extended_rolls(session, action.id)
    names = character_names(session, {action.character_id} | {r.character_id for r in rolls})
    spent = action.rolls * action.interval_seconds if action.interval_seconds else None
    data = {
        "id": action.id,
        "name": action.name,
        "chronicle": action.chronicle,
        "scene_id": action.scene_id,
        "character": names.get(action.character_id),
        "pool": action.pool_expr,
        "difficulty": action.difficulty,
        "target": action.target,
        "tally": action.tally,
        "remaining": max(action.target - action.tally, 0),
        "rolls": action.rolls,
        "botches": action.botches,
        "status": action.status,
        "botch_ends": action.botch_ends,
        "botch_spoils": action.botch_spoils,
        "interval": action.interval_text,
        "interval_seconds": action.interval_seconds,
        "time_spent_seconds": spent,
        "time_spent": format_duration(spent) if spent is not None else None,
        "history": [
            {
                "seq": r.seq,
                "character": names.get(r.character_id),
                "pool": r.pool,
                "difficulty": r.difficulty,
                "dice": json.loads(r.dice),
                "result": r.result,
                "outcome": r.outcome,
                "willpower": r.willpower,
                "tally_after": r.tally_after,
                "roll_id": r.roll_log_id,
                "turn": r.turn,
            }
            for r in rolls
        ],
        "odds": None,
        "odds_pool": None,
        "odds_note": None,
    }
    data["character_deleted"] = action.character_id is not None and action.character_id not in names
    if data["character_deleted"]:
        data["odds_note"] = (
            "the character who rolls this was deleted; roll on with --char NAME --pool ..., or abandon it"
        )
    elif odds and action.status == "open":
        try:
            pool, _ = check_pool(session, _default_participant(session, action))
        except Exception:
            pool = None
        if pool:
            data["odds_pool"] = pool
            found = finish_odds(
                pool,
                action.difficulty,
                action.target,
                action.tally,
                botch_ends=action.botch_ends,
                botch_spoils=action.botch_spoils,
            )
            data["odds"] = found if "within" in found else None
            data["odds_note"] = found.get("unavailable")
    return data


def _default_participant(session: Any, action: Any) -> Participant:
    if action.character_id is None:
        return Participant(None, action.pool_expr)
    char = character_by_id(session, action.character_id)
    if char is None:
        raise NotFound("character gone")
    return Participant(char, action.pool_expr)


def replay_check(session: Any, action: Any) -> tuple[int, int]:
    """(stored tally, tally implied by replaying the logged rolls in order): equal unless a roll was lost."""
    rolls = extended_rolls(session, action.id)
    state = replay_extended(
        action.target,
        [(r.result, r.outcome == "botch") for r in rolls],
        botch_ends=action.botch_ends,
        botch_spoils=action.botch_spoils,
    )
    return action.tally, state.tally
