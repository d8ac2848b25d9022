"""A new character's defaults that follow from its sheet: the breed form, and a Garou's Rank from its Renown
(stkit.sheet.guided.creation_defaults, used by `char new` and the guided creation)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.sheet.guided import creation_defaults
from stkit.sheet.sheet import Sheet, Track


@pytest.mark.parametrize(
    ("fera", "breed", "form"),
    [
        ("Garou", "Homid", "Homid"),
        ("Garou", "Lupus", "Lupus"),
        ("Garou", "Metis", "Crinos"),
        ("Bastet", "Feline", "Lupus"),  # the Feline form sits in the Lupus slot
        ("Corax", "Corvid", "Lupus"),
        ("Ratkin", "Metis", "Crinos"),
    ],
)
def test_a_new_shapeshifter_starts_in_its_breed_form(fera, breed, form):
    s = Sheet(name="New", fera=fera, breed=breed)
    creation_defaults(s)
    assert s.form == form


@pytest.mark.parametrize(
    ("fera", "breed", "note"),
    [
        ("Garou", "Lupus", "New starts in its breed form, Lupus"),
        ("Garou", "Metis", "New starts in its breed form, Crinos"),
        ("Mokole", "Suchid", "New starts in its breed form, Suchid"),
    ],
)
def test_the_breed_form_note_names_the_form_once(fera, breed, note):
    assert creation_defaults(Sheet(name="New", fera=fera, breed=breed)) == [note]


def test_kinfolk_stay_in_homid_form():
    s = Sheet(name="Kin", creature="kinfolk", breed="Homid")
    creation_defaults(s)
    assert s.form == "Homid"


def test_a_new_garou_is_the_rank_its_renown_meets():
    # Ahroun Rank 1: Glory 2, Honor 1 (the auspice's Rank table in character_rules.yaml)
    s = Sheet(name="New", breed="Homid", auspice="Ahroun")
    s.renown["Glory"], s.renown["Honor"] = Track(2, 0), Track(1, 0)
    assert creation_defaults(s) and s.rank == 1
    t = Sheet(name="Given", breed="Homid", auspice="Ahroun")
    t.renown["Glory"], t.renown["Honor"] = Track(2, 0), Track(1, 0)
    creation_defaults(t, rank_given=True)
    assert t.rank == 0


def test_char_new_applies_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "c.sqlite"))
    runner = CliRunner()
    out = runner.invoke(app, ["char", "new", "Lopes", "--breed", "Lupus", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["form"] == "Lupus"
    out = runner.invoke(
        app,
        [
            "char",
            "new",
            "Scar",
            "--breed",
            "Metis",
            "--auspice",
            "Ahroun",
            "--set",
            "Glory=2",
            "--set",
            "Honor=1",
            "--json",
        ],
    )
    data = json.loads(out.output)
    assert (data["form"], data["rank"]) == ("Crinos", 1)
