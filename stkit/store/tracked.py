"""Tracked actions that last across commands: extended actions and extended-and-resisted contests.

Each use case runs inside the caller's transaction (``stkit.store.db.transaction``): a roll, its roll-log entry
and its effect on a tally are written together or not at all. The tracked row is read with a row lock
(``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the transaction itself is ``BEGIN IMMEDIATE``), so rolls
made at once by many players are applied one after the other, none lost or counted twice.

Rules: Chapter Five, "Extended Actions", "Teamwork", "Resisted Actions", "Try It Out" (see stkit.dice.contest).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from stkit.dice import ExtendedTally, HouseRules, RollResult, count_dice, roll_pool, validate_difficulty, validate_pool
from stkit.dice.contest import ContestState, advance_contest, advance_extended_roll, format_duration, parse_interval
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.store.scenes import open_scene
from stkit.text import MAX_NAME, check_text

_NUMBER = re.compile(r"^\s*\d+\s*$")


# ------------------------------------------------------------------------------------------ participants


@dataclass
class Participant:
    """Who rolls: a character and a sheet expression, or a bare number of dice (``character`` None)."""

    character: Any | None
    expression: str

    @property
    def character_id(self) -> int | None:
        return self.character.id if self.character is not None else None

    @property
    def label(self) -> str:
        return self.character.name if self.character is not None else f"{self.expression} dice"


@dataclass
class ParticipantRoll:
    """A roll made for a tracked action: the dice result, its roll-log entry and how the pool was built."""

    roll: RollResult
    log: Any
    explanation: str
    participant: Participant
    extra: dict = field(default_factory=dict)


#: Bounds of a tracked action or contest (stkit's, so every value fits a database integer): the successes
#: needed, and the in-game time per roll.
MAX_TARGET = 1000
MAX_INTERVAL_SECONDS = 365 * 86400  # one year


def check_target(target: object) -> int:
    """``target`` if a whole number 1..MAX_TARGET; InvalidValue naming the value and the range otherwise."""
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise InvalidValue(f"target {target!r} must be at least 1 success; allowed: 1 to {MAX_TARGET}")
    if target > MAX_TARGET:
        raise InvalidValue(f"target {target} is outside the allowed range 1 to {MAX_TARGET} successes")
    return target


def check_interval(text: str) -> int:
    """The interval ``text`` ('30 min', '2 h') in seconds, 1 s to one year; InvalidValue otherwise."""
    try:
        seconds = parse_interval(text) if len(text) <= 40 else None
    except (OverflowError, ValueError) as exc:
        if isinstance(exc, InvalidValue):
            raise
        seconds = None
    if seconds is None or seconds > MAX_INTERVAL_SECONDS:
        raise InvalidValue(f"interval {text!r} is too long; allowed: 1 second to 1 year (e.g. '30 min', '365 d')")
    return seconds


def _check_scene_chronicle(session: Any, chronicle: str | None, who: Participant) -> None:
    """With no --chronicle given and a scene open in the default chronicle (STKIT_CHRONICLE or 'default'),
    refuse a character of another chronicle: its rolls could not be made in that scene."""
    from stkit.config import default_chronicle

    if chronicle is not None or who.character is None:
        return
    here = default_chronicle(None)
    if who.character.chronicle == here:
        return
    scene = open_scene(session, here)
    if scene is not None:
        raise RuleRefusal(
            f"{who.character.name} is a character not in the scene's chronicle: scene {scene.id} {scene.name!r} "
            f"is open in chronicle {here!r} and {who.character.name} is in {who.character.chronicle!r}; "
            f"give --chronicle {who.character.chronicle} to track it there"
        )


def _character(session: Any, name: str, chronicle: str | None) -> Any:
    """The character called ``name``; when ``chronicle`` is given, refuse one that lives in another chronicle."""
    from stkit.store.characters import get_character

    if chronicle is None:
        return get_character(session, name, None)
    try:
        return get_character(session, name, chronicle)
    except NotFound as missing:
        try:
            elsewhere = get_character(session, name, None)
        except (NotFound, InvalidValue):
            raise missing from None
        raise RuleRefusal(
            f"{elsewhere.name} is in chronicle {elsewhere.chronicle!r}, not in {chronicle!r} where this takes place"
        ) from None


def _numeric_pool(expression: str) -> int:
    if not _NUMBER.match(expression):
        raise InvalidValue(
            f"dice pool {expression!r} names traits but no character rolls it; give --char NAME, or a number of dice"
        )
    return validate_pool(int(expression))


def participant(session: Any, name_or_pool: str | None, expression: str | None, chronicle: str | None) -> Participant:
    """Resolve a side or roller: a number of dice ('6'), or a character name with a sheet expression.

    Raises InvalidValue when a character has no expression, NotFound for an unknown name, RuleRefusal for a
    character of another chronicle.
    """
    text = (name_or_pool or "").strip()
    if text and _NUMBER.match(text):
        if expression and expression.strip() != text:
            raise InvalidValue(f"{text!r} is already a number of dice; a pool expression needs a character")
        _numeric_pool(text)
        return Participant(None, text)
    if not text:
        if expression is None:
            raise InvalidValue("say who rolls: a character (--char NAME) with --pool, or a number of dice")
        _numeric_pool(expression)
        return Participant(None, expression.strip())
    char = _character(session, text, chronicle)
    if not expression or not expression.strip():
        raise InvalidValue(f'{char.name} rolls from the sheet: give the pool, e.g. --pool "Stamina + Stealth"')
    return Participant(char, expression.strip())


def check_pool(session: Any, who: Participant) -> tuple[int, str]:
    """The dice pool ``who`` rolls now and how it was built (sheet, form and wound penalty applied)."""
    if who.character is None:
        n = _numeric_pool(who.expression)
        return n, f"{n} dice"
    from stkit.store.pools import build_pool

    built = build_pool(who.character, who.expression)
    return built.dice, built.text


def opponent_difficulty(text: str | int, opponent: Participant) -> tuple[int, str | None]:
    """A difficulty given as a number, or as the opponent's Traits plus numbers ("Wits + 3", "Intelligence +
    Expression"), as resisted rolls often set it (Chapter Five, "Resisted Actions", "Try It Out").

    Returns (difficulty, how it was worked out or None for a plain number). A worked-out difficulty is held
    within 2..10 (a difficulty is never outside that range); the opponent's form changes its Attributes.
    Raises InvalidValue for a plain number outside 2..10, an unknown Trait, or Traits of a bare dice pool.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return validate_difficulty(text), None
    t = str(text).strip()
    if _NUMBER.match(t):
        return validate_difficulty(int(t)), None
    if opponent.character is None:
        raise InvalidValue(
            f"difficulty {t!r} names Traits but the other side is a plain dice pool; give a number 2 to 10"
        )
    from stkit.store import traits as T
    from stkit.store.forms import apply_form
    from stkit.store.pools import resolve_pool_trait

    sheet = opponent.character.to_sheet()
    terms = re.findall(r"([+-]?)\s*([^+-]+)", t)
    if not terms or "".join(a + b for a, b in terms).replace(" ", "") != t.replace(" ", ""):
        raise InvalidValue(f"difficulty {t!r} is not a number or Traits joined by + and -")
    total, bits = 0, []
    for sign, term in terms:
        term = term.strip()
        if term.isdigit():
            value, label = int(term), term
        else:
            try:
                name, _ = resolve_pool_trait(sheet, term)
            except InvalidValue as exc:
                raise InvalidValue(str(exc).replace("in the dice pool", f"in the difficulty {t!r}")) from None
            value = sheet.rating(name)
            if name in T.ATTRIBUTES:
                value = apply_form(sheet.form, name, value)
            label = f"{name} {value}"
        total += -value if sign == "-" else value
        bits.append(label if not bits else f"{'-' if sign == '-' else '+'} {label}")
    used = min(max(total, 2), 10)
    how = f"{opponent.character.name}'s {' '.join(bits)} = {total}"
    if used != total:
        how += f", held to {used} (difficulties run from 2 to 10)"
    return used, how


