"""Every actor layout the Foundry VTT WoD20 system has written, read step by step as its migrations made them.

The fixtures are written by hand after the system's own source (github JohanFalt/Foundry_WoD20, v7.2.5), each
with values filled in and items present as a real export has them:

- ``foundry-werewolf-marrow.json``: legacy layout of 2.2.0 (``tours/data/werewolf.json``, ``template.json``);
- ``foundry-werewolf-v3.json``: flattened layout, settings.version 3.3.0 (``module/migration.js`` 3.1.0:
  the flat Abilities beside the stale grouped copies, the tribe keyed ``wod.bio.werewolf.fianna``);
- ``foundry-werewolf-v4.json``: keyed layout, settings.version 6.0.6 (migration.js 4.1.0 keys, a ``custom``
  tribe in ``system.custom.tribe``, the 4.2.0 / 6.0.6 shape ``Bonus`` items, HTML texts);
- ``foundry-pc-werewolf-v7.json`` and ``foundry-pc-kinfolk-v7.json``: the ``PC`` data model of 7.2.4
  (``module/actor/datamodel/pc-actor-datamodel.js``, the item data models in ``module/items/datamodel/``,
  the "Werewolf [modern]" and "Kinfolk [modern]" ``Splat`` items of ``packs/splats``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from stkit.formats.foundry import from_foundry, to_foundry
from stkit.formats.foundry_layouts import detect_layout
from stkit.formats.htmltext import html_to_text, text_to_html
from stkit.store.files import load_file

DATA = Path(__file__).with_name("data")
MARROW = DATA / "foundry-werewolf-marrow.json"
V3 = DATA / "foundry-werewolf-v3.json"
V4 = DATA / "foundry-werewolf-v4.json"
PC_WEREWOLF = DATA / "foundry-pc-werewolf-v7.json"
PC_KINFOLK = DATA / "foundry-pc-kinfolk-v7.json"
BASTET = DATA / "foundry-bastet.json"


def actor(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def read(data: dict):
    return from_foundry(data, source="actor.json")


@pytest.mark.parametrize(
    ("path", "layout"),
    [(MARROW, "legacy"), (V3, "flattened"), (V4, "keyed"), (PC_WEREWOLF, "pc"), (PC_KINFOLK, "pc")],
)
def test_the_layout_is_detected_from_the_data(path, layout):
    assert detect_layout(actor(path)) == layout


def test_flattened_layout_reads_the_flat_abilities_not_the_stale_groups():
    lf = read(actor(V3))
    s = lf.sheet
    # the grouped copy says Brawl 1, Expression 3: 3.1.0 left it behind, the flat entry is the live one
    assert s.abilities["Brawl"] == 2 and s.abilities["Expression"] == 4 and s.abilities["Crafts"] == 2
    assert s.specialties == {"Charisma": "Stirring", "Expression": "Howling", "Performance": "Drums"}
    assert (s.breed, s.auspice, s.tribe, s.form, s.rank) == ("Lupus", "Galliard", "Fianna", "Lupus", 2)
    assert s.player == "Jo"
    assert s.biography == "Born under the gibbous moon.\n\nKeeps the Silver Record of the sept."
    # the movement speeds and their isactive display switches are Foundry's, and draw no warning
    assert lf.warnings == [
        "items[0] (Power 'Call of the Wyld'): not kept: system.dice1, system.dice2, system.difficulty"
    ]


def test_keyed_layout_reads_the_keys_and_the_custom_tribe():
    lf = read(actor(V4))
    s = lf.sheet
    assert (s.breed, s.auspice, s.tribe) == ("Metis", "Theurge", "Boli Zouhisze")
    assert s.custom_abilities == {"Awareness": 2, "Meditation": 3, "Cosmology": 2}
    assert s.notes == "Owes the Uktena a secret."
    assert s.health == {"bashing": 0, "lethal": 1, "aggravated": 1}
    assert lf.warnings == []  # the shape Bonus items are the forms table stkit already has


def test_pc_werewolf_comes_in_from_its_items():
    lf = read(actor(PC_WEREWOLF))
    s = lf.sheet
    assert (s.creature, s.fera, s.breed, s.auspice, s.tribe) == (
        "shapeshifter",
        "Garou",
        "Homid",
        "Philodox",
        "Children of Gaia",
    )
    assert (s.pack, s.totem, s.form, s.rank) == ("Ambulance Chasers", "Unicorn", "Crinos", 2)
    assert s.abilities == {"Alertness": 2, "Brawl": 2, "Empathy": 4, "Drive": 3, "Medicine": 4}
    assert s.custom_abilities == {"First Aid": 2}
    assert s.specialties == {"Intelligence": "Diagnosis", "Empathy": "Calming", "Medicine": "Trauma"}
    assert (s.powers["Rage"].permanent, s.powers["Rage"].temporary) == (3, 4)
    assert (s.powers["Willpower"].permanent, s.powers["Willpower"].temporary) == (5, 4)
    assert {r: (t.permanent, t.temporary) for r, t in s.renown.items()} == {
        "Glory": (1, 2),
        "Honor": (3, 1),
        "Wisdom": (2, 0),
    }
    assert s.biography == "First Change on a night call & never went back.\n\nHer mother\nstill thinks she works days."
    assert s.notes == "Knows the county coroner."
    assert s.gifts == [{"name": "Mother's Touch", "level": 1}] and s.backgrounds == {"Contacts": 3}
    assert lf.warnings == []


def test_pc_kinfolk_keeps_its_abilities_and_willpower():
    lf = read(actor(PC_KINFOLK))
    s = lf.sheet
    assert (s.creature, s.fera, s.nature, s.concept) == ("kinfolk", "Garou", "Caregiver", "Veterinarian")
    assert s.abilities == {"Animal Ken": 4, "Medicine": 3} and s.specialties == {"Animal Ken": "Wolves"}
    assert (s.powers["Willpower"].permanent, s.powers["Gnosis"].permanent, s.powers["Rage"].permanent) == (6, 1, 0)
    assert lf.warnings == ["system.bio.appearance: not kept"]


def test_pc_item_values_stkit_cannot_hold_are_named_by_path():
    data = actor(PC_WEREWOLF)
    data["items"][2]["system"]["bonus"] = 1  # Brawl
    data["items"][8]["system"]["description"] = "<p>Gaia's gift</p>"  # Gnosis
    data["items"].append(
        {
            "name": "Renown - Cunning",
            "type": "Advantage",
            "system": {"id": "cunning", "group": "renown", "permanent": 2},
        }
    )
    data["system"]["bio"]["splatfields"]["camp"] = {"label": "Camp", "value": "Lodge of the Moon", "type": "input"}
    assert read(data).warnings == [
        "items[2] (Ability 'Brawl'): not kept: system.bonus",
        "items[8] (Advantage 'Gnosis'): not kept: system.description",
        "items[18] (Advantage 'Renown - Cunning'): not kept: not a Renown of this breed",
        "system.bio.splatfields.camp.value: not kept",
    ]


# ----- one test per migration step of module/migration.js (updateActor) ------------------------------------
def test_before_1_5_0_the_switches_were_visible_and_active():
    data = actor(MARROW)
    for shape in data["system"]["shapes"].values():
        shape["active"] = shape.pop("isactive")
    data["system"]["attributes"]["composure"]["visible"] = data["system"]["attributes"]["composure"].pop("isvisible")
    lf = read(data)
    assert lf.sheet.form == "Glabro"
    assert not any("composure" in w for w in lf.warnings)


@pytest.mark.parametrize(("written", "name"), [("wod.bio.werewolf.getoffenris", "Get of Fenris"), ("Fianna", "Fianna")])
def test_1_6_0_keyed_the_tribe_and_2_1_0_named_it_again(written, name):
    data = actor(MARROW)
    data["system"]["tribe"] = written
    assert read(data).sheet.tribe == name


def test_before_2_2_0_rage_gnosis_and_willpower_sat_at_the_top_of_system():
    data = actor(MARROW)
    adv = data["system"].pop("advantages")
    data["system"].update(adv)
    data["system"]["settings"]["version"] = "2.1.0"
    lf = read(data)
    assert (lf.sheet.powers["Rage"].permanent, lf.sheet.powers["Willpower"].permanent) == (5, 6)
    assert lf.warnings == read(actor(MARROW)).warnings


def test_3_1_0_custom_tribe_and_3_2_0_mokole_spelling():
    data = actor(V3)
    data["system"]["tribe"] = "custom"
    data["system"]["custom"]["tribe"] = "Iron Riders"
    assert read(data).sheet.tribe == "Iron Riders"
    fera = actor(BASTET)
    fera["system"].update(changingbreed="Mokolé", breed="Suchid", auspice="Rising Sun", tribe="")
    assert read(fera).sheet.fera == "Mokole"


@pytest.mark.parametrize(
    ("fera", "breed", "auspice", "tribe", "want"),
    [
        (
            "Bastet",
            "wod.bio.breedname.feline",
            "wod.bio.pryioname.night",
            "wod.bio.tribename.khan",
            ("Feline", "Night", "Khan"),
        ),
        (
            "Mokole",
            "wod.bio.breedname.suchid",
            "wod.bio.auspicename.eclipsedsun",
            "wod.bio.varnaname.karna",
            ("Suchid", "Solar Eclipse", "Karna"),
        ),
        ("Ratkin", "wod.bio.breedname.rodens", "wod.bio.aspectname.plaguelords", "", ("Rodens", "Plague Lord", "")),
        (
            "Gurahl",
            "wod.bio.breedname.ursine",
            "wod.bio.auspicename.kieh",
            "wod.bio.tribename.icestalkers",
            ("Ursine", "Kieh", "Ice Stalkers"),
        ),
    ],
)
def test_4_1_0_keyed_a_changing_breeds_breed_auspice_and_tribe(fera, breed, auspice, tribe, want):
    data = actor(BASTET)
    data["system"].update(changingbreed=fera, breed=breed, auspice=auspice, tribe=tribe)
    data["system"]["settings"]["version"] = "4.1.0"
    s = read(data).sheet
    assert (s.breed, s.auspice, s.tribe) == want


def test_4_2_0_and_6_0_6_shape_bonus_items_draw_no_warning_but_other_bonuses_do():
    data = actor(V4)
    data["items"].append(
        {"name": "Lucky", "type": "Bonus", "system": {"parentid": "", "type": "attribute_buff", "value": 1}}
    )
    assert read(data).warnings == ["items[4] (type Bonus attribute_buff) 'Lucky': not kept"]


def test_7_2_4_a_pc_has_gnosis_when_it_holds_the_gnosis_item():
    data = actor(PC_KINFOLK)
    data["system"]["settings"]["hasgnosis"] = False  # a PC saved before 7.2.4 set the switch
    assert read(data).sheet.powers["Gnosis"].permanent == 1


# ----- text from other tools -------------------------------------------------------------------------------
def test_html_becomes_readable_text_and_back():
    assert html_to_text("<p>One &amp; two</p><p>Three<br>four</p><script>x()</script>") == "One & two\n\nThree\nfour"
    assert html_to_text("<ul><li>Claws</li><li>Fangs</li></ul>") == "Claws\n\nFangs"
    assert text_to_html("One & <two>\n\nThree\nfour") == "<p>One &amp; &lt;two&gt;</p><p>Three<br>four</p>"
    assert html_to_text(text_to_html("One & <two>\n\nThree\nfour")) == "One & <two>\n\nThree\nfour"


# ----- the export ------------------------------------------------------------------------------------------
def test_current_export_is_a_pc_with_its_items():
    sheet = load_file(PC_WEREWOLF).sheet
    data = to_foundry(sheet)
    assert data["type"] == "PC"
    settings = data["system"]["settings"]
    assert (settings["version"], settings["splat"], settings["haswillpower"], settings["hasshapes"]) == (
        "7.2.5",
        "werewolf",
        True,
        True,
    )
    fields = data["system"]["bio"]["splatfields"]
    assert fields["breed"]["value"] == "wod.bio.breedname.homid"
    assert fields["auspice"]["value"] == "wod.bio.auspicename.philodox"
    by_type: dict[str, list[str]] = {}
    for item in data["items"]:
        by_type.setdefault(item["type"], []).append(item["name"])
    assert by_type["Splat"] == ["Werewolf [modern]"]
    assert "Brawl" in by_type["Ability"] and "First Aid" in by_type["Ability"]
    assert by_type["Advantage"] == [
        "Rage",
        "Gnosis",
        "Willpower",
        "Renown - Glory",
        "Renown - Honor",
        "Renown - Wisdom",
        "Rank",
    ]
    shapes = [i for i in data["items"] if i["type"] == "Trait"]
    assert [(i["name"], i["system"]["isactive"]) for i in shapes] == [
        ("Homid", False),
        ("Glabro", False),
        ("Crinos", True),
        ("Hispo", False),
        ("Lupus", False),
    ]
    assert data["system"]["bio"]["background"].startswith("<p>First Change on a night call &amp; never")


def test_willpower_is_switched_on_only_when_the_sheet_has_it():
    sheet = load_file(PC_KINFOLK).sheet
    sheet.powers["Willpower"].permanent = sheet.powers["Willpower"].temporary = 0
    for layout in ("current", "legacy"):
        assert to_foundry(sheet, layout)["system"]["settings"]["haswillpower"] is False
    current = to_foundry(sheet)
    assert [i["name"] for i in current["items"] if i["type"] == "Advantage"] == ["Gnosis"]
    back = from_foundry(json.loads(json.dumps(current)), source="x.json")
    assert back.sheet.powers["Willpower"].permanent == 0 and back.warnings == []


def test_fera_export_keys_the_breeds_own_fields():
    sheet = load_file(BASTET).sheet
    sheet.tribe = "Khan"
    data = to_foundry(sheet)
    fields = data["system"]["bio"]["splatfields"]
    assert fields["breed"]["value"] == "wod.bio.breedname.feline"
    assert fields["pryio"]["value"] == "wod.bio.pryioname.night"
    assert fields["tribe"]["value"] == "wod.bio.tribename.khan"
    assert data["items"][0]["system"]["settings"]["variant"] == "bastet"
    back = from_foundry(json.loads(json.dumps(data)), source="x.json")
    assert back.sheet.to_dict() == sheet.to_dict() and back.warnings == []


def test_the_reader_does_not_change_the_callers_dict_in_any_layout():
    for path in (V3, V4, PC_WEREWOLF, PC_KINFOLK):
        data = actor(path)
        before = copy.deepcopy(data)
        read(data)
        assert data == before
