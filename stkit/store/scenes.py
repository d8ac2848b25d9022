"""Scenes and turns, and the scene hooks called by the character roll use case (stkit.store.rolls).

CONTRACT between the character-store work and the scenes work (the character-store work calls these from
its roll use case, in the same transaction as the roll):

- find_turn_context(session, character) -> TurnContext | None: the open scene/turn of the character's
  chronicle, or None when no scene is open.
- check_willpower_allowed(session, character, ctx) -> None: raise stkit.errors.RuleRefusal when the
  character already spent Willpower in this turn (called before anything is spent or rolled).
- retry_count_for_task(session, character, task) -> int: how many failed tries of `task` since the last
  success (0 when task is None), so the roll's difficulty is raised by that many (capped at 10).
- record_roll_in_scene(session, character, log_entry, ctx, task) -> None: anything extra to store once the
  roll log entry exists (log_entry.id is set; the log entry already carries scene_id, turn and task).

Rules: Chapter Five, "Automatic Successes" (Willpower buys one success, only once per turn) and "Try, Try
Again" (each failure of the same task raises the next try's difficulty by one).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC
from typing import Any

from stkit.errors import InvalidValue, NotFound, RuleRefusal

#: How far back the try-again count looks: past 8 failures every difficulty is already 10.
_RETRY_LOOKBACK = 12


@dataclass(frozen=True)
class TurnContext:
    """Where a roll falls: the open scene's id and its current turn number (1-based)."""

    scene_id: int
    turn: int


def task_key(task: str | None) -> str | None:
    """A task's name compared the forgiving way: case, spacing and hyphens do not matter."""
    if task is None:
        return None
    key = " ".join(task.replace("-", " ").replace("_", " ").split()).casefold()
    if not key:
        raise InvalidValue('--task needs a name, e.g. --task "scale the wall"')
    return key


# ---------------------------------------------------------------------------------------------- scenes


def _scene_event(session: Any, scene: Any, change: str) -> None:
    """The table event of a scene change ('started', 'turn', 'ended'), in the caller's transaction."""
    from stkit.store.events import record_event

    record_event(
        session,
        chronicle=scene.chronicle,
        kind="scene",
        data={"scene_id": scene.id, "name": scene.name, "turn": scene.turn, "status": scene.status, "change": change},
    )


def open_scene(session: Any, chronicle: str, *, lock: bool = False):
    """The open scene of ``chronicle`` or None. ``lock`` takes a row lock (PostgreSQL) for an update."""
    from sqlmodel import select

    from stkit.store.scene_models import Scene

    stmt = select(Scene).where(Scene.chronicle == chronicle, Scene.status == "open")
    if lock:
        stmt = stmt.with_for_update()
    return session.exec(stmt).first()


def require_open_scene(session: Any, chronicle: str, *, lock: bool = False):
    """The open scene of ``chronicle``; NotFound when there is none."""
    scene = open_scene(session, chronicle, lock=lock)
    if scene is None:
        raise NotFound(f"no scene is open in chronicle {chronicle!r}; start one with: stkit scene start NAME")
    return scene


def get_scene(session: Any, scene_id: int):
    """The scene with this id (any status); NotFound otherwise."""
    from stkit.store.scene_models import Scene

    scene = session.get(Scene, scene_id)
    if scene is None:
        raise NotFound(f"no scene with id {scene_id}")
    return scene


def start_scene(session: Any, chronicle: str, name: str):
    """Open a new scene named ``name`` in ``chronicle`` at turn 1.

    Raises RuleRefusal while another scene of the chronicle is open (one at a time), InvalidValue for an
    empty name. A unique index backs the rule against two processes starting scenes at once.
    """
    from sqlalchemy.exc import IntegrityError

    from stkit.store.scene_models import Scene, SceneTurn

    name = (name or "").strip()
    if not name:
        raise InvalidValue('a scene needs a name, e.g. stkit scene start "The embassy wall"')
    from stkit.text import MAX_NAME, check_text

    check_text(name, "scene name", limit=MAX_NAME)
    check_text(chronicle, "chronicle", limit=MAX_NAME)
    current = open_scene(session, chronicle)
    if current is not None:
        raise RuleRefusal(
            f"scene {current.name!r} (id {current.id}) is still open in chronicle {chronicle!r}; "
            f"end it first with: stkit scene end"
        )
    scene = Scene(chronicle=chronicle, name=name, status="open", turn=1)
    session.add(scene)
    try:
        session.flush()
    except IntegrityError:
        raise RuleRefusal(f"another scene was just opened in chronicle {chronicle!r}; end it first") from None
    session.add(SceneTurn(scene_id=scene.id, turn=1))
    session.flush()
    _scene_event(session, scene, "started")
    return scene


