"""Characters and the roll log.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("name_key", sa.String(), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("breed", sa.String(), nullable=False),
        sa.Column("auspice", sa.String(), nullable=False),
        sa.Column("tribe", sa.String(), nullable=False),
        sa.Column("form", sa.String(), nullable=False),
        sa.Column("sheet", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("chronicle", "name_key", name="uq_characters_chronicle_name_key"),
    )
    op.create_index("ix_characters_chronicle", "characters", ["chronicle"])
    op.create_index("ix_characters_name_key", "characters", ["name_key"])
    op.create_table(
        "roll_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("characters.id", ondelete="SET NULL"), nullable=True),
        sa.Column("character_name", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("expression", sa.String(), nullable=False),
        sa.Column("pool", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.Integer(), nullable=False),
        sa.Column("dice", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("result", sa.Integer(), nullable=False),
        sa.Column("willpower", sa.Boolean(), nullable=False),
        sa.Column("scene_id", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("task", sa.String(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False, server_default="{}"),
    )
    op.create_index("ix_roll_log_character_id_id", "roll_log", ["character_id", "id"])
    op.create_index("ix_roll_log_chronicle_id", "roll_log", ["chronicle", "id"])


def downgrade() -> None:
    op.drop_index("ix_roll_log_chronicle_id", table_name="roll_log")
    op.drop_index("ix_roll_log_character_id_id", table_name="roll_log")
    op.drop_table("roll_log")
    op.drop_index("ix_characters_name_key", table_name="characters")
    op.drop_index("ix_characters_chronicle", table_name="characters")
    op.drop_table("characters")
