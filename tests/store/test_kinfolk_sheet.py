"""A Kinfolk's or mortal's sheet has no form, Rage or Gnosis rows (unless the sheet gives it Rage or Gnosis)
in `char show` and `char list`; a shapeshifter's has all of them, with its breed's own Renown names."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.sheet.sheet import Sheet


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "c.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    return CliRunner()


def _rows(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("creature", ["kinfolk", "mortal"])
def test_char_show_of_a_kinfolk_or_mortal_has_no_form_rage_or_gnosis(runner, creature):
    assert runner.invoke(app, ["char", "new", "Ada", "--creature", creature]).exit_code == 0
    out = runner.invoke(app, ["char", "show", "Ada"]).output
    assert "Willpower" in _rows(out)
    for word in ("Rage", "Gnosis", "Glory", "Honor", "Wisdom"):
        assert word not in _rows(out), word
    assert "Form" not in out.split()


def test_a_kinfolk_with_gnosis_shows_the_gnosis_row(runner):
    runner.invoke(app, ["char", "new", "Ada", "--creature", "kinfolk", "--set", "Gnosis=1"])
    rows = _rows(runner.invoke(app, ["char", "show", "Ada"]).output)
    assert "Gnosis" in rows and "Rage" not in rows


def test_a_garou_shows_form_rage_gnosis_and_renown(runner):
    runner.invoke(app, ["char", "new", "Wolf"])
    out = runner.invoke(app, ["char", "show", "Wolf"]).output
    for word in ("Rage", "Gnosis", "Willpower", "Glory", "Honor", "Wisdom"):
        assert word in _rows(out), word
    assert "Form" in out.split()


def test_a_bastet_shows_its_own_renown_names(runner):
    runner.invoke(app, ["char", "new", "Cat", "--fera", "Bastet"])
    rows = _rows(runner.invoke(app, ["char", "show", "Cat"]).output)
    assert {"Ferocity", "Honor", "Cunning"} <= set(rows) and "Glory" not in rows


def test_the_rows_a_sheet_shows():
    kin = Sheet(name="Kin", creature="kinfolk")
    kin.powers["Rage"].permanent = kin.powers["Rage"].temporary = 0
    kin.powers["Gnosis"].permanent = kin.powers["Gnosis"].temporary = 0
    assert kin.shown_powers() == ("Willpower",) and kin.shown_renown() == [] and not kin.has_forms
    kin.renown["Honor"].permanent = 1
    assert kin.shown_renown() == [("Honor", "Honor")]
    garou = Sheet(name="Garou")
    assert garou.shown_powers() == ("Rage", "Gnosis", "Willpower") and garou.has_forms
    assert Sheet(name="Snake", fera="Nagah").shown_renown() == []


def test_char_set_names_a_fera_renown_by_its_own_name(runner):
    """A Bastet's Glory and Wisdom slots are Ferocity and Cunning: `char set` says so, not the Garou names."""
    assert runner.invoke(app, ["char", "new", "Khan", "--fera", "Bastet", "--breed", "Homid"]).exit_code == 0
    assert runner.invoke(app, ["char", "set", "Khan", "Ferocity", "3"]).output.strip() == "Khan: Ferocity = 3"
    out = runner.invoke(app, ["char", "set", "Khan", "temporary Cunning", "2"]).output.strip()
    assert out == "Khan: temporary Cunning = 2"
    # the Garou keep theirs
    runner.invoke(app, ["char", "new", "Gar"])
    assert runner.invoke(app, ["char", "set", "Gar", "Glory", "2"]).output.strip() == "Gar: Glory = 2"
