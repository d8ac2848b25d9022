"""Tables for scenes, turns, Willpower spent per turn, tracked extended actions and contests.

Created by the alembic revision 0002 (``stkit/store/db/migrations/versions/0002_scenes.py``); keep the two in step.
Character and roll-log ids point at the character store's tables (``Character.id``, ``RollLog.id``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Index, Text, UniqueConstraint, text
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    """Now, in UTC (stored with its zone where the database keeps one)."""
    return datetime.now(UTC)


class Scene(SQLModel, table=True):
    """A scene of a chronicle: at most one is open per chronicle. ``turn`` is the current turn (1-based)."""

    __tablename__ = "scenes"
    __table_args__ = (
        Index(
            "uq_scenes_one_open_per_chronicle",
            "chronicle",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    chronicle: str = Field(index=True)
    name: str
    status: str = Field(default="open")  # open | ended
    turn: int = Field(default=1)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    ended_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class SceneTurn(SQLModel, table=True):
    """When each turn of a scene began (for the timeline)."""

    __tablename__ = "scene_turns"
    __table_args__ = (UniqueConstraint("scene_id", "turn", name="uq_scene_turns_scene_turn"),)

    id: int | None = Field(default=None, primary_key=True)
    scene_id: int = Field(foreign_key="scenes.id", index=True)
    turn: int
    started_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    # JSON of the initiative rolled in this turn (stkit.store.fight.initiative.InitiativeOrder), revision 0006
    initiative: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class RageSpend(SQLModel, table=True):
    """Rage a character spent for extra actions in a turn of a scene (revision 0006); the unique key is the
    once-per-turn rule ("Multiple Actions": Rage gives extra actions at no penalty)."""

    __tablename__ = "rage_spends"
    __table_args__ = (UniqueConstraint("scene_id", "turn", "character_id", name="uq_rage_spends_once_per_turn"),)

    id: int | None = Field(default=None, primary_key=True)
    scene_id: int = Field(foreign_key="scenes.id", index=True)
    turn: int
    character_id: int = Field(index=True)
    points: int
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class WillpowerSpend(SQLModel, table=True):
    """A Willpower point a character spent in a turn of a scene; the unique key is the once-per-turn rule
    (Chapter Five, "Automatic Successes"), so even two racing processes cannot both spend."""

    __tablename__ = "willpower_spends"
    __table_args__ = (UniqueConstraint("scene_id", "turn", "character_id", name="uq_willpower_spends_once_per_turn"),)

    id: int | None = Field(default=None, primary_key=True)
    scene_id: int = Field(foreign_key="scenes.id", index=True)
    turn: int
    character_id: int = Field(index=True)
    roll_log_id: int | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class TrackedAction(SQLModel, table=True):
    """An extended action kept across commands (Chapter Five, "Extended Actions").

    ``pool_expr`` is the sheet expression ("Stamina + Stealth") when a character rolls it, else the number of
    dice. ``status``: open | done | failed (ended by a botch with ``botch_ends``) | abandoned.
    """

    __tablename__ = "tracked_actions"

    id: int | None = Field(default=None, primary_key=True)
    chronicle: str = Field(index=True)
    scene_id: int | None = Field(default=None, foreign_key="scenes.id", index=True)
    name: str
    character_id: int | None = Field(default=None, index=True)
    pool_expr: str
    difficulty: int
    target: int
    interval_seconds: int | None = Field(default=None)
    interval_text: str | None = Field(default=None)
    botch_ends: bool = Field(default=False)
    botch_spoils: bool = Field(default=True)
    tally: int = Field(default=0)
    rolls: int = Field(default=0)
    botches: int = Field(default=0)
    status: str = Field(default="open", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    finished_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class TrackedRoll(SQLModel, table=True):
    """One roll made on a tracked extended action; ``seq`` numbers them 1, 2, ... with no gap or repeat."""

    __tablename__ = "tracked_rolls"
    __table_args__ = (UniqueConstraint("action_id", "seq", name="uq_tracked_rolls_action_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    action_id: int = Field(foreign_key="tracked_actions.id", index=True)
    seq: int
    character_id: int | None = Field(default=None)
    roll_log_id: int | None = Field(default=None)
    scene_id: int | None = Field(default=None)
    turn: int | None = Field(default=None)
    pool: int
    difficulty: int
    dice: str  # JSON list of faces
    result: int
    outcome: str
    willpower: bool = Field(default=False)
    tally_after: int
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class Contest(SQLModel, table=True):
    """An extended and resisted contest (Chapter Five, "Resisted Actions"). Each side is a character with a
    pool expression, or a bare number of dice. ``mode``: tally | lead (see stkit.dice.contest)."""

    __tablename__ = "contests"

    id: int | None = Field(default=None, primary_key=True)
    chronicle: str = Field(index=True)
    scene_id: int | None = Field(default=None, foreign_key="scenes.id", index=True)
    name: str
    mode: str = Field(default="tally")
    target: int
    botch_wipes: bool = Field(default=True)
    a_character_id: int | None = Field(default=None)
    a_pool_expr: str
    a_difficulty: int
    b_character_id: int | None = Field(default=None)
    b_pool_expr: str
    b_difficulty: int
    tally_a: int = Field(default=0)
    tally_b: int = Field(default=0)
    exchanges: int = Field(default=0)
    status: str = Field(default="open", index=True)  # open | done | abandoned
    winner: str | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    finished_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class ContestRoll(SQLModel, table=True):
    """One side's roll in one exchange of a contest; an exchange resolves once both sides have rolled."""

    __tablename__ = "contest_rolls"
    __table_args__ = (UniqueConstraint("contest_id", "exchange", "side", name="uq_contest_rolls_exchange_side"),)

    id: int | None = Field(default=None, primary_key=True)
    contest_id: int = Field(foreign_key="contests.id", index=True)
    exchange: int
    side: str  # a | b
    character_id: int | None = Field(default=None)
    roll_log_id: int | None = Field(default=None)
    pool_expr: str
    pool: int
    difficulty: int
    dice: str
    result: int
    outcome: str
    willpower: bool = Field(default=False)
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
