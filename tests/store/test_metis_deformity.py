"""A metis's deformity: chosen at creation (`char new --deformity`, the guided creation), from the packaged
list naming its source; `char check` flags a Garou metis without one; `char show`, the printed sheet and a
Foundry export / import carry it."""

from __future__ import annotations

import io
import json

import pypdf
import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue
from stkit.formats.foundry import from_foundry, to_foundry
from stkit.formats.printsheet import to_html, to_pdf
from stkit.sheet.deformity import deformity_list, lookup_deformity, needs_deformity
from stkit.sheet.guided import new_draft
from stkit.sheet.lifebook import check_creation
from stkit.sheet.sheet import Sheet

# the W20 core book's thirteen, in the file's order (data/metis_deformities.yaml)
BOOK = (
    "Albino",
    "Blind",
    "Fits of Madness",
    "Hairless",
    "Horns",
    "Hunchback",
    "No Sense of Smell",
    "No Tail",
    "Seizures",
    "Tough Hide",
    "Wasting Disease",
    "Weak Immune System",
    "Withered Limb",
)


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "c.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    return CliRunner()


def test_the_list_is_the_books_thirteen_and_names_its_source():
    names, source = deformity_list()
    assert names == BOOK
    assert "ZigmundKreud/wod-wta" in source


def test_lookup_keeps_the_listed_spelling_and_a_name_of_ones_own_with_a_warning():
    assert lookup_deformity("  no-tail ") == ("No Tail", [])
    assert lookup_deformity("") == ("", [])
    name, warnings = lookup_deformity("Third Eye")
    assert name == "Third Eye" and len(warnings) == 1 and "Albino" in warnings[0]
    with pytest.raises(InvalidValue):
        lookup_deformity("Horns\x1b[2J")


def test_who_needs_one():
    assert needs_deformity("Garou", "shapeshifter", "Metis")
    assert not needs_deformity("Garou", "shapeshifter", "Homid")
    assert not needs_deformity("Garou", "kinfolk", "Metis")


def test_char_check_flags_a_metis_without_a_deformity():
    s = Sheet(name="Mule", breed="Metis", auspice="Ahroun", tribe="Black Furies")
    rules = [d.rule for d in check_creation(s).deviations]
    assert "Metis deformity" in rules
    s.deformity = "Horns"
    assert "Metis deformity" not in [d.rule for d in check_creation(s).deviations]
    h = Sheet(name="Human", breed="Homid", auspice="Ahroun", tribe="Black Furies")
    assert "Metis deformity" not in [d.rule for d in check_creation(h).deviations]


def test_char_new_takes_the_deformity_and_warns_a_metis_without_one(runner):
    out = runner.invoke(app, ["char", "new", "Mule", "--breed", "metis", "--deformity", "no tail", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["deformity"] == "No Tail" and not [w for w in data["warnings"] if "deformity" in w]
    shown = runner.invoke(app, ["char", "show", "Mule"])
    assert "Deformity" in shown.output and "No Tail" in shown.output
    bare = runner.invoke(app, ["char", "new", "Bare", "--breed", "Metis", "--json"])
    assert bare.exit_code == 0, bare.output
    (warning,) = [w for w in json.loads(bare.output)["warnings"] if "deformity" in w]
    assert "--deformity" in warning and "Hunchback" in warning
    check = runner.invoke(app, ["char", "check", "Bare", "--json"])
    assert "Metis deformity" in [d["rule"] for d in json.loads(check.stdout)["deviations"]]


def test_char_set_changes_the_deformity(runner):
    runner.invoke(app, ["char", "new", "Mule", "--breed", "Metis"])
    out = runner.invoke(app, ["char", "set", "Mule", "deformity", "hunchback"])
    assert out.exit_code == 0, out.output
    shown = runner.invoke(app, ["char", "show", "Mule", "--json"])
    assert json.loads(shown.output)["deformity"] == "Hunchback"


def test_the_guided_creation_asks_a_metis_for_its_deformity():
    d = new_draft("Mule")
    d.answer("breed=Metis auspice=Ahroun tribe=Black Furies")
    assert "deformity ?" in d.status()[0]
    with pytest.raises(InvalidValue, match="deformity"):
        d.answer("next")
    (warning,) = [line for line in d.answer("deformity=Third Eye") if line.startswith("Warning:")]
    assert "Third Eye" in warning and "kept as typed" in warning
    d.answer("deformity=Horns")
    assert d.sheet.deformity == "Horns"
    d.answer("next")
    assert d.name == "attributes"


def test_a_homid_is_not_asked():
    d = new_draft("Human")
    d.answer("breed=Homid auspice=Ahroun tribe=Black Furies")
    d.answer("next")
    assert d.name == "attributes"


def _metis() -> Sheet:
    s = Sheet(name="Mule", breed="Metis", auspice="Ahroun", tribe="Black Furies", form="Crinos")
    s.deformity = "Withered Limb"
    s.flaws = [{"name": "Nightmares", "points": 1}]
    return s


def test_the_printed_sheet_shows_it():
    (page,) = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(to_pdf([_metis()]))).pages]
    assert "Deformity" in page and "Withered Limb" in page
    assert "Withered Limb" in to_html([_metis()])


@pytest.mark.parametrize("layout", ["current", "legacy"])
def test_a_foundry_export_carries_it_back(layout):
    actor = to_foundry(_metis(), layout)
    # in Foundry it stands with the Flaws, at 0 points (the data model has no deformity field)
    (item,) = [i for i in actor["items"] if i["name"] == "Withered Limb"]
    assert item["type"] == "Feature" and item["system"]["type"] == "wod.types.flaw"
    back = from_foundry(json.loads(json.dumps(actor))).sheet
    assert back.deformity == "Withered Limb"
    assert back.flaws == [{"name": "Nightmares", "points": 1}]
