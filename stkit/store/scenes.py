"""Scenes and turns, and the scene hooks called by the character roll use case (stkit.store.rolling).

Every function takes a :class:`~stkit.store.db.gateway.Gateway` (or a SQLAlchemy Session, wrapped in one)
and works inside the caller's transaction; scenes come back as frozen :class:`SceneRow` values.

The hooks, called by the roll use case in the same transaction as the roll:

- find_turn_context(gw, character) -> TurnContext | None: the open scene/turn of the character's
  chronicle, or None when no scene is open.
- check_willpower_allowed(gw, character, ctx) -> None: raise stkit.errors.RuleRefusal when the
  character already spent Willpower in this turn (called before anything is spent or rolled).
- retry_count_for_task(gw, character, task) -> int: how many failed tries of `task` since the last
  success (0 when task is None), so the roll's difficulty is raised by that many (capped at 10).
- record_roll_in_scene(gw, character, log_entry, ctx, task) -> None: anything extra to store once the
  roll log entry exists (log_entry.id is set; the log entry already carries scene_id, turn and task).

Rules: Chapter Five, "Automatic Successes" (Willpower buys one success, only once per turn) and "Try, Try
Again" (each failure of the same task raises the next try's difficulty by one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.vocab import SceneStatus
from stkit.store.db.gateway import DuplicateRow, Gateway
from stkit.store.table.events import record_event
from stkit.text import MAX_NAME, check_text, find_by_prefix, parse_whole_number, printable

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


def iso_local(value: Any) -> str | None:
    """A stored timestamp as ISO 8601, the way the scene and tracked-action JSON has always shown it: a
    datetime (PostgreSQL: with its UTC offset) as is, SQLite's text 'YYYY-MM-DD HH:MM:SS.ffffff' without an
    offset; None stays None."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat()
    return datetime.fromisoformat(str(value)).isoformat()


def _scene_event(gw: Gateway, scene: Any, change: str) -> None:
    """The table event of a scene change ('started', 'turn', 'ended'), in the caller's transaction."""

    record_event(
        gw,
        chronicle=scene.chronicle,
        kind="scene",
        data={"scene_id": scene.id, "name": scene.name, "turn": scene.turn, "status": scene.status, "change": change},
    )


#: The columns of ``scenes`` a :class:`SceneRow` is read from, in its field order.
SCENE_COLUMNS = "id, chronicle, name, status, turn, created_at, ended_at"


@dataclass(frozen=True)
class SceneRow:
    """A stored scene: ``status`` 'open' or 'ended', ``turn`` the current (or last) turn, 1-based;
    ``created_at`` / ``ended_at`` as ISO 8601 text (:func:`iso_local`), ``ended_at`` None while open."""

    id: int
    chronicle: str
    name: str
    status: str
    turn: int
    created_at: str | None = None
    ended_at: str | None = None

    @classmethod
    def from_row(cls, row: tuple) -> SceneRow:
        sid, chronicle, name, status, turn, created, ended = row
        return cls(int(sid), chronicle, name, status, int(turn), iso_local(created), iso_local(ended))

    def to_dict(self) -> dict:
        """The ``scene list --json`` entry."""
        return {"id": self.id, "name": self.name, "chronicle": self.chronicle, "status": self.status, "turn": self.turn}


def open_scene(gw: Gateway, chronicle: str, *, lock: bool = False) -> SceneRow | None:
    """The open scene of ``chronicle`` or None. ``lock`` takes a row lock (PostgreSQL) for an update."""
    row = gw.row(
        f"SELECT {SCENE_COLUMNS} FROM scenes WHERE chronicle = :chronicle AND status = 'open'"
        + (gw.lock if lock else ""),
        chronicle=chronicle,
    )
    return None if row is None else SceneRow.from_row(row)


def require_open_scene(gw: Gateway, chronicle: str, *, lock: bool = False) -> SceneRow:
    """The open scene of ``chronicle``; NotFound when there is none."""
    scene = open_scene(gw, chronicle, lock=lock)
    if scene is None:
        raise NotFound(f"no scene is open in chronicle {chronicle!r}; start one with: stkit scene start NAME")
    return scene


