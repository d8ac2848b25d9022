"""What the shell's Tab completion offers from the store: character names by a typed prefix, and the open
extended actions and contests (id and name). Read-only queries, bounded by ``limit``.
"""

from __future__ import annotations

from stkit.sheet.traits import name_key
from stkit.store.db.gateway import Gateway

#: The tables of the two kinds of tracked action a completion lists.
_TRACKED_TABLES = {"extended": "tracked_actions", "contest": "contests"}


def _like(prefix: str) -> str:
    """``prefix`` as a LIKE pattern matching itself literally at the start (``\\`` is the escape)."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def character_names_starting(gw: Gateway, typed: str, *, limit: int) -> list[str]:
    """Names of characters (every chronicle) whose folded name starts with the folded ``typed`` (case,
    accents and hyphens folded as in lookups: :func:`stkit.sheet.traits.name_key`), at most ``limit``, in
    the order of their keys."""
    rows = gw.rows(
        "SELECT DISTINCT name, name_key FROM characters WHERE name_key LIKE :p ESCAPE '\\' ORDER BY name_key LIMIT :n",
        p=_like(name_key(typed)),
        n=int(limit),
    )
    return [r[0] for r in rows]


def open_tracked(gw: Gateway, kind: str, *, limit: int = 10_000) -> list[tuple[int, str]]:
    """The open tracked actions of ``kind`` ("extended" or "contest") as (id, name), oldest first, at most
    ``limit``. Raises KeyError for another kind."""
    table = _TRACKED_TABLES[kind]
    rows = gw.rows(f"SELECT id, name FROM {table} WHERE status = 'open' ORDER BY id LIMIT :n", n=int(limit))
    return [(int(r[0]), str(r[1])) for r in rows]
