"""stkit.store.completion: the queries behind the shell's Tab completion, on SQLite and PostgreSQL."""

from __future__ import annotations

from stkit.sheet.sheet import Sheet
from stkit.store import characters as C
from stkit.store.completion import character_names_starting, open_tracked
from stkit.store.db.engine import open_store
from stkit.store.db.gateway import run_unit
from stkit.store.extended import abandon_extended, start_extended


def test_names_by_folded_prefix_and_open_actions_only(db_url):
    open_store(db_url)

    def setup(gw):
        for name in ("Shadow-in-the-Wood", "Shadow-Dancer", "Zoë", "100%_Wolf"):
            C.create_character(gw, Sheet(name=name))
        kept = start_extended(gw, "Stay hidden", chronicle=None, character=None, pool="5", difficulty=6, target=9)
        gone = start_extended(gw, "Climb", chronicle=None, character=None, pool="3", difficulty=6, target=9)
        abandon_extended(gw, gone.id)
        return kept.id

    kept = run_unit(db_url, setup)
    names = run_unit(db_url, lambda gw: character_names_starting(gw, "SHA", limit=50), readonly=True)
    assert names == ["Shadow-Dancer", "Shadow-in-the-Wood"]
    assert run_unit(db_url, lambda gw: character_names_starting(gw, "sha", limit=1), readonly=True) == ["Shadow-Dancer"]
    assert run_unit(db_url, lambda gw: character_names_starting(gw, "zoe", limit=50), readonly=True) == ["Zoë"]
    # LIKE wildcards typed by a player match only themselves
    assert run_unit(db_url, lambda gw: character_names_starting(gw, "1_0", limit=50), readonly=True) == []
    assert run_unit(db_url, lambda gw: character_names_starting(gw, "100%", limit=50), readonly=True) == ["100%_Wolf"]
    assert run_unit(db_url, lambda gw: open_tracked(gw, "extended"), readonly=True) == [(kept, "Stay hidden")]
    assert run_unit(db_url, lambda gw: open_tracked(gw, "contest"), readonly=True) == []
