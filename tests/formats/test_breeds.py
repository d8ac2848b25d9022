"""The Changing Breeds table: the ten Fera's breeds and auspices on the sheet, Kinfolk and mortals without
forms, and dice pools rolled the same for all of them."""

from __future__ import annotations

import pytest

from stkit.errors import DataFileError, InvalidValue, RuleRefusal
from stkit.sheet import breeds as B
from stkit.sheet.pools import build_pool
from stkit.sheet.sheet import Sheet


def test_table_has_the_garou_and_ten_fera():
    assert B.FERA_NAMES == (
        "Garou",
        "Ananasi",
        "Bastet",
        "Corax",
        "Gurahl",
        "Kitsune",
        "Mokole",
        "Nagah",
        "Nuwisha",
        "Ratkin",
        "Rokea",
    )


@pytest.mark.parametrize(
    ("fera", "breed", "auspice"),
    [
        ("Bastet", "feline", "twilight"),
        ("Mokole", "Suchid", "rising sun"),
        ("Gurahl", "ursine", "Kojubat"),
        ("Ratkin", "rodens", "knife skulker"),
        ("Corax", "corvid", ""),
        ("Nuwisha", "latrani", ""),
        ("Nagah", "vasuki", "kali"),
        ("Ananasi", "arachnid", "hatar"),
        ("Kitsune", "roko", "doshi"),
        ("Rokea", "squamus", "brightwater"),
    ],
)
def test_fera_sheets_store_their_breeds_and_auspices(fera, breed, auspice):
    s = Sheet.from_dict({"name": "X", "fera": fera.lower(), "breed": breed, "auspice": auspice})
    row = B.get_changing_breed(fera)
    assert s.fera == fera and s.breed in row.breeds and s.auspice in (*row.auspices, "")
    assert Sheet.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_garou_messages_are_unchanged():
    with pytest.raises(DataFileError, match=r"breed: unknown breed; allowed: Homid, Metis, Lupus"):
        Sheet.from_dict({"name": "X", "breed": "Feline"}, source="f")


def test_corax_have_no_auspice():
    with pytest.raises(DataFileError, match=r"auspice: the Corax have no auspices; leave the auspice empty"):
        Sheet.from_dict({"name": "X", "fera": "Corax", "auspice": "Ahroun"}, source="f")


def test_setting_fera_empties_a_breed_it_lacks():
    s = Sheet.from_dict({"name": "X", "breed": "Lupus", "auspice": "Ahroun"})
    _, new, warnings = s.set_trait("fera", "Bastet")
    assert new == "Bastet" and (s.breed, s.auspice) == ("", "")
    assert warnings == [
        "breed 'Lupus' is not one of the Bastet's; emptied, set it again",
        "auspice 'Ahroun' is not one of the Bastet's; emptied, set it again",
    ]
    s.set_trait("breed", "feline")
    assert s.breed == "Feline"


def test_kinfolk_and_mortals_have_no_rage_gnosis_or_forms_by_default():
    kin = Sheet.from_dict({"name": "K", "creature": "Kinfolk", "fera": "Bastet"})
    assert [kin.powers[p].permanent for p in ("Rage", "Gnosis", "Willpower")] == [0, 0, 3]
    assert kin.creature_label == "Kinfolk of the Bastet"
    with pytest.raises(RuleRefusal, match=r"K is Kinfolk of the Bastet and has no Crinos form; only Homid"):
        kin.shift("crinos")
    with pytest.raises(DataFileError, match=r"form: 'Crinos': a mortal has no form but Homid"):
        Sheet.from_dict({"name": "M", "creature": "mortal", "form": "Crinos"}, source="f")
    with pytest.raises(InvalidValue, match=r"unknown creature 'vampire'; allowed: shapeshifter, kinfolk, mortal"):
        B.lookup_creature("vampire")


def test_pools_build_the_same_for_every_breed():
    """Dexterity 3 + Stealth 2 in Homid is 5 dice for a Garou, a Bastet, Kinfolk and a mortal alike (the
    rolls themselves: tests/imports/test_cli.py)."""
    for extra in ({}, {"fera": "Bastet", "breed": "Feline"}, {"creature": "kinfolk"}, {"creature": "mortal"}):
        s = Sheet.from_dict({"name": "X", "attributes": {"Dexterity": 3}, "abilities": {"Stealth": 2}, **extra})
        assert build_pool(s, "Dexterity + Stealth").dice == 5
    bastet = Sheet.from_dict(
        {"name": "C", "fera": "Bastet", "tribe": "Simba", "attributes": {"Strength": 2}, "form": "Crinos"}
    )
    assert build_pool(bastet, "Strength").dice == 5  # the Simba's Crinos: Strength +3 (Foundry_WoD20 totals.js)


def test_specialty_set_and_removed():
    s = Sheet(name="X", abilities={"Brawl": 4})
    ref, value, _ = s.set_trait("specialty:brawl", "Claws")
    assert (ref.kind, ref.name, value, s.specialties) == ("specialty", "Brawl", "Claws", {"Brawl": "Claws"})
    s.set_trait("specialty:Brawl", "none")
    assert s.specialties == {}
    with pytest.raises(InvalidValue, match=r"'Juggling' is not an Attribute or Ability of the sheet"):
        s.set_trait("specialty:Juggling", "Clubs")


def test_the_character_file_shown_in_the_docs_is_a_valid_sheet():
    """docs/characters.md's character file, new fields included, reads and writes back unchanged."""
    import re
    from pathlib import Path

    import yaml

    doc = (Path(__file__).resolve().parents[2] / "docs" / "characters.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", doc, re.S) if b.startswith("name: Paper Clip")]
    s = Sheet.from_dict(yaml.safe_load(block), source="docs")
    assert (s.totem, s.fera, s.creature, s.specialties) == ("", "Garou", "shapeshifter", {"Repair": "Cars"})
    assert s.fetishes == [{"name": "Spirit Whistle", "level": 1, "gnosis": 5}]
    assert s.weapons[0]["name"] == "Tire Iron" and s.weapons[0]["damage_bonus"] == 1
    assert s.armor[0]["forms"] == ["Homid"] and s.biography == "Grew up in the rail yards."
    assert Sheet.from_dict(s.to_dict()).to_dict() == s.to_dict()
