"""Guided creation: the steps as a state machine (stkit.sheet.guided), driven end to end in the terminal
through prompt_toolkit's pipe input (`stkit char create`)."""

from __future__ import annotations

import re

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


def test_the_gift_step_takes_names_only_and_help_shows_the_prompt():
    """What a newcomer types at the Gift step: the freebie step's `gift:NAME` spelling, a `Trait=N` line
    meant for another step, `help`, an Ability at the Background step, a Gift no list knows."""
    d = G.new_draft()
    for line in ["name=Sees-Far breed=Homid auspice=Ahroun tribe=Get of Fenris", "next", *ANSWERS[2:5]]:
        d.answer(line)
    d.answer("next")
    for line in ANSWERS[7:10]:
        d.answer(line)
    d.answer("next")
    assert d.answer("help") == [d.prompt()]
    with pytest.raises(InvalidValue, match="'Primal-Urge' is a Trait, not a Background"):
        d.answer("Primal-Urge=2")
    assert d.sheet.backgrounds == {}
    d.answer("Resources=2 Kinfolk=3")
    d.answer("next")
    assert d.name == "gifts"
    assert d.answer("?") == [d.prompt()]
    assert d.sheet.gifts == []
    with pytest.raises(InvalidValue, match="'Resources=2 Pure Breed=3': name the Gifts only"):
        d.answer("Resources=2 Pure Breed=3")
    with pytest.raises(InvalidValue, match="name the Gifts only"):
        d.answer("Razor Claws; Smell of Man=1")
    assert d.sheet.gifts == []
    d.answer("gift:Razor Claws")
    said = d.answer("Smell of Man; Clawz of Doom")
    assert [g["name"] for g in d.sheet.gifts] == ["Razor Claws", "Smell of Man", "Clawz of Doom"]
    assert (
        said[-1] == "Warning: 'Clawz of Doom' is in none of stkit's Gift lists: kept, but `char check` cannot judge it"
    )
    assert not any("Smell of Man" in line for line in said[1:])


def _to_freebies(tribe: str) -> G.Draft:
    """A Homid Ahroun of ``tribe`` made up to the freebie step (the ANSWERS' dots, no freebies spent)."""
    d = G.new_draft()
    for line in [f"name=Sees-Far breed=Homid auspice=Ahroun tribe={tribe}", *ANSWERS[1:5], *ANSWERS[6:15]]:
        d.answer(line)
    assert d.name == "freebies"
    return d


def test_freebie_willpower_is_priced_above_the_tribes_starting_value():
    """Revised freebies: Willpower 1 point a dot (Cleveland by Night, "Character Creation"). A Get of Fenris
    starts at 3 (W20 tribe table): Willpower 6 costs 3 x 1 = 3 of 15. A Wendigo starts at 4: Willpower 6
    costs 2 x 1 = 2, and Willpower 3 (below its start) cannot be finished."""
    fenris = _to_freebies("Get of Fenris")
    fenris.answer("Willpower=6")
    check = check_creation(fenris.sheet)
    assert (check.spent, check.available) == (3, 15)
    wendigo = _to_freebies("Wendigo")
    assert wendigo.sheet.powers["Willpower"].permanent == 4
    wendigo.answer("Willpower=6")
    assert check_creation(wendigo.sheet).spent == 2
    wendigo.answer("Willpower=3")
    with pytest.raises(InvalidValue, match="Willpower 3: the tribe Wendigo starts with 4"):
        wendigo.answer("next")
    # an over-spend is refused: Willpower 3 -> 10 (7), Brawl 3 -> 5 (2x2 = 4), Stamina 3 -> 5 (2x5 = 10): 21
    with pytest.raises(InvalidValue, match="that needs 21 freebie points; 15 available"):
        fenris.answer("Willpower=10 Brawl=5 Stamina=5")


def test_a_tribe_without_a_starting_willpower_is_refused_by_guided_creation():
    """Freebies price Willpower above the tribe's start; a tribe stkit's table lacks (the Croatan) would make
    it free, so the guided steps refuse it and name the tribes they know."""
    d = G.new_draft()
    with pytest.raises(InvalidValue, match="tribe 'Croatan': guided creation needs the tribe's starting Willpower"):
        d.answer("name=Sees-Far breed=Homid auspice=Ahroun tribe=Croatan")
    assert d.sheet.tribe == "" and d.name == "character"


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
    from stkit.cli.char.create import run_wizard
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

        from stkit.cli.char import create as char_create

        real = char_create.run_wizard
        with mock.patch.object(char_create, "run_wizard", lambda *a: real(*a, input=inp, output=DummyOutput())):
            result = runner.invoke(app, ["char", "create", "--db", db_url], env={"NO_COLOR": "1"})
    assert result.exit_code == 1 and "Error: creation stopped; nothing stored" in result.output
    listed = runner.invoke(app, ["char", "list", "--db", db_url, "--json"])
    assert '"Half-Made"' not in listed.output


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (1, "the draft is not a mapping with a sheet and a step"),
        (None, "the draft is not a mapping with a sheet and a step"),
        ({"step": 1}, "the draft has no sheet"),
        ({"sheet": {"name": "A"}, "step": 1.5}, "the step of the draft must be a whole number 0 to 6"),
        ({"sheet": {"name": "A"}, "step": "2"}, "the step of the draft must be a whole number 0 to 6"),
        ({"sheet": {"name": "A"}, "step": True}, "the step of the draft must be a whole number 0 to 6"),
        ({"sheet": {"name": "A"}, "step": 7}, "the step of the draft must be a whole number 0 to 6"),
        ({"sheet": {"name": "A"}, "step": 1, "past": [1]}, "undo state 1 is not a mapping"),
        ({"sheet": {"name": "A"}, "step": 1, "past": {}}, "its undo list is not a list"),
        ({"sheet": {"name": "A", "attributes": [1]}, "step": 1}, "attributes: expected a mapping"),
    ],
)
def test_a_damaged_draft_is_refused_in_one_line(data, said):
    with pytest.raises(InvalidValue) as caught:
        G.Draft.from_dict(data)
    text = str(caught.value)
    assert said in text and "\n" not in text and "object" not in text and "subscriptable" not in text


