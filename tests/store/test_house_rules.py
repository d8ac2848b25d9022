"""House rules per chronicle: stored, shown, reset, applied by every rolling command; the free botch."""

import json

import pytest

from stkit.dice.house import ChronicleRules
from stkit.dice.model import Specialty
from stkit.errors import InvalidValue
from stkit.store import house as H
from stkit.store.db.gateway import run_unit
from tests.clirun import ok, run


def test_set_show_reset_per_chronicle(db_url: str) -> None:
    run_unit(db_url, lambda gw: H.set_house_rule(gw, "one", "specialty", "Double"))
    run_unit(db_url, lambda gw: H.set_house_rule(gw, "one", "difficulty", "7"))
    one = run_unit(db_url, lambda gw: H.rules_in_force(gw, "one"), readonly=True)
    assert one == ChronicleRules(specialty=Specialty.DOUBLE, difficulty=7)
    assert run_unit(db_url, lambda gw: H.rules_in_force(gw, "two"), readonly=True) == ChronicleRules()
    assert one.set_keys == {"difficulty", "specialty"}
    run_unit(db_url, lambda gw: H.set_house_rule(gw, "one", "difficulty", "8"))  # set again: replaced
    assert run_unit(db_url, lambda gw: H.rules_in_force(gw, "one").difficulty, readonly=True) == 8
    run_unit(db_url, lambda gw: H.reset_house_rule(gw, "one", "specialty"))
    assert run_unit(db_url, lambda gw: H.rules_in_force(gw, "one").set_keys, readonly=True) == {"difficulty"}
    run_unit(db_url, lambda gw: H.reset_house_rule(gw, "one", None))
    assert run_unit(db_url, lambda gw: H.rules_in_force(gw, "one").set_keys, readonly=True) == frozenset()


def test_bad_key_or_value_stores_nothing(db_url: str) -> None:
    bad = run("house", "set", "colour", "red")
    assert bad.exit_code == 1
    assert bad.output.strip().splitlines() == [
        "Error: unknown house rule 'colour'; allowed: specialty, extra-ones-cancel, ones-cancel, tens, "
        "tens-cancel-ones, specialty-botch, willpower, difficulty, extended-botch, free-botch, unskilled-skill, "
        "homid-aggravated-soak, rage-cap, table-extra-dice, rite-cost, player-difficulty, mortal-overflow, "
        "frenzy-crinos, frenzy-auspice-moon, frenzy-rank"
    ]
    bad = run("house", "set", "specialty", "triple")
    assert bad.exit_code == 1
    assert "allowed: none, double or reroll" in bad.output
    with pytest.raises(InvalidValue):
        run_unit(db_url, lambda gw: H.set_house_rule(gw, "default", "free-botch", "maybe"))
    data = json.loads(ok("house", "show", "--json"))
    assert all(not r["set"] for r in data["rules"])
    assert data["in_force"] == []


def test_every_rolling_command_applies_the_chronicles_rules(db_url: str) -> None:
    # a scoring house rule that reaches every roll (the specialty rule reaches only a roll naming one)
    ok("house", "set", "tens-cancel-ones", "on")
    ok("house", "set", "difficulty", "7")
    # 10, 10, 1 at the house difficulty 7, a 10 taking the 1 away: 2 successes (as written: 2 - 1 = 1)
    roll = json.loads(ok("roll", "3", "--dice", "10,10,1", "--json"))
    assert (roll["difficulty"], roll["result"]) == (7, 2)
    assert roll["house_rules_in_force"] == ["10s cancel 1s", "default difficulty 7"]
    human = ok("roll", "3", "--dice", "10,10,1")
    assert human.splitlines()[0] == "House rules: 10s cancel 1s, default difficulty 7"
    # per-roll override: the rules as written for this roll only
    plain = json.loads(ok("roll", "3", "--dice", "10,10,1", "--no-tens-cancel-ones", "-d", "6", "--json"))
    assert (plain["difficulty"], plain["result"], plain["house_rules_in_force"]) == (6, 1, [])
    multi = json.loads(ok("multi", "5", "5", "--dice", "10,10,1", "--dice", "10,2", "--json"))
    assert [a["roll"]["result"] for a in multi["actions"]] == [2, 1]
    assert multi["actions"][0]["roll"]["difficulty"] == 7
    resisted = json.loads(ok("resisted", "3", "2", "--dice-a", "10,10,1", "--dice-b", "10,2", "--json"))
    assert (resisted["a"]["result"], resisted["b"]["result"], resisted["margin"]) == (2, 1, 1)
    team = json.loads(ok("teamwork", "3", "2", "--dice", "10,10,1", "--dice", "10,2", "--json"))
    assert team["total"] == 3
    ok("char", "new", "Ana", "--set", "Dexterity=3")
    sheet = json.loads(ok("roll", "dex", "-c", "ana", "--dice", "10,10,1", "--json"))
    assert (sheet["difficulty"], sheet["result"]) == (7, 2)
    assert sheet["house_rules_in_force"] == ["10s cancel 1s", "default difficulty 7"]
    # another chronicle keeps the rules as written
    other = json.loads(ok("roll", "3", "--dice", "10,10,1", "--chronicle", "other", "--json"))
    assert (other["difficulty"], other["result"]) == (6, 1)
    # the chronicle's specialty rule reaches a roll naming a specialty only
    ok("house", "set", "specialty", "double")
    assert json.loads(ok("roll", "3", "--dice", "10,10,3", "--json"))["result"] == 2


