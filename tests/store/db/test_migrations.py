"""Alembic migrations: applied on open, and an old database keeps its data when upgraded."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import inspect, text

from stkit.sheet.sheet import Sheet
from stkit.store.characters import get_character
from stkit.store.db import engine as DB
from stkit.store.db.gateway import gateway_transaction


def test_head_constant_is_alembics_head():
    """The fast path's HEAD_REVISION (no alembic import) is the head alembic finds in the migration files."""
    assert DB.head_revisions() == {DB.HEAD_REVISION} == DB.script_heads()


def test_open_creates_schema_at_head(db_url):
    engine = DB.open_store(db_url)
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == DB.head_revisions()
    names = set(inspect(engine).get_table_names())
    assert {"characters", "roll_log", "alembic_version"} <= names
    DB.open_store(db_url)  # a second open is a no-op


@pytest.mark.empty_store
def test_upgrade_from_first_revision_keeps_data(db_url):
    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0001")
    sheet = Sheet(name="Ears-of-the-Wind")
    sheet.set_trait("Charisma", 4)
    sheet.set_trait("Leadership", 2)
    with engine.begin() as conn:
        assert DB.current_revisions(conn) == {"0001"}
        conn.execute(
            text(
                "INSERT INTO characters (id, chronicle, name, name_key, player, breed, auspice, tribe, form, sheet, "
                "version, created_at, updated_at) VALUES (1, 'default', 'Ears-of-the-Wind', 'ears of the wind', "
                "'Kelly', '', '', '', 'Homid', :sheet, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"sheet": json.dumps(sheet.to_dict())},
        )
        conn.execute(
            text(
                "INSERT INTO roll_log (created_at, chronicle, character_id, character_name, kind, expression, pool, "
                "difficulty, dice, outcome, result, willpower, detail) VALUES (CURRENT_TIMESTAMP, 'default', 1, "
                "'Ears-of-the-Wind', 'roll', 'Charisma + Leadership', 6, 8, '[8,9,10,8,2,3]', 'success', 4, :f, '{}')"
            ),
            {"f": False},
        )
    DB._migrated.clear()
    DB.ensure_schema(engine)  # what open_store does: upgrade to head
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == DB.head_revisions()
        log = conn.execute(text("SELECT character_id, pool, difficulty, dice, result FROM roll_log")).all()
    assert log == [(1, 6, 8, "[8,9,10,8,2,3]", 4)]
    with gateway_transaction(engine) as gw:
        row = get_character(gw, "ears of the wind")
        assert gw.rows("SELECT player FROM characters WHERE id = :id", id=row.id) == [("Kelly",)]
        assert row.to_sheet() == Sheet.from_dict(sheet.to_dict())


@pytest.mark.empty_store
def test_revision_0003_folds_accents_in_stored_name_keys(db_url):
    """Rows written with the 0001-0002 key ('zoë') get the folded key; a clash with a row already holding the
    folded key in the same chronicle keeps its old key; the other chronicle is untouched by the clash."""
    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0002")
    rows = [
        (1, "default", "Zoë", "zoë"),
        (2, "default", "Archibald", "archibald"),
        (3, "default", "Ärchibald", "ärchibald"),
        (4, "other", "Ärchibald", "ärchibald"),
        (5, "default", "Red-of-Teeth", "red of teeth"),
    ]
    with engine.begin() as conn:
        for row_id, chronicle, name, key in rows:
            conn.execute(
                text(
                    "INSERT INTO characters (id, chronicle, name, name_key, player, breed, auspice, tribe, form, sheet, "
                    "version, created_at, updated_at) VALUES (:id, :c, :n, :k, '', '', '', '', 'Homid', :sheet, 1, "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {
                    "id": row_id,
                    "c": chronicle,
                    "n": name,
                    "k": key,
                    "sheet": json.dumps(Sheet(name=name, chronicle=chronicle).to_dict()),
                },
            )
    DB._migrated.clear()
    DB.ensure_schema(engine)
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == DB.head_revisions()
        keys = dict(conn.execute(text("SELECT id, name_key FROM characters ORDER BY id")).all())
    assert keys == {1: "zoe", 2: "archibald", 3: "ärchibald", 4: "archibald", 5: "red of teeth"}
    with gateway_transaction(engine) as session:
        assert get_character(session, "ZOE").name == "Zoë"
        assert get_character(session, "archibald", "other").id == 4
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(DB.MIGRATIONS_DIR))
    with engine.begin() as conn:  # and back: the 0001-0002 keys again
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT id, name_key FROM characters ORDER BY id")).all())
    assert keys == {1: "zoë", 2: "archibald", 3: "ärchibald", 4: "ärchibald", 5: "red of teeth"}


def test_fast_path_after_the_accent_migration(tmp_path, monkeypatch):
    """A SQLite file at 0002 is not read by the sqlite3 fast path (not at head); once opened it is at 0003
    and the fast path serves `char show` again."""
    from stkit.store.db.gateway import fast_connection

    db = tmp_path / "old.sqlite"
    url = "sqlite:///" + str(db)
    engine = DB.make_engine(url)
    DB.upgrade(engine, "0002")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO characters (id, chronicle, name, name_key, player, breed, auspice, tribe, form, sheet, "
                "version, created_at, updated_at) VALUES (1, 'default', 'Zoë', 'zoë', '', '', '', '', 'Homid', :s, 1, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"s": json.dumps(Sheet(name="Zoë").to_dict())},
        )
    DB.dispose_engines()
    assert fast_connection(url) is None
    from stkit.store.characters import find_character
    from stkit.store.db.gateway import run_unit

    def load_sheet(db: str, name: str) -> tuple:
        return (run_unit(db, lambda gw: find_character(gw, name).to_sheet(), readonly=True),)

    assert load_sheet(str(db), "zoe")[0].name == "Zoë"  # opened the normal way, migrated
    conn = fast_connection(url)
    assert conn is not None
    conn.close()
    assert load_sheet(str(db), "ZOË")[0].name == "Zoë"
