"""Table talk: short out-of-character messages in the table feed, and the Storyteller's whispers to one
player.

Both are only table events (:mod:`stkit.store.table.events`), written in the caller's transaction like every
change: a message (``kind='message'``) shows on every page of the chronicle; a whisper (``kind='whisper'``)
is a secret event carrying the one recipient's ``character_id``, so it reaches the Storyteller's pages and
that player's page only (``stkit.web``'s stream filter). ``stkit log`` lists both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stkit.errors import InvalidValue
from stkit.store.characters import find_character
from stkit.store.table.events import record_event
from stkit.text import check_text

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


#: The longest message or whisper, in characters (a line at the table, not a letter).
MAX_MESSAGE = 300


@dataclass(frozen=True)
class Said:
    """A message or whisper as written: ``kind`` ('message' or 'whisper'), who it is ``from``, the
    recipient ``to`` (whispers), the ``text`` and the open scene's id (or None)."""

    kind: str
    sender: str
    text: str
    to: str | None = None
    scene_id: int | None = None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "from": self.sender, "to": self.to, "text": self.text, "scene_id": self.scene_id}


def check_message(text: str) -> str:
    """``text`` stripped: one line of 1 to :data:`MAX_MESSAGE` printable characters; InvalidValue otherwise."""
    clean = check_text(str(text or ""), "message", limit=MAX_MESSAGE).strip()
    if not clean:
        raise InvalidValue("the message is empty; write a line for the table")
    return clean


def _scene_id(gw: Gateway, chronicle: str) -> int | None:
    row = gw.row("SELECT id FROM scenes WHERE chronicle = :c AND status = 'open'", c=chronicle)
    return int(row[0]) if row else None


def say(gw: Gateway, chronicle: str, text: str, *, character: str | None = None) -> Said:
    """A table message from ``character`` (a name in ``chronicle``; None: the Storyteller). Raises
    InvalidValue for an empty or too long line, NotFound for an unknown character."""

    clean = check_message(text)
    row = find_character(gw, character, chronicle) if character else None
    said = Said("message", row.name if row else "Storyteller", clean, None, _scene_id(gw, chronicle))
    record_event(
        gw,
        chronicle=chronicle,
        kind="message",
        character_id=row.id if row else None,
        data=said.to_dict(),
    )
    return said


def whisper(gw: Gateway, chronicle: str, to: str, text: str) -> Said:
    """The Storyteller's whisper to the player of character ``to``: a secret event only that player's page
    (and the Storyteller's) shows. Raises InvalidValue, NotFound."""

    clean = check_message(text)
    row = find_character(gw, to, chronicle)
    said = Said("whisper", "Storyteller", clean, row.name, _scene_id(gw, chronicle))
    record_event(gw, chronicle=chronicle, kind="whisper", secret=True, character_id=row.id, data=said.to_dict())
    return said
