"""Tables of the character store (sqlmodel): table definitions only, for alembic and the schema tests;
use cases read and write through :mod:`stkit.store.db.gateway`. Created by alembic revision 0001
(``stkit/store/db/migrations/versions/0001_characters.py``): keep the two in step.

- ``characters``: one row per character; the indexed identity columns plus the whole sheet as JSON text
  (the character-file shape of :class:`stkit.sheet.sheet.Sheet`).
- ``roll_log``: every roll made from a sheet (or with ``--log``); the scene columns are filled by the scenes
  work (stkit.store.scenes) and may stay NULL.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    """Now in UTC."""
    return datetime.now(UTC)


class Character(SQLModel, table=True):
    """A stored character. ``name_key`` is the case-folded name (hyphens and spaces alike), unique per
    chronicle. ``sheet`` holds the JSON of the whole sheet; ``version`` goes up by one with every edit."""

    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("chronicle", "name_key", name="uq_characters_chronicle_name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    chronicle: str = Field(index=True)
    name: str
    name_key: str = Field(index=True)
    player: str = Field(default="")
    breed: str = Field(default="")
    auspice: str = Field(default="")
    tribe: str = Field(default="")
    form: str = Field(default="Homid")
    sheet: str = Field(sa_column=Column(Text, nullable=False))
    version: int = Field(default=1)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class RollLog(SQLModel, table=True):
    """One logged roll. ``dice`` is a JSON list of faces; ``detail`` a JSON object (pool breakdown, seed,
    retry, house rules). ``kind`` is 'roll' unless a tracked action or combat step logs something else.
    ``character_name`` keeps the name even after the character is deleted (``character_id`` then becomes NULL)."""

    __tablename__ = "roll_log"
    __table_args__ = (
        Index("ix_roll_log_character_id_id", "character_id", "id"),
        Index("ix_roll_log_chronicle_id", "chronicle", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    chronicle: str
    character_id: int | None = Field(default=None, foreign_key="characters.id", ondelete="SET NULL")
    character_name: str = Field(default="")
    kind: str = Field(default="roll")
    expression: str
    pool: int
    difficulty: int
    dice: str = Field(sa_column=Column(Text, nullable=False))
    outcome: str
    result: int
    willpower: bool = Field(default=False)
    scene_id: int | None = Field(default=None)
    turn: int | None = Field(default=None)
    task: str | None = Field(default=None)
    detail: str = Field(default="{}", sa_column=Column(Text, nullable=False, server_default="{}"))


class HouseRule(SQLModel, table=True):
    """One house rule of a chronicle: ``key`` as `stkit house set` names it, ``value`` as text ('on',
    '7', 'double'); see :mod:`stkit.dice.house` for the vocabulary."""

    __tablename__ = "house_rules"

    chronicle: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    value: str
    updated_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class FreeBotch(SQLModel, table=True):
    """A botch the free-botch house rule forgave: once per chronicle and ``night`` ('scene 4' while a
    scene is open, else the local date '2026-12-01'), pointing at the roll-log entry."""

    __tablename__ = "free_botches"

    chronicle: str = Field(primary_key=True)
    night: str = Field(primary_key=True)
    log_id: int | None = Field(default=None, foreign_key="roll_log.id", ondelete="SET NULL")
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class TableEvent(SQLModel, table=True):
    """One change for the table server's pages (revision 0005): written by the use case in the change's own
    transaction (see :mod:`stkit.store.table.events`). ``kind``: roll, sheet, scene, extended or contest; ``data``
    a JSON object; ``secret`` rows reach Storyteller links only."""

    __tablename__ = "table_events"
    __table_args__ = (Index("ix_table_events_chronicle_id", "chronicle", "id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    chronicle: str
    kind: str
    secret: bool = Field(default=False)
    character_id: int | None = Field(default=None)
    data: str = Field(default="{}", sa_column=Column(Text, nullable=False, server_default="{}"))


class TableLink(SQLModel, table=True):
    """A join link of the table server (revision 0005): the SHA-256 of its token (never the token), the
    role ('storyteller' or 'player'), the player's character, and when it was revoked (None: valid)."""

    __tablename__ = "table_links"
    __table_args__ = (UniqueConstraint("token_hash", name="uq_table_links_token_hash"),)

    id: int | None = Field(default=None, primary_key=True)
    chronicle: str = Field(index=True)
    role: str
    character_id: int | None = Field(default=None, foreign_key="characters.id", ondelete="CASCADE")
    token_hash: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    revoked_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    expires_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class TablePrompt(SQLModel, table=True):
    """A prompt on the table's phones (revision 0015): an attack waiting for the defender's answer
    (``kind`` 'attack') or the Storyteller's call for a roll ('call'); ``status`` 'open' or 'closed';
    ``answer_by``: until when a player answers before the Storyteller may answer for them (None: no
    limit); ``asked`` and ``answers`` JSON objects."""

    __tablename__ = "table_prompts"
    __table_args__ = (Index("ix_table_prompts_chronicle_status", "chronicle", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    chronicle: str
    kind: str
    status: str
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    answer_by: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    asked: str = Field(sa_column=Column(Text, nullable=False))
    answers: str = Field(sa_column=Column(Text, nullable=False))