def roll_for(
    session: Any,
    who: Participant,
    difficulty: int,
    *,
    chronicle: str,
    faces: list[int] | None,
    willpower: bool,
    rng: Any,
    rules: HouseRules,
    kind: str,
) -> ParticipantRoll:
    """Roll (or count ``faces``) for ``who`` and write the roll-log entry, in the caller's transaction.

    A character's roll goes through the character store's roll use case: the pool from the sheet, the
    Willpower point spent (refused when none is left or already spent this turn), the scene hooks.
    """
    validate_difficulty(difficulty)
    from stkit.store.models import RollLog

    if who.character is not None:
        from stkit.store.rolls import roll_from_sheet

        out = roll_from_sheet(
            session,
            who.character.name,
            who.expression,
            difficulty=difficulty,
            chronicle=who.character.chronicle,
            willpower=willpower,
            rules=rules,
            rng=rng,
            faces=faces,
            kind=kind,
        )
        return ParticipantRoll(
            out.roll, session.get(RollLog, out.log_id), out.pool.text if out.pool else f"{out.roll.pool} dice", who
        )
    from stkit.store.gateway import as_gateway
    from stkit.store.rolls import write_log

    pool = _numeric_pool(who.expression)
    if willpower:
        raise RuleRefusal("Willpower is spent from a character sheet; a bare dice pool has none (use --char)")
    roll = (
        count_dice(pool, difficulty, faces, rules=rules)
        if faces is not None
        else roll_pool(pool, difficulty, rng=rng, rules=rules)
    )
    scene = open_scene(session, chronicle)
    entry = write_log(
        as_gateway(session),
        chronicle=chronicle,
        character_id=None,
        character_name="",
        expression=who.expression,
        result=roll,
        detail={"breakdown": f"{pool} dice"},
        scene_id=scene.id if scene else None,
        turn=scene.turn if scene else None,
        kind=kind,
    )
    return ParticipantRoll(roll, session.get(RollLog, entry.id), f"{pool} dice", who)


