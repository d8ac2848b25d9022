"""The last wrong cards of the community list, put right.

``fixtures/plugin_defects.txt`` holds made-up cards in the LackeyCCG plugin's columns, one row for each
kind of row the real list got wrong: an Ajaba, a Bane that counts as a Rokea only for its Combat cards,
cut-off fragments on rows of their own, a row holding the rest of a card's text and errata, a text that ran
on past a line break into a new sentence, lists holding a comma inside one item, a dodge named only in the
text, defence keywords on cards that deal damage, and a werecat whose animal kind is a keyword.
"""

import pathlib

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.tcg.cardfiles import parse_card_file
from stkit.tcg.db import CardDB, CardFilter
from stkit.tcg.deck import check_deck, parse_deck_text

FIX = pathlib.Path(__file__).parent / "fixtures"
DEFECTS = FIX / "plugin_defects.txt"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(_cards_db_in_tmp):
    with CardDB(_cards_db_in_tmp) as d:
        d.import_file(DEFECTS)
        yield d


@pytest.fixture(scope="module")
def cards():
    return {c.name: c for c in parse_card_file(DEFECTS).cards}


def test_an_ajaba_is_an_alternate_shapeshifter_and_may_join_the_pack(cards, db):
    assert cards["Kito Laughs-Last"].alternate_shapeshifter is True
    deck = parse_deck_text("Tribe: Get of Fenris\n\nPack:\nIngrid Frost-Howl\nKito Laughs-Last\n")
    pack = [v.message for v in check_deck(deck, db).violations if v.rule == "deck.starting-pack"]
    assert pack == []  # before: "Kito Laughs-Last is a Character card; the starting pack holds shapeshifters"


def test_a_bane_that_counts_as_a_rokea_for_combat_is_no_shapeshifter(cards):
    bane = cards["Reef Bane"]
    assert bane.keywords[-1] == "(Rokea)" and bane.alternate_shapeshifter is False


def test_fragments_on_rows_of_their_own_are_no_cards(cards, db):
    assert {"Frenzied foes act at -", "Board of Governors characte", "Only Defiler charact"}.isdisjoint(cards)
    assert all(c.type and c.set for c in cards.values())
    assert cards["Cinder Spirit"].text.endswith("Aggravated damage. Frenzied foes act at -")
    assert cards["Shareholder Revolt"].text.endswith("every Board Meeting. Board of Governors characte")
    # a search never shows a typeless fragment first
    hits = db.search("frenzied foes")
    assert hits and all(h.card.type for h in hits)
    assert db.search("", filters=CardFilter(type="Combat Action"), limit=500)  # the list still searches


def test_a_row_holding_the_rest_of_a_text_and_its_errata_keeps_both(cards):
    card = cards["Boardroom Infiltration"]
    assert card.text.startswith("Requires: Gaia character\nAttach to the caller. Votes this character calls")
    assert card.text.endswith("Board Meetings this character calls.")
    assert card.errata == [
        "The character who played Boardroom Infiltration treats every Moot in hand as a Board Meeting, and his "
        'pack as a Wyrm pack, a"'
    ]
    report = parse_card_file(DEFECTS)
    assert report.errors == []  # before: refused as a 215-character name


def test_a_new_sentence_after_a_line_break_starts_a_new_line(cards):
    text = cards["Cinder Spirit"].text
    assert text.startswith("Requires: Beast-of-War, Glass Walkers\nSpirit. A fire elemental")
    assert "Glass Walkers Spirit." not in text
    assert "for each Cinder Spirit you control. The Cinder Spirit does Aggravated damage." in text


def test_lists_joined_with_dashes_are_never_split_at_a_comma(cards):
    assert cards["Comet Stone"].requirements == ["Any Gaia Garou in the Umbra, or one who has been in the Umbra"]
    assert cards["Sludge Hive"].requirements == ["Black Spiral Dancer, Hellcat"]
    assert cards["Dock Thug"].keywords == ["Unbound", "Fomori, Iliad", "Homid", "Aquatic", "Wyrm", "Male"]


@pytest.mark.parametrize(
    "name, kind, speed",
    [
        ("Hit the Deck", "defense", None),  # "Dodge one attack" in the text
        ("Shimmer", "flex", None),  # Dodge, and 2 Damage
        ("Pouncing Rake", "flex", None),  # Dodge, and 5 Damage
        ("'Eat Lead, Mutt'", "flex", None),  # Block, 4 Damage; "(Fast Striking)" only in some case
        ("Sever", "attack", None),  # "(Block)" only when two are played
        ("Flail", "attack", None),
    ],
)
def test_combat_actions_that_deal_damage_are_not_filed_as_defence(cards, name, kind, speed):
    card = cards[name]
    assert (card.type, card.kind, card.speed) == ("Combat Action", kind, speed)
    report = parse_card_file(DEFECTS)
    assert report.untyped == []


def test_a_breed_filter_naming_a_keyword_points_to_keyword(db):
    result = runner.invoke(app, ["tcg", "cards", "search", "--breed", "feline"], env=ENV)
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("; Feline is a keyword: use --keyword Feline")
    found = runner.invoke(app, ["tcg", "cards", "search", "--keyword", "Feline"], env=ENV)
    assert found.exit_code == 0 and "Sand Stalker" in found.stdout
