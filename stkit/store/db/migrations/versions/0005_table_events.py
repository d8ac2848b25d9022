"""The table server: an event row for every change a use case makes, and the join links' token hashes.

Revision ID: 0005
Revises: 0003

- ``table_events``: one row per roll, Willpower spend, sheet change, scene or tracked-action change,
  written in the transaction of the change. Ids only grow (SQLite AUTOINCREMENT; on PostgreSQL the writers
  insert at commit time under one advisory lock), so a reader that remembers the last id it saw misses
  nothing. ``secret`` rows are for the Storyteller's eyes only.
- ``table_links``: the SHA-256 of each join link's random token (the token itself is never stored), its
  role (storyteller or player), the player's character, and when it was revoked.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("secret", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("data", sa.Text(), nullable=False, server_default="{}"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_table_events_chronicle_id", "table_events", ["chronicle", "id"])
    op.create_table(
        "table_links",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("role", sa.String(), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("characters.id", ondelete="CASCADE"), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("token_hash", name="uq_table_links_token_hash"),
    )
    op.create_index("ix_table_links_chronicle", "table_links", ["chronicle"])


def downgrade() -> None:
    op.drop_index("ix_table_links_chronicle", table_name="table_links")
    op.drop_table("table_links")
    op.drop_index("ix_table_events_chronicle_id", table_name="table_events")
    op.drop_table("table_events")