def _faces(text_or_list: Any) -> list[int] | None:
    if text_or_list is None:
        return None
    return list(text_or_list)


def _tracked_event(session: Any, row: Any, kind: str, change: str) -> None:
    """The table event ('extended' or 'contest') of a tracked row's change ('started', 'rolled',
    'abandoned'), in the caller's transaction."""
    from stkit.store.events import record_event

    data = {"id": row.id, "name": row.name, "status": row.status, "target": row.target, "change": change}
    if kind == "contest":
        data |= {"tally_a": row.tally_a, "tally_b": row.tally_b, "winner": row.winner}
    else:
        data |= {"tally": row.tally, "rolls": row.rolls}
    record_event(session, chronicle=row.chronicle, kind=kind, data=data)


# -------------------------------------------------------------------------------------- extended actions


def _get_locked(session: Any, model: Any, row_id: int, lock: bool, missing: str) -> Any:
    """The ``model`` row ``row_id`` (``lock``: row lock for an update); NotFound(``missing``) otherwise."""
    from sqlmodel import select

    stmt = select(model).where(model.id == row_id)
    if lock:
        stmt = stmt.with_for_update()
    row = session.exec(stmt).first()
    if row is None:
        raise NotFound(missing)
    return row


def get_action(session: Any, action_id: int, *, lock: bool = False) -> Any:
    """The tracked extended action ``action_id``; NotFound otherwise. ``lock``: row lock for an update."""
    from stkit.store.scene_models import TrackedAction

    return _get_locked(
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
    from stkit.config import default_chronicle
    from stkit.store.scene_models import TrackedAction

    name = (name or "").strip()
    if not name:
        raise InvalidValue('an extended action needs a name, e.g. "Stay hidden"')
    check_text(name, "extended action name", limit=MAX_NAME)
    check_target(target)
    validate_difficulty(difficulty)
    seconds = check_interval(interval) if interval else None
    who = participant(session, character, pool, chronicle)
    _check_scene_chronicle(session, chronicle, who)
    check_pool(session, who)  # a typo in the pool fails now, not at the first roll
    chron = who.character.chronicle if who.character is not None else default_chronicle(chronicle)
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
    _tracked_event(session, action, "extended", "started")
    return action


@dataclass
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
    rules: HouseRules = HouseRules(),
) -> ExtendedRollOutcome:
    """Make one roll on extended action ``action_id`` and apply it to the tally (one transaction).

    The roller is ``character`` (another participant, teamwork over time) or the action's own character; it
    rolls ``pool`` or the action's expression. Successes add up; a botch wipes the tally (ends the attempt
    with botch_ends) unless the action was started with botch_spoils off; reaching the target completes it.
    Raises NotFound (unknown id or character), RuleRefusal (action finished or abandoned, character of another
    chronicle, no Willpower left, Willpower already spent this turn), InvalidValue (bad dice).
    """
    from stkit.store.models import Character
    from stkit.store.scene_models import TrackedRoll, utcnow

    action = get_action(session, action_id, lock=True)
    if action.status != "open":
        raise RuleRefusal(f"extended action {action.id} ({action.name!r}) is {action.status}; it takes no more rolls")
    if character:
        who = participant(session, character, pool or action.pool_expr, action.chronicle)
    elif action.character_id is not None:
        char = session.get(Character, action.character_id)
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
        faces=_faces(faces),
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
    _tracked_event(session, action, "extended", "rolled")
    spoiled = made.roll.botch and action.botch_spoils
    return ExtendedRollOutcome(action, record, made, before.tally, spoiled)


