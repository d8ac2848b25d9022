"""Combat: the initiative order stored on a scene's turn, and Rage spent for extra actions once per turn.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("scene_turns") as batch:
        batch.add_column(sa.Column("initiative", sa.Text(), nullable=True))
    op.create_table(
        "rage_spends",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scenes.id"), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("scene_id", "turn", "character_id", name="uq_rage_spends_once_per_turn"),
    )
    op.create_index("ix_rage_spends_scene_id", "rage_spends", ["scene_id"])
    op.create_index("ix_rage_spends_character_id", "rage_spends", ["character_id"])


def downgrade() -> None:
    op.drop_index("ix_rage_spends_character_id", table_name="rage_spends")
    op.drop_index("ix_rage_spends_scene_id", table_name="rage_spends")
    op.drop_table("rage_spends")
    with op.batch_alter_table("scene_turns") as batch:
        batch.drop_column("initiative")
