r"""Character name keys drop invisible characters ('Bob\u200b' and 'B\u00adob' are 'bob'): recompute
characters.name_key, and report the names of one chronicle that now read alike.

Revision ID: 0007
Revises: 0006

A row whose new key is already taken in its chronicle keeps its old key, as in revision 0003: both
characters stay, each reachable by its exact name (stkit.store.characters.name_matches). Every such pair,
including the accent pairs revision 0003 left ('Zoe' and 'Zoë'), is reported once on stderr so the
Storyteller can rename one of them.
"""

from __future__ import annotations

import re
import sys
import unicodedata

import sqlalchemy as sa
from alembic import op

from stkit.sheet.traits import name_key
from stkit.text import fold_accents

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _recompute(key_of) -> list[tuple[str, str, str]]:
    """Give every row the key ``key_of(name)`` unless another row of its chronicle holds it; returns the
    (chronicle, holder's name, kept row's name) pairs that could not share the key."""
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, chronicle, name, name_key FROM characters ORDER BY id")).fetchall()
    holder = {(r[1], r[3]): r[2] for r in rows}
    pairs = []
    for row_id, chronicle, name, old in rows:
        new = key_of(name)
        if new == old:
            continue
        if (chronicle, new) in holder:
            pairs.append((chronicle, holder[(chronicle, new)], name))
            continue
        del holder[(chronicle, old)]
        holder[(chronicle, new)] = name
        conn.execute(sa.text("UPDATE characters SET name_key = :k WHERE id = :id"), {"k": new, "id": row_id})
    return pairs


def report(pairs: list[tuple[str, str, str]]) -> None:
    """One stderr line per pair of names that read alike in one chronicle."""
    for chronicle, a, b in pairs:
        sys.stderr.write(
            f"stkit: in chronicle {chronicle!r}, {a!r} and {b!r} read as the same name; both are kept, "
            "each found by its exact name as `stkit char list` shows it\n"
        )


def upgrade() -> None:

    report(_recompute(name_key))


def downgrade() -> None:

    def key_0003(name: str) -> str:  # the key function of revisions 0003-0006
        folded = fold_accents(unicodedata.normalize("NFKC", name)).casefold()
        return " ".join(re.split(r"[\s_\-]+", folded)).strip()

    _recompute(key_0003)