def _abandon(row: Any, what: str) -> Any:
    """Mark an open tracked row (extended action or contest) abandoned; RuleRefusal when it is finished."""
    from stkit.store.scene_models import utcnow

    if row.status != "open":
        raise RuleRefusal(f"{what} {row.id} ({row.name!r}) is already {row.status}")
    row.status = "abandoned"
    row.finished_at = utcnow()
    return row


def _newest_first(session: Any, model: Any, chronicle: str | None, status: str | None) -> list:
    """Rows of a tracked table, newest first; optionally one chronicle's, or only those with ``status``."""
    from sqlmodel import select

    stmt = select(model).order_by(model.id.desc())
    if chronicle is not None:
        stmt = stmt.where(model.chronicle == chronicle)
    if status is not None:
        stmt = stmt.where(model.status == status)
    return list(session.exec(stmt))


def abandon_extended(session: Any, action_id: int) -> Any:
    """Give up an open extended action. RuleRefusal when it is already finished, NotFound for a bad id."""
    action = _abandon(get_action(session, action_id, lock=True), "extended action")
    session.add(action)
    session.flush()
    _tracked_event(session, action, "extended", "abandoned")
    return action


def list_extended(session: Any, *, chronicle: str | None = None, status: str | None = None) -> list:
    """Tracked extended actions, newest first; optionally one chronicle's, or only those with ``status``."""
    from stkit.store.scene_models import TrackedAction

    return _newest_first(session, TrackedAction, chronicle, status)


def extended_rolls(session: Any, action_id: int) -> list:
    """The rolls of an action in order (seq 1, 2, ...)."""
    from sqlmodel import select

    from stkit.store.scene_models import TrackedRoll

    return list(session.exec(select(TrackedRoll).where(TrackedRoll.action_id == action_id).order_by(TrackedRoll.seq)))


def _names(session: Any, ids: set) -> dict:
    from sqlmodel import select

    from stkit.store.models import Character

    ids = {i for i in ids if i is not None}
    if not ids:
        return {}
    return {c.id: c.name for c in session.exec(select(Character).where(Character.id.in_(ids)))}


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
    from stkit.errors import StkitError

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
    names = _names(session, {action.character_id} | {r.character_id for r in rolls})
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
    from stkit.store.models import Character

    if action.character_id is None:
        return Participant(None, action.pool_expr)
    char = session.get(Character, action.character_id)
    if char is None:
        raise NotFound("character gone")
    return Participant(char, action.pool_expr)


def replay_check(session: Any, action: Any) -> tuple[int, int]:
    """(stored tally, tally implied by replaying the logged rolls in order): equal unless a roll was lost."""
    from stkit.dice.contest import replay_extended

    rolls = extended_rolls(session, action.id)
    state = replay_extended(
        action.target,
        [(r.result, r.outcome == "botch") for r in rolls],
        botch_ends=action.botch_ends,
        botch_spoils=action.botch_spoils,
    )
    return action.tally, state.tally


# ---------------------------------------------------------------------------------------------- contests


def get_contest(session: Any, contest_id: int, *, lock: bool = False) -> Any:
    """The contest ``contest_id``; NotFound otherwise."""
    from stkit.store.scene_models import Contest

    return _get_locked(session, Contest, contest_id, lock, f"no contest with id {contest_id}; see: stkit contest list")


