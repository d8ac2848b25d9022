"""Foundry VTT WoD20 actors: everything the sheet holds comes in, everything else is named by its path, the
PC / Mortal / Changing Breed types, refusals, and the export that imports back as the same sheet."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from stkit.errors import DataFileError
from stkit.formats.foundry import from_foundry, to_foundry
from stkit.sheet.sheet import Sheet
from stkit.store.files import load_file, load_files

DATA = Path(__file__).with_name("data")
REPO = Path(__file__).resolve().parents[2]
MARROW = DATA / "foundry-werewolf-marrow.json"
KINFOLK = DATA / "foundry-pc-kinfolk.json"
BASTET = DATA / "foundry-bastet.json"
SMALL = REPO / "tests" / "store" / "data" / "foundry-werewolf-small.json"


def actor(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_marrow_every_value_imported():
    lf = load_file(MARROW)
    s = lf.sheet
    assert lf.format == "foundry"
    assert (s.name, s.fera, s.creature, s.breed, s.auspice, s.tribe) == (
        "Marrow-of-Oaks",
        "Garou",
        "shapeshifter",
        "Homid",
        "Ahroun",
        "Get of Fenris",
    )
    assert (s.nature, s.demeanor, s.concept) == ("Guardian", "Bravo", "Bouncer at the Rusty Nail")
    assert (s.pack, s.totem, s.rank, s.form) == ("Iron Howl", "Fenris", 2, "Glabro")
    assert s.biography == "Born to a Fenrir family in Duluth; First Change at sixteen, in a bar fight."
    assert s.notes == "Owes Sings-at-Dusk a favour."
    assert s.attributes == {
        "Strength": 4,
        "Dexterity": 3,
        "Stamina": 3,
        "Charisma": 2,
        "Manipulation": 2,
        "Appearance": 2,
        "Perception": 3,
        "Intelligence": 2,
        "Wits": 3,
    }
    assert s.abilities["Brawl"] == 4 and s.abilities["Melee"] == 4 and s.abilities["Intimidation"] == 3
    assert s.custom_abilities == {"Larceny": 1}
    assert s.specialties == {"Strength": "Lifting", "Brawl": "Grappling", "Melee": "Axes"}
    assert {p: t.to_dict() for p, t in s.powers.items()} == {
        "Rage": {"permanent": 5, "temporary": 6},
        "Gnosis": {"permanent": 3, "temporary": 2},
        "Willpower": {"permanent": 6, "temporary": 4},
    }
    assert {r: t.to_dict() for r, t in s.renown.items()} == {
        "Glory": {"permanent": 3, "temporary": 4},
        "Honor": {"permanent": 2, "temporary": 1},
        "Wisdom": {"permanent": 1, "temporary": 0},
    }
    assert s.health == {"aggravated": 0, "lethal": 1, "bashing": 2}
    assert s.gifts == [{"name": "Razor Claws", "level": 1}, {"name": "Resist Pain", "level": 2}]
    assert s.rites == [{"name": "Rite of the Cleansing", "level": 1}]
    assert s.backgrounds == {"Pure Breed": 2, "Fetish": 3}
    assert s.merits == [{"name": "Berserker", "points": 2}]
    assert s.flaws == [{"name": "Short Fuse", "points": 2}]
    assert s.fetishes == [{"name": "Fang Dagger", "level": 1, "gnosis": 6}]
    axe, claw, pistol = s.weapons
    assert axe == {
        "name": "Fenrir Axe",
        "kind": "melee",
        "attack_attribute": "Dexterity",
        "attack_ability": "Melee",
        "accuracy": 0,
        "damage_attribute": "Strength",
        "damage_bonus": 3,
        "damage_type": "lethal",
        "difficulty": 7,
        "natural": False,
        "two_handed": False,
        "equipped": False,
        "conceal": "T",
        "range": 0,
        "rate": 0,
        "clip": 0,
        "loaded": 0,
    }
    assert (claw["natural"], claw["damage_type"], claw["difficulty"]) == (True, "aggravated", 6)
    assert (pistol["kind"], pistol["damage_attribute"], pistol["damage_bonus"], pistol["range"], pistol["rate"]) == (
        "ranged",
        "",
        5,
        30,
        3,
    )
    assert pistol["clip"] == 17
    assert s.armor == [
        {
            "name": "Leather Jacket",
            "bashing": 1,
            "lethal": 1,
            "aggravated": 0,
            "dexterity_penalty": 1,
            "equipped": True,
            "forms": ["Homid"],
        }
    ]
    assert (s.xp_total, s.xp_spent) == (8, 6)
    assert [(e["kind"], e["amount"], e["reason"]) for e in s.xp_log] == [
        ("award", 5, "First Change story"),
        ("award", 3, "Session 2"),
        ("spend", 6, "Brawl 4"),
    ]
    assert s.xp_log[0]["at"] == "2023-11-14T22:13:20+00:00"  # createdTime 1700000000000 ms


def test_marrow_names_every_dropped_value_by_path():
    # bookkeeping (ids, labels, maxima, totals, soak, initiative, empty texts) is not a value of the character
    assert load_file(MARROW).warnings == [
        "system.appearance: not kept: the description of the character's looks (the Appearance Attribute is kept)",
        "items[0] (Power 'Razor Claws'): not kept: system.reference, system.isactive",
        "items[1] (Power 'Resist Pain'): not kept: system.reference, system.bonuslist",
        "items[2] (Power 'Rite of the Cleansing'): not kept: system.reference, system.dice1, system.dice2, "
        "system.difficulty",
        "items[7] (type Feature other) 'Fenrir Pride': not kept",
        "items[12] (Fetish 'Fang Dagger'): not kept: system.difficulty",
        "items[16] (Experience 'Rage 6 (planned)'): a spend not ticked as spent (Foundry does not count it); not kept",
    ]


def test_dropped_values_of_other_game_lines_and_new_fields():
    data = actor(MARROW)
    data["system"]["advantages"]["bloodpool"]["temporary"] = 4
    data["system"]["bio"] = {"appearance": "tall", "background": "From the bio block."}
    data["system"]["newfield"] = {"deep": {"x": 3, "empty": ""}}
    data["system"]["conditions"]["isfrenzy"] = True
    data["system"]["biography"] = ""
    data["system"]["background"] = ""
    lf = from_foundry(data, source="x.json")
    assert "system.advantages.bloodpool.temporary: not kept: not a Werewolf trait" in lf.warnings
    assert "system.bio.appearance: not kept" in lf.warnings
    assert "system.newfield.deep.x: not kept" in lf.warnings
    assert "system.conditions.isfrenzy: not kept: stkit tracks no conditions" in lf.warnings
    assert lf.sheet.biography == "From the bio block."


def test_shared_example_actor_imports_with_its_natural_weapons():
    """The same traits as the public Foundry example (Homid Ahroun, Get of Fenris), written here."""
    s = load_file(MARROW).sheet
    assert [w["name"] for w in s.weapons if w["natural"]] == ["Claw"]


def test_pc_actor_is_kinfolk_without_rage():
    lf = load_file(KINFOLK)
    s = lf.sheet
    assert (s.name, s.creature, s.fera, s.tribe, s.form) == (
        "Erik Halvorsen",
        "kinfolk",
        "Garou",
        "Get of Fenris",
        "Homid",
    )
    assert s.powers["Rage"].to_dict() == {"permanent": 0, "temporary": 0}
    assert s.powers["Gnosis"].to_dict() == {"permanent": 1, "temporary": 1}  # its settings switch Gnosis on
    assert s.powers["Willpower"].to_dict() == {"permanent": 4, "temporary": 4}
    assert s.backgrounds == {"Pure Breed": 2}
    assert [w["name"] for w in s.weapons] == ["Fenrir Axe"]


def test_pc_without_tribe_is_a_mortal_and_its_rage_is_named():
    data = actor(KINFOLK)
    data["system"]["tribe"] = ""
    data["system"]["advantages"]["rage"]["permanent"] = 2
    lf = from_foundry(data, source="pc.json")
    assert lf.sheet.creature == "mortal"
    assert "system.advantages.rage.permanent: not kept: the actor's settings give it no Rage" in lf.warnings
    assert lf.sheet.powers["Rage"].permanent == 0


def test_changing_breed_actor_is_a_fera():
    lf = load_file(BASTET)
    s = lf.sheet
    assert (s.fera, s.breed, s.auspice, s.tribe, s.form) == ("Bastet", "Feline", "Night", "Pumonca", "Crinos")


def test_fera_unknown_breed_names_the_fera_table():
    data = actor(BASTET)
    data["system"]["breed"] = "Lupus"
    with pytest.raises(
        DataFileError, match=r"system.breed: unknown Bastet breed 'Lupus'.*allowed: Homid, Metis, Feline"
    ):
        from_foundry(data, source="b.json")


@pytest.mark.parametrize("kind", ["Vampire", "Mage", "Changeling", None])
def test_other_actor_types_refused_by_name(kind):
    data = actor(MARROW)
    data["type"] = kind
    with pytest.raises(DataFileError) as err:
        from_foundry(data, source="v.json")
    assert str(err.value) == (
        f"v.json: type: {kind!r} is not supported; stkit reads Werewolf, Changing Breed, Mortal and PC actors "
        "(Garou, Fera, Kinfolk and mortals)"
    )


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            ("system", "attributes", "wits", "value"),
            7,
            r"system.attributes.wits.value: 7 is outside the allowed range 0 to 5",
        ),
        (
            ("system", "abilities", "talent", "brawl"),
            [],
            r"system.abilities.talent.brawl: expected an object, got list",
        ),
        (("system", "advantages", "gnosis", "temporary"), "x", r"gnosis.temporary: 'x' is not a whole number"),
        (
            ("system", "health", "damage", "lethal"),
            8,
            r"system.health.damage.lethal: 8 is outside the allowed range 0 to 7",
        ),
    ],
)
def test_bad_values_name_the_field(path, value, message):
    data = actor(MARROW)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(DataFileError, match=message):
        from_foundry(data, source="m.json")


def test_experience_totals_disagreeing_with_the_entries_warn():
    data = actor(MARROW)
    data["flags"] = {"stkit": {"experience": {"total": 12, "spent": 6}}}
    lf = from_foundry(data, source="m.json")
    assert (lf.sheet.xp_total, lf.sheet.xp_spent) == (12, 6)
    assert lf.warnings[-1] == (
        "experience: the log's awards add up to 8 but the total experience is 12; "
        "stkit keeps the total 12 and the log as written"
    )


# ----- export and round trip ------------------------------------------------------------------------------
def _round_trip(sheet: Sheet, layout: str = "current") -> tuple[dict, list[str]]:
    exported = json.loads(json.dumps(to_foundry(sheet, layout)))
    back = from_foundry(exported, source="export.json")
    return back.sheet.to_dict(), back.warnings


def _example_sheets() -> list[Sheet]:
    sheets = [load_file(p).sheet for p in sorted((REPO / "characters").glob("*.yaml"))]
    sheets += [load_file(p).sheet for p in (MARROW, KINFOLK, BASTET, SMALL)]
    sheets += [lf.sheet for lf in load_files(DATA / "grapevine-troupe.gex")]
    return sheets


@pytest.mark.parametrize("layout", ["current", "legacy"])
@pytest.mark.parametrize("sheet", _example_sheets(), ids=lambda s: s.name)
def test_export_imports_back_as_the_same_sheet_field_by_field(sheet, layout):
    want = sheet.to_dict()
    got, warnings = _round_trip(sheet, layout)
    assert warnings == []
    assert list(got) == list(want)
    for key in want:
        assert got[key] == want[key], key


def test_legacy_export_is_a_foundry_werewolf_actor():
    sheet = load_file(MARROW).sheet
    data = to_foundry(sheet, "legacy")
    assert data["type"] == "Werewolf" and data["name"] == "Marrow-of-Oaks"
    sysd = data["system"]
    assert sysd["attributes"]["strength"] == {
        "value": 4,
        "bonus": 0,
        "max": 5,
        "type": "physical",
        "label": "wod.attributes.strength",
        "speciality": "Lifting",
        "isvisible": True,
    }
    assert sysd["abilities"]["talent"]["brawl"]["value"] == 4
    assert sysd["abilities"]["talent"]["brawl"]["speciality"] == "Grappling"
    assert sysd["advantages"]["rage"]["permanent"] == 5 and sysd["advantages"]["rage"]["temporary"] == 6
    assert sysd["renown"]["rank"] == 2 and sysd["renown"]["glory"]["permanent"] == 3
    assert sysd["shapes"]["glabro"]["isactive"] is True and sysd["shapes"]["homid"]["isactive"] is False
    assert sysd["packtotem"] == "Fenris" and sysd["health"]["damage"]["bashing"] == 2
    kinds = [(i["type"], i["name"]) for i in data["items"]]
    assert ("Fetish", "Fang Dagger") in kinds and ("Armor", "Leather Jacket") in kinds
    assert ("Ranged Weapon", "Pistol (hvy.)") in kinds and ("Experience", "Brawl 4") in kinds
    assert sysd["settings"]["version"] == "2.2.0"
    assert to_foundry(sheet, "legacy") == data  # the same sheet exports the same file, ids included


def test_legacy_export_of_kinfolk_is_a_pc_with_rage_switched_off():
    sheet = load_file(KINFOLK).sheet
    data = to_foundry(sheet, "legacy")
    assert data["type"] == "PC"
    assert data["system"]["settings"] == {
        "hasrage": False,
        "hasgnosis": True,
        "haswillpower": True,
        "version": "2.2.0",
        # a mortal soaks bashing only (module/scripts/create-helpers.js, SetMortalAttributesv2)
        "soak": {
            "bashing": {"bonus": 0, "isrollable": True},
            "lethal": {"bonus": 0, "isrollable": False},
            "aggravated": {"bonus": 0, "isrollable": False},
        },
    }
    assert "shapes" not in data["system"]


@pytest.mark.parametrize("layout", ["current", "legacy"])
def test_round_trip_keeps_stkit_only_values(layout):
    sheet = load_file(MARROW).sheet
    sheet.player, sheet.storyteller_notes, sheet.chronicle = "Kim", "Secretly Wyrm-tainted.", "Iron Range"
    sheet.custom_abilities["Scrounging"] = 4
    sheet.specialties["Scrounging"] = "Junkyards"
    sheet.abilities["Repair"] = 3
    sheet.biography = "  Two spaces first.\n\n\nThree new lines, a <tag> & an ampersand.  "
    got, warnings = _round_trip(sheet, layout)
    assert warnings == []
    assert got == sheet.to_dict()


def test_player_view_export_leaves_storyteller_notes_out():
    from stkit.store.files import dump

    sheet = load_file(MARROW).sheet
    sheet.storyteller_notes = "Secret."
    assert "Secret." not in dump(sheet, "foundry", player_view=True)
    assert "Secret." in dump(sheet, "foundry")


def test_the_import_does_not_change_the_callers_dict():
    data = actor(MARROW)
    before = copy.deepcopy(data)
    from_foundry(data, source="m.json")
    assert data == before
