"""Prompts on the table's phones: an attack waiting for the defender's answer, a Storyteller's call for a roll.

Revision ID: 0015
Revises: 0014

``table_prompts``: one row per prompt: the chronicle, the kind ('attack' or 'call'), 'open' or 'closed',
when it was posted and until when a player may answer before the Storyteller answers for them
(``answer_by``, NULL: no limit), what was asked (JSON) and the answers so far (JSON).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_prompts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answer_by", sa.DateTime(timezone=True), nullable=True),
        sa.Column("asked", sa.Text(), nullable=False),
        sa.Column("answers", sa.Text(), nullable=False),
    )
    op.create_index("ix_table_prompts_chronicle_status", "table_prompts", ["chronicle", "status"])


def downgrade() -> None:
    op.drop_index("ix_table_prompts_chronicle_status", table_name="table_prompts")
    op.drop_table("table_prompts")