#: The largest id a row can have (a signed 64-bit integer, in SQLite and PostgreSQL alike).
MAX_ROW_ID = 2**63 - 1
_ID_NAMES = {"tracked_actions": "action id", "contests": "contest id", "scenes": "scene id"}


def resolve_tracked_id(gw: Gateway, table: str, typed: str | int, what: str, listing: str) -> int:
    """The id of the row of ``table`` ('tracked_actions', 'contests' or 'scenes') that ``typed`` names:
    an id (digits), else an exact name, else a unique prefix of a name (case, accents, spaces folded, as
    :func:`stkit.text.find_by_prefix`). Open rows are searched first, then all. Raises NotFound (naming
    ``listing``, the command that lists them) when nothing matches, InvalidValue listing the candidates
    for an ambiguous prefix or a name several rows share (then their ids)."""

    text = str(typed).strip()
    if text.isascii() and text.isdigit():
        return parse_whole_number(text, _ID_NAMES[table], 1, MAX_ROW_ID)
    if table not in ("tracked_actions", "contests", "scenes"):
        raise ValueError(f"not a tracked table: {table}")
    rows = gw.rows(f"SELECT id, name, status FROM {table} ORDER BY id")
    for pool in ([r for r in rows if r[2] == SceneStatus.open], rows):
        name = find_by_prefix(text, [r[1] for r in pool], what)
        if name is not None:
            ids = [r[0] for r in pool if r[1] == name]
            if len(ids) > 1:
                listed = ", ".join(str(i) for i in ids)
                raise InvalidValue(f"several {what}s are named {name!r} (ids {listed}); give the id")
            return int(ids[0])
    raise NotFound(f"no {what} named {printable(text)!r}; see: {listing}")


def scene_id_for(gw: Gateway, typed: str | int) -> int:
    """The scene's id from an id or a (short) name; see :func:`resolve_tracked_id`."""
    return resolve_tracked_id(gw, "scenes", typed, "scene", "stkit scene list")


def get_scene(gw: Gateway, scene_id: int) -> SceneRow:
    """The scene with this id (any status); NotFound otherwise."""
    row = gw.row(f"SELECT {SCENE_COLUMNS} FROM scenes WHERE id = :id", id=scene_id)
    if row is None:
        raise NotFound(f"no scene with id {scene_id}")
    return SceneRow.from_row(row)


def start_scene(gw: Gateway, chronicle: str, name: str) -> SceneRow:
    """Open a new scene named ``name`` in ``chronicle`` at turn 1.

    Raises RuleRefusal while another scene of the chronicle is open (one at a time), InvalidValue for an
    empty name or text the store refuses. A unique index backs the rule against two processes starting
    scenes at once.
    """
    name = (name or "").strip()
    if not name:
        raise InvalidValue('a scene needs a name, e.g. stkit scene start "The embassy wall"')
    check_text(name, "scene name", limit=MAX_NAME)
    check_text(chronicle, "chronicle", limit=MAX_NAME)
    current = open_scene(gw, chronicle)
    if current is not None:
        raise RuleRefusal(
            f"scene {current.name!r} (id {current.id}) is still open in chronicle {chronicle!r}; "
            f"end it first with: stkit scene end"
        )
    now = gw.timestamp(datetime.now(UTC))
    try:
        scene_id = gw.insert(
            "INSERT INTO scenes (chronicle, name, status, turn, created_at) "
            "VALUES (:chronicle, :name, 'open', 1, :now)",
            chronicle=chronicle,
            name=name,
            now=now,
        )
    except DuplicateRow:
        raise RuleRefusal(f"another scene was just opened in chronicle {chronicle!r}; end it first") from None
    _add_turn(gw, scene_id, 1)
    scene = SceneRow(scene_id, chronicle, name, SceneStatus.open, 1, iso_local(now))
    _scene_event(gw, scene, "started")
    return scene


