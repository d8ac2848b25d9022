"""One reading of a pool's text for every modifier: short names and hyphenated names resolve to the same
Traits as the long names before the armour, form or wound penalty is applied."""

from __future__ import annotations

import pytest

from stkit.sheet.pools import build_pool, pool_trait_names
from stkit.sheet.sheet import Sheet
from stkit.store.fight.attack import _with_armour


def _weston() -> Sheet:
    s = Sheet(name="Weston")
    s.set_trait("Dexterity", 3)
    s.set_trait("Firearms", 2)
    s.set_trait("Dodge", 1)
    s.set_trait("Wits", 2)
    s.set_trait("Primal-Urge", 2)
    s.armor = [{"name": "vest", "equipped": True, "dexterity_penalty": 1}]
    return s


@pytest.mark.parametrize(
    "text", ["Dexterity + Firearms", "dex+firearms", "DEX + fire", "dexterity+Firearms", "Dex + Firearms"]
)
def test_armour_is_taken_off_however_the_pool_is_spelled(text):
    """A vest of Dexterity penalty 1 on Dexterity 3 + Firearms 2: 5 - 1 = 4 dice, by any spelling (it gave 5
    for 'dex+firearms' when the armour looked for the word 'dexterity')."""
    s, notes = _weston(), []
    assert build_pool(s, _with_armour(s, text, notes)).dice == 4
    assert notes == ["Weston's armour: -1 Dexterity dice"]


def test_no_armour_penalty_without_dexterity():
    s, notes = _weston(), []
    assert build_pool(s, _with_armour(s, "Wits + Firearms", notes)).dice == 4
    assert notes == []


@pytest.mark.parametrize("text", ["Wits + Primal-Urge", "wits+primal-urge", "Wits + Primal Urge", "wits + pu"])
def test_hyphenated_names_are_one_trait(text):
    """Wits 2 + Primal-Urge 2 = 4 dice; 'Primal-Urge' was read as Primal minus Urge and refused."""
    assert build_pool(_weston(), text).dice == 4
    assert pool_trait_names(_weston(), text) == ["Wits", "Primal-Urge"]


def test_a_sign_between_names_still_subtracts():
    assert pool_trait_names(_weston(), "Dexterity + Firearms - 1") == ["Dexterity", "Firearms"]
    assert build_pool(_weston(), "Dexterity + Firearms - 1").dice == 4
