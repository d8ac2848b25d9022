"""Revision 0006 (combat): the initiative column on scene turns and the rage_spends table, up and down, on data."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from stkit.store.db import engine as DB


def _alembic(engine, action: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(DB.MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, action)(cfg, revision)


@pytest.mark.empty_store
def test_0006_up_and_down_keeps_the_scene(db_url):
    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0003")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO scenes (id, chronicle, name, status, turn, created_at) "
                "VALUES (1, 'default', 'The alley', 'open', 2, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(text("INSERT INTO scene_turns (scene_id, turn, started_at) VALUES (1, 1, CURRENT_TIMESTAMP)"))
    _alembic(engine, "upgrade", "0006")
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == {"0006"}
        assert conn.execute(text("SELECT turn, initiative FROM scene_turns")).all() == [(1, None)]
        cols = {c["name"] for c in inspect(conn).get_columns("rage_spends")}
    assert cols == {"id", "scene_id", "turn", "character_id", "points", "created_at"}
    _alembic(engine, "downgrade", "0003")
    with engine.connect() as conn:
        assert "rage_spends" not in inspect(conn).get_table_names()
        assert "initiative" not in {c["name"] for c in inspect(conn).get_columns("scene_turns")}
        assert conn.execute(text("SELECT scene_id, turn FROM scene_turns")).all() == [(1, 1)]
    engine.dispose()