def start_contest(
    session: Any,
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
) -> Any:
    """Start an extended and resisted contest between side ``a`` and side ``b`` (character names with sheet
    expressions, or numbers of dice). Both characters must share the contest's chronicle. ``difficulty`` is side
    A's (and B's too unless ``difficulty_b``): a number, or the other side's Traits ("Wits + 3"), worked out now.

    Raises InvalidValue (target below 1, difficulty, mode), NotFound, RuleRefusal (chronicles differ).
    Source: Chapter Five, "Resisted Actions" and "Try It Out".
    """
    from stkit.config import default_chronicle
    from stkit.store.scene_models import Contest

    name = (name or "").strip()
    if not name:
        raise InvalidValue('a contest needs a name, e.g. "Debate at the moot"')
    check_text(name, "contest name", limit=MAX_NAME)
    check_target(target)
    ContestState(target=target, mode=mode)  # validates target and mode
    side_a = participant(session, a, pool_a, chronicle)
    chron = chronicle
    if chron is None and side_a.character is not None:
        chron = side_a.character.chronicle
    side_b = participant(session, b, pool_b, chron)
    if chron is None and side_b.character is not None:
        chron = side_b.character.chronicle
    chron = default_chronicle(chron)
    if side_a.character_id is not None and side_a.character_id == side_b.character_id:
        raise RuleRefusal(
            f"{side_a.character.name} is on both sides of the contest; side B needs another "
            f"character or a number of dice"
        )
    for who in (side_a, side_b):
        _check_scene_chronicle(session, chronicle, who)
        if who.character is not None and who.character.chronicle != chron:
            raise RuleRefusal(f"{who.character.name} is in chronicle {who.character.chronicle!r}, not in {chron!r}")
        check_pool(session, who)
    d_a, _ = opponent_difficulty(difficulty, side_b)
    d_b, _ = opponent_difficulty(difficulty if difficulty_b is None else difficulty_b, side_a)
    scene = open_scene(session, chron)
    contest = Contest(
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
        tally_a=0,
        tally_b=0,
        exchanges=0,
        status="open",
    )
    session.add(contest)
    session.flush()
    _tracked_event(session, contest, "contest", "started")
    return contest


def _side(session: Any, contest: Any, side: str, expression: str | None) -> Participant:
    from stkit.store.models import Character

    char_id = contest.a_character_id if side == "a" else contest.b_character_id
    expr = (expression or (contest.a_pool_expr if side == "a" else contest.b_pool_expr)).strip()
    if char_id is None:
        _numeric_pool(expr)
        return Participant(None, expr)
    char = session.get(Character, char_id)
    if char is None:
        raise NotFound(f"side {side.upper()}'s character no longer exists")
    return Participant(char, expr)


def contest_rolls(session: Any, contest_id: int) -> list:
    """The rolls of a contest in order of exchange, side A first."""
    from sqlmodel import select

    from stkit.store.scene_models import ContestRoll

    return list(
        session.exec(
            select(ContestRoll)
            .where(ContestRoll.contest_id == contest_id)
            .order_by(ContestRoll.exchange, ContestRoll.side)
        )
    )


