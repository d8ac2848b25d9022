"""A plugin list shaped like the community's real one: continuation rows (only the first field filled, with a
sentence of the card above), one longer than a name may be, a row split inside its keyword list, names with
a comma inside requirement and keyword lists, characters that are and are not shapeshifters, and Combat
Actions whose kind only their keywords, text or numbers give.

``fixtures/plugin_real_shape.txt`` is made-up cards written in the LackeyCCG plugin's columns (the same
header as ``plugin_sample.txt``), each row shaped like a kind of row of the real file."""

import json
import pathlib

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.cardfiles import parse_card_file
from stkit.tcg.cards import is_alternate_shapeshifter
from stkit.tcg.db import CardDB, CardFilter
from stkit.tcg.deck import check_deck, parse_deck_text
from stkit.tcg.resolvers.battlefield import resolve_battlefield

FIX = pathlib.Path(__file__).parent / "fixtures"
SHAPE = FIX / "plugin_real_shape.txt"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(_cards_db_in_tmp):
    with CardDB(_cards_db_in_tmp) as d:
        d.import_file(SHAPE)
        yield d


def test_continuation_rows_are_never_cards_and_lose_no_text():
    parsed = parse_card_file(SHAPE)
    names = [c.name for c in parsed.cards]
    assert not [n for n in names if n.endswith(".") or len(n) > 60]
    assert parsed.errors == []  # the 230-character sentence is no refused "name"
    assert [(e.line, e.message) for e in parsed.merged] == [
        (3, "a continuation of line 2's text, appended to it (no card of its own)"),
        (5, "a continuation of line 4's text, appended to it (no card of its own)"),
        (7, "a continuation of line 6's text, appended to it (no card of its own)"),
        (9, "the rest of line 8 (its row was split over two lines)"),
    ]
    lines = SHAPE.read_text(encoding="utf-8").splitlines()
    assert len(parsed.cards) + len(parsed.merged) == len(lines) - 1
    by = {c.name: c for c in parsed.cards}
    assert by["Salamander Spirit"].text == ("A fire spirit of the desert roads. The Salamander does Aggravated damage.")
    # the card has errata, so the row running on from its last field belongs to the errata
    bouncer = by["Ragnarok Bouncer"]
    assert (bouncer.text, bouncer.errata) == (
        "Guards the casino door.",
        ["Errata: Renown should be 3. Its Rage should be 2."],
    )
    oracle = by["Wyrmling Oracle"].text
    assert oracle.startswith("Look at the top three cards of any deck. The player who controls the Oracle")
    assert oracle.endswith("whatever the other cards in play say.") and len(oracle) > 250


def test_continuation_rows_rank_nowhere_in_text_search(db):
    hits = db.search("aggravated damage")
    assert [h.card.name for h in hits][:1] == ["Salamander Spirit"]
    assert all(h.card.type for h in hits)


def test_a_row_split_inside_its_keyword_list_is_one_card():
    ingrid = {c.name: c for c in parse_card_file(SHAPE).cards}["Ingrid Frost-Howl"]
    assert ingrid.keywords == ["Garou", "Get of Fenris", "Ahroun", "Homid", "Gaia", "Female"]
    assert (ingrid.type, ingrid.tribe, ingrid.auspice, ingrid.breed) == ("Garou", "Get of Fenris", "Ahroun", "Homid")
    assert (ingrid.renown, ingrid.rage, ingrid.gnosis, ingrid.health) == (4, 3, 2, 4)
    assert ingrid.crinos_side == {"rage": 5, "gnosis": 2, "health": 6}
    assert ingrid.text == "She howls at the frost."


def test_lists_keep_names_that_hold_a_comma():
    vision = {c.name: c for c in parse_card_file(SHAPE).cards}["Larissa's Vision"]
    assert vision.requirements == ["Mother Larissa, the Seer", "Theurge"]  # a card of the same file
    assert vision.keywords == ["Den of Rorth, Son of Bast", "Umbra"]  # a built-in card


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Pentex Cultist", False),  # a human with Crinos columns of 0
        ("Bane of Rust", False),  # a spirit with numbers in the Crinos columns
        ("Night Caller", False),  # a vampire
        ("Chulorviah Spawn", False),  # a monster
        ("Placeholder Garou", False),  # a playtest placeholder
        ("Corax Lookout", True),  # a wereraven, one-sided
        ("Ingrid Frost-Howl", False),  # a Garou is never an alternate shapeshifter
    ],
)
def test_shapeshifter_flags_come_from_what_the_card_is(name, expected):
    card = {c.name: c for c in parse_card_file(SHAPE).cards}[name]
    assert card.alternate_shapeshifter is expected


def test_is_alternate_shapeshifter():
    assert is_alternate_shapeshifter("Character", ["Rogue"], ["Bastet", "Wyrm"])
    assert not is_alternate_shapeshifter("Character", [], ["Human", "Kinfolk"])
    assert not is_alternate_shapeshifter("Garou", [], ["Garou", "Bastet"])
    assert not is_alternate_shapeshifter("Ally", [], ["Bastet"])  # not a character card


def test_a_pack_with_a_cultist_and_a_bane_is_not_legal(db):
    deck = parse_deck_text("Tribe: Get of Fenris\n\nPack:\nIngrid Frost-Howl\nPentex Cultist\nBane of Rust\n")
    report = check_deck(deck, db)
    assert not report.legal
    pack = [v.message for v in report.violations if v.rule == "deck.starting-pack"]
    assert "Pentex Cultist is a Character card; the starting pack holds shapeshifters" in pack
    assert "Bane of Rust is a Character card; the starting pack holds shapeshifters" in pack
    deck = parse_deck_text("Tribe: Get of Fenris\n\nPack:\nIngrid Frost-Howl\nCorax Lookout\n")
    assert not [v for v in check_deck(deck, db).violations if v.rule == "deck.starting-pack"]


