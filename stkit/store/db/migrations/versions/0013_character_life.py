"""A character's life: experience spent at its price, and Renown awarded.

Revision ID: 0013
Revises: 0012

``xp_spends``: one row per `char raise` (one transaction, several traits): the experience it cost, the
purchases as JSON (kind, name, from, to, cost, arithmetic), the log reason, and when it was undone (NULL:
it stands). ``renown_awards``: one row per `char renown`: the Renown, the points, the permanent and
temporary Renown before and after, and the Rank before and after. Both point at the character and go
with it when it is deleted.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xp_spends",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("characters.id", ondelete="CASCADE"), nullable=False),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cost", sa.Integer(), nullable=False),
        sa.Column("items", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("log_at", sa.String(), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_xp_spends_character_id", "xp_spends", ["character_id"])
    op.create_table(
        "renown_awards",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("characters.id", ondelete="CASCADE"), nullable=False),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("renown", sa.String(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("rank_before", sa.Integer(), nullable=False),
        sa.Column("rank_after", sa.Integer(), nullable=False),
    )
    op.create_index("ix_renown_awards_character_id", "renown_awards", ["character_id"])


def downgrade() -> None:
    op.drop_index("ix_renown_awards_character_id", table_name="renown_awards")
    op.drop_table("renown_awards")
    op.drop_index("ix_xp_spends_character_id", table_name="xp_spends")
    op.drop_table("xp_spends")
