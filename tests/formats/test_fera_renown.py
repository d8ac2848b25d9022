"""A Bastet's and a Ratkin's own Renown stays theirs: the character file, `char show`, `char set`, `char
renown` and dice pools use the breed's names, and the actor goes back to Foundry with the same Renown items.

Fixtures: foundry-pc-bastet-v7.json and foundry-pc-ratkin-v7.json, PC actors built from the Foundry VTT
WoD20 system's own compendium (v7.2.5, packs/splats "Bastet - Khan" and "Ratkin - metis"; see
make_foundry_fera.py), never from stkit's writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue
from stkit.formats.foundry import from_foundry, to_foundry
from stkit.sheet.lifebook import award_renown
from stkit.sheet.pools import resolve_pool_trait
from stkit.sheet.sheet import Sheet

DATA = Path(__file__).with_name("data")
# the fixture's "Renown - ..." Advantage items: name -> (permanent, temporary)
CASES = {
    "foundry-pc-bastet-v7.json": {"Ferocity": (3, 1), "Honor": (2, 0), "Cunning": (1, 2)},
    "foundry-pc-ratkin-v7.json": {"Infamy": (2, 1), "Obligation": (1, 0), "Cunning": (3, 3)},
}


def _actor(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _renown_items(actor: dict) -> dict[str, tuple[int, int]]:
    return {
        i["name"].removeprefix("Renown - "): (i["system"]["permanent"], i["system"]["temporary"])
        for i in actor["items"]
        if i["type"] == "Advantage" and i["name"].startswith("Renown - ")
    }


@pytest.mark.parametrize(("fixture", "renown"), CASES.items())
def test_the_sheet_keeps_the_breeds_own_renown_names(fixture, renown):
    assert _renown_items(_actor(fixture)) == renown  # the fixture is what the test says it is
    sheet = from_foundry(_actor(fixture)).sheet
    file_renown = sheet.to_dict()["renown"]
    assert {k: (v["permanent"], v["temporary"]) for k, v in file_renown.items()} == renown
    again = Sheet.from_dict(json.loads(json.dumps(sheet.to_dict())))
    assert again.to_dict() == sheet.to_dict()


@pytest.mark.parametrize(("fixture", "renown"), CASES.items())
def test_back_to_foundry_unchanged(fixture, renown):
    sheet = from_foundry(_actor(fixture)).sheet
    exported = json.loads(json.dumps(to_foundry(sheet)))
    assert _renown_items(exported) == renown
    back = from_foundry(exported).sheet
    assert back.to_dict() == sheet.to_dict()


def test_edits_and_pools_take_the_breeds_names():
    cat = from_foundry(_actor("foundry-pc-bastet-v7.json")).sheet
    cat.set_trait("Ferocity", 4)
    cat.set_trait("Cunning points", 3)
    assert cat.to_dict()["renown"]["Ferocity"] == {"permanent": 4, "temporary": 1}
    assert cat.to_dict()["renown"]["Cunning"] == {"permanent": 1, "temporary": 3}
    assert resolve_pool_trait(cat, "ferocity") == ("Glory", True)  # kept in the first Renown slot
    rat = from_foundry(_actor("foundry-pc-ratkin-v7.json")).sheet
    done = award_renown(rat, "Obligation", 3)
    assert rat.to_dict()["renown"]["Obligation"] == {"permanent": 1, "temporary": 3} and done.renown == "Honor"
    with pytest.raises(InvalidValue, match="allowed: Infamy, Obligation, Cunning"):
        award_renown(rat, "Valor", 1)


def test_a_character_file_with_garou_names_still_reads():
    cat = Sheet.from_dict({"name": "Old", "fera": "Bastet", "renown": {"Glory": 2, "Wisdom": 1}})
    assert cat.to_dict()["renown"]["Ferocity"]["permanent"] == 2
    assert cat.to_dict()["renown"]["Cunning"]["permanent"] == 1


def test_char_renown_and_show_speak_the_breeds_names(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "c.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    assert runner.invoke(app, ["char", "new", "Cat", "--fera", "Bastet"]).exit_code == 0
    out = runner.invoke(app, ["char", "renown", "Cat", "Ferocity", "3", "-r", "the hunt"])
    assert out.exit_code == 0, out.output
    assert "Cat earns 3 Ferocity: Ferocity 0 permanent, 3 temporary" in out.output
    shown = json.loads(runner.invoke(app, ["char", "show", "Cat", "--json"]).stdout)
    assert set(shown["renown"]) == {"Ferocity", "Honor", "Cunning"}
