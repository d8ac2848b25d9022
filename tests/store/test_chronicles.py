"""Chronicles as a whole: start one with its house rules and Storyteller link, list and show them, remove
one with everything of it and nothing of the others."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, NotFound
from stkit.store import chronicles as CH
from stkit.store.db.gateway import run_unit

runner = CliRunner()


def _tables_with_chronicle(url: str) -> dict[str, list[tuple[str, str]]]:
    """{table: its foreign keys (column, parent table)} of the migrated schema, for tables holding rows of
    a chronicle directly (a chronicle column) or through a parent."""
    path = url[len("sqlite:///") :]
    conn = sqlite3.connect(path)
    out = {}
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info('{table}')")]
        fks = [(r[3], r[2]) for r in conn.execute(f"PRAGMA foreign_key_list('{table}')")]
        out[table] = [("chronicle", "")] * ("chronicle" in cols) + fks
    conn.close()
    return out


def test_remove_covers_every_table_of_the_schema(migrated_db_url):
    if not migrated_db_url.startswith("sqlite"):
        pytest.skip("the schema is read from SQLite's catalog")
    direct = set(CH.CHRONICLE_TABLES)
    by_parent = {(child, key, parent) for child, key, parent in CH._BY_PARENT}
    children = {c for c, _, _ in by_parent}
    for table, keys in _tables_with_chronicle(migrated_db_url).items():
        if ("chronicle", "") in keys:
            assert table in direct, f"{table} has a chronicle column: add it to CHRONICLE_TABLES"
        elif keys:
            assert table in children, f"{table} hangs from {keys}: add it to _BY_PARENT"
    # character_fates keys by character id without a declared foreign key
    assert ("character_fates", "character_id", "characters") in by_parent


def _populate(url: str, chronicle: str) -> None:
    from stkit.sheet.sheet import Sheet, Track
    from stkit.store.characters import create_character
    from stkit.store.extended import start_extended
    from stkit.store.scenes import next_turn, start_scene
    from tests.rolls import bare_roll, sheet_roll

    def work(gw):
        sheet = Sheet(name="Ana", chronicle=chronicle)
        sheet.attributes["Dexterity"] = 3
        sheet.powers["Willpower"] = Track(3, 3)
        create_character(gw, sheet)
        CH.set_house_rule(gw, chronicle, "specialty", "double")
        start_scene(gw, chronicle, "Ambush")
        next_turn(gw, chronicle)
        bare_roll(gw, 4, chronicle=chronicle, seed=1)
        start_extended(gw, "Climb", chronicle=chronicle, character=None, pool="4", difficulty=6, target=5)
        CH.issue_links(gw, chronicle)

    run_unit(url, work)
    run_unit(url, lambda gw: sheet_roll(gw, "Ana", "Dexterity", willpower=True, chronicle=chronicle))


def _counts(url: str, chronicle: str) -> dict[str, int]:
    return {
        t: run_unit(url, lambda gw, t=t: gw.row(f"SELECT COUNT(*) FROM {t} WHERE chronicle = :c", c=chronicle)[0])
        for t in CH.CHRONICLE_TABLES
    }


def test_remove_takes_everything_of_one_chronicle_and_nothing_else(migrated_db_url):
    url = migrated_db_url
    _populate(url, "north")
    _populate(url, "south")
    before = _counts(url, "south")
    assert before["characters"] == 1 and before["scenes"] == 1 and before["roll_log"] == 2
    held = run_unit(url, lambda gw: CH.remove_chronicle(gw, "north"))
    assert held.characters == ["Ana"] and held.house_rules == {"specialty": "double"} and held.rolls == 2
    assert set(_counts(url, "north").values()) == {0}
    assert _counts(url, "south") == before
    scene_children = run_unit(url, lambda gw: gw.row("SELECT COUNT(*) FROM willpower_spends")[0])
    assert scene_children == 1  # south's spend stays
    assert run_unit(url, CH.chronicle_names) == ["south"]
    with pytest.raises(NotFound, match="no chronicle 'north' in this store \\(chronicles: south\\)"):
        run_unit(url, lambda gw: CH.chronicle_summary(gw, "north"))


def test_new_chronicle_has_its_rules_and_storyteller_link(migrated_db_url):
    from stkit.store.table.events import find_link_holder

    link = run_unit(migrated_db_url, lambda gw: CH.new_chronicle(gw, "Lyon", {"free-botch": "on"}))
    holder = run_unit(migrated_db_url, lambda gw: find_link_holder(gw, link.token))
    assert holder is not None and holder.chronicle == "Lyon" and holder.is_storyteller
    shown = run_unit(migrated_db_url, lambda gw: CH.chronicle_summary(gw, "Lyon"))
    assert shown.house_rules == {"free-botch": "on"} and shown.links == 1 and shown.characters == []
    with pytest.raises(InvalidValue, match="chronicle 'Lyon' already exists"):
        run_unit(migrated_db_url, lambda gw: CH.new_chronicle(gw, "Lyon"))
    with pytest.raises(InvalidValue):
        run_unit(migrated_db_url, lambda gw: CH.new_chronicle(gw, "Paris", {"specialty": "triple"}))
    assert run_unit(migrated_db_url, CH.chronicle_names) == ["Lyon"]  # nothing of Paris half-written


def test_chronicle_commands(migrated_db_url):
    db = ["--db", migrated_db_url]
    made = runner.invoke(app, ["chronicle", "new", "Lyon", "--house", "specialty=double", "--json", *db])
    assert made.exit_code == 0, made.output
    said = json.loads(made.output)
    assert said["chronicle"] == "Lyon" and said["storyteller"].startswith("http://127.0.0.1:8000/join/")
    assert runner.invoke(app, ["char", "new", "Ana", "--chronicle", "Lyon", *db]).exit_code == 0
    listed = json.loads(runner.invoke(app, ["chronicle", "list", "--json", *db]).output)
    assert [(c["name"], c["characters"], c["house_rules"]) for c in listed["chronicles"]] == [
        ("Lyon", ["Ana"], {"specialty": "double"})
    ]
    shown = runner.invoke(app, ["chronicle", "show", "Lyon", *db])
    assert "Characters: Ana" in shown.output and "specialty double" in shown.output
    bad = runner.invoke(app, ["chronicle", "new", "Paris", "--house", "specialty", *db])
    assert bad.exit_code == 1 and "is not KEY=VALUE" in bad.output
    missing = runner.invoke(app, ["chronicle", "show", "Paris", *db])
    assert missing.exit_code == 1 and "no chronicle 'Paris'" in missing.output
    kept = runner.invoke(app, ["chronicle", "rm", "Lyon", *db], input="n\n")
    assert kept.exit_code == 1 and "Nothing removed." in kept.output
    gone = runner.invoke(app, ["chronicle", "rm", "Lyon", "--yes", "--json", *db])
    assert gone.exit_code == 0 and json.loads(gone.output)["removed"]["characters"] == ["Ana"]
    assert "No chronicles in this store yet" in runner.invoke(app, ["chronicle", "list", *db]).output
