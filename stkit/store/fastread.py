"""Read paths that must start fast (`stkit char show`, `stkit char export`, `stkit log`).

Importing SQLAlchemy alone costs more than twice the start-up of `stkit --version`, so when the database
is a SQLite file already at the newest schema revision these reads go through the standard library's
sqlite3 (read-only queries on the tables of models.py). Anything else (PostgreSQL, a new or old database,
a name that is not found exactly, a name in several chronicles) takes the normal sqlmodel path, which also
produces the proper errors ("did you mean", migrations).
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

from stkit.store.sheet import Sheet
from stkit.store.traits import name_key

_LOG_COLUMNS = ("id, created_at, chronicle, character_id, character_name, kind, expression, pool, difficulty, "
                "dice, outcome, result, willpower, scene_id, turn, task, detail")


def _fast_connection(db: str | None) -> sqlite3.Connection | None:
    """A sqlite3 connection when the store is an existing SQLite file at the head revision, else None."""
    from stkit.config import database_url, sqlite_path
    from stkit.store.db import SQLITE_BUSY_TIMEOUT_MS, head_revisions

    url = database_url(db)
    path = sqlite_path(url)
    if path is None or "?" in url or not path.is_file():
        return None
    try:
        conn = sqlite3.connect(str(path), timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        versions = {r[0] for r in conn.execute("SELECT version_num FROM alembic_version")}
    except sqlite3.Error:
        return None
    if versions != head_revisions():
        conn.close()
        return None
    return conn


def _find_id(conn: sqlite3.Connection, name: str, chronicle: str | None) -> tuple | None:
    sql = "SELECT id, chronicle, name, sheet FROM characters WHERE name_key = ?"
    args: list = [name_key(name)]
    if chronicle:
        sql += " AND chronicle = ?"
        args.append(chronicle)
    rows = conn.execute(sql, args).fetchall()
    return rows[0] if len(rows) == 1 else None


def load_sheet(db: str | None, name: str, chronicle: str | None = None) -> tuple[Sheet, int]:
    """(sheet, id) of the character ``name``. Raises NotFound (with a suggestion) like get_character."""
    conn = _fast_connection(db)
    if conn is not None:
        with closing(conn):
            try:
                row = _find_id(conn, name, chronicle)
            except sqlite3.Error:
                row = None
        if row is not None:
            char_id, chron, real_name, text = row
            sheet = Sheet.from_dict(json.loads(text), source=f"stored character {real_name!r}")
            sheet.name, sheet.chronicle = real_name, chron
            return sheet, char_id
    from stkit.store.characters import get_character
    from stkit.store.db import open_store, run_transaction

    def work(session):  # noqa: ANN001, ANN202
        c = get_character(session, name, chronicle)
        return c.to_sheet(), c.id

    return run_transaction(open_store(db), work, readonly=True)


def iso_utc(value: object) -> str:
    """A stored timestamp as ISO 8601 with its UTC offset ('2026-11-30T10:05:00.123456+00:00')."""
    if hasattr(value, "isoformat"):
        if getattr(value, "tzinfo", None) is None:
            return value.isoformat() + "+00:00"
        return value.isoformat()
    text = str(value).replace(" ", "T")
    return text if ("+" in text[10:] or text.endswith("Z")) else text + "+00:00"


def _row_dict(r: tuple) -> dict:
    (rid, created, chron, cid, cname, kind, expr, pool, diff, dice, outcome, result, wp, scene, turn, task, detail) = r
    return {
        "id": rid, "created_at": iso_utc(created), "chronicle": chron, "character_id": cid,
        "character": cname or None, "kind": kind, "expression": expr, "pool": pool, "difficulty": diff,
        "dice": json.loads(dice), "outcome": outcome, "result": result, "willpower": bool(wp), "scene_id": scene,
        "turn": turn, "task": task, "detail": json.loads(detail or "{}"),
    }


def recent_log(db: str | None, *, name: str | None = None, chronicle: str | None = None, limit: int = 20) -> list[dict]:
    """The newest ``limit`` (1..10000) roll-log entries as dicts (newest first), of one character when
    ``name`` is given. Raises NotFound / InvalidValue like :func:`stkit.store.rolls.recent_rolls`."""
    from stkit.errors import InvalidValue

    if not 1 <= limit <= 10_000:
        raise InvalidValue(f"--limit {limit} is outside the allowed range 1 to 10000")
    conn = _fast_connection(db)
    if conn is not None:
        with closing(conn):
            try:
                if name:
                    row = _find_id(conn, name, chronicle)
                    if row is not None:
                        rows = conn.execute(
                            f"SELECT {_LOG_COLUMNS} FROM roll_log WHERE character_id = ? ORDER BY id DESC LIMIT ?",
                            (row[0], limit),
                        ).fetchall()
                        return [_row_dict(r) for r in rows]
                else:
                    sql, args = f"SELECT {_LOG_COLUMNS} FROM roll_log", []
                    if chronicle:
                        sql += " WHERE chronicle = ?"
                        args.append(chronicle)
                    rows = conn.execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit)).fetchall()
                    return [_row_dict(r) for r in rows]
            except sqlite3.Error:
                pass
    from stkit.store.db import open_store, run_transaction
    from stkit.store.rolls import entry_to_dict, recent_rolls

    return run_transaction(
        open_store(db),
        lambda s: [entry_to_dict(e) for e in recent_rolls(s, name=name, chronicle=chronicle, limit=limit)],
        readonly=True,
    )
