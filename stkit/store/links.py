"""Revoking one person's join links (`stkit table links --revoke`): the links themselves, their tokens and
the check of a token live in :mod:`stkit.store.events`; this use case also needs the character lookup."""

from __future__ import annotations

from datetime import UTC, datetime

from stkit.errors import NotFound
from stkit.store.characters import find_character
from stkit.store.db.gateway import Gateway
from stkit.store.events import record_event
from stkit.text import MAX_NAME, check_text, fold_name


def revoke_links(gw: Gateway, chronicle: str, who: str) -> int:
    """Revoke every link of one person in ``chronicle``: ``who`` is a character's name (found as
    `stkit char` finds it) or 'storyteller'. Writes a 'links' event so open streams end at once; returns
    how many links were revoked. Raises NotFound for an unknown character."""

    check_text(chronicle, "chronicle", limit=MAX_NAME)
    check_text(who, "whose links", limit=MAX_NAME)
    now = gw.timestamp(datetime.now(UTC))
    if fold_name(who) == "storyteller":
        role, cid, shown = "storyteller", None, "the Storyteller"
        where = "role = 'storyteller'"
    else:
        row = find_character(gw, who, chronicle)
        role, cid, shown = "player", row.id, row.name
        where = "character_id = :cid"
    count = gw.row(
        f"SELECT COUNT(*) FROM table_links WHERE chronicle = :c AND revoked_at IS NULL AND {where}",
        c=chronicle,
        cid=cid,
    )
    gw.execute(
        f"UPDATE table_links SET revoked_at = :now WHERE chronicle = :c AND revoked_at IS NULL AND {where}",
        now=now,
        c=chronicle,
        cid=cid,
    )
    if count is None or not count[0]:
        raise NotFound(f"{shown} has no link in force in chronicle {chronicle!r}; nothing was revoked")
    record_event(
        gw, chronicle=chronicle, kind="links", data={"change": "revoked", "role": role}, secret=True, character_id=cid
    )
    return int(count[0])