def roll_contest(
    session: Any,
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
    rng: Any,
    rules: HouseRules = HouseRules(),
) -> dict:
    """Roll the next exchange of a contest: both sides, or only ``side`` ("a" or "b") when the players roll
    separately (the exchange resolves once both have rolled). ``pool_*`` and ``difficulty_*`` change the
    traits or difficulty for this exchange only (a debate changes them as it heats up); a difficulty may name
    the other side's Traits ("Intelligence + Expression"), see :func:`opponent_difficulty`.

    Returns a JSON-ready dict (see :func:`contest_status`) with ``"rolled"`` (this call's rolls) and
    ``"exchange"`` (the resolved exchange, or None while waiting for the other side).
    Raises NotFound, RuleRefusal (contest over, side already rolled this exchange), InvalidValue.
    """
    from stkit.store.scene_models import ContestRoll, utcnow

    if side not in (None, "a", "b"):
        raise InvalidValue(f"side {side!r} must be a or b")
    contest = get_contest(session, contest_id, lock=True)
    if contest.status != "open":
        raise RuleRefusal(
            f"contest {contest.id} ({contest.name!r}) is {'won by side ' + str(contest.winner).upper() if contest.status == 'done' else contest.status}; it takes no more rolls"
        )
    exchange = contest.exchanges + 1
    pending = {r.side: r for r in contest_rolls(session, contest.id) if r.exchange == exchange}
    sides = [side] if side else [s for s in ("a", "b") if s not in pending]
    for s in sides:
        if s in pending:
            other = "b" if s == "a" else "a"
            raise RuleRefusal(
                f"side {s.upper()} has already rolled exchange {exchange}; waiting for side {other.upper()}"
            )
    args = {
        "a": (pool_a, difficulty_a, faces_a, willpower_a, contest.a_difficulty),
        "b": (pool_b, difficulty_b, faces_b, willpower_b, contest.b_difficulty),
    }
    for s in ("a", "b"):
        if s not in sides and (args[s][0] or args[s][1] is not None or args[s][2] is not None or args[s][3]):
            raise InvalidValue(f"options for side {s.upper()} were given but side {s.upper()} does not roll now")
    rolled = {}
    for s in sides:
        expr, diff, faces, wp, base_diff = args[s]
        who = _side(session, contest, s, expr)
        how = None
        if diff is not None:
            diff, how = opponent_difficulty(diff, _side(session, contest, "b" if s == "a" else "a", None))
        made = roll_for(
            session,
            who,
            base_diff if diff is None else diff,
            chronicle=contest.chronicle,
            faces=_faces(faces),
            willpower=wp,
            rng=rng,
            rules=rules,
            kind="contest",
        )
        rec = ContestRoll(
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
            willpower=made.roll.willpower,
        )
        session.add(rec)
        pending[s] = rec
        rolled[s] = {
            "roll": made.roll.to_dict(),
            "explanation": made.explanation,
            "who": who.label,
            "character": who.character.name if who.character is not None else None,
            "difficulty_from": how,
        }
    resolved = None
    if "a" in pending and "b" in pending:
        ra, rb = pending["a"], pending["b"]
        state = ContestState(
            target=contest.target,
            mode=contest.mode,
            tally_a=contest.tally_a,
            tally_b=contest.tally_b,
            exchanges=contest.exchanges,
            botch_wipes=contest.botch_wipes,
        )
        new, ex = advance_contest(state, ra.result, ra.outcome == "botch", rb.result, rb.outcome == "botch")
        contest.tally_a, contest.tally_b, contest.exchanges = new.tally_a, new.tally_b, new.exchanges
        contest.status, contest.winner = new.status, new.winner
        if new.status != "open":
            contest.finished_at = utcnow()
        resolved = {
            "exchange": exchange,
            "winner": ex.winner,
            "margin": ex.margin,
            "result_a": ex.result_a,
            "result_b": ex.result_b,
            "botch_a": ex.botch_a,
            "botch_b": ex.botch_b,
            "wiped": list(ex.wiped),
        }
    session.add(contest)
    session.flush()
    _tracked_event(session, contest, "contest", "rolled")
    data = contest_status(session, contest)
    data["rolled"] = rolled
    data["exchange"] = resolved
    return data


def abandon_contest(session: Any, contest_id: int) -> Any:
    """Call off an open contest. RuleRefusal when it is over, NotFound for a bad id."""
    contest = _abandon(get_contest(session, contest_id, lock=True), "contest")
    session.add(contest)
    session.flush()
    _tracked_event(session, contest, "contest", "abandoned")
    return contest


def list_contests(session: Any, *, chronicle: str | None = None, status: str | None = None) -> list:
    """Contests, newest first."""
    from stkit.store.scene_models import Contest

    return _newest_first(session, Contest, chronicle, status)


