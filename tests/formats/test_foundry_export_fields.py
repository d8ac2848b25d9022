"""Export field by field as the Foundry VTT WoD20 system (github JohanFalt/Foundry_WoD20, v7.2.5) writes it.

The expected values are written by hand from the system's source, each named beside it:

- soak switches: ``module/scripts/create-helpers.js`` (SetWerewolfAttributesv2: all three kinds;
  SetMortalAttributesv2: bashing only) and the Splat items of ``packs/splats`` ("Kinfolk [modern]",
  "Mortal [modern]": lethal and aggravated off);
- forms: the shapeform Trait items of the "Werewolf [modern]" Splat (``packs/splats``): Glabro shifts at 7,
  Crinos adds Strength 4, Dexterity 1, Stamina 3, takes 3 from Manipulation and sets Appearance to 0;
- Fera: the "Bastet - Khan" and "Ratkin - metis" Splats (their Renown and forms), as in the fixtures
  ``foundry-pc-bastet-v7.json`` and ``foundry-pc-ratkin-v7.json`` (made by data/make_foundry_fera.py from
  the compendium);
- Ability names: the Ability items of the "Werewolf [modern]" Splat ("Primal Urge", "Craft");
- a gun's clip: ``template.json`` (``Item.Ranged Weapon.clip`` {value, max}).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from stkit.formats.foundry import from_foundry, to_foundry
from stkit.sheet.sheet import Sheet
from stkit.store.files import load_all, load_file

DATA = Path(__file__).with_name("data")
PC_WEREWOLF = DATA / "foundry-pc-werewolf-v7.json"
PC_KINFOLK = DATA / "foundry-pc-kinfolk-v7.json"
PC_BASTET = DATA / "foundry-pc-bastet-v7.json"
PC_RATKIN = DATA / "foundry-pc-ratkin-v7.json"
MARROW = DATA / "foundry-werewolf-marrow.json"


def actor(path: Path) -> dict:
    data: dict = json.loads(path.read_text(encoding="utf-8"))
    return data


def mortal_actor() -> dict:
    """The Kinfolk fixture turned mortal as Foundry's "Mortal [modern]" Splat would set it."""
    data = actor(PC_KINFOLK)
    data["name"] = "Dana Price"
    data["system"]["settings"]["variant"] = "general"
    splat = data["items"][0]
    splat["name"] = "Mortal [modern]"
    splat["system"]["settings"]["variant"] = "general"
    data["items"] = [i for i in data["items"] if not (i["type"] == "Advantage" and i["system"]["id"] == "gnosis")]
    return data


def items(data: dict, kind: str) -> list[dict]:
    return [i for i in data["items"] if i["type"] == kind]


def by_name(data: dict, kind: str) -> dict[str, dict]:
    return {i["name"]: i["system"] for i in items(data, kind)}


ALL_SOAK = {"bashing": True, "lethal": True, "aggravated": True}
BASHING_ONLY = {"bashing": True, "lethal": False, "aggravated": False}


@pytest.mark.parametrize(
    ("data", "want"),
    [
        (lambda: actor(PC_WEREWOLF), ALL_SOAK),
        (lambda: actor(PC_BASTET), ALL_SOAK),
        (lambda: actor(PC_KINFOLK), BASHING_ONLY),
        (mortal_actor, BASHING_ONLY),
    ],
    ids=["garou", "bastet", "kinfolk", "mortal"],
)
@pytest.mark.parametrize("layout", ["current", "legacy"])
def test_soak_switches_follow_the_creature(data, want, layout):
    sheet = from_foundry(data()).sheet
    out = to_foundry(sheet, layout)
    soak = out["system"]["settings"]["soak"]
    assert {d: soak[d]["isrollable"] for d in want} == want
    if layout == "current":
        splat_soak = items(out, "Splat")[0]["system"]["settings"]["soak"]
        assert {d: splat_soak[d]["isrollable"] for d in want} == want


def test_garou_forms_carry_their_attribute_changes_and_shift_difficulty():
    sheet = from_foundry(actor(PC_WEREWOLF)).sheet
    forms = by_name(to_foundry(sheet), "Trait")
    assert list(forms) == ["Homid", "Glabro", "Crinos", "Hispo", "Lupus"]
    assert [forms[f]["difficulty"] for f in ("Homid", "Glabro", "Hispo", "Lupus")] == ["6", "7", "7", "6"]
    crinos = {(b["settingtype"], b["type"], b["value"]) for b in forms["Crinos"]["bonuslist"]}
    assert crinos == {
        ("strength", "attribute_buff", 4),
        ("dexterity", "attribute_buff", 1),
        ("stamina", "attribute_buff", 3),
        ("manipulation", "attribute_buff", -3),
        ("appearance", "attribute_fixed_value", 0),
    }
    assert forms["Crinos"]["isactive"] is True and forms["Homid"]["isactive"] is False
    assert forms["Homid"]["bonuslist"] == []


def test_legacy_forms_carry_the_template_shift_difficulties():
    sheet = load_file(MARROW).sheet
    shapes = to_foundry(sheet, "legacy")["system"]["shapes"]
    # template.json, Actor.templates.werewolf.shapes
    assert {k: v["diff"] for k, v in shapes.items()} == {"homid": 6, "glabro": 7, "crinos": 6, "hispo": 7, "lupus": 6}


