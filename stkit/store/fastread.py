"""Reads that must start fast (`stkit char show`, `stkit char export`, `stkit log`).

They run through :func:`stkit.store.gateway.run_unit`: on a SQLite file already at the newest schema
revision the standard library's sqlite3 does the work (importing SQLAlchemy alone costs more than twice the
start-up of `stkit --version`); anything else (PostgreSQL, a new or old database) opens the store the
normal way. The queries are the same either way (stkit.store.characters.find_character,
stkit.store.rolls.recent_log), and so are the errors ("did you mean", several chronicles).
"""

from __future__ import annotations

from stkit.store.gateway import fast_connection as _fast_connection  # noqa: F401 - the tests check the path
from stkit.store.gateway import run_unit
from stkit.store.rolls import iso_utc  # noqa: F401 - kept importable from here
from stkit.store.sheet import Sheet


def load_sheet(db: str | None, name: str, chronicle: str | None = None) -> tuple[Sheet, int]:
    """(sheet, id) of the character ``name`` in ``chronicle`` (or any). Raises NotFound (with a
    suggestion) or InvalidValue (a name in several chronicles), like get_character."""
    from stkit.store.characters import find_character

    def work(gw):
        row = find_character(gw, name, chronicle)
        return row.to_sheet(), row.id

    return run_unit(db, work, readonly=True)


def recent_log(db: str | None, *, name: str | None = None, chronicle: str | None = None, limit: int = 20) -> list[dict]:
    """The newest ``limit`` (1..10000) roll-log entries as dicts (newest first), of one character when
    ``name`` is given. Raises NotFound / InvalidValue like :func:`stkit.store.rolls.recent_log`."""
    from stkit.store.rolls import _check_limit
    from stkit.store.rolls import recent_log as log_of

    _check_limit(limit)  # before opening (and perhaps creating) the store
    return run_unit(db, lambda gw: log_of(gw, name=name, chronicle=chronicle, limit=limit), readonly=True)
