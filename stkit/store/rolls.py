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
from typing import TYPE_CHECKING, Any

from stkit.errors import InvalidValue, RuleRefusal
from stkit.store import scenes
from stkit.store.characters import find_character, save_sheet
from stkit.store.gateway import Gateway, as_gateway, iso_utc
from stkit.store.pools import build_pool

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from stkit.dice import HouseRules, RollResult
    from stkit.dice.house import ChronicleRules
    from stkit.store.house import Forgiveness
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
    house_in_force: tuple[str, ...] = ()
    forgiven_botch: bool = False
    note: str | None = None
    specialty_used: dict | None = None  # {"trait", "name", "rule"} when the roll used a specialty (--spec)

    def to_dict(self) -> dict:
        return {
            "house_rules_in_force": list(self.house_in_force),
            "forgiven_botch": self.forgiven_botch,
            "note": self.note,
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
            **({"specialty_used": self.specialty_used} if self.specialty_used else {}),
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
    difficulty: int | None = 6,
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
    house_flags: dict | None = None,
    note: str | None = None,
    spec: bool = False,
    secret: bool = False,
) -> SheetRoll:
    """Roll ``expression`` ("Dexterity + Brawl + 2") for character ``name`` against ``difficulty`` (2..10).

    ``house_flags``: when given ({} for none), the character's chronicle's house rules apply with these
    per-roll overrides (keyword arguments of :meth:`stkit.dice.house.ChronicleRules.override`; a
    ``difficulty`` of None there takes the chronicle's default); ``rules`` and ``difficulty`` are then
    ignored. The free botch, when in force, forgives the night's first botch and records it. ``note``:
    free text kept in the log entry (checked: one line, at most 200 characters).

    ``session`` is a SQLAlchemy Session (the caller's transaction) or a :class:`~stkit.store.gateway.Gateway`
    (see :func:`stkit.store.gateway.run_unit`). ``retry`` explicit earlier failures, plus the scene's count
    for ``task``, raise the difficulty (at most 10). ``willpower`` spends one temporary Willpower point from
    the sheet, refused (RuleRefusal) with nothing spent when none is left or the scene allows no more this
    turn. ``faces`` scores physical dice; ``auto`` takes an automatic success; ``kind`` labels the log entry
    ('roll', or what a tracked action logs). ``spec``: the roll uses a specialty, so the specialty house rule
    of ``rules`` applies; refused (InvalidValue) when no Trait of the pool has one on the sheet. A ``secret``
    roll (and its Willpower spend) shows on the Storyteller's table screen only. Raises NotFound,
    InvalidValue, RuleRefusal; writes nothing then.
    """
    from stkit.dice import STANDARD_RULES, retry_difficulty, validate_roll_options

    if house_flags is None:
        difficulty = 6 if difficulty is None else difficulty
        validate_roll_options(difficulty, retry=retry, automatic=auto, willpower=willpower, has_faces=faces is not None)
    rules = rules or STANDARD_RULES
    gw = as_gateway(session)
    character = find_character(gw, name, chronicle, for_update=True)
    house = None
    if house_flags is not None:
        from stkit.store.house import get_house_rules

        house = get_house_rules(gw, character.chronicle).override(**house_flags)
        rules, difficulty = house.dice_rules(), house.difficulty
        validate_roll_options(
            house.difficulty, retry=retry, automatic=auto, willpower=willpower, has_faces=faces is not None
        )
    note = check_note(note)
    assert difficulty is not None  # set above: the caller's, or the house rules'
    sheet = character.to_sheet()
    breakdown = build_pool(sheet, expression)
    notes: list[str] = []
    specialty = None
    if spec:
        from stkit.store.specialties import apply_specialty

        rules, specialty = apply_specialty(sheet, breakdown, rules)
        notes.append(specialty.text)
    ctx = scenes.find_turn_context(gw, character)
    if willpower:
        scenes.check_willpower_allowed(gw, character, ctx)
        if sheet.powers["Willpower"].temporary < 1:
            raise RuleRefusal(f"{sheet.name} has no Willpower points left; nothing was spent or rolled")
    task_retry = scenes.retry_count_for_task(gw, character, task) or 0
    total_retry = retry + task_retry
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
    forgiveness = None
    if house is not None:
        from stkit.store.house import claim_free_botch

        forgiveness = claim_free_botch(gw, character.chronicle, result, house)
        result = forgiveness.result
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
    detail: dict[str, Any] = {
        "breakdown": breakdown.text,
        "seed": seed,
        "retry": total_retry,
        "base_difficulty": difficulty,
        "automatic": result.automatic,
        "specialty": rules.specialty.value,
        "ones_cancel": rules.ones_cancel,
        "extra_ones_cancel": rules.extra_ones_cancel,
    }
    if house is not None:
        detail["house_rules_in_force"] = house.in_force()
    if forgiveness is not None and forgiveness.forgiven:
        detail["forgiven_botch"] = forgiveness.night
    if note:
        detail["note"] = note
    if specialty is not None:
        detail["specialty_used"] = specialty.to_dict()
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
    if forgiveness is not None:
        from stkit.store.house import link_free_botch

        link_free_botch(gw, character.chronicle, forgiveness, entry.id)
    return SheetRoll(
        result,
        breakdown,
        entry.id,
        character.name,
        character.chronicle,
        left,
        scene_id,
        turn,
        task,
        task_retry,
        notes,
        tuple(house.in_force()) if house is not None else (),
        bool(forgiveness and forgiveness.forgiven),
        note,
        specialty.to_dict() if specialty is not None else None,
    )


