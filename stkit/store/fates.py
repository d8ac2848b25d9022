"""Whether a character is dead (the ``character_fates`` table), apart from :mod:`stkit.store.fight_rules`
(which marks the dead and re-exports :func:`is_dead`) so that listing characters loads no fight rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


def is_dead(gw: Gateway, character_id: int) -> bool:
    """True when character ``character_id`` is marked dead (docs/combat.md: the dead no longer act)."""
    return gw.row("SELECT 1 FROM character_fates WHERE character_id = :id", id=character_id) is not None
