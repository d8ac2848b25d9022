"""Extended actions, contests and scenes by id or by (short) name, wherever an id is accepted."""

import json

from tests.clirun import ok, run


def test_extended_actions_by_id_name_and_prefix(store_url: str) -> None:
    ok("scene", "start", "Night at the Caern")
    ok("extended", "start", "Stay hidden", "--pool", "5", "-d", "7", "--target", "16")
    ok("extended", "start", "Stalk the prey", "--pool", "4", "--target", "3")
    # 5 dice at 7: 8 9 2 3 4 -> 2 successes
    roll = json.loads(ok("extended", "roll", "stay", "--dice", "8,9,2,3,4", "--json"))
    assert (roll["id"], roll["tally"]) == (1, 2)
    assert json.loads(ok("extended", "status", "STALK THE", "--json"))["id"] == 2
    assert json.loads(ok("extended", "status", "1", "--json"))["tally"] == 2  # ids keep working
    ambiguous = run("extended", "roll", "st", "--dice", "1,1,1,1,1")
    assert ambiguous.exit_code == 1
    assert "extended action 'st' could be Stalk the prey or Stay hidden; type more of the name" in ambiguous.output
    missing = run("extended", "status", "climb")
    assert missing.exit_code == 1
    assert "no extended action named 'climb'; see: stkit extended list" in missing.output
    assert json.loads(ok("extended", "abandon", "stalk", "--json"))["status"] == "abandoned"


def test_an_open_action_wins_over_a_finished_one_of_the_same_name(store_url: str) -> None:
    ok("scene", "start", "Night")
    ok("extended", "start", "Climb", "--pool", "3", "--target", "2")
    ok("extended", "abandon", "1")
    ok("extended", "start", "Climb", "--pool", "3", "--target", "2")
    assert json.loads(ok("extended", "status", "climb", "--json"))["id"] == 2


def test_contests_and_scenes_by_name(store_url: str) -> None:
    ok("scene", "start", "The moot")
    ok("contest", "start", "Moot debate", "--a", "6", "--b", "7", "--target", "5")
    assert json.loads(ok("contest", "status", "moot", "--json"))["id"] == 1
    assert json.loads(ok("scene", "show", "the m", "--json"))["name"] == "The moot"
    result = run("contest", "abandon", "debate")
    assert result.exit_code == 1
    assert "no contest named 'debate'" in result.output