def test_the_pickers_offer_the_steps_values_and_refuse_others():
    d = G.new_draft()
    names = {f["field"]: f for f in d.choices()["fields"]}
    assert names["breed"]["options"] == ["Homid", "Metis", "Lupus"] and "Get of Fenris" in names["tribe"]["options"]
    with pytest.raises(InvalidValue, match="Breed 'Elf' is not one of the choices offered"):
        d.pick({"breed": "Elf"})
    with pytest.raises(InvalidValue, match="deformity 'Hairless': only a metis has a deformity"):
        d.pick({"deformity": "Hairless", "breed": "Homid"})
    d.pick({"deformity": "Hairless", "breed": "Metis"})  # both on one page, in any order
    assert (d.sheet.breed, d.sheet.deformity) == ("Metis", "Hairless")
    d.answer("undo")
    d.pick({"name": "Sees-Far", "breed": "Homid", "auspice": "Ahroun", "tribe": "Get of Fenris"})
    assert d.sheet.powers["Rage"].permanent == 5
    d.answer("next")
    groups = d.choices()["groups"]
    assert [g["title"] for g in groups] == ["Physical Attributes", "Social Attributes", "Mental Attributes"]
    assert groups[0]["items"][0] == {"field": "Strength", "label": "Strength", "value": 1, "values": [1, 2, 3, 4, 5]}
    for bad, said in [
        ({"Strength": "0"}, "Strength '0': allowed 1 to 5"),
        ({"Strength": "1.5"}, "Strength '1.5': allowed 1 to 5"),
        ({"Strength": "6"}, "Strength '6': allowed 1 to 5"),
        ({"Brawl": "2"}, "'Brawl' is not a choice of the attributes step"),
        ({"Strength": "5", "Dexterity": "5"}, "1 Attribute dot too many"),
    ]:
        with pytest.raises(InvalidValue, match=re.escape(said)):
            d.pick(bad)
    for typed in ("Strength=0", "Strength=7", "Strength=-1"):
        with pytest.raises(InvalidValue, match=rf"Strength {typed[9:]}: allowed 1 to 5 at the attributes step"):
            d.answer(typed)
    d.pick({"Strength": "5", "Dexterity": "3", "Stamina": "2"})
    assert [g["allot"] for g in d.choices()["groups"]] == [7, 5, 3]
    with pytest.raises(InvalidValue, match=r"Attributes: 8 dots not placed yet \(Physical 7 of 7, Social 0 of 5"):
        d.answer("next")


def test_the_gift_step_offers_one_list_each_and_takes_exactly_the_chosen():
    d = G.new_draft()
    d.answer("name=Sees-Far breed=Homid auspice=Ahroun tribe=Get of Fenris")
    d.step = G.STEPS.index("gifts")
    lists = d.choices()["gifts"]
    assert [g["title"] for g in lists] == ["Homid (breed) Gift", "Ahroun (auspice) Gift", "Get of Fenris (tribe) Gift"]
    assert "Smell of Man" in lists[0]["options"] and "Razor Claws" in lists[2]["options"]
    with pytest.raises(InvalidValue, match=r"'Bogus' is not a level-one Gift of the list offered \(Homid \(breed\)"):
        d.pick({}, ["Bogus"])
    with pytest.raises(InvalidValue, match=r"'Resist Pain' is not a level-one Gift of the list offered \(Ahroun"):
        d.pick({}, ["Smell of Man", "Resist Pain"])
    with pytest.raises(InvalidValue, match="the same Gift chosen twice"):
        d.pick({}, ["", "Razor Claws", "Razor Claws"])
    with pytest.raises(InvalidValue, match="4 Gift choices; the Gift step has 3 lists"):
        d.pick({}, ["", "", "", "Razor Claws"])
    d.pick({}, ["Smell of Man", "Razor Claws"])
    d.pick({}, ["Smell of Man", "Razor Claws"])  # sent again: still two, not four
    assert [g["name"] for g in d.sheet.gifts] == ["Smell of Man", "Razor Claws"]
    with pytest.raises(InvalidValue, match="2 of 3 Gifts chosen"):
        d.answer("next")


def without_shadow_lords() -> dict:
    """The packaged Gift lists as if they held none for the Shadow Lords (the lists are partial)."""
    from stkit.sheet import lifebook as L

    return {k: v for k, v in L.gift_lists().items() if k != "Shadow Lords"}


def test_a_gift_list_stkit_lacks_is_typed(monkeypatch):
    from stkit.sheet import lifebook as L

    partial = without_shadow_lords()
    monkeypatch.setattr(L, "gift_lists", lambda: partial)
    d = G.new_draft()
    d.answer("name=Whisper breed=Homid auspice=Ragabash tribe=Shadow Lords")
    d.step = G.STEPS.index("gifts")
    lists = d.choices()["gifts"]
    assert lists[2]["title"] == "Shadow Lords (tribe) Gift" and lists[2]["options"] == []
    d.pick({}, ["Smell of Man", lists[1]["options"][0], "Aura of Confidence"])
    assert d.choices()["gifts"][2]["value"] == "Aura of Confidence"
    d.answer("next")
    assert d.name == "freebies"
