"""Who dies after initiative is rolled keeps the place rolled and is named dead on later turns (docs/combat.md:
the dead no longer act), as the table page marks them."""

from __future__ import annotations

from tests.clirun import ok, ok_json


def test_a_character_killed_after_the_roll_is_marked_dead_in_the_order(db_url):
    ok("char", "new", "Weston", "--set", "Dexterity=4", "--set", "Wits=2")
    ok("char", "new", "Guard", "--set", "Dexterity=2", "--set", "Wits=2")
    ok("scene", "start", "The alley")
    rolled = ok_json("scene", "initiative", "Weston", "Guard", "--dice", "1,10")
    # Guard 10 + 2 + 2 = 14 before Weston 1 + 4 + 2 = 7
    assert [(o["name"], o["total"]) for o in rolled["order"]] == [("Guard", 14), ("Weston", 7)]
    assert "is dead" in ok("char", "damage", "Guard", "10", "--type", "aggravated")
    later = ok_json("scene", "next")["initiative"]
    assert [o["name"] for o in later["order"]] == ["Guard", "Weston"] and later["dead"] == ["Guard"]
    assert "Initiative (rolled in turn 1): 1. Guard (14, dead), 2. Weston (7)" in ok("scene", "next")
