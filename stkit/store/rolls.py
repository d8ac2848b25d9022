"""Rolling from the sheet, and the roll log.

:func:`roll_from_sheet` does everything one `stkit roll ... --char NAME` needs in ONE transaction: lock the
character, build the pool (form, wounds, extra dice), ask the scene hooks about the turn, the Willpower
limit and the try-again count, spend Willpower, roll, and write the log entry. If any step refuses, nothing
is spent or logged. Rules source: Chapter Five: Rules ("Rolling Dice", "Ratings", "Difficulties",
"Automatic Successes" for Willpower, "Try, Try Again").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stkit.errors import InvalidValue, RuleRefusal
from stkit.store import scenes

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from stkit.dice import HouseRules, RollResult
    from stkit.store.models import RollLog
    from stkit.store.pools import PoolBreakdown


@dataclass
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
            "character": self.character, "chronicle": self.chronicle,
            "pool_breakdown": self.pool.to_dict() if self.pool else None, "log_id": self.log_id,
            "willpower_left": self.willpower_left, "scene_id": self.scene_id, "turn": self.turn,
            "task": self.task, "task_retry": self.task_retry, "notes": self.notes,
        }


def _do_roll(pool: int, difficulty: int, *, faces, rng, rules, willpower: bool, retry: int, auto: bool,
             stressful: bool) -> RollResult:
    from stkit.dice import count_dice, roll_pool, take_automatic_success

    if auto:
        return take_automatic_success(pool, difficulty, stressful=stressful, retry=retry)
    if faces is not None:
        return count_dice(pool, difficulty, faces, rules=rules, willpower=willpower, retry=retry)
    return roll_pool(pool, difficulty, rng=rng, rules=rules, willpower=willpower, retry=retry)


def _log_entry(*, chronicle: str, character_id, character_name: str, expression: str, result: RollResult,
               detail: dict, scene_id=None, turn=None, task=None) -> RollLog:
    from stkit.store.models import RollLog

    return RollLog(
        chronicle=chronicle, character_id=character_id, character_name=character_name, kind="roll",
        expression=expression, pool=result.pool, difficulty=result.difficulty, dice=json.dumps(list(result.dice)),
        outcome=result.outcome.value, result=result.result, willpower=result.willpower, scene_id=scene_id,
        turn=turn, task=task, detail=json.dumps(detail, sort_keys=True),
    )


def roll_from_sheet(
    session: Session,
    name: str,
    expression: str,
    *,
    difficulty: int = 6,
    chronicle: str | None = None,
    willpower: bool = False,
    retry: int = 0,
    task: str | None = None,
    rules: HouseRules | None = None,
    rng=None,  # noqa: ANN001 - anything with randint(a, b)
    faces: list[int] | None = None,
    auto: bool = False,
    stressful: bool = False,
    seed: int | None = None,
) -> SheetRoll:
    """Roll ``expression`` ("Dexterity + Brawl + 2") for character ``name`` against ``difficulty`` (2..10).

    ``retry`` explicit earlier failures, plus the scene's count for ``task``, raise the difficulty (at most
    10). ``willpower`` spends one temporary Willpower point from the sheet, refused (RuleRefusal) with
    nothing spent when none is left or the scene allows no more this turn. ``faces`` scores physical dice;
    ``auto`` takes an automatic success. Raises NotFound, InvalidValue, RuleRefusal; writes nothing then.
    """
    from stkit.dice import STANDARD_RULES, retry_difficulty, validate_difficulty
    from stkit.store.characters import get_character
    from stkit.store.pools import build_pool

    validate_difficulty(difficulty)
    if retry < 0:
        raise InvalidValue(f"retry {retry} must be 0 or more (the number of earlier failures)")
    if auto and (willpower or faces is not None):
        raise InvalidValue("an automatic success is taken without rolling; it cannot go with Willpower or dice")
    rules = rules or STANDARD_RULES
    character = get_character(session, name, chronicle, for_update=True)
    sheet = character.to_sheet()
    breakdown = build_pool(sheet, expression)
    ctx = scenes.find_turn_context(session, character)
    if willpower:
        scenes.check_willpower_allowed(session, character, ctx)
        if sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{sheet.name} has no Willpower points left; nothing was spent or rolled")
    task_retry = scenes.retry_count_for_task(session, character, task) or 0
    total_retry = retry + task_retry
    notes: list[str] = []
    if task_retry:
        used = retry_difficulty(difficulty, total_retry)
        notes.append(
            f"try again: {task_retry} earlier failure{'s' if task_retry != 1 else ''} at {task!r} "
            f"raise the difficulty from {difficulty} to {used}"
        )
    result = _do_roll(breakdown.dice, difficulty, faces=faces, rng=rng, rules=rules, willpower=willpower,
                      retry=total_retry, auto=auto, stressful=stressful)
    left = None
    if willpower:
        sheet.spend("Willpower", 1)
        left = sheet.powers["Willpower"].temporary
        character.store_sheet(sheet)
        session.add(character)
    detail = {"breakdown": breakdown.text, "seed": seed, "retry": total_retry, "base_difficulty": difficulty,
              "automatic": result.automatic, "specialty": rules.specialty.value,
              "ones_cancel": rules.ones_cancel, "extra_ones_cancel": rules.extra_ones_cancel}
    entry = _log_entry(
        chronicle=character.chronicle, character_id=character.id, character_name=character.name,
        expression=expression.strip(), result=result, detail=detail,
        scene_id=getattr(ctx, "scene_id", None), turn=getattr(ctx, "turn", None), task=task,
    )
    session.add(entry)
    session.flush()
    scenes.record_roll_in_scene(session, character, entry, ctx, task)
    return SheetRoll(result, breakdown, entry.id, character.name, character.chronicle, left,
                     getattr(ctx, "scene_id", None), getattr(ctx, "turn", None), task, task_retry, notes)


def log_plain_roll(session: Session, expression: str, result: RollResult, *, chronicle: str | None = None,
                   seed: int | None = None) -> SheetRoll:
    """Log a roll made without a character (`stkit roll 5 --log`)."""
    from stkit.config import default_chronicle

    chron = default_chronicle(chronicle)
    entry = _log_entry(chronicle=chron, character_id=None, character_name="", expression=expression.strip(),
                       result=result, detail={"seed": seed, "retry": result.retry, "automatic": result.automatic})
    session.add(entry)
    session.flush()
    return SheetRoll(result, None, entry.id, None, chron)


def entry_to_dict(e: RollLog) -> dict:
    """A log entry as the JSON ``stkit log --json`` prints."""
    from stkit.store.fastread import iso_utc

    return {
        "id": e.id, "created_at": iso_utc(e.created_at),
        "chronicle": e.chronicle, "character_id": e.character_id, "character": e.character_name or None,
        "kind": e.kind, "expression": e.expression, "pool": e.pool, "difficulty": e.difficulty,
        "dice": json.loads(e.dice), "outcome": e.outcome, "result": e.result, "willpower": bool(e.willpower),
        "scene_id": e.scene_id, "turn": e.turn, "task": e.task, "detail": json.loads(e.detail or "{}"),
    }


def recent_rolls(session: Session, *, name: str | None = None, chronicle: str | None = None,
                 limit: int = 20) -> list[RollLog]:
    """The newest ``limit`` (1..10000) log entries, newest first; of one character when ``name`` is given.
    Raises NotFound for an unknown character, InvalidValue for a bad limit."""
    from sqlmodel import select

    from stkit.store.characters import get_character
    from stkit.store.models import RollLog

    if not 1 <= limit <= 10_000:
        raise InvalidValue(f"--limit {limit} is outside the allowed range 1 to 10000")
    stmt = select(RollLog)
    if name:
        stmt = stmt.where(RollLog.character_id == get_character(session, name, chronicle).id)
    elif chronicle:
        stmt = stmt.where(RollLog.chronicle == chronicle)
    return list(session.exec(stmt.order_by(RollLog.id.desc()).limit(limit)))