def check_note(note: str | None) -> str | None:
    """A roll's note as stored: stripped, None when empty. Raises InvalidValue for control characters or
    more than 200 characters."""
    from stkit.text import check_text

    if note is None or not note.strip():
        return None
    return check_text(note.strip(), "--note")


def log_plain_roll(
    session: Session | Gateway,
    expression: str,
    result: RollResult,
    *,
    chronicle: str | None = None,
    seed: int | None = None,
    house: ChronicleRules | None = None,
    note: str | None = None,
    forgiveness: Forgiveness | None = None,
    secret: bool = False,
) -> SheetRoll:
    """Log a roll made without a character (`stkit roll 5 --log`), in the caller's transaction.
    ``house``: the house rules the roll was made under (recorded; the free botch applies, as in
    :func:`roll_from_sheet`, unless ``forgiveness`` says what it already did); ``note``: free text kept
    in the entry; a ``secret`` roll shows on the Storyteller's table screen only."""
    from stkit.config import default_chronicle

    chron = default_chronicle(chronicle)
    gw = as_gateway(session)
    note = check_note(note)
    detail: dict = {"seed": seed, "retry": result.retry, "automatic": result.automatic}
    if house is not None:
        from stkit.store.house import claim_free_botch

        forgiveness = forgiveness or claim_free_botch(gw, chron, result, house)
        result = forgiveness.result
        detail["house_rules_in_force"] = house.in_force()
        if forgiveness.forgiven:
            detail["forgiven_botch"] = forgiveness.night
    if note:
        detail["note"] = note
    entry = write_log(
        gw,
        chronicle=chron,
        character_id=None,
        character_name="",
        expression=expression.strip(),
        result=result,
        detail=detail,
        secret=secret,
    )
    if forgiveness is not None:
        from stkit.store.house import link_free_botch

        link_free_botch(gw, chron, forgiveness, entry.id)
    return SheetRoll(
        result,
        None,
        entry.id,
        None,
        chron,
        house_in_force=tuple(house.in_force()) if house is not None else (),
        forgiven_botch=bool(forgiveness and forgiveness.forgiven),
        note=note,
    )


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
    session: Session | Gateway,
    *,
    name: str | None = None,
    chronicle: str | None = None,
    limit: int = 20,
    scene: str | int | None = None,
    task: str | None = None,
) -> list[dict]:
    """The newest ``limit`` (1..10000) log entries as :func:`log_dict` dicts, newest first; of one character
    when ``name`` is given (else of ``chronicle``, else all), of one ``scene`` (an id, or a name or unique
    prefix of one) and of one ``task`` (case-insensitive) when given. Raises NotFound, InvalidValue."""
    check_log_limit(limit)
    gw = as_gateway(session)
    sql = f"SELECT {', '.join(LOG_COLUMNS)} FROM roll_log"
    where: list[str] = []
    params: dict[str, object] = {"limit": limit}
    if name:
        where.append("character_id = :cid")
        params["cid"] = find_character(gw, name, chronicle).id
    elif chronicle:
        where.append("chronicle = :chronicle")
        params["chronicle"] = chronicle
    if scene is not None:
        where.append("scene_id = :scene")
        params["scene"] = scene_id_of(gw, scene)
    if task:
        where.append("LOWER(task) = :task")
        params["task"] = task.strip().lower()
    if where:
        sql += " WHERE " + " AND ".join(where)
    return [log_dict(r) for r in gw.rows(sql + " ORDER BY id DESC LIMIT :limit", **params)]


def scene_id_of(gw: Gateway, scene: str | int) -> int:
    """A scene's id from its id (digits), exact name or unique name prefix. Raises NotFound (none),
    InvalidValue (several scenes match: the candidates listed)."""
    from stkit.errors import NotFound
    from stkit.store.scenes import MAX_ROW_ID
    from stkit.text import find_by_prefix, parse_whole_number, printable

    text = str(scene).strip()
    if text.isascii() and text.isdigit():
        return parse_whole_number(text, "scene id", 1, MAX_ROW_ID)
    rows = gw.rows("SELECT id, name FROM scenes ORDER BY id")
    found = find_by_prefix(text, [r[1] for r in rows], "scene")
    if found is None:
        raise NotFound(f"no scene named {printable(text)!r}; see: stkit scene list")
    ids = [r[0] for r in rows if r[1] == found]
    if len(ids) > 1:
        raise InvalidValue(f"several scenes are named {found!r} (ids {', '.join(map(str, ids))}); give the id")
    return int(ids[0])
