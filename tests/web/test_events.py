"""The event table itself: written in the change's own transaction, ids in commit order, the migration."""

from __future__ import annotations

import pytest

from stkit.errors import InvalidValue


def _ids(url: str) -> list[int]:
    from stkit.store.db.gateway import run_unit

    return [r[0] for r in run_unit(url, lambda gw: gw.rows("SELECT id FROM table_events ORDER BY id"))]


def test_an_event_is_rolled_back_with_its_change(db_url):
    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import run_gateway, run_unit
    from stkit.store.table.events import record_event

    class Boom(Exception):
        pass

    def work(gw):
        record_event(gw, chronicle="default", kind="scene", data={"change": "started"})
        raise Boom

    with pytest.raises(Boom):
        run_unit(db_url, work)

    def session_work(s):
        record_event(s, chronicle="default", kind="scene", data={"change": "started"})
        raise Boom

    with pytest.raises(Boom):
        run_gateway(open_store(db_url), session_work)
    assert _ids(db_url) == []
    run_unit(db_url, lambda gw: record_event(gw, chronicle="default", kind="scene", data={"n": 1}))
    run_gateway(
        open_store(db_url), lambda s: record_event(s, chronicle="default", kind="roll", data={"n": 2}, secret=True)
    )
    assert len(_ids(db_url)) == 2


def test_events_after_and_recent(db_url):
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import events_after, last_event_id, recent_events, record_event

    for n in range(5):
        run_unit(
            db_url,
            lambda gw, n=n: record_event(gw, chronicle="default", kind="roll", data={"n": n}, secret=n == 2),
        )
    run_unit(db_url, lambda gw: record_event(gw, chronicle="other", kind="roll", data={"n": 9}))
    ids = _ids(db_url)
    public = run_unit(db_url, lambda gw: events_after(gw, "default", ids[0], include_secret=False))
    assert [e.data["n"] for e in public] == [1, 3, 4]
    every = run_unit(db_url, lambda gw: events_after(gw, "default", 0, include_secret=True, limit=2))
    assert [e.data["n"] for e in every] == [0, 1]
    newest = run_unit(db_url, lambda gw: recent_events(gw, "default", kind="roll", include_secret=True, limit=2))
    assert [e.data["n"] for e in newest] == [4, 3]
    assert run_unit(db_url, lambda gw: last_event_id(gw, "default")) == ids[4]
    assert every[0].created_at.endswith("+00:00") and every[0].secret is False
    with pytest.raises(InvalidValue, match="limit 0 is outside the allowed range 1 to 10000"):
        run_unit(db_url, lambda gw: events_after(gw, "default", 0, include_secret=True, limit=0))
    with pytest.raises(InvalidValue, match="event kind 'nap'"):
        run_unit(db_url, lambda gw: record_event(gw, chronicle="default", kind="nap", data={}))


def test_dice_marks_follow_the_rule_of_one():
    from stkit.dice import count_dice
    from stkit.store.table.events import dice_marks

    # difficulty 6: successes 7, 6, 9; two 1s cancel the two lowest (6 and 7); 3 is neither
    roll = count_dice(6, 6, [7, 1, 6, 3, 9, 1])
    assert roll.result == 1
    assert dice_marks(roll) == [
        "success cancelled",
        "one cancelling",
        "success cancelled",
        "",
        "success",
        "one cancelling",
    ]
    botch = count_dice(2, 6, [1, 4])
    assert dice_marks(botch) == ["one", ""]


def test_migration_0005_goes_down_and_up(db_url):
    from sqlalchemy import inspect

    from stkit.store.db import engine as DB

    engine = DB.open_store(db_url)
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(DB.MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
    with engine.connect() as conn:
        assert not {"table_events", "table_links"} & set(inspect(conn).get_table_names())
    DB._migrated.clear()
    DB.ensure_schema(engine)
    with engine.connect() as conn:
        assert {"table_events", "table_links"} <= set(inspect(conn).get_table_names())
        assert DB.current_revisions(conn) == {DB.HEAD_REVISION}


def test_migration_creates_what_the_models_declare(db_url):
    import sqlalchemy as sa
    from sqlmodel import SQLModel

    from stkit.store.db import models  # noqa: F401 - registers the tables on SQLModel.metadata
    from stkit.store.db.engine import open_store

    insp = sa.inspect(open_store(db_url))
    for table in ("table_events", "table_links"):
        declared = {c.name: c for c in SQLModel.metadata.tables[table].columns}
        created = {c["name"]: c for c in insp.get_columns(table)}
        assert set(created) == set(declared), table
        for name, col in declared.items():
            assert created[name]["nullable"] == col.nullable or col.primary_key, (table, name)
    assert {i["name"] for i in insp.get_indexes("table_events")} >= {"ix_table_events_chronicle_id"}
    uniques = {tuple(u["column_names"]) for u in insp.get_unique_constraints("table_links")}
    uniques |= {tuple(i["column_names"]) for i in insp.get_indexes("table_links") if i["unique"]}
    assert ("token_hash",) in uniques


def test_migration_0010_keeps_links_issued_before_it(db_url):
    """A link stored at revision 0008 (no expiry column) still works after 0010, and lasts until revoked."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from stkit.store.db import engine as DB
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import find_link_holder, issue_links

    engine = DB.open_store(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(DB.MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0008")
    with engine.begin() as conn:
        assert "expires_at" not in {c["name"] for c in inspect(conn).get_columns("table_links")}
        conn.exec_driver_sql(
            "INSERT INTO table_links (chronicle, role, character_id, token_hash, created_at) "
            "VALUES ('default', 'storyteller', NULL, "
            f"'{'ab' * 32}', '2026-11-30 10:00:00.000000')"
        )
    DB._migrated.clear()
    DB.ensure_schema(engine)
    from stkit.store.table import events as E

    real_hash = E.hash_token
    try:
        E.hash_token = lambda token: "ab" * 32  # the stored row's hash, whatever its token was
        holder = run_unit(db_url, lambda gw: find_link_holder(gw, "any-token"), readonly=True)
    finally:
        E.hash_token = real_hash
    assert holder is not None and holder.is_storyteller and holder.expires_at is None
    fresh = run_unit(db_url, lambda gw: issue_links(gw, "default", lifetime=3600))
    assert fresh[0].expires_at is not None


def test_table_events_keep_a_bounded_window_and_the_roll_log_keeps_everything(db_url):
    """Past the window, older events are dropped in the writer's transaction; every roll stays logged."""

    from stkit.store.db.gateway import run_unit
    from stkit.store.table import events as E
    from tests.rolls import bare_roll

    def roll(gw, i):
        bare_roll(gw, 3, seed=i)

    real = (E.EVENT_WINDOW, E.PRUNE_EVERY)
    E.EVENT_WINDOW, E.PRUNE_EVERY = 20, 5
    try:
        for i in range(0, 60, 10):
            run_unit(db_url, lambda gw, start=i: [roll(gw, k) for k in range(start, start + 10)])
    finally:
        E.EVENT_WINDOW, E.PRUNE_EVERY = real
    ids = run_unit(db_url, lambda gw: [r[0] for r in gw.rows("SELECT id FROM table_events ORDER BY id")])
    assert ids == list(range(41, 61))  # the newest 20 (the last prune at id 60)
    assert run_unit(db_url, lambda gw: gw.row("SELECT COUNT(*) FROM roll_log")[0]) == 60
