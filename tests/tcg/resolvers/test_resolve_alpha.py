"""Alpha order: Equinox Update, "Alpha Phase" and "Ground Rules: Basics" (the Dave and Sarah example)."""

from pathlib import Path

import pytest

from stkit.errors import DataFileError
from stkit.tcg.resolvers.alpha import load_alphas, parse_alphas, resolve_alpha_order

FIXTURES = Path(__file__).parent / "resolver_fixtures"
ALPHAS = [
    {"name": "Dave's alpha", "player": "Dave", "renown": 2, "tribe_fury": 1},
    {"name": "Sarah's alpha", "player": "Sarah", "renown": 3, "tribe_fury": 2},
    {"name": "Ed's alpha", "player": "Ed", "renown": 5, "tribe_fury": 1},
    {"name": "Flo's alpha", "player": "Flo", "renown": 5, "tribe_fury": 4},
]


def order(effects=()):
    alphas, eff = parse_alphas({"alphas": ALPHAS, "effects": list(effects)})
    return resolve_alpha_order(alphas, eff)


def names(r):
    return [a["player"] for a in r["order"]]


def test_renown_then_tribe_fury():
    assert names(order()) == ["Flo", "Ed", "Sarah", "Dave"]


def test_dave_then_sarah_first_cards_both_apply():
    r = order([{"player": "Dave", "effect": "first"}, {"player": "Sarah", "effect": "first"}])
    assert names(r) == ["Sarah", "Dave", "Flo", "Ed"]
    assert r["cancelled"] == []


def test_before_anybody_else_cancels_the_earlier_card():
    r = order([{"player": "Dave", "effect": "before-anybody"}, {"player": "Sarah", "effect": "before-anybody"}])
    assert names(r) == ["Sarah", "Flo", "Ed", "Dave"]
    assert [c["player"] for c in r["cancelled"]] == ["Dave"]
    assert "alpha.first-action-cards" in r.rules


def test_tie_on_renown_and_fury_is_an_error():
    alphas, _ = parse_alphas(
        {"alphas": [{"name": "A", "renown": 3, "tribe_fury": 2}, {"name": "B", "renown": 3, "tribe_fury": 2}]}
    )
    with pytest.raises(DataFileError, match="tie on Renown 3 and Tribe Fury 2"):
        resolve_alpha_order(alphas)


def test_regenerating_alpha_is_flagged():
    alphas, _ = parse_alphas({"alphas": [{"name": "A", "renown": 3, "tribe_fury": 2, "regenerating": True}]})
    r = resolve_alpha_order(alphas)
    assert "alpha.regenerating" in r.rules


def test_fixture_file():
    alphas, effects = load_alphas(FIXTURES / "alphas.yaml")
    assert names(resolve_alpha_order(alphas, effects)) == ["Cy", "Ann", "Bob"]


@pytest.mark.parametrize(
    "data,message",
    [
        ({"alphas": [{"name": "A", "renown": 3}]}, "missing required field 'tribe_fury'"),
        (
            {
                "alphas": [{"name": "A", "renown": 3, "tribe_fury": 1}],
                "effects": [{"player": "Zed", "effect": "first"}],
            },
            "'Zed' has no alpha",
        ),
        (
            {"alphas": [{"name": "A", "renown": 3, "tribe_fury": 1}], "effects": [{"player": "A", "effect": "last"}]},
            "effect: 'last'",
        ),
        (
            {
                "alphas": [
                    {"name": "A", "player": "P", "renown": 3, "tribe_fury": 1},
                    {"name": "B", "player": "P", "renown": 2, "tribe_fury": 1},
                ]
            },
            "one alpha per pack",
        ),
    ],
)
def test_bad_files(data, message):
    with pytest.raises(DataFileError, match=message):
        parse_alphas(data)
