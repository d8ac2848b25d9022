"""Join links that expire: ``table_links.expires_at``.

Revision ID: 0010
Revises: 0008

``expires_at``: when the link stops working (`stkit table links --expires 12h`); NULL for a link that
lasts until it is revoked, which is what every link issued before this revision keeps.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_links") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_links") as batch:
        batch.drop_column("expires_at")
