"""Guided creation: the steps as a state machine (stkit.sheet.guided), driven end to end in the terminal
through prompt_toolkit's pipe input (`stkit char create`)."""

from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from stkit.errors import InvalidValue
from stkit.sheet import guided as G
from stkit.sheet.lifebook import check_creation

#: A Homid Ahroun Get of Fenris made step by step: 7/5/3, 13/9/5, 5 Backgrounds, three
#: Gifts, then 4 freebie points (Brawl 4: 2, Willpower 3 -> 5: 2) after one undone answer.
ANSWERS = [
    "name=Sees-Far breed=Homid auspice=Ahroun tribe=Get of Fenris player=Sam",
    "next",
    "Strength=4 Dexterity=3 Stamina=3",
    "Charisma=3 Manipulation=2 Appearance=3",
    "Perception=2 Intelligence=2 Wits=2",
    "Strength=5",  # refused: 8 Physical dots
    "next",
    "Brawl=3 Dodge=3 Alertness=3 Athletics=3 Intimidation=1",
    "Melee=3 Firearms=2 Drive=2 Survival=2, Animal Ken=0",
    "Occult=2 Rituals=2 Medicine=1",
    "next",
    "Resources=2 Kinfolk=3",
    "next",
    "Razor Claws; Smell of Man; Resist Pain",
    "next",
    "Brawl=4",
    "undo",
    "Brawl=4 Willpower=5",
    "next",
]


def test_the_steps_refuse_what_breaks_them_and_undo():
    d = G.new_draft()
    with pytest.raises(InvalidValue, match="give the name, breed, auspice, tribe first"):
        d.answer("next")
    d.answer("name=Sees-Far breed=Homid auspice=Ahroun tribe=Get of Fenris")
    s = d.sheet
    assert (s.powers["Rage"].permanent, s.powers["Gnosis"].permanent, s.powers["Willpower"].permanent) == (5, 1, 3)
    assert (s.renown["Glory"].permanent, s.renown["Honor"].permanent, s.rank) == (2, 1, 1)
    d.answer("next")
    assert d.status() == ["Attributes: Physical 0 of 7, Social 0 of 5, Mental 0 of 3"]
    d.answer("Strength=4 Dexterity=4")
    with pytest.raises(InvalidValue, match="1 Attribute dot too many for 7 / 5 / 3"):
        d.answer("Stamina=3 Charisma=5 Wits=4")
    assert d.status() == ["Attributes: Physical 6 of 7, Social 0 of 5, Mental 0 of 3"]
    d.answer("undo")
    assert d.status() == ["Attributes: Physical 0 of 7, Social 0 of 5, Mental 0 of 3"]
    d.answer("Strength=4 Dexterity=4 Stamina=2 Charisma=3 Manipulation=3 Perception=2 Wits=3")
    with pytest.raises(
        InvalidValue, match=r"Attributes: 1 dot not placed yet \(Physical 7 of 7, Social 4 of 5, Mental"
    ):
        d.answer("next")
    d.answer("Appearance=2")
    d.answer("next")
    with pytest.raises(InvalidValue, match="Brawl above 3: only freebies raise an Ability past 3"):
        d.answer("Brawl=4")
    with pytest.raises(InvalidValue, match="'Strength' is not one of the abilities"):
        d.answer("Strength=2")
    for _ in range(4):
        d.answer("undo")
    assert d.name == "character"
    with pytest.raises(InvalidValue, match="nothing to undo"):
        G.new_draft().answer("undo")


def test_a_draft_travels_as_data():
    d = G.new_draft("Ann")
    d.answer("breed=Lupus auspice=Theurge tribe=Red Talons")
    again = G.Draft.from_dict(d.to_dict())
    assert again.sheet == d.sheet and again.step == d.step and again.past == d.past
    with pytest.raises(InvalidValue, match="cannot be read"):
        G.Draft.from_dict({"sheet": {"name": "x"}, "step": 99})
    with pytest.raises(InvalidValue, match="cannot be read"):
        G.Draft.from_dict("junk")


def test_the_terminal_wizard_end_to_end(db_url):
    from stkit.cli.char_create import run_wizard
    from stkit.store.characters import find_character
    from stkit.store.db.gateway import run_unit

    with create_pipe_input() as inp:
        inp.send_text("\n".join(ANSWERS) + "\n")
        inp.close()
        run_wizard(None, None, db_url, False, input=inp, output=DummyOutput())
    sheet = run_unit(db_url, lambda gw: find_character(gw, "Sees-Far").to_sheet(), readonly=True)
    assert (sheet.attributes["Strength"], sheet.abilities["Brawl"], sheet.powers["Willpower"].permanent) == (4, 4, 5)
    assert (sheet.abilities["Melee"], sheet.abilities["Survival"], "Animal Ken" in sheet.abilities) == (3, 2, False)
    assert sheet.backgrounds == {"Resources": 2, "Kinfolk": 3}
    assert [g["name"] for g in sheet.gifts] == ["Razor Claws", "Smell of Man", "Resist Pain"]
    check = check_creation(sheet)
    assert check.passed and check.spent == 4  # Brawl 4: 2 points; Willpower 5 over the tribe's 3: 2 points


def test_quitting_stores_nothing(db_url):
    from stkit.cli.app import app

    runner = CliRunner()
    with create_pipe_input() as inp:
        inp.send_text("name=Half-Made breed=Homid\nquit\n")
        inp.close()
        from unittest import mock

        from stkit.cli import char_create

        real = char_create.run_wizard
        with mock.patch.object(char_create, "run_wizard", lambda *a: real(*a, input=inp, output=DummyOutput())):
            result = runner.invoke(app, ["char", "create", "--db", db_url], env={"NO_COLOR": "1"})
    assert result.exit_code == 1 and "Error: creation stopped; nothing stored" in result.output
    listed = runner.invoke(app, ["char", "list", "--db", db_url, "--json"])
    assert '"Half-Made"' not in listed.output
