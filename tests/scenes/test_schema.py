"""Revision 0002 matches the scene models, downgrades cleanly, and the pure rules load no framework."""

import subprocess
import sys

import pytest
import sqlalchemy as sa

from stkit.store.db import scene_models  # noqa: F401 - registers the tables on SQLModel.metadata

MINE = ("scenes", "scene_turns", "willpower_spends", "tracked_actions", "tracked_rolls", "contests", "contest_rolls")


def test_migration_creates_what_the_models_declare(engine):
    from sqlmodel import SQLModel

    insp = sa.inspect(engine)
    for table in MINE:
        declared = {c.name: c for c in SQLModel.metadata.tables[table].columns}
        created = {c["name"]: c for c in insp.get_columns(table)}
        assert set(created) == set(declared), table
        for name, col in declared.items():
            assert created[name]["nullable"] == col.nullable or col.primary_key, (table, name)
        uniques = {tuple(u["column_names"]) for u in insp.get_unique_constraints(table)}
        uniques |= {tuple(i["column_names"]) for i in insp.get_indexes(table) if i["unique"]}
        for con in SQLModel.metadata.tables[table].constraints:
            if isinstance(con, sa.UniqueConstraint):
                assert tuple(c.name for c in con.columns) in uniques, (table, con.name)


def test_downgrade_to_0001_and_back(engine):
    from alembic import command
    from alembic.config import Config

    from stkit.store.db.engine import MIGRATIONS_DIR, upgrade

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    names = set(sa.inspect(engine).get_table_names())
    assert not names & set(MINE) and "characters" in names
    upgrade(engine)
    assert set(MINE) <= set(sa.inspect(engine).get_table_names())


def test_one_open_scene_is_enforced_by_the_database(engine):
    from sqlalchemy.exc import IntegrityError

    from stkit.store.db.engine import transaction
    from stkit.store.db.scene_models import Scene

    with transaction(engine) as s:
        s.add(Scene(chronicle="c", name="one"))
        s.add(Scene(chronicle="c", name="ended", status="ended"))
    with pytest.raises(IntegrityError), transaction(engine) as s:
        s.add(Scene(chronicle="c", name="two"))


def test_contest_rules_are_pure():
    code = (
        "import sys, stkit.dice.contest\n"
        "print(sorted(m for m in ('sqlmodel','sqlalchemy','typer','rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
