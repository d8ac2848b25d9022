"""A chronicle's house rules, and the record of forgiven botches (the free botch).

Revision ID: 0008
Revises: 0007

``house_rules``: one row per chronicle and key (`stkit house set KEY VALUE`), the value as text.
``free_botches``: one row per chronicle and night (an open scene, else a calendar day) whose first botch
the free-botch house rule forgave, pointing at the roll-log entry; the primary key makes it once a night.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "house_rules",
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chronicle", "key", name="pk_house_rules"),
    )
    op.create_table(
        "free_botches",
        sa.Column("chronicle", sa.String(), nullable=False),
        sa.Column("night", sa.String(), nullable=False),
        sa.Column("log_id", sa.Integer(), sa.ForeignKey("roll_log.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chronicle", "night", name="pk_free_botches"),
    )


def downgrade() -> None:
    op.drop_table("free_botches")
    op.drop_table("house_rules")