def test_free_botch_once_a_night(db_url: str) -> None:
    ok("house", "set", "free-botch", "on")
    first = json.loads(ok("roll", "5", "--dice", "4,2,5,3,1", "--json"))  # the botch example of Chapter Five
    assert (first["outcome"], first["forgiven_botch"]) == ("failure", True)
    second = json.loads(ok("roll", "5", "--dice", "4,2,5,3,1", "--json"))
    assert second["outcome"] == "botch"
    assert "forgiven_botch" not in second  # nothing to record: not logged
    ok("scene", "start", "The night at the caern")  # a new scene is a new night
    ok("char", "new", "Ana", "--set", "Dexterity=3")
    sheet = json.loads(ok("roll", "dex", "-c", "ana", "--dice", "1,2,3", "--json"))
    assert (sheet["outcome"], sheet["forgiven_botch"]) == ("failure", True)
    again = json.loads(ok("roll", "dex", "-c", "ana", "--dice", "1,2,3", "--json"))
    assert (again["outcome"], again["forgiven_botch"]) == ("botch", False)
    log = json.loads(ok("log", "--json"))["rolls"]
    forgiven = [e["detail"].get("forgiven_botch") for e in log if e["detail"].get("forgiven_botch")]
    assert len(forgiven) == 2 and "scene 1" in forgiven
    off = json.loads(ok("roll", "dex", "-c", "ana", "--dice", "1,2,3", "--no-free-botch", "--json"))
    assert off["outcome"] == "botch"


def test_plain_roll_without_a_store_creates_none(tmp_path, monkeypatch) -> None:
    path = tmp_path / "none.sqlite"
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(path))
    assert json.loads(ok("roll", "3", "--dice", "10,10,3", "--json"))["result"] == 2
    assert not path.exists()


def test_extended_and_contest_rolls_score_like_roll(db_url: str) -> None:
    ok("house", "set", "tens-cancel-ones", "on")
    ok("scene", "start", "Night")
    ok("extended", "start", "Climb", "--pool", "3", "--target", "20")
    first = json.loads(ok("extended", "roll", "climb", "--dice", "10,10,1", "--json"))
    assert (first["roll"]["result"], first["tally"]) == (2, 2)  # the same dice as `roll` above: 2
    # per roll: the rule as written and a new difficulty, as the situation changes
    second = json.loads(ok("extended", "roll", "climb", "--dice", "10,10,1", "-d", "4", "--json"))
    assert (second["roll"]["difficulty"], second["roll"]["result"], second["tally"]) == (4, 2, 4)
    ok("contest", "start", "Debate", "--a", "3", "--b", "3", "--target", "9")
    exchange = json.loads(ok("contest", "roll", "deb", "--dice-a", "10,10,1", "--dice-b", "7,2,2", "--json"))
    assert (exchange["exchange"]["result_a"], exchange["exchange"]["result_b"]) == (2, 1)
    bad = run("extended", "roll", "climb", "-d", "11")
    assert bad.exit_code == 1
    assert "difficulty 11 is outside the allowed range 2 to 10" in bad.output


def test_free_botch_spares_an_extended_tally(db_url: str) -> None:
    ok("house", "set", "free-botch", "on")
    ok("scene", "start", "Night")
    ok("extended", "start", "Climb", "--pool", "3", "--target", "10")
    ok("extended", "roll", "climb", "--dice", "7,8,2")
    first = json.loads(ok("extended", "roll", "climb", "--dice", "1,2,3", "--json"))
    assert (first["roll"]["outcome"], first["forgiven_botch"], first["tally"]) == ("failure", True, 2)
    assert first["house_rules_in_force"] == ["free botch"]
    human = ok("extended", "roll", "climb", "--dice", "1,2,3")  # the night's free botch is used up
    assert "The botch wipes the 2 successes gathered: back to zero." in human
