"""Whether a character is dead (the ``character_fates`` table), apart from :mod:`stkit.store.fight.rules`
(which marks the dead and re-exports these) so that listing, healing and rolling load no fight rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stkit.errors import RuleRefusal

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


def is_dead(gw: Gateway, character_id: int) -> bool:
    """True when character ``character_id`` is marked dead (docs/combat.md: the dead no longer act)."""
    return gw.row("SELECT 1 FROM character_fates WHERE character_id = :id", id=character_id) is not None


def refuse_dead(gw: Gateway, row: Any, doing: str) -> None:
    """RuleRefusal "<doing>: <name> is dead" when ``row`` (anything with ``id`` and ``name``) is dead."""
    if is_dead(gw, row.id):
        raise RuleRefusal(f"{doing}: {row.name} is dead")
