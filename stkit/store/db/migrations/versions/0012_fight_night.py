"""A fight night's state: the chronicle's moon, who is dead, and the powers used in a scene's turn.

Revision ID: 0012
Revises: 0010

``chronicle_moon``: one row per chronicle naming the moon's phase (`stkit scene moon PHASE`), which sets the
Rage roll's difficulty and the Rage regained at moonrise.
``character_fates``: a character killed (damage past Incapacitated with nowhere to go), with the scene and
turn; a row here means dead.
``turn_powers``: Rage spent on actions, Gnosis spent and regeneration used by a character in one turn of a
scene (one row per power, points summed), so Rage and Gnosis are never both spent in one turn, the Rage
cap counts every Rage action, and regeneration heals once a turn.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chronicle_moon",
        sa.Column("chronicle", sa.String(), primary_key=True),
        sa.Column("phase", sa.String(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "character_fates",
        sa.Column("character_id", sa.Integer(), primary_key=True),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("scene_id", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "turn_powers",
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scenes.id"), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scene_id", "turn", "character_id", "power", name="pk_turn_powers"),
    )
    op.create_index("ix_turn_powers_character_id", "turn_powers", ["character_id"])


def downgrade() -> None:
    op.drop_index("ix_turn_powers_character_id", table_name="turn_powers")
    op.drop_table("turn_powers")
    op.drop_table("character_fates")
    op.drop_table("chronicle_moon")