def _add_turn(gw: Gateway, scene_id: int, turn: int) -> None:
    gw.insert(
        "INSERT INTO scene_turns (scene_id, turn, started_at) VALUES (:scene_id, :turn, :now)",
        scene_id=scene_id,
        turn=turn,
        now=gw.timestamp(datetime.now(UTC)),
    )


def next_turn(gw: Gateway, chronicle: str) -> SceneRow:
    """Move the open scene of ``chronicle`` to its next turn (Willpower may be spent again). NotFound when
    no scene is open."""
    scene = require_open_scene(gw, chronicle, lock=True)
    gw.execute("UPDATE scenes SET turn = :turn WHERE id = :id", turn=scene.turn + 1, id=scene.id)
    gw.changed("scenes", scene.id)
    _add_turn(gw, scene.id, scene.turn + 1)
    scene = replace(scene, turn=scene.turn + 1)
    _scene_event(gw, scene, "turn")
    return scene


def end_scene(gw: Gateway, chronicle: str) -> SceneRow:
    """Close the open scene of ``chronicle``. Its tracked actions stay as they are (an extended action may
    go on in a later scene). NotFound when no scene is open."""
    scene = require_open_scene(gw, chronicle, lock=True)
    now = gw.timestamp(datetime.now(UTC))
    gw.execute("UPDATE scenes SET status = 'ended', ended_at = :now WHERE id = :id", now=now, id=scene.id)
    gw.changed("scenes", scene.id)
    scene = replace(scene, status=SceneStatus.ended, ended_at=iso_local(now))
    _scene_event(gw, scene, "ended")
    return scene


def list_scenes(gw: Gateway, chronicle: str | None = None, limit: int = 50) -> list[SceneRow]:
    """Scenes, newest first, optionally of one chronicle; at most ``limit``."""
    sql, params = f"SELECT {SCENE_COLUMNS} FROM scenes", dict[str, Any](limit=limit)
    if chronicle is not None:
        sql, params["chronicle"] = sql + " WHERE chronicle = :chronicle", chronicle
    return [SceneRow.from_row(r) for r in gw.rows(sql + " ORDER BY id DESC LIMIT :limit", **params)]


@dataclass(frozen=True)
class TimelineRoll:
    """A roll logged in a scene's turn; ``linked_to`` names the tracked action or contest side it went to
    ('extended 3', 'contest 1 side A') or is None."""

    roll_id: int
    character: str | None
    kind: str
    linked_to: str | None
    task: str | None
    expression: str
    pool: int
    difficulty: int
    dice: tuple[int, ...]
    result: int
    outcome: str
    willpower: bool

    def to_dict(self) -> dict:
        return {
            "roll_id": self.roll_id,
            "character": self.character,
            "kind": self.kind,
            "for": self.linked_to,
            "task": self.task,
            "expression": self.expression,
            "pool": self.pool,
            "difficulty": self.difficulty,
            "dice": list(self.dice),
            "result": self.result,
            "outcome": self.outcome,
            "willpower": self.willpower,
        }


@dataclass(frozen=True)
class TimelineTurn:
    """One turn of a scene: its number, when it began (ISO 8601) and the rolls logged in it, in order."""

    turn: int
    started_at: str | None
    rolls: tuple[TimelineRoll, ...]
    initiative: dict | None = None  # the initiative rolled in this turn (stkit.store.fight.initiative), if any

    def to_dict(self) -> dict:
        out: dict[str, Any] = {
            "turn": self.turn,
            "started_at": self.started_at,
            "rolls": [r.to_dict() for r in self.rolls],
        }
        if self.initiative is not None:
            out["initiative"] = self.initiative
        return out


