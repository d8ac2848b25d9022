"""Battlefield Defence: Battlefields supplement, "Keywords", Examples 1 and 2, and the FAQ."""

import pytest

from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.resolvers.battlefield import resolve_battlefield


def test_example_1_screaming_mud():
    r = resolve_battlefield(renown=10, defender_keywords=["Wyrm", "Black Spiral Dancer"], buy=["Kailindo", "Spirit"])
    assert (r["rage"], r["gnosis"], r["health"]) == (8, 8, 8)
    assert set(r["keywords"]) == {"Wyrm", "Black Spiral Dancer", "Spirit", "Kailindo"}
    assert "battlefield.buy-keywords" in r.rules


def test_example_1_with_wyrm_as_the_free_pick():
    r = resolve_battlefield(renown=10, defender_keywords=["Black Spiral Dancer"], buy=["Wyrm", "Kailindo", "Spirit"])
    assert (r["rage"], r["gnosis"], r["health"]) == (8, 8, 8)
    assert r["free"] == ["Wyrm"] and r["bought"] == ["Kailindo", "Spirit"]
    assert "battlefield.free-alignment" in r.rules


def test_example_2_den_of_rorth():
    r = resolve_battlefield(renown=5, defender_keywords=["Bastet"], buy=["Kailindo", "Firearm"])
    assert (r["rage"], r["gnosis"], r["health"]) == (3, 3, 3)
    assert r["keywords"] == ["Bastet", "Kailindo", "Firearm"]


def test_only_one_alignment_is_free():
    r = resolve_battlefield(renown=6, buy=["Gaia", "Wyrm"])
    assert r["free"] == ["Gaia"] and r["bought"] == ["Wyrm"] and r["rage"] == 5


def test_no_free_pick_when_alignment_is_automatic():
    r = resolve_battlefield(renown=6, defender_keywords=["Gaia"], buy=["Wyrm"])
    assert r["free"] == [] and r["rage"] == 5


def test_faq_vampire_can_be_bought():
    r = resolve_battlefield(renown=4, buy=["Vampire"])
    assert r["rage"] == 3 and "battlefield-faq.vampire-keyword" in r.rules


def test_faq_conflicting_keywords_allowed():
    r = resolve_battlefield(renown=10, buy=["Animal", "Human", "Garou", "Fomori", "Wyrm", "Gaia"])
    assert r["rage"] == 5  # Wyrm free, five bought
    assert len(r["keywords"]) == 6
    assert "battlefield-faq.conflicting-keywords" in r.rules


def test_faq_many_keywords_one_creature():
    r = resolve_battlefield(renown=10, defender_keywords=["Wyrm", "Black Spiral Dancer"], buy=["Kailindo", "Spirit"])
    assert "battlefield-faq.one-creature" in r.rules
    assert "battlefield-faq.one-creature" not in resolve_battlefield(renown=3).rules


@pytest.mark.parametrize("word", ["Fast Striking", "unique", "Restricted", "CONSTRAINED", "fast-striking"])
def test_forbidden_keywords(word):
    with pytest.raises(RuleRefusal, match=r"battlefield.forbidden-keywords"):
        resolve_battlefield(renown=10, buy=[word])


@pytest.mark.parametrize(
    "word,rule",
    [
        ("Umbral", "umbral-not-keyword"),
        ("Undodgeable", "undodgeable-unblockable"),
        ("Unblockable", "undodgeable-unblockable"),
    ],
)
def test_faq_not_keywords(word, rule):
    with pytest.raises(RuleRefusal, match=rule):
        resolve_battlefield(renown=10, buy=[word])


def test_already_automatic_keyword_is_not_charged():
    r = resolve_battlefield(renown=10, defender_keywords=["Bastet"], buy=["bastet", "Klaive"])
    assert r["rage"] == 9 and r["keywords"] == ["Bastet", "Klaive"]


def test_cannot_buy_down_to_zero_health():
    with pytest.raises(RuleRefusal, match="at most 1"):
        resolve_battlefield(renown=2, buy=["Klaive", "Firearm"])


@pytest.mark.parametrize("renown", [0, -3, 101])
def test_bad_renown(renown):
    with pytest.raises(InvalidValue):
        resolve_battlefield(renown=renown)