def next_turn(session: Any, chronicle: str):
    """Move the open scene of ``chronicle`` to its next turn (Willpower may be spent again). NotFound when
    no scene is open."""
    from stkit.store.scene_models import SceneTurn

    scene = require_open_scene(session, chronicle, lock=True)
    scene.turn += 1
    session.add(scene)
    session.add(SceneTurn(scene_id=scene.id, turn=scene.turn))
    session.flush()
    _scene_event(session, scene, "turn")
    return scene


def end_scene(session: Any, chronicle: str):
    """Close the open scene of ``chronicle``. Its tracked actions stay as they are (an extended action may
    go on in a later scene). NotFound when no scene is open."""
    from stkit.store.scene_models import utcnow

    scene = require_open_scene(session, chronicle, lock=True)
    scene.status = "ended"
    scene.ended_at = utcnow()
    session.add(scene)
    session.flush()
    _scene_event(session, scene, "ended")
    return scene


def list_scenes(session: Any, chronicle: str | None = None, limit: int = 50) -> list:
    """Scenes, newest first, optionally of one chronicle."""
    from sqlmodel import select

    from stkit.store.scene_models import Scene

    stmt = select(Scene).order_by(Scene.id.desc()).limit(limit)
    if chronicle is not None:
        stmt = stmt.where(Scene.chronicle == chronicle)
    return list(session.exec(stmt))


def scene_timeline(session: Any, scene: Any) -> dict:
    """A JSON-ready timeline of ``scene``: its turns in order, each with the rolls logged in it, plus the
    Willpower spends and the tracked actions and contests started in the scene."""
    from sqlmodel import select

    from stkit.store.models import RollLog
    from stkit.store.scene_models import Contest, SceneTurn, TrackedAction

    turns = list(session.exec(select(SceneTurn).where(SceneTurn.scene_id == scene.id).order_by(SceneTurn.turn)))
    logs = list(session.exec(select(RollLog).where(RollLog.scene_id == scene.id).order_by(RollLog.id)))
    # which tracked action or contest each roll went to
    ids = [r.id for r in logs]
    links: dict[int, str] = {}
    if ids:
        from stkit.store.scene_models import ContestRoll, TrackedRoll

        for log_id, action_id in session.exec(
            select(TrackedRoll.roll_log_id, TrackedRoll.action_id).where(TrackedRoll.roll_log_id.in_(ids))
        ):
            links[log_id] = f"extended {action_id}"
        for log_id, contest_id, side in session.exec(
            select(ContestRoll.roll_log_id, ContestRoll.contest_id, ContestRoll.side).where(
                ContestRoll.roll_log_id.in_(ids)
            )
        ):
            links[log_id] = f"contest {contest_id} side {side.upper()}"
    by_turn: dict[int, list] = {}
    for r in logs:
        by_turn.setdefault(r.turn or 0, []).append(
            {
                "roll_id": r.id,
                "character": r.character_name or None,
                "kind": getattr(r, "kind", "roll"),
                "for": links.get(r.id),
                "task": r.task,
                "expression": r.expression,
                "pool": r.pool,
                "difficulty": r.difficulty,
                "dice": _json_list(r.dice),
                "result": r.result,
                "outcome": r.outcome,
                "willpower": bool(r.willpower),
            }
        )
    actions = list(
        session.exec(select(TrackedAction).where(TrackedAction.scene_id == scene.id).order_by(TrackedAction.id))
    )
    contests = list(session.exec(select(Contest).where(Contest.scene_id == scene.id).order_by(Contest.id)))
    return {
        "id": scene.id,
        "chronicle": scene.chronicle,
        "name": scene.name,
        "status": scene.status,
        "turn": scene.turn,
        "created_at": scene.created_at.isoformat() if scene.created_at else None,
        "ended_at": scene.ended_at.isoformat() if scene.ended_at else None,
        "turns": [
            {
                "turn": t.turn,
                "started_at": t.started_at.isoformat() if t.started_at else None,
                "rolls": by_turn.get(t.turn, []),
            }
            for t in turns
        ],
        "extended_actions": [
            {"id": a.id, "name": a.name, "tally": a.tally, "target": a.target, "rolls": a.rolls, "status": a.status}
            for a in actions
        ],
        "contests": [
            {
                "id": c.id,
                "name": c.name,
                "tally_a": c.tally_a,
                "tally_b": c.tally_b,
                "target": c.target,
                "mode": c.mode,
                "status": c.status,
                "winner": c.winner,
            }
            for c in contests
        ],
    }


