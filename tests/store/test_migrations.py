"""Alembic migrations: applied on open, and an old database keeps its data when upgraded."""

from __future__ import annotations

import json

from sqlalchemy import inspect, text

from stkit.store import db as DB
from stkit.store.characters import get_character
from stkit.store.sheet import Sheet


def test_head_is_found_without_alembic():
    heads = DB.head_revisions()
    assert len(heads) == 1
    assert "0001" not in heads or heads == {"0001"}


def test_open_creates_schema_at_head(db_url):
    engine = DB.open_store(db_url)
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == DB.head_revisions()
    names = set(inspect(engine).get_table_names())
    assert {"characters", "roll_log", "alembic_version"} <= names
    DB.open_store(db_url)  # a second open is a no-op


def test_upgrade_from_first_revision_keeps_data(db_url):
    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0001")
    sheet = Sheet(name="Ears-of-the-Wind")
    sheet.set_trait("Charisma", 4)
    sheet.set_trait("Leadership", 2)
    with engine.begin() as conn:
        assert DB.current_revisions(conn) == {"0001"}
        conn.execute(text(
            "INSERT INTO characters (id, chronicle, name, name_key, player, breed, auspice, tribe, form, sheet, "
            "version, created_at, updated_at) VALUES (1, 'default', 'Ears-of-the-Wind', 'ears of the wind', "
            "'Kelly', '', '', '', 'Homid', :sheet, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
        ), {"sheet": json.dumps(sheet.to_dict())})
        conn.execute(text(
            "INSERT INTO roll_log (created_at, chronicle, character_id, character_name, kind, expression, pool, "
            "difficulty, dice, outcome, result, willpower, detail) VALUES (CURRENT_TIMESTAMP, 'default', 1, "
            "'Ears-of-the-Wind', 'roll', 'Charisma + Leadership', 6, 8, '[8,9,10,8,2,3]', 'success', 4, :f, '{}')"
        ), {"f": False})
    DB._migrated.clear()
    DB.ensure_schema(engine)  # what open_store does: upgrade to head
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == DB.head_revisions()
        log = conn.execute(text("SELECT character_id, pool, difficulty, dice, result FROM roll_log")).all()
    assert log == [(1, 6, 8, "[8,9,10,8,2,3]", 4)]
    with DB.transaction(engine) as session:
        row = get_character(session, "ears of the wind")
        assert row.player == "Kelly"
        assert row.to_sheet() == Sheet.from_dict(sheet.to_dict())
