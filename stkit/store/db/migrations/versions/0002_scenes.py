"""Scenes, turns, Willpower per turn, tracked extended actions and contests.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "scenes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        _ts("created_at"),
        _ts("ended_at", nullable=True),
    )
    op.create_index("ix_scenes_chronicle", "scenes", ["chronicle"])
    op.create_index(
        "uq_scenes_one_open_per_chronicle",
        "scenes",
        ["chronicle"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_table(
        "scene_turns",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scenes.id"), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        _ts("started_at"),
        sa.UniqueConstraint("scene_id", "turn", name="uq_scene_turns_scene_turn"),
    )
    op.create_index("ix_scene_turns_scene_id", "scene_turns", ["scene_id"])
    op.create_table(
        "willpower_spends",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scenes.id"), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("roll_log_id", sa.Integer(), nullable=True),
        _ts("created_at"),
        sa.UniqueConstraint("scene_id", "turn", "character_id", name="uq_willpower_spends_once_per_turn"),
    )
    op.create_index("ix_willpower_spends_scene_id", "willpower_spends", ["scene_id"])
    op.create_index("ix_willpower_spends_character_id", "willpower_spends", ["character_id"])
    op.create_table(
        "tracked_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scenes.id"), nullable=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("pool_expr", sa.String(), nullable=False),
        sa.Column("difficulty", sa.Integer(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("interval_seconds", sa.Integer(), nullable=True),
        sa.Column("interval_text", sa.String(), nullable=True),
        sa.Column("botch_ends", sa.Boolean(), nullable=False),
        sa.Column("botch_spoils", sa.Boolean(), nullable=False),
        sa.Column("tally", sa.Integer(), nullable=False),
        sa.Column("rolls", sa.Integer(), nullable=False),
        sa.Column("botches", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        _ts("created_at"),
        _ts("finished_at", nullable=True),
    )
    for col in ("chronicle", "scene_id", "character_id", "status"):
        op.create_index(f"ix_tracked_actions_{col}", "tracked_actions", [col])
    op.create_table(
        "tracked_rolls",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("action_id", sa.Integer(), sa.ForeignKey("tracked_actions.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("roll_log_id", sa.Integer(), nullable=True),
        sa.Column("scene_id", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("pool", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.Integer(), nullable=False),
        sa.Column("dice", sa.String(), nullable=False),
        sa.Column("result", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("willpower", sa.Boolean(), nullable=False),
        sa.Column("tally_after", sa.Integer(), nullable=False),
        _ts("created_at"),
        sa.UniqueConstraint("action_id", "seq", name="uq_tracked_rolls_action_seq"),
    )
    op.create_index("ix_tracked_rolls_action_id", "tracked_rolls", ["action_id"])
    op.create_table(
        "contests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scenes.id"), nullable=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("mode", sa.String(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("botch_wipes", sa.Boolean(), nullable=False),
        sa.Column("a_character_id", sa.Integer(), nullable=True),
        sa.Column("a_pool_expr", sa.String(), nullable=False),
        sa.Column("a_difficulty", sa.Integer(), nullable=False),
        sa.Column("b_character_id", sa.Integer(), nullable=True),
        sa.Column("b_pool_expr", sa.String(), nullable=False),
        sa.Column("b_difficulty", sa.Integer(), nullable=False),
        sa.Column("tally_a", sa.Integer(), nullable=False),
        sa.Column("tally_b", sa.Integer(), nullable=False),
        sa.Column("exchanges", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("winner", sa.String(), nullable=True),
        _ts("created_at"),
        _ts("finished_at", nullable=True),
    )
    for col in ("chronicle", "scene_id", "status"):
        op.create_index(f"ix_contests_{col}", "contests", [col])
    op.create_table(
        "contest_rolls",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("contest_id", sa.Integer(), sa.ForeignKey("contests.id"), nullable=False),
        sa.Column("exchange", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("roll_log_id", sa.Integer(), nullable=True),
        sa.Column("pool_expr", sa.String(), nullable=False),
        sa.Column("pool", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.Integer(), nullable=False),
        sa.Column("dice", sa.String(), nullable=False),
        sa.Column("result", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("willpower", sa.Boolean(), nullable=False),
        _ts("created_at"),
        sa.UniqueConstraint("contest_id", "exchange", "side", name="uq_contest_rolls_exchange_side"),
    )
    op.create_index("ix_contest_rolls_contest_id", "contest_rolls", ["contest_id"])


def downgrade() -> None:
    for table in ("contest_rolls", "contests", "tracked_rolls", "tracked_actions", "willpower_spends", "scene_turns"):
        op.drop_table(table)
    op.drop_index("uq_scenes_one_open_per_chronicle", table_name="scenes")
    op.drop_table("scenes")
