"""Revoking one person's join links (`stkit table links --revoke`) and issuing one player a new link (the
Storyteller's page): the links themselves, their tokens and the check of a token live in
:mod:`stkit.store.table.events`; these use cases also need the character lookup."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from stkit.errors import NotFound
from stkit.store.characters import find_character
from stkit.store.db.gateway import Gateway
from stkit.store.table.events import TOKEN_BYTES, IssuedLink, hash_token, record_event
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


def issue_player_link(gw: Gateway, chronicle: str, name: str) -> IssuedLink:
    """A new join link for one character's player in ``chronicle`` (their earlier links keep working);
    the token is returned once, only its hash is stored. Raises NotFound for an unknown character."""

    check_text(chronicle, "chronicle", limit=MAX_NAME)
    row = find_character(gw, name, chronicle)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    gw.execute(
        "INSERT INTO table_links (chronicle, role, character_id, token_hash, created_at, expires_at) "
        "VALUES (:chronicle, 'player', :cid, :hash, :now, NULL)",
        chronicle=chronicle,
        cid=row.id,
        hash=hash_token(token),
        now=gw.timestamp(datetime.now(UTC)),
    )
    return IssuedLink("player", row.name, row.id, token)