def contest_status(session: Any, contest: Any) -> dict:
    """A JSON-ready description of a contest: sides, tallies (or the lead), exchanges so far."""
    rolls = contest_rolls(session, contest.id)
    names = _names(session, {contest.a_character_id, contest.b_character_id})
    exchanges: dict[int, dict] = {}
    for r in rolls:
        exchanges.setdefault(r.exchange, {"exchange": r.exchange})[r.side] = {
            "pool_expr": r.pool_expr,
            "pool": r.pool,
            "difficulty": r.difficulty,
            "dice": json.loads(r.dice),
            "result": r.result,
            "outcome": r.outcome,
            "willpower": r.willpower,
            "roll_id": r.roll_log_id,
        }
    waiting = None
    if contest.status == "open":
        nxt = exchanges.get(contest.exchanges + 1)
        if nxt:
            waiting = "b" if "a" in nxt else "a"
    return {
        "id": contest.id,
        "name": contest.name,
        "chronicle": contest.chronicle,
        "scene_id": contest.scene_id,
        "mode": contest.mode,
        "target": contest.target,
        "botch_wipes": contest.botch_wipes,
        "a": {
            "character": names.get(contest.a_character_id),
            "pool": contest.a_pool_expr,
            "difficulty": contest.a_difficulty,
            "tally": contest.tally_a,
        },
        "b": {
            "character": names.get(contest.b_character_id),
            "pool": contest.b_pool_expr,
            "difficulty": contest.b_difficulty,
            "tally": contest.tally_b,
        },
        "lead": contest.tally_a - contest.tally_b,
        "exchanges": contest.exchanges,
        "status": contest.status,
        "winner": contest.winner,
        "waiting_for": waiting,
        "history": [exchanges[k] for k in sorted(exchanges)],
    }


# ------------------------------------------------------------------------------------- multiple actions


@dataclass
class SheetActionSlot:
    """One of several actions declared by a character in a turn: the pool the sheet gives (form and wounds
    applied), the multiple-action penalty, the dice left, and the logged roll (None when no dice are left)."""

    expression: str
    breakdown: str
    declared_pool: int
    penalty: int
    pool: int
    difficulty: int
    rolled: Any | None  # stkit.store.rolls.SheetRoll

    def to_dict(self) -> dict:
        return {
            "expression": self.expression,
            "breakdown": self.breakdown,
            "declared_pool": self.declared_pool,
            "penalty": self.penalty,
            "pool": self.pool,
            "possible": self.pool >= 1,
            "difficulty": self.difficulty,
            "roll": self.rolled.roll.to_dict() if self.rolled else None,
            "log_id": self.rolled.log_id if self.rolled else None,
            "scene_id": self.rolled.scene_id if self.rolled else None,
            "turn": self.rolled.turn if self.rolled else None,
        }


def multi_from_sheet(
    session: Any,
    name: str,
    expressions: list[str],
    difficulties: list[int],
    *,
    chronicle: str | None = None,
    faces: list[list[int]] | None = None,
    rng: Any,
    rules: HouseRules = HouseRules(),
) -> list[SheetActionSlot]:
    """Several actions declared by character ``name`` in one turn, each pool built from the sheet, then the
    multiple-action ladder applied (Chapter Five, "Multiple Actions": with N actions the first loses N dice,
    each later one a die more; an action left with no dice is not attempted). Each attempted action is rolled
    and logged through the character store's roll use case (so it lands in the open scene's turn).

    ``faces``: physical dice, one list per action that can be attempted. Raises InvalidValue, NotFound,
    RuleRefusal; nothing is logged then.
    """
    from stkit.dice import multiple_action_penalties
    from stkit.store.characters import get_character
    from stkit.store.pools import build_pool
    from stkit.store.rolls import roll_from_sheet

    if len(difficulties) != len(expressions):
        raise InvalidValue(
            f"{len(difficulties)} difficulties for {len(expressions)} actions; give one for all, or one each"
        )
    char = get_character(session, name, chronicle, for_update=True)
    sheet = char.to_sheet()
    built = [build_pool(sheet, e) for e in expressions]
    penalties = multiple_action_penalties(len(built))
    possible = sum(1 for b, pen in zip(built, penalties) if b.dice - pen >= 1)
    if faces is not None and len(faces) != possible:
        raise InvalidValue(f"{len(faces)} --dice given but {possible} of the actions can be attempted; give one each")
    it = iter(faces or [])
    slots = []
    for expr, b, pen, d in zip(expressions, built, penalties, difficulties):
        left = b.dice - pen
        rolled = None
        if left >= 1:
            rolled = roll_from_sheet(
                session,
                char.name,
                f"{expr.strip()} - {pen}",
                difficulty=d,
                chronicle=char.chronicle,
                faces=next(it) if faces is not None else None,
                rng=rng,
                rules=rules,
            )
        slots.append(SheetActionSlot(expr.strip(), b.text, b.dice, pen, left, d, rolled))
    return slots
