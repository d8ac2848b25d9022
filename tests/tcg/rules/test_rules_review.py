"""Rules review of the card adjudicator: the numbers the documents give, checked at their boundaries, and the
judgment calls recorded as conflict entries (each test names the section it rests on)."""

import pytest

from stkit.errors import RuleRefusal
from stkit.tcg.deck import COMBAT_MAX_COPIES, COMBAT_MIN, RENOWN_LEVELS, SEPT_MAX_COPIES, SEPT_MIN
from stkit.tcg.resolvers.battlefield import resolve_battlefield
from stkit.tcg.resolvers.frenzy import resolve_frenzy
from stkit.tcg.resolvers.regen import resolve_regen
from stkit.tcg.resolvers.umbra import resolve_umbra_cost
from stkit.tcg.rules import get_rule


def test_deck_numbers():
    # Equinox "Setting Up: Building a deck" (and the earlier "Setting Up"): Sept deck 30+, 3 of a card; Combat
    # deck 20+, 2 of a card; Renown level 15, 20 (the usual game) or 25.
    assert (SEPT_MIN, SEPT_MAX_COPIES, COMBAT_MIN, COMBAT_MAX_COPIES) == (30, 3, 20, 2)
    assert RENOWN_LEVELS == (15, 20, 25)


@pytest.mark.parametrize(
    "level,gnosis,cards",
    [
        (1, 0, 0),
        (2, 3, 1),
        (3, 3, 2),
        (4, 3, 3),
        (5, 3, 3),  # "Umbra Level Discard"
        (4, 4, 2),
        (4, 6, 2),
        (4, 7, 1),
        (5, 10, 1),  # "Gnosis Modifier": 4-6 one less, 7+ two less
        (4, 5, 2),  # the worked example: level 4, Gnosis 5 -> 2
        (2, 7, 0),
        (1, 9, 0),  # never below zero
    ],
)
def test_umbra_discard_table(level, gnosis, cards):
    assert resolve_umbra_cost(level=level, gnosis=gnosis)["cards"] == cards


@pytest.mark.parametrize("health,threshold", [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (12, 3)])
def test_frenzy_trigger_bands_at_their_edges(health, threshold):
    # Equinox "Special Abilities: Frenzy": Health 7+ -> 3, 4-6 -> 2, 1-3 -> 1; reaching it is enough.
    below = resolve_frenzy(health=health, wounds=threshold - 1, frenzy=2)
    at = resolve_frenzy(health=health, wounds=threshold, frenzy=2)
    assert below["threshold"] == at["threshold"] == threshold
    assert (below["frenzies"], at["frenzies"], at["cards_drawn"]) == (False, True, 2)


def test_battlefield_stat_floor_is_a_recorded_judgment_call():
    # Battlefields supplement, "Keywords": no limit on purchases is given; stkit's floor is a conflict entry.
    entry = get_rule("battlefield.stat-floor")
    assert entry.kind == "conflict" and "R - 1" in entry.conflict["ruling"]
    assert resolve_battlefield(renown=3, buy=["Klaive", "Firearm"])["health"] == 1
    with pytest.raises(RuleRefusal, match=r"battlefield.stat-floor"):
        resolve_battlefield(renown=3, buy=["Klaive", "Firearm", "Kailindo"])


def test_paw_print_on_top_is_a_recorded_judgment_call():
    # Equinox "Regeneration": quarter-turns clockwise until upright; the top edge is not covered.
    entry = get_rule("conflicts.regen-paw-top-edge")
    assert entry.kind == "conflict" and "four quarter-turns" in entry.conflict["ruling"]
    assert resolve_regen(paw="top")["quarter_turns"] == 4