@pytest.mark.parametrize(
    "name, kind",
    [
        ("Dismember", "attack"),  # Damage only (its block is conditional)
        ("Raking Strike", "attack"),  # keyword Strike
        ("Duck and Weave", "defense"),  # "reduces the damage ... by up to 3": a block
        ("Turnabout", "counterattack"),  # the text says so
        ("Switch Stance", "flex"),  # "Play as an attack or a defense"
        ("Sure Strike", "attack"),
        ("Low Feint", "attack"),
        ("Howl of Doubt", None),  # nothing says: named in the import report
    ],
)
def test_combat_actions_are_typed_from_keywords_text_and_numbers(name, kind):
    card = {c.name: c for c in parse_card_file(SHAPE).cards}[name]
    assert (card.type, card.kind) == ("Combat Action", kind)


def test_every_combat_action_has_a_kind_or_is_in_the_import_report(db):
    report = db.import_file(SHAPE)
    untyped = {e.name for e in report.untyped}
    cards = [h.card for h in db.search("", filters=CardFilter(type="Combat Action"), limit=500)]
    assert {c.name for c in cards if not c.kind} == untyped == {"Howl of Doubt"}
    result = runner.invoke(app, ["tcg", "cards", "import", str(SHAPE)], env=ENV)
    assert "Combat Actions with no kind (1): nothing on them says which\n  line 23: Howl of Doubt\n" in result.stdout
    result = runner.invoke(app, ["tcg", "cards", "import", str(SHAPE), "--json"], env=ENV)
    assert json.loads(result.stdout)["untyped"] == [
        {
            "line": 23,
            "card": "Howl of Doubt",
            "message": "Combat Action with no kind: no keyword, text or number says which",
        }
    ]


def test_a_conditional_block_stays_conditional_and_show_says_so(db):
    dismember = db.find("Dismember")
    assert (dismember.block, dismember.damage, dismember.rage_cost) == (None, 5, 3)
    assert dismember.conditional == {
        "block": {
            "value": 1,
            "when": "If your opponent plays a Slow Striking attack, this card also blocks 1 damage.",
        }
    }
    assert dismember.text_only == []
    result = runner.invoke(app, ["tcg", "cards", "show", "dismember"], env=ENV)
    assert "block 1 only: If your opponent plays a Slow Striking attack, this card also blocks 1 damage." in (
        " ".join(result.stdout.split())
    )


def test_text_only_hints_are_about_this_card(db):
    assert db.find("Sure Strike").text_only == []  # "cannot be blocked" gives no Block of its own
    assert db.find("Low Feint").text_only == []  # another card's speed, an extra damage
    assert db.find("Turnabout").text_only == []  # "instead of blocking"
    assert db.find("Duck and Weave").block == 3


def test_a_marked_number_column_is_conditional(tmp_path):
    path = tmp_path / "marked.txt"
    path.write_text("Name\tType\tKeywords\tDamage\tText\nOdd Blow\tCombat\tAttack\t2*\tMore against Spirits.\n")
    (card,) = parse_card_file(path).cards
    assert (card.damage, card.conditional) == (None, {"damage": {"value": 2, "when": "see text"}})


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--breed", "feline"], "Error: --breed 'feline': no card has that breed; the breeds on cards are Homid\n"),
        (["--auspice", "moon"], "Error: --auspice 'moon': no card has that auspice; the auspices on cards are "),
        (["--tribe", "Fera"], "Error: --tribe 'Fera': no card has that tribe; the tribes on cards are "),
        (["--set", "Promo"], "Error: --set 'Promo': no card has that set; the sets on cards are "),
        (["--keyword", "Strik"], "Error: --keyword 'Strik': no card has that keyword (a whole list item); close ones:"),
    ],
)
def test_filters_no_card_can_match_answer_in_one_line(db, argv, message):
    result = runner.invoke(app, ["tcg", "cards", "search", *argv], env=ENV)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(message.rstrip("\n")) or result.stderr == message


def test_a_filter_value_some_card_has_still_filters(db):
    flt = CardFilter(breed="Homid", tribe="Stargazers")
    assert [h.card.name for h in db.search("", filters=flt)] == ["Mother Larissa, the Seer"]
    assert db.search("zzzz", filters=CardFilter(breed="Homid")) == []  # a real value with no hit: empty


@pytest.mark.parametrize("word, hint", [("Kailindoo", "did you mean Kailindo?"), ("Spirt", "did you mean Spirit?")])
def test_battlefield_buys_only_keywords(word, hint):
    with pytest.raises(InvalidValue, match=rf"'{word}' is not a Keyword of the card game; {hint}"):
        resolve_battlefield(renown=10, buy=[word])
    result = runner.invoke(app, ["tcg", "battlefield", "--renown", "10", "--buy", word], env=ENV)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and hint in result.stderr
    assert resolve_battlefield(renown=10, buy=["Kailindo", "Spirit"])["rage"] == 8


def test_battlefield_refuses_text_that_is_no_keyword_at_all():
    with pytest.raises(InvalidValue, match=r"^'Banana Split' is not a Keyword of the card game$"):
        resolve_battlefield(renown=10, buy=["banana split"])
    with pytest.raises(RuleRefusal, match="not a Keyword, so it cannot be bought"):
        resolve_battlefield(renown=10, buy=["Umbral"])
