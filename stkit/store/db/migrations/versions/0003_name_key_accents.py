"""Character name keys fold accents ('Zoë' and 'Zoe' are one name): recompute characters.name_key.

Revision ID: 0003
Revises: 0002

Two characters of one chronicle whose names differ only by accents ('Archibald', 'Ärchibald') would now
share a key, which the unique constraint forbids: a row whose folded key is already taken in its chronicle
keeps its old key (it stays listed; `char show` finds the other one).
"""

from __future__ import annotations

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

from stkit.sheet.traits import name_key

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _recompute(key_of) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, chronicle, name, name_key FROM characters ORDER BY id")).fetchall()
    taken = {(r[1], r[3]) for r in rows}
    for row_id, chronicle, name, old in rows:
        new = key_of(name)
        if new == old or (chronicle, new) in taken:
            continue
        taken.discard((chronicle, old))
        taken.add((chronicle, new))
        conn.execute(sa.text("UPDATE characters SET name_key = :k WHERE id = :id"), {"k": new, "id": row_id})


def upgrade() -> None:

    _recompute(name_key)


def downgrade() -> None:

    def old_key(name: str) -> str:  # the key function of revisions 0001-0002
        return " ".join(re.split(r"[\s_\-]+", unicodedata.normalize("NFKC", name).casefold())).strip()

    _recompute(old_key)
