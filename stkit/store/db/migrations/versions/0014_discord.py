"""The Discord door: per-chronicle settings, what the feed has posted, claims and bindings.

Revision ID: 0014
Revises: 0013

``discord_settings``: one row per (chronicle, key): the public and Storyteller webhook URLs, the
application's public key and id. ``discord_feed``: one row per (chronicle, audience 'public' or
'storyteller'): the id of the last table event posted to that webhook, and the follower holding the lease
(so two followers of one chronicle never post the same event). ``discord_claims``: a Discord user's claim
of a character (or of the Storyteller's seat) in a chronicle, made with the code of a table link.
``discord_bindings``: a Discord server or channel bound to a chronicle.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "discord_settings",
        sa.Column("chronicle", sa.String(), primary_key=True),
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "discord_feed",
        sa.Column("chronicle", sa.String(), primary_key=True),
        sa.Column("audience", sa.String(), primary_key=True),
        sa.Column("last_event_id", sa.BigInteger(), nullable=False),
        sa.Column("posted", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("holder", sa.String(), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "discord_claims",
        sa.Column("chronicle", sa.String(), primary_key=True),
        sa.Column("user_id", sa.String(), primary_key=True),
        sa.Column("role", sa.String(), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("characters.id", ondelete="CASCADE"), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "discord_bindings",
        sa.Column("place", sa.String(), primary_key=True),
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("bound_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("discord_bindings")
    op.drop_table("discord_claims")
    op.drop_table("discord_feed")
    op.drop_table("discord_settings")
