"""The roll log read back, and two entry points for callers outside a roll order: a roll from the sheet
(:func:`roll_from_sheet`, through :func:`stkit.store.rolling.make_roll`) and the logging of a roll already
made (:func:`log_plain_roll`). The roll itself, every door's, is :mod:`stkit.store.rolling`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from stkit.dice.house import RuleOverrides
from stkit.errors import InvalidValue
from stkit.store.characters import find_character
from stkit.store.gateway import Gateway, iso_utc
from stkit.store.rolling import (
    LOG_COLUMNS,
    LoggedRoll,
    Purpose,
    RollOrder,
    RollOutcome,
    SheetRoll,
    check_note,
    make_roll,
    write_log,
)

if TYPE_CHECKING:  # pragma: no cover
    import random

    from stkit.dice import HouseRules, RollResult
    from stkit.store.vocab import LogKind

__all__ = [
    "LOG_COLUMNS",
    "LoggedRoll",
    "SheetRoll",
    "check_note",
    "log_dict",
    "log_plain_roll",
    "recent_log",
    "roll_from_sheet",
    "write_log",
]


def roll_from_sheet(
    gw: Gateway,
    name: str,
    expression: str,
    *,
    difficulty: int | None = None,
    chronicle: str | None = None,
    willpower: bool = False,
    retry: int = 0,
    task: str | None = None,
    rules: HouseRules | None = None,
    rng: random.Random | None = None,
    faces: list[int] | None = None,
    auto: bool = False,
    stressful: bool = False,
    seed: int | None = None,
    kind: LogKind | None = None,
    note: str | None = None,
    spec: bool = False,
    secret: bool = False,
) -> RollOutcome:
    """Roll ``expression`` ("Dexterity + Brawl + 2") for character ``name``: :func:`make_roll` given loose
    options rather than a :class:`RollOrder`. ``rules`` and ``difficulty`` (2..10; None: the chronicle's)
    override the chronicle's house rules for this roll; ``rng``: a generator already made in this
    transaction (None: one from ``seed``). Raises what :func:`make_roll` raises."""
    order = RollOrder(
        expression,
        character=name,
        chronicle=chronicle,
        purpose=Purpose.sheet,
        overrides=RuleOverrides.of(rules, difficulty) if rules is not None else RuleOverrides(difficulty=difficulty),
        faces=tuple(faces) if faces is not None else None,
        seed=seed,
        willpower=willpower,
        retry=retry,
        auto=auto,
        stressful=stressful,
        task=task,
        note=note,
        secret=secret,
        spec=spec,
        log_kind=kind,
    )
    return make_roll(gw, order, rng=rng)


def log_plain_roll(
    gw: Gateway,
    expression: str,
    result: RollResult,
    *,
    chronicle: str | None = None,
    seed: int | None = None,
    secret: bool = False,
) -> RollOutcome:
    """Log a roll already made without a character (fixtures, benchmarks), in the caller's transaction;
    a ``secret`` roll shows on the Storyteller's table screen only. A roll to make goes through
    :func:`make_roll`."""
    from stkit.config import default_chronicle

    chron = default_chronicle(chronicle)
    detail = {"seed": seed, "retry": result.retry, "automatic": result.automatic}
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
    return RollOutcome(result, log_id=entry.id, chronicle=chron, seed=seed)


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
    gw: Gateway,
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
