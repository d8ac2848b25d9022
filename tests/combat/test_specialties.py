"""Specialties on the sheet: `char set NAME "Brawl specialty" Claws`, character files, the Foundry import."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, InvalidValue
from stkit.formats.foundry import from_foundry
from stkit.sheet.sheet import Sheet, specialty_trait

FOUNDRY = Path(__file__).resolve().parents[1] / "store" / "data" / "foundry-werewolf-small.json"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})


def test_specialty_words():
    assert specialty_trait("Brawl specialty") == "Brawl"
    assert specialty_trait("specialty Animal Ken") == "Animal Ken"
    assert specialty_trait("Brawl speciality") == "Brawl"
    assert specialty_trait("Brawl") is None


def test_specialty_needs_four_dots():
    s = Sheet(name="Shadow")
    s.set_trait("Brawl", 4)
    assert s.set_trait("brawl specialty", "Claws")[1] == "Claws"
    assert s.specialties == {"Brawl": "Claws"}
    s.set_trait("Dodge", 3)
    with pytest.raises(InvalidValue, match="Dodge is rated 3; a specialty needs a Trait of 4 dots or more"):
        s.set_trait("Dodge specialty", "Rolling")
    with pytest.raises(InvalidValue, match="Rage is rated to 10 and cannot have a specialty"):
        s.set_trait("Rage specialty", "Claws")
    assert s.specialties == {"Brawl": "Claws"}


def test_lowering_the_trait_removes_the_specialty():
    s = Sheet(name="Shadow")
    s.set_trait("Dexterity", 4)
    s.set_trait("Dexterity specialty", "Quick")
    _, _, warnings = s.set_trait("Dexterity", 3)
    assert warnings == ["Dexterity specialty 'Quick' removed: Dexterity is now 3, below the 4 dots a specialty needs"]
    assert s.specialties == {}


def test_new_sheet_takes_the_specialty_after_the_rating():
    s = Sheet(name="Shadow")
    s.set_new_traits([("Brawl specialty", "Claws"), ("Brawl", "4")])
    assert s.specialties == {"Brawl": "Claws"}


def test_character_file_round_trip_and_refusals():
    s = Sheet(name="Shadow")
    s.set_trait("Brawl", 5)
    s.set_trait("Brawl specialty", "Claws")
    data = s.to_dict()
    assert data["specialties"] == {"Brawl": "Claws"}
    assert Sheet.from_dict(data).specialties == {"Brawl": "Claws"}
    assert "specialties" not in Sheet(name="Plain").to_dict()
    bad = copy.deepcopy(data)
    bad["specialties"] = {"Dodge": "Rolling"}
    with pytest.raises(DataFileError, match=r"specialties\.Dodge: Dodge is rated 0"):
        Sheet.from_dict(bad)
    bad["specialties"] = {"Brawl": "Cl\x1b[2Jaws"}
    with pytest.raises(DataFileError, match="control character"):
        Sheet.from_dict(bad)


def test_foundry_speciality_is_imported():
    data = json.loads(FOUNDRY.read_text(encoding="utf-8"))
    data["system"]["abilities"]["talent"]["athletics"]["speciality"] = "Climbing"  # Athletics 4
    data["system"]["attributes"]["dexterity"]["speciality"] = "Lightning reflexes"  # Dexterity 4
    data["system"]["abilities"]["talent"]["alertness"]["speciality"] = "Ambushes"  # Alertness 3: too low
    loaded = from_foundry(data)
    assert loaded.sheet.specialties == {"Dexterity": "Lightning reflexes", "Athletics": "Climbing"}
    assert "Alertness specialty 'Ambushes': not kept: Alertness is rated 3, a specialty needs 4 dots or more" in (
        loaded.warnings
    )


def test_char_set_specialty_cli(db_url):
    assert run("char", "new", "Shadow-in-the-Wood", "--set", "Dexterity=3", "--set", "Brawl=4").exit_code == 0
    res = run("char", "set", "Shadow-in-the-Wood", "Brawl specialty", "Claws")
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == "Shadow-in-the-Wood: Brawl specialty = Claws"
    res = run("char", "set", "Shadow-in-the-Wood", "Dexterity specialty", "Quick")
    assert res.exit_code == 1
    assert res.stderr.strip() == "Error: Dexterity is rated 3; a specialty needs a Trait of 4 dots or more"
    shown = run("char", "show", "Shadow-in-the-Wood").stdout
    assert "Specialties: Brawl (Claws)" in shown and shown.count("Claws") == 1
    data = json.loads(run("char", "show", "Shadow-in-the-Wood", "--json").stdout)
    assert data["specialties"] == {"Brawl": "Claws"}
