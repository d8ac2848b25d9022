"""Rolling from the sheet, and the roll log.

:func:`roll_from_sheet` does everything one `stkit roll ... --char NAME` needs in ONE transaction: lock the
character, build the pool (form, wounds, extra dice), ask the scene hooks about the turn, the Willpower
limit and the try-again count, spend Willpower, roll, and write the log entry. If any step refuses, nothing
is spent or logged. It is written once, as SQL through :mod:`stkit.store.gateway`: over sqlite3 on an
up-to-date SQLite file, over a SQLAlchemy connection everywhere else. Rules source: Chapter Five: Rules
("Rolling Dice", "Ratings", "Difficulties", "Automatic Successes" for Willpower, "Try, Try Again").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from stkit.errors import InvalidValue, RuleRefusal
from stkit.store import scenes
from stkit.store.characters import find_character, save_sheet
from stkit.store.gateway import Gateway, as_gateway, iso_utc
from stkit.store.pools import build_pool

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from stkit.dice import HouseRules, RollResult
    from stkit.store.pools import PoolBreakdown


@dataclass(frozen=True)
class SheetRoll:
    """What a roll from the sheet did: the roll, how the pool was built, the log entry's id, Willpower
    left (None when none was spent), the scene turn (or None) and notes for the player."""

    roll: RollResult
    pool: PoolBreakdown | None
    log_id: int | None
    character: str | None
    chronicle: str
    willpower_left: int | None = None
    scene_id: int | None = None
    turn: int | None = None
    task: str | None = None
    task_retry: int = 0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "character": self.character,
            "chronicle": self.chronicle,
            "pool_breakdown": self.pool.to_dict() if self.pool else None,
            "log_id": self.log_id,
            "willpower_left": self.willpower_left,
            "scene_id": self.scene_id,
            "turn": self.turn,
            "task": self.task,
            "task_retry": self.task_retry,
            "notes": self.notes,
        }


def roll_dice(
    pool: int,
    difficulty: int,
    *,
    faces,
    rng,
    rules,
    willpower: bool,
    retry: int,
    auto: bool,
    stressful: bool,
) -> RollResult:
    """Take an automatic success (``auto``), score the physical dice ``faces``, or roll ``pool`` dice with
    ``rng`` (Chapter Five, "Rolling Dice", "Automatic Successes"). Raises InvalidValue for bad values."""
    from stkit.dice import RollRequest, resolve_roll

    request = RollRequest(
        pool,
        difficulty,
        rules=rules,
        willpower=willpower,
        retry=retry,
        automatic=auto,
        stressful=stressful,
        faces=tuple(faces) if faces is not None else None,
    )
    return resolve_roll(request, rng=rng)


#: The roll_log columns, in the order of :func:`log_dict` (id first).
LOG_COLUMNS = (
    "id",
    "created_at",
    "chronicle",
    "character_id",
    "character_name",
    "kind",
    "expression",
    "pool",
    "difficulty",
    "dice",
    "outcome",
    "result",
    "willpower",
    "scene_id",
    "turn",
    "task",
    "detail",
)
_INSERT_LOG = (
    f"INSERT INTO roll_log ({', '.join(LOG_COLUMNS[1:])}) VALUES ({', '.join(':' + c for c in LOG_COLUMNS[1:])})"
)


@dataclass(frozen=True)
class LoggedRoll:
    """The roll-log entry just written, as the scene hooks see it."""

    id: int
    willpower: bool
    scene_id: int | None
    turn: int | None
    task: str | None


def write_log(
    gw: Gateway,
    *,
    chronicle: str,
    character_id: int | None,
    character_name: str,
    expression: str,
    result: RollResult,
    detail: dict,
    scene_id: int | None = None,
    turn: int | None = None,
    task: str | None = None,
    kind: str = "roll",
    secret: bool = False,
) -> LoggedRoll:
    """Insert one roll-log entry and its 'roll' table event (in the gateway's transaction) and return it
    with its id. A ``secret`` roll is marked in ``detail`` and its event is for the Storyteller only."""
    from stkit.store.events import record_event, roll_event_data

    if secret:
        detail = detail | {"secret": True}
    values = dict(
        created_at=gw.timestamp(datetime.now(UTC)),
        chronicle=chronicle,
        character_id=character_id,
        character_name=character_name,
        kind=kind,
        expression=expression,
        pool=result.pool,
        difficulty=result.difficulty,
        dice=json.dumps(list(result.dice)),
        outcome=result.outcome.value,
        result=result.final_successes,
        willpower=bool(result.willpower),
        scene_id=scene_id,
        turn=turn,
        task=task,
        detail=json.dumps(detail, sort_keys=True),
    )
    log_id = gw.insert(_INSERT_LOG, **values)
    record_event(
        gw,
        chronicle=chronicle,
        kind="roll",
        secret=secret,
        character_id=character_id,
        data=roll_event_data(
            log_id=log_id,
            character=character_name,
            expression=expression,
            breakdown=detail.get("breakdown"),
            result=result,
            scene_id=scene_id,
            turn=turn,
            task=task,
            kind=kind,
        ),
    )
    return LoggedRoll(log_id, bool(values["willpower"]), scene_id, turn, task)


def roll_from_sheet(
    session: Session | Gateway,
    name: str,
    expression: str,
    *,
    difficulty: int = 6,
    chronicle: str | None = None,
    willpower: bool = False,
    retry: int = 0,
    task: str | None = None,
    rules: HouseRules | None = None,
    rng=None,
    faces: list[int] | None = None,
    auto: bool = False,
    stressful: bool = False,
    seed: int | None = None,
    kind: str = "roll",
    secret: bool = False,
) -> SheetRoll:
    """Roll ``expression`` ("Dexterity + Brawl + 2") for character ``name`` against ``difficulty`` (2..10).

    ``session`` is a SQLAlchemy Session (the caller's transaction) or a :class:`~stkit.store.gateway.Gateway`
    (see :func:`stkit.store.gateway.run_unit`). ``retry`` explicit earlier failures, plus the scene's count
    for ``task``, raise the difficulty (at most 10). ``willpower`` spends one temporary Willpower point from
    the sheet, refused (RuleRefusal) with nothing spent when none is left or the scene allows no more this
    turn. ``faces`` scores physical dice; ``auto`` takes an automatic success; ``kind`` labels the log entry
    ('roll', or what a tracked action logs). A ``secret`` roll (and its Willpower spend) shows on the
    Storyteller's table screen only. Raises NotFound, InvalidValue, RuleRefusal; writes nothing then.
    """
    from stkit.dice import STANDARD_RULES, retry_difficulty, validate_roll_options

    validate_roll_options(difficulty, retry=retry, automatic=auto, willpower=willpower, has_faces=faces is not None)
    rules = rules or STANDARD_RULES
    gw = as_gateway(session)
    character = find_character(gw, name, chronicle, for_update=True)
    sheet = character.to_sheet()
    breakdown = build_pool(sheet, expression)
    ctx = scenes.find_turn_context(gw, character)
    if willpower:
        scenes.check_willpower_allowed(gw, character, ctx)
        if sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{sheet.name} has no Willpower points left; nothing was spent or rolled")
    task_retry = scenes.retry_count_for_task(gw, character, task) or 0
    total_retry = retry + task_retry
    notes: list[str] = []
    if task_retry:
        used = retry_difficulty(difficulty, total_retry)
        notes.append(
            f"try again: {task_retry} earlier failure{'s' if task_retry != 1 else ''} at {task!r} "
            f"raise the difficulty from {difficulty} to {used}"
        )
    result = roll_dice(
        breakdown.dice,
        difficulty,
        faces=faces,
        rng=rng,
        rules=rules,
        willpower=willpower,
        retry=total_retry,
        auto=auto,
        stressful=stressful,
    )
    left = None
    if willpower:
        sheet.spend("Willpower", 1)
        left = sheet.powers["Willpower"].temporary
        save_sheet(gw, character, sheet)
        from stkit.store.events import record_event

        record_event(
            gw,
            chronicle=character.chronicle,
            kind="sheet",
            secret=secret,
            character_id=character.id,
            data={"character": character.name, "summary": f"{character.name} spends 1 Willpower: {left} left"},
        )
    detail = {
        "breakdown": breakdown.text,
        "seed": seed,
        "retry": total_retry,
        "base_difficulty": difficulty,
        "automatic": result.automatic,
        "specialty": rules.specialty.value,
        "ones_cancel": rules.ones_cancel,
        "extra_ones_cancel": rules.extra_ones_cancel,
    }
    scene_id, turn = getattr(ctx, "scene_id", None), getattr(ctx, "turn", None)
    entry = write_log(
        gw,
        chronicle=character.chronicle,
        character_id=character.id,
        character_name=character.name,
        expression=expression.strip(),
        result=result,
        detail=detail,
        scene_id=scene_id,
        turn=turn,
        task=task,
        kind=kind,
        secret=secret,
    )
    scenes.record_roll_in_scene(gw, character, entry, ctx, task)
    return SheetRoll(
        result, breakdown, entry.id, character.name, character.chronicle, left, scene_id, turn, task, task_retry, notes
    )


def log_plain_roll(
    session: Session | Gateway,
    expression: str,
    result: RollResult,
    *,
    chronicle: str | None = None,
    seed: int | None = None,
    secret: bool = False,
) -> SheetRoll:
    """Log a roll made without a character (`stkit roll 5 --log`), in the caller's transaction; a
    ``secret`` one shows on the Storyteller's table screen only."""
    from stkit.config import default_chronicle

    chron = default_chronicle(chronicle)
    entry = write_log(
        as_gateway(session),
        chronicle=chron,
        character_id=None,
        character_name="",
        expression=expression.strip(),
        result=result,
        detail={"seed": seed, "retry": result.retry, "automatic": result.automatic},
        secret=secret,
    )
    return SheetRoll(result, None, entry.id, None, chron)


def log_dict(values: tuple | list) -> dict:
    """A log entry, given its :data:`LOG_COLUMNS` values in order, as the JSON ``stkit log --json`` prints."""
    (rid, created, chron, cid, cname, kind, expr, pool, diff, dice, outcome, result, wp, scene, turn, task, detail) = (
        values
    )
    return {
        "id": rid,
        "created_at": iso_utc(created),
        "chronicle": chron,
        "character_id": cid,
        "character": cname or None,
        "kind": kind,
        "expression": expr,
        "pool": pool,
        "difficulty": diff,
        "dice": json.loads(dice),
        "outcome": outcome,
        "result": result,
        "willpower": bool(wp),
        "scene_id": scene,
        "turn": turn,
        "task": task,
        "detail": json.loads(detail or "{}"),
    }


def check_log_limit(limit: int) -> None:
    """Raise InvalidValue unless ``limit`` (how many log entries) is 1..10000."""
    if not 1 <= limit <= 10_000:
        raise InvalidValue(f"--limit {limit} is outside the allowed range 1 to 10000")


def recent_log(
    session: Session | Gateway, *, name: str | None = None, chronicle: str | None = None, limit: int = 20
) -> list[dict]:
    """The newest ``limit`` (1..10000) log entries as :func:`log_dict` dicts, newest first; of one character
    when ``name`` is given (else of ``chronicle``, else all). Raises NotFound, InvalidValue."""
    check_log_limit(limit)
    gw = as_gateway(session)
    sql = f"SELECT {', '.join(LOG_COLUMNS)} FROM roll_log"
    params: dict[str, object] = {"limit": limit}
    if name:
        sql, params["cid"] = sql + " WHERE character_id = :cid", find_character(gw, name, chronicle).id
    elif chronicle:
        sql, params["chronicle"] = sql + " WHERE chronicle = :chronicle", chronicle
    return [log_dict(r) for r in gw.rows(sql + " ORDER BY id DESC LIMIT :limit", **params)]
