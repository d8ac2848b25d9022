"""Revision 0012 (a fight night's state): the moon, the dead and the turn's powers, up and down, on data
written by revision 0008."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from stkit.store.db import engine as DB
from tests.combat.test_migration import _alembic


@pytest.mark.empty_store
def test_0012_up_and_down_keeps_the_scene_and_house_rules(db_url):
    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0008")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO scenes (id, chronicle, name, status, turn, created_at) "
                "VALUES (1, 'default', 'The alley', 'open', 2, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO house_rules (chronicle, key, value, updated_at) "
                "VALUES ('default', 'specialty', 'double', CURRENT_TIMESTAMP)"
            )
        )
    _alembic(engine, "upgrade", "0012")
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == {"0012"}
        tables = set(inspect(conn).get_table_names())
        assert {"chronicle_moon", "character_fates", "turn_powers"} <= tables
        assert conn.execute(text("SELECT key, value FROM house_rules")).all() == [("specialty", "double")]
    _alembic(engine, "downgrade", "0008")
    with engine.connect() as conn:
        assert "turn_powers" not in inspect(conn).get_table_names()
        assert conn.execute(text("SELECT name FROM scenes")).all() == [("The alley",)]
    engine.dispose()
