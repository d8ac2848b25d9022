"""A character's growth in the store (stkit.store.growth): raises in one transaction, refused as a whole,
undone as a whole; Renown awards into Rank; the history; the example characters checked; the migration
keeps what revision 0008 stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from stkit.errors import RuleRefusal
from stkit.sheet.sheet import Sheet
from stkit.store import growth as G
from stkit.store.characters import create_character, experience, find_character, set_trait
from stkit.store.db import engine as DB
from stkit.store.db.gateway import run_unit
from stkit.store.files import find_character_files, load_files
from tests.store.test_lifebook import garou

ROOT = Path(__file__).resolve().parents[2]


def unit(db_url, work):
    return run_unit(db_url, work)


def sheet_of(db_url, name="Sees-Far") -> Sheet:
    return run_unit(db_url, lambda gw: find_character(gw, name).to_sheet(), readonly=True)


@pytest.fixture
def stored(db_url):
    unit(db_url, lambda gw: create_character(gw, garou()))
    unit(db_url, lambda gw: experience(gw, "Sees-Far", "award", 30, "chapter one"))
    return db_url


def events(db_url) -> list[dict]:
    rows = run_unit(db_url, lambda gw: gw.rows("SELECT kind, data FROM table_events ORDER BY id"), readonly=True)
    return [json.loads(r[1]) | {"kind": r[0]} for r in rows]


def test_raise_several_traits_in_one_spend(stored):
    """Brawl 3->4 (3x2 = 6), Linguistics new (3), Willpower 3->4 (3x1 = 3), Gift Falling Touch (1x3 = 3): 15."""
    done = unit(
        stored,
        lambda gw: G.raise_traits(
            gw,
            "sees",
            [("Brawl", None), ("Linguistics", 1), ("Willpower", None), ("gift:Falling Touch", None)],
            reason="chapter one",
        ),
    )
    assert done.cost == 15
    s = sheet_of(stored)
    assert (s.abilities["Brawl"], s.abilities["Linguistics"], s.powers["Willpower"].permanent) == (4, 1, 4)
    assert (s.xp_spent, s.xp_available) == (15, 15)
    assert s.xp_log[-1]["reason"] == "chapter one: Brawl 3->4, Linguistics 0->1, Willpower 3->4, Gift Falling Touch (1)"
    assert events(stored)[-1]["summary"] == (
        "Sees-Far raises Brawl 3->4, Linguistics 0->1, Willpower 3->4, Gift Falling Touch (1) for 15 experience"
    )


def test_a_raise_too_dear_buys_nothing(stored):
    before = sheet_of(stored)
    n = len(events(stored))
    with pytest.raises(RuleRefusal, match="has 30 experience to spend; Strength 4->5 16, Dexterity 3->5 28 cost 44"):
        unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("Strength", None), ("Dexterity", 5)]))
    assert sheet_of(stored) == before and len(events(stored)) == n


def test_undo_takes_back_the_whole_last_spend(stored):
    unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("Occult", 3)]))  # 2x2 = 4
    unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("Brawl", None), ("Rage", None)]))  # 6 + 5 = 11
    edit = unit(stored, lambda gw: G.undo_spend(gw, "Sees-Far"))
    assert edit.data["refunded"] == 11
    s = sheet_of(stored)
    assert (s.abilities["Brawl"], s.powers["Rage"].permanent, s.abilities["Occult"], s.xp_spent) == (3, 5, 3, 4)
    assert [e["amount"] for e in s.xp_log if e["kind"] == "spend"] == [4]
    unit(stored, lambda gw: G.undo_spend(gw, "Sees-Far"))
    assert sheet_of(stored) == sheet_of(stored) and sheet_of(stored).xp_spent == 0
    with pytest.raises(RuleRefusal, match="no experience spend of `char raise` to undo"):
        unit(stored, lambda gw: G.undo_spend(gw, "Sees-Far"))


def test_undo_refused_when_the_trait_changed_since(stored):
    unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("Brawl", None)]))
    unit(stored, lambda gw: set_trait(gw, "Sees-Far", "Brawl", "2"))
    with pytest.raises(RuleRefusal, match="Brawl is 2 now, not the 4 the spend bought; nothing undone"):
        unit(stored, lambda gw: G.undo_spend(gw, "Sees-Far"))
    assert sheet_of(stored).xp_spent == 6


def test_rites_follow_the_house_rule(stored):
    from stkit.store.house import set_house_rule

    done = unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("rite:Rite of Cleansing", 2)]))
    assert sheet_of(stored).xp_spent == 2
    assert [p.label for p in done.purchases] == ["Rite of Cleansing (2)"]  # the name already says Rite
    unit(stored, lambda gw: set_house_rule(gw, "default", "rite-cost", "taught"))
    unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("rite:Rite of Binding", 1)]))
    assert sheet_of(stored).xp_spent == 2 and len(sheet_of(stored).rites) == 2
    done = unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("rite:Baptism of Fire", 1)]))
    assert [p.label for p in done.purchases] == ["Rite Baptism of Fire (1)"]


def test_renown_into_rank_and_the_check_judges_the_sheet_as_made(stored):
    unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("Brawl", None)]))
    for renown, n in (("Glory", 10), ("Glory", 10), ("Wisdom", 10)):
        edit = unit(stored, lambda gw, r=renown, n=n: G.give_renown(gw, "Sees-Far", r, n, "the bridge"))
    assert edit.summary == (
        "Sees-Far earns 10 Wisdom: Wisdom 1 permanent, 0 temporary (+1 permanent from 10 temporary); "
        "Rank 2 (Fostern) reached"
    )
    assert edit.data["next_rank"]["text"] == "Glory 6 (has 4), Honor 3 (has 1), Wisdom 1 (has 1)"
    assert sheet_of(stored).rank == 2
    check, made = run_unit(stored, lambda gw: G.check_character(gw, "Sees-Far"), readonly=True)
    assert check.passed, check.deviations
    assert (made.rank, made.abilities["Brawl"], made.renown["Glory"].permanent) == (1, 3, 2)


def test_history_lists_every_change_with_its_source(stored):
    unit(stored, lambda gw: G.raise_traits(gw, "Sees-Far", [("Brawl", None)]))
    unit(stored, lambda gw: G.give_renown(gw, "Sees-Far", "Honor", 2, "kept the peace"))
    unit(stored, lambda gw: G.undo_spend(gw, "Sees-Far"))
    _, rows = run_unit(stored, lambda gw: G.history(gw, "Sees-Far"), readonly=True)
    # the fixture's award is an experience change, named so (not a plain "edit" of the sheet)
    assert [r["source"] for r in rows] == ["created", "xp", "raise", "renown", "undo"]
    assert rows[3]["change"] == "Sees-Far earns 2 Honor: Honor 1 permanent, 2 temporary"
    assert all(r["at"].endswith("+00:00") for r in rows)


def test_the_example_characters_are_checked():
    """Each file of characters/ states only what Chapter Five gives; its comment explains every
    deviation (Rank 0 and the starting Rage, Willpower and Renown the chapter does not give)."""
    expected = {
        "Archibald": ["Rank"],
        "Ears-of-the-Wind": ["Rank"],
        "Flashburn": ["Renown", "Rank"],
        "Paper Clip": ["Rage", "Willpower", "Renown", "Rank"],  # Bone Gnawers start with Willpower 4
        "Red-of-Teeth": ["Rank"],
        "Shadow-in-the-Wood": ["Renown", "Rank"],
        "Weston": ["Rage", "Renown", "Rank"],
    }
    from stkit.sheet.lifebook import check_creation

    for loaded in [lf for p in find_character_files(ROOT / "characters") for lf in load_files(p)]:
        check = check_creation(loaded.sheet)
        rules = [d.rule for d in check.deviations]
        assert rules == expected[loaded.sheet.name], (loaded.sheet.name, check.deviations)
        comment = loaded.path.read_text(encoding="utf-8")
        assert "char check" in comment, loaded.path
        for rule in rules:
            assert f"{rule}:" in comment or f"{rule} " in comment, (loaded.path, rule)


def test_migration_0013_keeps_what_the_previous_revision_stored(db_url):
    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0010")
    sheet = garou()
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO characters (id, chronicle, name, name_key, player, breed, auspice, tribe, form, sheet, "
                "version, created_at, updated_at) VALUES (1, 'default', 'Sees-Far', 'sees far', '', 'Homid', "
                "'Ahroun', 'Get of Fenris', 'Homid', :sheet, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"sheet": json.dumps(sheet.to_dict())},
        )
        conn.execute(
            text(
                "INSERT INTO house_rules (chronicle, key, value, updated_at) VALUES ('default', 'free-botch', 'on', CURRENT_TIMESTAMP)"
            )
        )
    DB._migrated.clear()
    DB.ensure_schema(engine)
    with engine.connect() as conn:
        assert DB.current_revisions(conn) == DB.head_revisions()
        assert conn.execute(text("SELECT value FROM house_rules")).scalar_one() == "on"
        assert conn.execute(text("SELECT COUNT(*) FROM xp_spends")).scalar_one() == 0
    unit(db_url, lambda gw: experience(gw, "Sees-Far", "award", 5))
    unit(db_url, lambda gw: G.raise_traits(gw, "Sees-Far", [("Occult", None)]))
    assert sheet_of(db_url).abilities["Occult"] == 3
    engine.dispose()
