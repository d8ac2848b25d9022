"""Victory: earlier rulebook "Victory"; Equinox Update "Winning the Game", "Sept Draw Phase"."""

from pathlib import Path

import pytest

from stkit.errors import DataFileError
from stkit.tcg.resolvers.victory import load_victory, parse_victory, resolve_victory

FIXTURES = Path(__file__).parent / "resolver_fixtures"


def pile(*renowns, type="Garou"):
    return [{"name": f"Card {i}", "renown": r, "type": type} for i, r in enumerate(renowns)]


def judge(players, **top):
    return resolve_victory(parse_victory({"players": players, **top}))


def test_reaching_the_level_exactly_wins():
    r = judge([{"name": "Ann", "victory_pile": pile(10, 10)}, {"name": "Bob", "victory_pile": pile(5)}])
    assert r["winner"] == "Ann" and r["game_over"] and r["scores"] == {"Ann": 20, "Bob": 5}
    assert "conflicts.victory-reach-or-exceed" in r.rules


def test_below_the_level_nobody_wins():
    r = judge([{"name": "Ann", "victory_pile": pile(19)}])
    assert r["winner"] is None and not r["game_over"]


def test_victims_are_worth_nothing():
    r = judge([{"name": "Ann", "victory_pile": pile(15) + pile(6, type="Victim")}])
    assert r["scores"]["Ann"] == 15 and r["winner"] is None
    assert "victory.victims-worthless" in r.rules


def test_simultaneous_highest_total_wins():
    r = judge([{"name": "Ann", "victory_pile": pile(21)}, {"name": "Bob", "victory_pile": pile(23)}])
    assert r["winner"] == "Bob" and "victory.simultaneous" in r.rules


def test_simultaneous_tie_plays_on():
    r = judge([{"name": "Ann", "victory_pile": pile(22)}, {"name": "Bob", "victory_pile": pile(22)}])
    assert r["winner"] is None and r["tied"] == ["Ann", "Bob"] and not r["game_over"]


def test_level_drops_when_nobody_draws():
    r = judge([{"name": "Ann", "victory_pile": pile(13)}], renown_level=15, nobody_drew=2)
    assert r["renown_level"] == 13 and r["winner"] == "Ann"
    assert "victory.level-drops" in r.rules


def test_removed_player_can_still_win():
    r = judge(
        [{"name": "Ann", "removed": True, "victory_pile": pile(25)}, {"name": "Bob", "victory_pile": pile(3)}],
        renown_level=25,
    )
    assert r["winner"] == "Ann"


def test_all_removed_most_renown_wins():
    r = judge(
        [
            {"name": "Ann", "removed": True, "victory_pile": pile(4)},
            {"name": "Bob", "removed": True, "victory_pile": pile(7)},
        ]
    )
    assert r["winner"] == "Bob" and "victory.all-removed" in r.rules


def test_fixture_file():
    r = resolve_victory(load_victory(FIXTURES / "victory.yaml"))
    assert r["scores"] == {"Ann": 19, "Bob": 18} and r["renown_level"] == 19 and r["winner"] == "Ann"


@pytest.mark.parametrize(
    "data,message",
    [
        ({"renown_level": 18, "players": [{"name": "A"}]}, "18 is not a game Renown level"),
        ({"players": []}, "at least one player"),
        ({"players": [{"name": "A", "victory_pile": [{"name": "X", "renown": -2}]}]}, r"victory_pile\[1\].renown: -2"),
        ({"players": [{"name": "A"}, {"name": "a"}]}, "listed twice"),
    ],
)
def test_bad_files(data, message):
    with pytest.raises(DataFileError, match=message):
        parse_victory(data)
