"""`stkit char import` / `char export --format foundry` / rolling for every breed, as a user types them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import error, ok, run

DATA = Path(__file__).with_name("data")
MARROW = DATA / "foundry-werewolf-marrow.json"
TROUPE = DATA / "grapevine-troupe.gex"


def test_foundry_import_prints_every_dropped_path(db_url):
    out = ok("char", "import", MARROW)
    assert f"Imported Marrow-of-Oaks (default) from {MARROW}" in out
    assert (
        "Warning: system.appearance: not kept: the description of the character's looks (the Appearance Attribute is kept)"
        in out
    )
    assert "Warning: items[7] (type Feature other) 'Fenrir Pride': not kept" in out
    assert out.rstrip().endswith("1 character imported")


def test_foundry_import_json_lists_warnings(db_url):
    data = json.loads(ok("char", "import", MARROW, "--json"))
    (entry,) = data["imported"]
    assert entry["format"] == "foundry" and entry["name"] == "Marrow-of-Oaks"
    assert entry["warnings"][0].startswith("system.appearance: not kept: the description of the character's looks")
    assert len(entry["warnings"]) == 7


@pytest.mark.parametrize(
    ("options", "kind", "totem"),
    [
        ((), "PC", lambda s: s["bio"]["splatfields"]["totem"]["value"]),
        (("--foundry-layout", "legacy"), "Werewolf", lambda s: s["packtotem"]),
    ],
)
def test_export_foundry_then_import_is_the_same_sheet(db_url, tmp_path, options, kind, totem):
    ok("char", "import", MARROW)
    before = json.loads(ok("char", "show", "Marrow-of-Oaks", "--json"))
    target = tmp_path / "marrow-export.json"
    run("char", "export", "Marrow-of-Oaks", "--format", "foundry", *options, "-o", target)
    exported = json.loads(target.read_text(encoding="utf-8"))
    assert exported["type"] == kind and totem(exported["system"]) == "Fenris"
    data = json.loads(ok("char", "import", target, "--replace", "--json"))
    assert data["imported"][0]["warnings"] == []
    after = json.loads(ok("char", "show", "Marrow-of-Oaks", "--json"))
    assert after == before


def test_grapevine_troupe_in_one_transaction(db_url):
    out = ok("char", "import", TROUPE)
    assert "Warning: vampire 'Lucretia Voss' skipped: stkit keeps werewolves, Fera, Kinfolk and mortals" in out
    assert out.rstrip().endswith("3 characters imported")
    listed = json.loads(ok("char", "list", "--json"))
    names = sorted(c["name"] for c in listed["characters"])
    assert names == ["Erik Halvorsen", "Runs-Through-Rain", "Sees-Through-Smoke"]


def test_grapevine_one_name_taken_imports_none(db_url):
    ok("char", "new", "Sees-Through-Smoke", "--chronicle", "Lost Stars")
    err = error("char", "import", TROUPE)
    assert "Sees-Through-Smoke" in err and "nothing was imported" in err
    listed = json.loads(ok("char", "list", "--json"))
    assert [c["name"] for c in listed["characters"]] == ["Sees-Through-Smoke"]


def test_binary_and_malformed_grapevine_one_line(db_url, tmp_path):
    binary = tmp_path / "old.gex"
    binary.write_bytes(b"GVBE\x00\x01binary")
    err = error("char", "import", binary)
    assert err.count("\n") == 1 and "binary .gex format (the file starts with GVBE)" in err
    err = error("char", "import", DATA / "grapevine-malformed.gex")
    assert err.count("\n") == 1 and "malformed XML at line 6, column 5: mismatched tag; nothing was imported" in err


def test_every_breed_rolls_the_same(db_url):
    """Dexterity 3 + Stealth 2 = 5 dice, and --seed 7 gives the same dice, for a Garou, a Bastet, Kinfolk and a
    mortal."""
    ok("char", "new", "Garou", "--set", "Dexterity=3", "--set", "Stealth=2")
    ok(
        "char",
        "new",
        "Cat",
        "--fera",
        "bastet",
        "--breed",
        "feline",
        "--auspice",
        "night",
        "--set",
        "Dexterity=3",
        "--set",
        "Stealth=2",
    )
    ok("char", "new", "Kin", "--creature", "kinfolk", "--set", "Dexterity=3", "--set", "Stealth=2")
    ok("char", "new", "Mort", "--creature", "mortal", "--set", "Dexterity=3", "--set", "Stealth=2")
    dice = set()
    for name in ("Garou", "Cat", "Kin", "Mort"):
        out = ok("roll", "Dexterity + Stealth", "--char", name, "--seed", "7")
        assert f"{name}: Dexterity 3 + Stealth 2 = 5 dice" in out
        dice.add(next(line for line in out.splitlines() if line.startswith("Dice: ")))
    assert len(dice) == 1
    shown = json.loads(ok("char", "show", "Kin", "--json"))
    assert (shown["creature"], shown["rage"], shown["gnosis"]) == (
        "kinfolk",
        {"permanent": 0, "temporary": 0},
        {"permanent": 0, "temporary": 0},
    )
    assert "Kin is Kinfolk of the Garou and has no Crinos form; only Homid" in error("char", "shift", "Kin", "crinos")
    assert "unknown Bastet breed 'lupus'" in error("char", "new", "Cat2", "--fera", "Bastet", "--breed", "lupus")


def test_show_prints_the_new_sheet_parts(db_url):
    ok("char", "import", MARROW)
    out = ok("char", "show", "Marrow-of-Oaks")
    assert "Specialties: Strength (Lifting), Brawl (Grappling), Melee (Axes)" in out
    assert "Fetishes     Fang Dagger (level 1, Gnosis 6)" in out
    assert "Fenrir Axe (Dexterity + Melee, diff 7, Strength +3 lethal)" in out
    assert "Armour       Leather Jacket (soak 1/1/0)" in out
    assert "Totem    Fenris" in out


def test_show_names_the_creature_of_a_fera_or_kinfolk(db_url):
    ok("char", "import", DATA / "foundry-bastet.json")
    ok("char", "new", "Kin", "--creature", "kinfolk", "--fera", "bastet")
    assert ok("char", "show", "Sees-Through-Smoke").splitlines()[1].startswith("Creature Bastet ")
    assert ok("char", "show", "Kin").splitlines()[1].startswith("Creature Kinfolk of the Bastet ")
    ok("char", "new", "Wolf")
    assert "Creature" not in ok("char", "show", "Wolf")  # a Garou's sheet looks as it always did
