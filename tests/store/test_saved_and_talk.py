"""Saved rolls (on the sheet, in character files, rolled through the sheet roll), table messages and
whispers (events only), and the unskilled-Ability rule."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from stkit.errors import DataFileError, InvalidValue, NotFound, RuleRefusal


def _shadow(url: str) -> None:
    from tests.web.conftest import add_character

    add_character(url, "Shadow", attributes={"Dexterity": 3}, abilities={"Brawl": 4})
    from stkit.store.characters import set_trait
    from stkit.store.db.gateway import run_unit

    run_unit(url, lambda gw: set_trait(gw, "Shadow", "Brawl specialty", "Claws"))


def test_save_roll_list_and_remove(db_url):
    from stkit.store.db.gateway import run_unit
    from stkit.store.saved import list_saved, remove_saved, roll_saved, save_roll

    _shadow(db_url)
    saved = run_unit(db_url, lambda gw: save_roll(gw, "shadow", "Claws", "dex + brawl", difficulty=7, spec=True))
    assert saved.label == "Claws: dex + brawl, difficulty 7, specialty"
    name, rolls = run_unit(db_url, lambda gw: list_saved(gw, "Shadow"))
    assert name == "Shadow" and [r.to_dict() for r in rolls] == [
        {"name": "Claws", "pool": "dex + brawl", "difficulty": 7, "spec": True}
    ]
    # rolled by name (case ignored, a unique prefix is enough) through the sheet roll: 7 dice at 7
    done = run_unit(db_url, lambda gw: roll_saved(gw, "Shadow", "cl", rng=random.Random(4), seed=4))
    assert done.pool.text == "Dexterity 3 + Brawl 4 = 7 dice" and done.roll.difficulty == 7
    assert done.specialty_used is not None and done.log_id is not None
    # saving the same name again replaces it; removing it leaves none
    run_unit(db_url, lambda gw: save_roll(gw, "Shadow", "claws", "Dexterity + Brawl"))
    assert [r.name for r in run_unit(db_url, lambda gw: list_saved(gw, "Shadow"))[1]] == ["claws"]
    assert run_unit(db_url, lambda gw: remove_saved(gw, "Shadow", "CLAWS")).name == "claws"
    with pytest.raises(NotFound, match="Shadow has no saved roll 'claws'; saved rolls: none yet"):
        run_unit(db_url, lambda gw: roll_saved(gw, "Shadow", "claws"))


@pytest.mark.parametrize(
    ("name", "pool", "kwargs", "message"),
    [
        ("", "Dexterity", {}, "a saved roll needs a name"),
        ("x" * 41, "Dexterity", {}, "at most 40"),
        ("bad\x1b", "Dexterity", {}, "control character"),
        ("claws", "Dexterity + Nope", {}, "unknown trait 'Nope'"),
        ("claws", "Dexterity", {"difficulty": 11}, "difficulty 11: allowed 2 to 10"),
        ("claws", "Dexterity + Stealth", {"spec": True}, "has no Trait with a specialty"),
    ],
)
def test_a_bad_saved_roll_is_refused_and_nothing_written(db_url, name, pool, kwargs, message):
    from stkit.store.db.gateway import run_unit
    from stkit.store.saved import list_saved, save_roll

    _shadow(db_url)
    with pytest.raises(InvalidValue, match=message):
        run_unit(db_url, lambda gw: save_roll(gw, "Shadow", name, pool, **kwargs))
    assert run_unit(db_url, lambda gw: list_saved(gw, "Shadow"))[1] == []


def test_saved_rolls_travel_with_the_character_file():
    from stkit.sheet.sheet import Sheet
    from stkit.store.files import dump

    sheet = Sheet(name="Shadow")
    sheet.saved_rolls["claws"] = {"pool": "Dexterity + Brawl", "difficulty": 6, "spec": False}
    text = dump(sheet)
    assert "saved_rolls:\n  claws:\n    pool: Dexterity + Brawl\n    difficulty: 6\n    spec: false\n" in text
    import yaml

    again = Sheet.from_dict(yaml.safe_load(text))
    assert again.saved_rolls == sheet.saved_rolls
    assert "saved_rolls" not in Sheet(name="Plain").to_dict()  # files without saved rolls are unchanged
    # the pool text alone is a saved roll at difficulty 6
    assert Sheet.from_dict({"name": "A", "saved_rolls": {"bite": "Strength + Brawl"}}).saved_rolls == {
        "bite": {"pool": "Strength + Brawl", "difficulty": 6, "spec": False}
    }
    for bad, where in (
        ({"x": {"pool": "Dexterity", "dice": 3}}, "saved_rolls.x: unknown field 'dice'"),
        ({"x": {"pool": "Dexterity", "difficulty": "6"}}, "saved_rolls.x: difficulty '6': allowed 2 to 10"),
        ({"x": {"pool": ""}}, "saved_rolls.x: pool: write the Traits"),
        ({"x": ["Dexterity"]}, "saved_rolls.x: expected pool, difficulty and spec"),
    ):
        with pytest.raises(DataFileError, match=where.replace("(", r"\(")):
            Sheet.from_dict({"name": "A", "saved_rolls": bad})


def test_the_saved_command_group(db_url):
    import json

    from stkit.cli.app import app

    _shadow(db_url)
    run = CliRunner().invoke
    r = run(app, ["saved", "add", "claws", "Dexterity + Brawl", "-c", "shadow", "--spec", "--db", db_url])
    assert r.exit_code == 0 and r.stdout.strip() == "Saved claws: Dexterity + Brawl, difficulty 6, specialty"
    r = run(app, ["saved", "list", "-c", "Shadow", "--json", "--db", db_url])
    assert json.loads(r.stdout)["saved_rolls"][0]["name"] == "claws"
    r = run(app, ["saved", "roll", "claws", "-c", "Shadow", "--seed", "3", "--json", "--db", db_url])
    out = json.loads(r.stdout)
    assert out["roll"]["pool"] == 7 and out["pool_breakdown"]["text"] == "Dexterity 3 + Brawl 4 = 7 dice"
    r = run(app, ["saved", "roll", "bite", "-c", "Shadow", "--db", db_url])
    assert r.exit_code == 1 and r.stderr.startswith("Error: Shadow has no saved roll 'bite'; saved rolls: claws")
    r = run(app, ["saved", "rm", "claws", "-c", "Shadow", "--db", db_url])
    assert r.exit_code == 0 and r.stdout.strip() == "Removed saved roll claws"


# ------------------------------------------------------------------------------------------ table talk


def test_messages_and_whispers_are_events(db_url):
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import chronicle_events
    from stkit.store.table.talk import say, whisper

    _shadow(db_url)
    run_unit(db_url, lambda gw: say(gw, "default", "  pizza's here  "))
    run_unit(db_url, lambda gw: say(gw, "default", "brb", character="shadow"))
    run_unit(db_url, lambda gw: whisper(gw, "default", "Shadow", "the wyrm stirs"))
    events = [e for e in run_unit(db_url, lambda gw: chronicle_events(gw, "default")) if e.kind != "sheet"]
    assert [(e.kind, e.secret, e.data["from"], e.data["text"]) for e in events] == [
        ("whisper", True, "Storyteller", "the wyrm stirs"),
        ("message", False, "Shadow", "brb"),
        ("message", False, "Storyteller", "pizza's here"),
    ]
    assert events[0].data["to"] == "Shadow" and events[0].character_id == events[1].character_id


@pytest.mark.parametrize(("text", "message"), [("", "empty"), ("x" * 301, "at most 300"), ("a\nb", "control")])
def test_a_bad_message_is_refused(db_url, text, message):
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import chronicle_events
    from stkit.store.table.talk import say

    with pytest.raises(InvalidValue, match=message):
        run_unit(db_url, lambda gw: say(gw, "default", text))
    assert run_unit(db_url, lambda gw: chronicle_events(gw, "default")) == []


# ------------------------------------------------------------------------------------------ unskilled


def test_the_unskilled_rule():
    from stkit.sheet.sheet import Sheet
    from stkit.sheet.unskilled import unskilled

    s = Sheet(name="Pup")
    s.abilities["Melee"] = 2
    assert unskilled(s, ["Dexterity", "Brawl"]).difficulty_change == 0  # a Talent: no penalty
    assert unskilled(s, ["Dexterity", "Firearms"]).difficulty_change == 1  # a Skill: +1
    assert unskilled(s, ["Dexterity", "Melee"]).notes == ()  # rated: no rule
    with pytest.raises(RuleRefusal, match="Occult is a Knowledge and Pup has no dots in it"):
        unskilled(s, ["Intelligence", "Occult"])
    # the house rule unskilled-skill dice: two dice fewer instead of +1 difficulty
    dice = unskilled(s, ["Dexterity", "Firearms"], skill_rule="dice")
    assert (dice.difficulty_change, dice.dice_change) == (0, -2)
    assert unskilled(s, ["Dexterity", "Brawl"], skill_rule="dice").dice_change == 0
