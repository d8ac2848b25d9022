"""Whole Grapevine troupes: 56 werewolves and five Fera, written by ``data/make_grapevine_troupes.py`` after
Grapevine 3's own writer and menu file (see that script), import whole with their Gift and Rite levels."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from stkit.formats.grapevine import from_grapevine
from stkit.store.files import load_all

DATA = Path(__file__).with_name("data")
WEREWOLVES = DATA / "grapevine-56-werewolves.gex"
FERA = DATA / "grapevine-5-fera.gex"


def _maker():
    spec = importlib.util.spec_from_file_location("make_grapevine_troupes", DATA / "make_grapevine_troupes.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_troupes_are_what_the_script_writes(tmp_path):
    for written in _maker().write(tmp_path):
        assert written.read_text(encoding="utf-8") == (DATA / written.name).read_text(encoding="utf-8"), written.name


@pytest.fixture(scope="module")
def werewolves():
    return from_grapevine(WEREWOLVES.read_bytes(), source="troupe.gex")


def test_all_56_werewolves_import(werewolves):
    assert len(werewolves) == 56
    assert [lf.sheet.name for lf in werewolves[:2]] == ["Walker 01", "Walker 02"]
    assert {lf.sheet.chronicle for lf in werewolves} == {"Sept of the Long Road"}
    assert len(load_all([WEREWOLVES])) == 56  # through the importer, all in one


def test_gift_and_rite_levels_come_from_notes_and_experience_costs(werewolves):
    powers = [e for lf in werewolves for e in lf.sheet.gifts + lf.sheet.rites]
    assert len(powers) == 357
    # 25 noted int. / adv. and 15 bought for 6 / 9 (Gifts) or 4 / 6 (Rites) experience: 40 above level 1;
    # the 8 Luna's Blessing (Ragabash level 4 in stkit's Gift lists) take 4 within Intermediate 3-4
    assert Counter(e["level"] for e in powers) == {1: 317, 3: 14, 4: 8, 5: 18}
    assert {g["level"] for lf in werewolves for g in lf.sheet.gifts if g["name"] == "Luna's Blessing"} == {4}
    no_level = [w for lf in werewolves for w in lf.warnings if "no level" in w]
    assert len(no_level) == 45
    assert no_level[0].endswith(": no level (no note, no experience cost); level 1 kept")


def test_a_gift_bought_for_an_advanced_cost_is_level_5(werewolves):
    walker = werewolves[0].sheet
    assert {"name": "Strength of Will", "level": 5} in walker.gifts
    assert "Strength of Will" not in walker.notes


def test_every_ability_note_is_kept_and_craft_is_crafts(werewolves):
    walker = werewolves[0].sheet
    assert walker.abilities["Crafts"] == 1 and walker.custom_abilities == {"Lore": 1}
    assert walker.specialties == {"Survival": "Tracking"}  # four dots: the note is the specialty
    for line in (
        "Abilities list 'Craft' x1: Woodwork",
        "Abilities list 'Linguistics' x2: Spanish, Lakota",
        "Abilities list 'Lore' x1: Garou",
    ):
        assert line in walker.notes


def test_renown_numbers_and_lists_agree_and_draw_no_note(werewolves):
    walker = werewolves[2].sheet  # honor 3, glory 2, wisdom 3 written both ways
    assert {r: t.permanent for r, t in walker.renown.items()} == {"Glory": 2, "Honor": 3, "Wisdom": 3}
    assert "@honor" not in walker.notes and "@glory" not in walker.notes


@pytest.fixture(scope="module")
def fera():
    return {lf.sheet.name: lf for lf in from_grapevine(FERA.read_bytes(), source="fera.gex")}


def test_all_five_fera_import_with_breed_tribe_auspice_and_rank(fera):
    got = {
        name: (lf.sheet.fera, lf.sheet.tribe, lf.sheet.breed, lf.sheet.auspice, lf.sheet.rank)
        for name, lf in fera.items()
    }
    assert got == {
        "Shadow-of-Khan": ("Bastet", "Khan", "Feline", "Night", 3),
        "Pearl-River-Dragon": ("Mokole", "Zhong Lung", "Suchid", "Nam Hsia", 1),
        "Basks-on-Stones": ("Mokole", "Gumagan", "Suchid", "Striking", 4),
        "Grins-at-Fences": ("Nuwisha", "", "Latrani", "Ragabash", 2),
        "Snow-on-the-Pass": ("Gurahl", "Ice Stalkers", "Ursine", "Kieh", 3),
    }
    for lf in fera.values():
        assert not any("@fera" in w or "@rank" in w or "@auspice" in w or "@breed" in w for w in lf.warnings)


def test_fera_gift_levels(fera):
    levels = {name: [(g["name"], g["level"]) for g in lf.sheet.gifts] for name, lf in fera.items()}
    assert levels["Shadow-of-Khan"] == [("Catfeet", 1), ("Night's Passage", 1), ("Eerie Eyes", 1)]
    assert levels["Basks-on-Stones"] == [("Speak to the Sun", 1), ("Mind of the Ancients", 3)]
    assert levels["Snow-on-the-Pass"][-1] == ("Rage of the Ancients", 5)
    assert not any("no level" in w for lf in fera.values() for w in lf.warnings)