def _json_list(text: Any) -> list:
    import json

    if text is None:
        return []
    if isinstance(text, (list, tuple)):
        return list(text)
    try:
        return list(json.loads(text))
    except (ValueError, TypeError):
        return []


# ------------------------------------------------------------------------------------------------ hooks


def find_turn_context(session, character) -> TurnContext | None:
    """The open scene and current turn of the character's chronicle, or None when no scene is open.
    ``session``: a Session or a :class:`~stkit.store.gateway.Gateway`; ``character``: anything with
    ``id``, ``name`` and ``chronicle`` (ORM Character or CharacterRow)."""
    from stkit.store.gateway import as_gateway

    row = as_gateway(session).row(
        "SELECT id, turn FROM scenes WHERE chronicle = :chronicle AND status = 'open'", chronicle=character.chronicle
    )
    return None if row is None else TurnContext(scene_id=row[0], turn=row[1])


def _already_spent(character, ctx: TurnContext, more: str) -> RuleRefusal:
    return RuleRefusal(
        f"{character.name} already spent Willpower in turn {ctx.turn} of this scene; Willpower buys a success "
        f"only once per turn{more}. Nothing was spent or rolled"
    )


def check_willpower_allowed(session, character, ctx: TurnContext | None) -> None:
    """Refuse (RuleRefusal) a second Willpower spend by ``character`` in the turn ``ctx``.

    Willpower buys an automatic success only once per turn (Chapter Five, "Automatic Successes"). Outside a
    scene there are no turns to count, so nothing is refused.
    """
    if ctx is None:
        return
    from stkit.store.gateway import as_gateway

    spent = as_gateway(session).row(
        "SELECT id FROM willpower_spends WHERE scene_id = :scene_id AND turn = :turn AND character_id = :cid LIMIT 1",
        scene_id=ctx.scene_id,
        turn=ctx.turn,
        cid=character.id,
    )
    if spent is not None:
        raise _already_spent(character, ctx, " (next turn: stkit scene turn)")


def retry_count_for_task(session, character, task: str | None) -> int:
    """How many times ``character`` failed ``task`` since its last success: the try-again raise.

    Counts the character's logged rolls of the same task (names compared ignoring case, spacing and hyphens),
    newest first, up to the first success. Only rolls of the open scene count (a new scene starts the task
    afresh); with no scene open, only rolls made outside any scene. Source: Chapter Five, "Try, Try Again".
    """
    key = task_key(task)
    if key is None:
        return 0
    from stkit.store.gateway import as_gateway

    gw = as_gateway(session)
    ctx = find_turn_context(gw, character)
    sql, params = (
        "SELECT task, outcome FROM roll_log WHERE character_id = :cid AND task IS NOT NULL",
        {"cid": character.id},
    )
    if ctx:
        sql, params["scene_id"] = sql + " AND scene_id = :scene_id", ctx.scene_id
    else:
        sql += " AND scene_id IS NULL"
    failures = 0
    # Tasks are few per character: scan the recent task rolls and keep those of this task.
    for logged_task, outcome in gw.rows(sql + " ORDER BY id DESC LIMIT 200", **params):
        if task_key(logged_task) != key:
            continue
        if _is_success(outcome):
            break
        failures += 1
        if failures >= _RETRY_LOOKBACK:
            break
    return failures


def _is_success(outcome: Any) -> bool:
    return str(getattr(outcome, "value", outcome)).lower() == "success"


def record_roll_in_scene(session, character, log_entry, ctx: TurnContext | None, task: str | None) -> None:
    """Record what the scene must remember about a roll: a Willpower point spent in this turn.

    ``log_entry``: anything with ``id`` and ``willpower`` (a RollLog or stkit.store.rolls.LoggedRoll). The
    unique key on (scene, turn, character) makes a racing second spend fail; it is reported as the same
    RuleRefusal as :func:`check_willpower_allowed` and the whole roll is rolled back.
    """
    if ctx is None or not getattr(log_entry, "willpower", False):
        return
    from datetime import datetime

    from stkit.store.gateway import DuplicateRow, as_gateway

    gw = as_gateway(session)
    try:
        gw.insert(
            "INSERT INTO willpower_spends (scene_id, turn, character_id, roll_log_id, created_at) "
            "VALUES (:scene_id, :turn, :cid, :log_id, :now)",
            scene_id=ctx.scene_id,
            turn=ctx.turn,
            cid=character.id,
            log_id=log_entry.id,
            now=gw.timestamp(datetime.now(UTC)),
        )
    except DuplicateRow:
        raise _already_spent(character, ctx, "") from None
