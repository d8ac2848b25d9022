"""Card search and show: exact normalized name > prefix > word > fuzzy > text; filters; ambiguity."""

import json
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, NotFound
from stkit.tcg.cards import AmbiguousName
from stkit.tcg.common import fold_name as normalize_name
from stkit.tcg.db import CardDB

FIX = pathlib.Path(__file__).parent / "fixtures"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(deck_cards_db):
    deck_cards_db.import_file(FIX / "lackey_quirks.txt")
    return deck_cards_db


def names(hits):
    return [(h.card.name, h.match) for h in hits]


def test_exact_beats_prefix_beats_fuzzy(db):
    hits = db.search("gaia\u2019s fury")  # curly apostrophe folded
    assert names(hits)[:2] == [("Gaia\u2019s Fury", "exact"), ("Gaias Furrow", "fuzzy")]
    hits = db.search("block")
    # both are prefix matches; the shorter name (closer to the query) first
    assert names(hits)[:2] == [("Block Low", "prefix"), ("Block High", "prefix")]


def test_word_match_inside_a_name(db):
    assert names(db.search("rorth"))[0] == ("Den of Rorth, Son of Bast", "word")


def test_text_match_comes_last(db):
    hits = db.search("frenzy")
    assert ("Janus", "text") in names(hits)


def test_type_and_keyword_filters(db):
    assert {h.card.name for h in db.search("", type_="battlefield")} == {
        "Battle of Screaming Mud",
        "Den of Rorth, Son of Bast",
    }
    # a row with an unreadable Health is kept (its Health unknown), so Broken Brute is a Wyrm card too
    assert {h.card.name for h in db.search("", keyword="wyrm")} == {
        "Battle of Screaming Mud",
        "Hellcat",
        "Enemy One",
        "Broken Brute",
    }
    assert [h.card.name for h in db.search("", type_="Combat Event")] == ["Rally"]
    with pytest.raises(InvalidValue, match=r"card type 'Wizard' is not a type of any card; known: .*Battlefield"):
        db.search("x", type_="Wizard")


def test_playtest_cards_hidden_unless_asked(db):
    assert "Test Lunge" not in [h.card.name for h in db.search("test lunge")]
    assert names(db.search("test lunge", playtest=True))[0] == ("Test Lunge", "exact")
    # show still finds a playtest card by its name
    assert db.find("Test Lunge").playtest is True


def test_find_exact_prefix_fuzzy_and_ambiguity(db):
    assert db.find("JANUS").name == "Janus"
    assert db.find("kiri").name == "Kiri Wind-Walker"  # unique prefix
    assert db.find("Hollow Reeed").name == "Hollow Reed"  # fuzzy
    with pytest.raises(AmbiguousName) as exc:
        db.find("ally")
    assert exc.value.candidates == ["Ally One", "Ally Two"]
    with pytest.raises(NotFound, match="no card named 'Zzyzx'"):
        db.find("Zzyzx")


def test_not_found_suggests(db):
    with pytest.raises(NotFound, match=r"did you mean .*Quiet Step"):
        db.find("Quite Stepp Wolf")


def test_cli_search_and_show(db):
    result = runner.invoke(app, ["tcg", "cards", "search", "block", "--json"], env=ENV)
    data = json.loads(result.stdout)
    assert [r["name"] for r in data["results"]][:2] == ["Block Low", "Block High"]
    result = runner.invoke(app, ["tcg", "cards", "search", "--type", "Battlefield"], env=ENV)
    assert "Battle of Screaming Mud" in result.stdout
    result = runner.invoke(app, ["tcg", "cards", "search", "lunge", "--playtest"], env=ENV)
    assert "Test Lunge" in result.stdout and "(playtest)" in result.stdout
    result = runner.invoke(app, ["tcg", "cards", "show", "battle", "of", "screaming", "mud", "--json"], env=ENV)
    assert json.loads(result.stdout)["renown"] == 10
    result = runner.invoke(app, ["tcg", "cards", "show", "Janus"], env=ENV)
    assert "health" in result.stdout and "frenzy" in result.stdout


def test_cli_ambiguous_lists_candidates(db):
    result = runner.invoke(app, ["tcg", "cards", "show", "ally"], env=ENV)
    assert result.exit_code == 1
    assert "Ally One" in result.stderr and "Ally Two" in result.stderr
    result = runner.invoke(app, ["tcg", "cards", "show", "ally", "--json"], env=ENV)
    assert json.loads(result.stdout)["candidates"] == ["Ally One", "Ally Two"]


def test_cli_bad_type_is_error(db):
    result = runner.invoke(app, ["tcg", "cards", "search", "x", "--type", "Wizard"], env=ENV)
    assert result.exit_code == 1 and result.stderr.startswith("Error: card type 'Wizard'")


@given(st.text(min_size=1, max_size=30))
def test_normalize_name_is_idempotent_and_case_blind(name):
    key = normalize_name(name)
    assert normalize_name(key) == key
    assert normalize_name(name.upper()) == normalize_name(name.lower()) or not name.isascii()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.from_regex(r"[A-Z][a-z]{2,8}( [A-Z][a-z]{2,8}){0,2}", fullmatch=True),
        min_size=1,
        max_size=6,
        unique_by=normalize_name,
    )
)
def test_every_imported_name_is_found_exactly(tmp_path_factory, names):
    import yaml

    folder = tmp_path_factory.mktemp("prop")
    path = folder / "c.yaml"
    path.write_text(yaml.safe_dump([{"name": n, "type": "Ally"} for n in names]), encoding="utf-8")
    with CardDB(folder / "db.sqlite") as d:
        d.import_file(path)
        for n in names:
            # accents and case are folded away: "Áaa" finds "Aaa"
            assert d.find(n.upper().replace("A", "Á")).name == n
            first = d.search(n)[0]
            assert (first.card.name, first.match) == (n, "exact")
