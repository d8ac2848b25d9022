"""Fight readings kept as house keys: a mortal's full track under lethal or aggravated damage
(`mortal-overflow`) and Foundry WoD20's frenzy modifiers (`frenzy-crinos`, `frenzy-auspice-moon`,
`frenzy-rank`), each off by default. Sources: docs/combat.md and docs/characters.md for the first;
JohanFalt/Foundry_WoD20, module/dialogs/dialog-checkfrenzy.js, for the frenzy modifiers."""

from __future__ import annotations

import pytest

from stkit.dice.house import FIGHT_KEYS, HOUSE_KEYS, SCORING_KEYS, rules_from_settings
from stkit.errors import InvalidValue
from stkit.sheet.sheet import Sheet
from tests.clirun import ok, ok_json


def test_the_fight_keys_are_house_keys_that_do_not_score():
    assert set(FIGHT_KEYS) <= set(HOUSE_KEYS) and not set(FIGHT_KEYS) & set(SCORING_KEYS)
    written = rules_from_settings({})
    assert (written.mortal_overflow, written.frenzy_crinos, written.frenzy_auspice_moon, written.frenzy_rank) == (
        "kill",
        False,
        False,
        False,
    )


def _mortal_full_of_bashing() -> Sheet:
    s = Sheet(name="Guard", creature="mortal")
    s.take_damage(7, "bashing")
    return s


def test_a_mortals_full_bashing_track_under_aggravated_damage_by_each_reading():
    """Seven bashing boxes, then one aggravated level. `kill` (docs/combat.md): the mortal dies. `upgrade`
    (docs/characters.md): the level turns a bashing box aggravated (1 aggravated, 6 bashing) and she lives;
    six more turn the other six; the eighth finds nothing lighter to turn and kills."""
    killed = _mortal_full_of_bashing().take_damage(1, "aggravated")
    assert killed.killed
    s = _mortal_full_of_bashing()
    first = s.take_damage(1, "aggravated", mortal_overflow="upgrade")
    assert not first.killed and (s.health["aggravated"], s.health["bashing"]) == (1, 6)
    assert not s.take_damage(6, "aggravated", mortal_overflow="upgrade").killed
    assert s.health == {"aggravated": 7, "lethal": 0, "bashing": 0}
    assert s.take_damage(1, "aggravated", mortal_overflow="upgrade").killed
    with pytest.raises(InvalidValue, match="kill or upgrade"):
        Sheet(name="X").take_damage(1, mortal_overflow="maybe")


def test_mortal_overflow_through_char_damage(db_url):
    ok("char", "new", "Guard", "--creature", "mortal", "--set", "Stamina=2")
    ok("char", "damage", "Guard", "7")
    ok("house", "set", "mortal-overflow", "upgrade")
    ok("char", "damage", "Guard", "1", "--type", "aggravated")
    assert ok_json("char", "show", "Guard")["health"] == {"aggravated": 1, "lethal": 0, "bashing": 6}
    ok("house", "reset", "mortal-overflow")
    done = ok_json("char", "damage", "Guard", "1", "--type", "lethal")
    assert done["warnings"] == ["Guard is dead: 1 level of lethal damage came past Incapacitated"]


@pytest.fixture
def ahroun(db_url):
    ok("char", "new", "Howls", "--auspice", "Ahroun", "--set", "Rage=5", "--set", "Stamina=3")
    ok("char", "set", "Howls", "rank", "5")
    ok("scene", "start", "Moonrise")
    ok("scene", "moon", "full")
    return db_url


def test_frenzy_modifiers_are_off_by_default_and_each_key_changes_the_roll(ahroun):
    """Full moon: difficulty 4, four successes frenzy (Revised, as docs/combat.md cites). Faces 4, 4, 4, 4, 2
    are four successes at 4. Under the Ahroun's own full moon with `frenzy-auspice-moon` the difficulty is
    3 (then 3, 3, 3, 3, 3 is five successes); with `frenzy-rank` a Rank 5 needs five: 4, 4, 4, 4, 2 is no
    frenzy."""
    plain = ok_json("char", "rage", "Howls", "--dice", "4,4,4,4,2")
    assert (plain["roll"]["difficulty"], plain["roll"]["result"], plain["changes"]["frenzy"]) == (4, 4, True)
    ok("house", "set", "frenzy-auspice-moon", "on")
    moon = ok_json("char", "rage", "Howls", "--dice", "3,3,3,3,3")
    assert (moon["roll"]["difficulty"], moon["roll"]["result"]) == (3, 5)
    ok("house", "reset", "frenzy-auspice-moon")
    ok("house", "set", "frenzy-rank", "on")
    rank = ok_json("char", "rage", "Howls", "--dice", "4,4,4,4,2")
    assert (rank["roll"]["result"], rank["changes"]["frenzy"], rank["changes"]["successes_needed"]) == (4, False, 5)
    assert any("frenzy-rank" in n for n in rank["notes"])


def test_frenzy_in_crinos_is_one_easier_once_even_under_the_own_moon(ahroun):
    ok("char", "shift", "Howls", "crinos", "--instant")
    ok("house", "set", "frenzy-crinos", "on")
    ok("house", "set", "frenzy-auspice-moon", "on")
    both = ok_json("char", "rage", "Howls", "--dice", "3,3,3,3,3")
    assert both["roll"]["difficulty"] == 3  # 4 - 1, not 4 - 2 (Foundry takes one off when either applies)