@pytest.mark.parametrize("path", [PC_BASTET, PC_RATKIN], ids=["bastet", "ratkin"])
def test_fera_renown_and_forms_come_in_and_go_out_as_the_breed_has_them(path):
    data = actor(path)
    loaded = from_foundry(data)
    assert loaded.warnings == []
    out = to_foundry(loaded.sheet)
    want = {
        n: (s["permanent"], s["temporary"])
        for n, s in by_name(data, "Advantage").items()
        if s["group"] == "renown" or s["id"] in ("rage", "gnosis", "willpower")
    }
    got = {n: (s["permanent"], s["temporary"]) for n, s in by_name(out, "Advantage").items()}
    assert got == want
    want_forms = {n: (s["isactive"], s["bonuslist"], s["difficulty"]) for n, s in by_name(data, "Trait").items()}
    got_forms = {n: (s["isactive"], s["bonuslist"], s["difficulty"]) for n, s in by_name(out, "Trait").items()}
    assert got_forms == want_forms


def test_a_bastets_ferocity_and_cunning_are_kept_not_dropped():
    sheet = from_foundry(actor(PC_BASTET)).sheet
    assert (sheet.fera, sheet.tribe, sheet.breed, sheet.form) == ("Bastet", "Khan", "Feline", "Hispo")
    assert sheet.renown["Glory"].to_dict() == {"permanent": 3, "temporary": 1}  # Ferocity
    assert sheet.renown["Wisdom"].to_dict() == {"permanent": 1, "temporary": 2}  # Cunning
    assert sheet.rank == 1


def test_a_ratkin_metis_exports_with_its_own_crinos_and_renown():
    sheet = from_foundry(actor(PC_RATKIN)).sheet
    out = to_foundry(sheet)
    assert items(out, "Splat")[0]["name"] == "Ratkin - metis"
    assert [i["name"] for i in items(out, "Trait")] == ["Homid", "Rodens", "Crinos - metis"]
    names = [i["name"] for i in items(out, "Advantage") if i["system"]["group"] == "renown"]
    assert names == ["Rank [5]", "Renown - Infamy", "Renown - Obligation", "Renown - Cunning"]


def test_foundry_ability_names_are_kept():
    data = actor(PC_BASTET)
    out = to_foundry(from_foundry(data).sheet)
    names = {i["system"]["id"]: i["name"] for i in items(out, "Ability")}
    assert (names["primalurge"], names["craft"], names["animalken"]) == ("Primal Urge", "Craft", "Animal Ken")


@pytest.mark.parametrize("layout", ["current", "legacy"])
def test_a_guns_loaded_rounds_survive_the_round_trip(layout):
    data = actor(PC_WEREWOLF)
    data["items"].append(
        {
            "name": "Glock 17",
            "type": "Ranged Weapon",
            "system": {
                "attack": {"attribute": "dexterity", "ability": "firearms", "accuracy": 0},
                "damage": {"attribute": "", "bonus": 4, "type": "lethal"},
                "difficulty": 6,
                "range": 20,
                "rate": 3,
                "clip": {"value": 7, "max": 17},
            },
        }
    )
    loaded = from_foundry(data)
    assert loaded.warnings == []
    (gun,) = items(to_foundry(loaded.sheet, layout), "Ranged Weapon")
    assert gun["system"]["clip"] == {"value": 7, "max": 17}


def _same(a: Sheet, b: Sheet) -> None:
    da, db = a.to_dict(), b.to_dict()
    for key in da:
        assert db[key] == da[key], key


@pytest.mark.parametrize(
    "make",
    [
        lambda: actor(PC_WEREWOLF),
        lambda: actor(PC_KINFOLK),
        mortal_actor,
        lambda: actor(PC_BASTET),
        lambda: actor(PC_RATKIN),
    ],
    ids=["garou", "kinfolk", "mortal", "bastet", "ratkin"],
)
@pytest.mark.parametrize("layout", ["current", "legacy"])
def test_round_trip_through_foundry_loses_nothing(make, layout):
    first = from_foundry(make())
    again = from_foundry(to_foundry(first.sheet, layout))
    assert again.warnings == []
    _same(first.sheet, again.sheet)


def test_a_folder_skips_an_actor_of_another_type_with_one_warning(tmp_path):
    (tmp_path / "garou.json").write_text(PC_WEREWOLF.read_text(encoding="utf-8"), encoding="utf-8")
    spirit = copy.deepcopy(actor(PC_WEREWOLF))
    spirit["type"], spirit["name"] = "Spirit", "Owl"
    (tmp_path / "owl.json").write_text(json.dumps(spirit), encoding="utf-8")
    loaded = load_all([tmp_path])
    assert [lf.sheet.name for lf in loaded] == ["Hides-the-Moon"]
    skips = [w for lf in loaded for w in lf.warnings if "skipped" in w]
    assert len(skips) == 1 and "'Spirit' is not supported" in skips[0] and "owl.json" in skips[0]


def test_one_file_of_another_type_is_still_refused(tmp_path):
    spirit = actor(PC_WEREWOLF)
    spirit["type"] = "Spirit"
    (tmp_path / "owl.json").write_text(json.dumps(spirit), encoding="utf-8")
    with pytest.raises(Exception, match="'Spirit' is not supported"):
        load_all([tmp_path / "owl.json"])