@dataclass(frozen=True)
class SceneTimeline:
    """A scene turn by turn, plus the tracked extended actions and contests started in it
    (``stkit scene show``). ``extended_actions`` and ``contests`` hold their short JSON entries."""

    scene: SceneRow
    turns: tuple[TimelineTurn, ...]
    extended_actions: tuple[dict, ...]
    contests: tuple[dict, ...]

    def to_dict(self) -> dict:
        s = self.scene
        return {
            "id": s.id,
            "chronicle": s.chronicle,
            "name": s.name,
            "status": s.status,
            "turn": s.turn,
            "created_at": s.created_at,
            "ended_at": s.ended_at,
            "turns": [t.to_dict() for t in self.turns],
            "extended_actions": list(self.extended_actions),
            "contests": list(self.contests),
        }


def _roll_links(gw: Gateway, scene_id: int) -> dict[int, str]:
    """{roll-log id: the tracked action or contest side it went to} for the rolls of one scene."""
    links: dict[int, str] = {}
    for log_id, action_id in gw.rows(
        "SELECT t.roll_log_id, t.action_id FROM tracked_rolls t JOIN roll_log r ON r.id = t.roll_log_id "
        "WHERE r.scene_id = :scene_id",
        scene_id=scene_id,
    ):
        links[log_id] = f"extended {action_id}"
    for log_id, contest_id, side in gw.rows(
        "SELECT c.roll_log_id, c.contest_id, c.side FROM contest_rolls c JOIN roll_log r ON r.id = c.roll_log_id "
        "WHERE r.scene_id = :scene_id",
        scene_id=scene_id,
    ):
        links[log_id] = f"contest {contest_id} side {side.upper()}"
    return links


def scene_timeline(gw: Gateway, scene: SceneRow | int) -> SceneTimeline:
    """The timeline of ``scene`` (a SceneRow, or a scene id: NotFound when there is none): its turns in
    order, each with the rolls logged in it, plus the tracked actions and contests started in the scene."""
    if not isinstance(scene, SceneRow):
        scene = get_scene(gw, scene)
    links = _roll_links(gw, scene.id)
    by_turn: dict[int, list[TimelineRoll]] = {}
    for rid, cname, kind, turn, task, expr, pool, diff, dice, result, outcome, wp in gw.rows(
        "SELECT id, character_name, kind, turn, task, expression, pool, difficulty, dice, result, outcome, "
        "willpower FROM roll_log WHERE scene_id = :scene_id ORDER BY id",
        scene_id=scene.id,
    ):
        by_turn.setdefault(turn or 0, []).append(
            TimelineRoll(
                rid,
                cname or None,
                kind,
                links.get(rid),
                task,
                expr,
                pool,
                diff,
                tuple(_json_list(dice)),
                result,
                outcome,
                bool(wp),
            )
        )
    turns = tuple(
        TimelineTurn(turn, iso_local(started), tuple(by_turn.get(turn, ())), json.loads(order) if order else None)
        for turn, started, order in gw.rows(
            "SELECT turn, started_at, initiative FROM scene_turns WHERE scene_id = :scene_id ORDER BY turn",
            scene_id=scene.id,
        )
    )
    actions, contests = _started_in_scene(gw, scene.id)
    return SceneTimeline(scene, turns, actions, contests)


def _started_in_scene(gw: Gateway, scene_id: int) -> tuple[tuple[dict, ...], tuple[dict, ...]]:
    """The short JSON entries of the extended actions and the contests started in a scene, oldest first."""
    actions = tuple(
        {"id": i, "name": n, "tally": t, "target": g, "rolls": r, "status": st}
        for i, n, t, g, r, st in gw.rows(
            "SELECT id, name, tally, target, rolls, status FROM tracked_actions WHERE scene_id = :scene_id ORDER BY id",
            scene_id=scene_id,
        )
    )
    contests = tuple(
        {"id": i, "name": n, "tally_a": ta, "tally_b": tb, "target": g, "mode": m, "status": st, "winner": w}
        for i, n, ta, tb, g, m, st, w in gw.rows(
            "SELECT id, name, tally_a, tally_b, target, mode, status, winner FROM contests "
            "WHERE scene_id = :scene_id ORDER BY id",
            scene_id=scene_id,
        )
    )
    return actions, contests


