"""Every use case that changes a sheet records exactly one table event for it, in its own transaction
(the sheet is saved in one place, :func:`stkit.store.characters.save_sheet`, which writes the event), and
the live stream carries it; on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest

from stkit.sheet.sheet import Sheet, Track
from stkit.store import characters as C
from stkit.store import growth as G
from stkit.store.db.gateway import run_unit
from stkit.store.fight import attack as A
from stkit.store.fight import hit as H
from stkit.store.fight import initiative as I
from stkit.store.multi_actions import multi_from_sheet
from stkit.store.scenes import start_scene
from stkit.store.table.events import events_after, last_event_id
from tests.rolls import sheet_roll


def _sheet(name: str) -> Sheet:
    sheet = Sheet(name=name, chronicle="default")
    sheet.breed, sheet.auspice, sheet.tribe = "homid", "ahroun", "Get of Fenris"
    sheet.attributes.update({"Dexterity": 3, "Stamina": 3, "Strength": 3})
    sheet.abilities.update({"Brawl": 2, "Athletics": 2})
    sheet.powers["Willpower"] = Track(5, 5)
    sheet.powers["Rage"] = Track(4, 4)
    return sheet


#: (use case, work on the gateway, the event kinds it must add, each exactly once).
CASES = [
    ("char new", lambda gw: C.create_character(gw, _sheet("Ada")), ["sheet"]),
    ("char import --replace", lambda gw: C.create_character(gw, _sheet("Weston"), replace=True), ["sheet"]),
    ("char set", lambda gw: C.set_trait(gw, "Weston", "Brawl", "3"), ["sheet"]),
    ("char spend", lambda gw: C.spend(gw, "Weston", "Willpower"), ["sheet"]),
    ("char regain", lambda gw: C.regain(gw, "Weston", "Rage"), ["sheet"]),
    ("char damage", lambda gw: C.damage(gw, "Weston", 2, "lethal"), ["sheet"]),
    ("char heal", lambda gw: (C.damage(gw, "Weston", 1), C.heal(gw, "Weston", 1))[1], ["sheet", "sheet"]),
    ("char shift", lambda gw: C.shift(gw, "Weston", "Crinos"), ["sheet"]),
    ("char hit", lambda gw: H.take_hit(gw, "Weston", 2, "bashing"), ["sheet"]),
    ("char hit --soak", lambda gw: H.take_hit(gw, "Weston", 3, "bashing", soak="", faces=[2, 2, 2]), ["roll", "sheet"]),
    (
        "attack",
        lambda gw: A.attack(
            gw,
            A.AttackOrder(
                "Weston",
                "Archibald",
                pool="Dexterity + Brawl",
                damage="Strength",
                attack_faces=[8] * 5,
                damage_faces=[9] * 7,
                soak=None,
            ),
        ),
        ["roll", "roll", "sheet"],
    ),
    (
        "roll -w --char",
        lambda gw: sheet_roll(gw, "Weston", "Dexterity", willpower=True, faces=[3, 4, 5]),
        ["sheet", "roll"],
    ),
    (
        "multi --rage",
        lambda gw: multi_from_sheet(
            gw, "Weston", ["Dexterity", "Dexterity"], [6, 6], rage=1, faces=[[7, 7, 7], [7, 7, 7]]
        ),
        ["sheet", "roll", "roll"],
    ),
    ("char delete", lambda gw: C.delete_character(gw, "Archibald"), ["sheet"]),
    ("scene initiative", lambda gw: I.roll_scene_initiative(gw, "default", ["Weston"], dice=[7]), ["scene"]),
    (
        "char xp award, char raise",
        lambda gw: (C.experience(gw, "Weston", "award", 10), G.raise_traits(gw, "Weston", [("Brawl", None)])),
        ["sheet", "sheet"],
    ),
    (
        "char raise, char xp undo",
        lambda gw: (
            C.experience(gw, "Weston", "award", 10),
            G.raise_traits(gw, "Weston", [("Brawl", None)]),
            G.undo_spend(gw, "Weston"),
        ),
        ["sheet", "sheet", "sheet"],
    ),
    ("char renown", lambda gw: G.give_renown(gw, "Weston", "Glory", 3, "the bridge"), ["sheet"]),
]


@pytest.mark.parametrize(("case", "work", "kinds"), CASES, ids=[c for c, _, _ in CASES])
def test_each_sheet_change_is_one_event(db_url, case, work, kinds):
    run_unit(db_url, lambda gw: (C.create_character(gw, _sheet("Weston")), C.create_character(gw, _sheet("Archibald"))))
    if case == "scene initiative":
        run_unit(db_url, lambda gw: start_scene(gw, "default", "The wall"))
    before = run_unit(db_url, lambda gw: last_event_id(gw, "default"), readonly=True)
    run_unit(db_url, work)
    added = run_unit(db_url, lambda gw: events_after(gw, "default", before, include_secret=True), readonly=True)
    assert sorted(e.kind for e in added) == sorted(kinds), case
    for event in added:
        if event.kind == "sheet":
            assert event.data["summary"] and event.data["character"]


def test_a_refused_change_records_no_event(db_url):
    from stkit.errors import RuleRefusal

    run_unit(db_url, lambda gw: C.create_character(gw, _sheet("Weston")))
    before = run_unit(db_url, lambda gw: last_event_id(gw, "default"), readonly=True)
    with pytest.raises(RuleRefusal):
        run_unit(db_url, lambda gw: C.spend(gw, "Weston", "Willpower", 9))
    assert run_unit(db_url, lambda gw: events_after(gw, "default", before, include_secret=True), readonly=True) == []