def _json_list(text: Any) -> list:
    if text is None:
        return []
    if isinstance(text, (list, tuple)):
        return list(text)
    try:
        return list(json.loads(text))
    except (ValueError, TypeError):
        return []


# ------------------------------------------------------------------------------------------------ hooks


def find_turn_context(gw: Gateway, character) -> TurnContext | None:
    """The open scene and current turn of the character's chronicle, or None when no scene is open.
    ``character``: anything with
    ``id``, ``name`` and ``chronicle`` (ORM Character or CharacterRow)."""
    row = gw.row(
        "SELECT id, turn FROM scenes WHERE chronicle = :chronicle AND status = 'open'", chronicle=character.chronicle
    )
    return None if row is None else TurnContext(scene_id=row[0], turn=row[1])


def _already_spent(character, ctx: TurnContext, more: str) -> RuleRefusal:
    return RuleRefusal(
        f"{character.name} already spent Willpower in turn {ctx.turn} of this scene; Willpower buys a success "
        f"only once per turn{more}. Nothing was spent or rolled"
    )


def check_willpower_allowed(gw: Gateway, character, ctx: TurnContext | None) -> None:
    """Refuse (RuleRefusal) a second Willpower spend by ``character`` in the turn ``ctx``.

    Willpower buys an automatic success only once per turn (Chapter Five, "Automatic Successes"). Outside a
    scene there are no turns to count, so nothing is refused.
    """
    if ctx is None:
        return
    spent = gw.row(
        "SELECT id FROM willpower_spends WHERE scene_id = :scene_id AND turn = :turn AND character_id = :cid LIMIT 1",
        scene_id=ctx.scene_id,
        turn=ctx.turn,
        cid=character.id,
    )
    if spent is not None:
        raise _already_spent(character, ctx, " (next turn: stkit scene turn)")


def retry_count_for_task(gw: Gateway, character, task: str | None) -> int:
    """How many times ``character`` failed ``task`` since its last success: the try-again raise.

    Counts the character's logged rolls of the same task (names compared ignoring case, spacing and hyphens),
    newest first, up to the first success. Only rolls of the open scene count (a new scene starts the task
    afresh); with no scene open, only rolls made outside any scene. Source: Chapter Five, "Try, Try Again".
    """
    key = task_key(task)
    if key is None:
        return 0
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


def record_roll_in_scene(gw: Gateway, character, log_entry, ctx: TurnContext | None, task: str | None) -> None:
    """Record what the scene must remember about a roll: a Willpower point spent in this turn.

    ``log_entry``: anything with ``id`` and ``willpower`` (a RollLog or stkit.store.rolling.LoggedRoll). The
    unique key on (scene, turn, character) makes a racing second spend fail; it is reported as the same
    RuleRefusal as :func:`check_willpower_allowed` and the whole roll is rolled back.
    """
    if ctx is None or not getattr(log_entry, "willpower", False):
        return
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


def recent_scenes(gw: Gateway, chronicle: str, limit: int = 20) -> list[tuple[int, str]]:
    """(id, name) of the newest ``limit`` scenes of ``chronicle``, open or closed, newest first."""
    rows = gw.rows("SELECT id, name FROM scenes WHERE chronicle = :c ORDER BY id DESC LIMIT :n", c=chronicle, n=limit)
    return [(int(r[0]), str(r[1])) for r in rows]


def rolled_in_turn(gw: Gateway, scene_id: int, turn: int) -> set[int]:
    """The ids of the characters with a logged roll in ``turn`` of the scene."""
    rows = gw.rows(
        "SELECT DISTINCT character_id FROM roll_log "
        "WHERE scene_id = :sid AND turn = :turn AND character_id IS NOT NULL",
        sid=scene_id,
        turn=turn,
    )
    return {int(r[0]) for r in rows}


def scene_id_of(gw: Gateway, scene: str | int) -> int:
    """A scene's id from its id (digits), exact name or unique name prefix. Raises NotFound (none),
    InvalidValue (several scenes match: the candidates listed)."""
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
