"""Rules search (FTS5 + bm25 + typo correction), rules show and the glossary, in-process and via the CLI."""

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, NotFound
from stkit.tcg.cards import AmbiguousName
from stkit.tcg.rules import define, get_rule, search_rules

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


def ids(result):
    return [h.entry.id for h in result.hits]


def test_deck_building_question_finds_the_combat_deck_rule_first():
    result = search_rules("combat deck new full moon copies")
    assert ids(result)[0] == "deck.combat-deck"
    assert result.mode == "all"


def test_title_weight_ranks_the_sept_deck_rule_above_passing_mentions():
    assert ids(search_rules("sept deck size"))[0] in {"deck.sept-deck", "deck.rulebook-sept-deck"}


def test_typos_are_corrected_against_the_rules_vocabulary():
    result = search_rules("kailndo rage diference")
    assert result.corrected == "kailindo rage difference"
    assert "combat.kailindo" in ids(result)[:3]


def test_word_prefix_counts_as_a_match():
    result = search_rules("derangem")
    assert "abilities.derangements" in ids(result)


def test_falls_back_to_any_word_when_all_words_do_not_meet():
    result = search_rules("insight zebra")
    assert result.mode == "any"
    assert "combat.insight" in ids(result)


def test_kind_filter_and_limit():
    result = search_rules("battlefield keyword", kind="ruling", limit=3)
    assert len(result.hits) == 3
    assert all(h.entry.kind == "ruling" for h in result.hits)


def test_exact_id_query_comes_first():
    assert ids(search_rules("turn.pick-alphas"))[0] == "turn.pick-alphas"
    data = search_rules("turn.pick-alphas").to_dict()
    assert data["results"][0]["score"] is None  # valid JSON, no -Infinity
    assert all(isinstance(r["score"], float) for r in data["results"][1:])


def test_empty_query_and_bad_limit_are_refused():
    with pytest.raises(InvalidValue, match="empty"):
        search_rules("   ")
    with pytest.raises(InvalidValue, match=r"1..100"):
        search_rules("rage", limit=0)


def test_show_and_unknown_id_suggestions():
    entry = get_rule("DECK.Combat-Deck")
    assert entry.supersedes == "deck.rulebook-combat-deck"
    with pytest.raises(NotFound, match=r"did you mean deck.combat-deck"):
        get_rule("deck.combat-dek")


@pytest.mark.parametrize(
    "query, term",
    [
        ("Auspice", "Auspice"),
        ("breed", "Breed"),
        ("SUSTAINED RAGE", "Sustained Rage"),
        ("sustaned rage", "Sustained Rage"),
        ("Unique", "Unique"),
        ("long", "Long"),
        ("Long Event", "Long"),
        ("full moon", "Ahroun"),
        ("unblockable", "Unblockable damage"),
        ("Ahroún", "Ahroun"),
        ("tribe-fury", "Tribe Fury"),
    ],
)
def test_define_folds_case_accents_punctuation_and_typos(query, term):
    assert define(query).term == term


def test_define_ambiguous_lists_candidates():
    with pytest.raises(AmbiguousName) as exc:
        define("moon")
    assert exc.value.candidates == ["Ahroun", "Galliard", "Philodox", "Ragabash", "Theurge"]


def test_define_unknown():
    with pytest.raises(NotFound, match="no glossary term 'zzzz'"):
        define("zzzz")


def test_cli_rules_search_json():
    result = runner.invoke(app, ["tcg", "rules", "search", "regeneratoin", "wounds", "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["corrected"] == "regenerating wounds"
    assert "regen.set" in [r["id"] for r in data["results"]]


def test_cli_rules_show_human_and_json():
    result = runner.invoke(app, ["tcg", "rules", "show", "conflicts.crinos-flip-threshold"], env=ENV)
    assert result.exit_code == 0
    assert "stkit rules:" in result.stdout and "equal to or greater" in result.stdout
    data = json.loads(runner.invoke(app, ["tcg", "rules", "show", "deck.rulebook-sept-deck", "--json"], env=ENV).stdout)
    assert data["superseded_by"] == ["deck.sept-deck"]
    assert data["source"] == {"document": "rulebook", "section": "Setting Up"}


def test_cli_rules_show_unknown_is_one_line_error():
    result = runner.invoke(app, ["tcg", "rules", "show", "nope.nothing"], env=ENV)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no rule with id 'nope.nothing'")


def test_cli_conflicts_lists_every_conflict():
    data = json.loads(runner.invoke(app, ["tcg", "rules", "conflicts", "--json"], env=ENV).stdout)
    assert "conflicts.crinos-flip-threshold" in [c["id"] for c in data["conflicts"]]
    assert all(c["kind"] == "conflict" for c in data["conflicts"])


def test_cli_define_json_and_ambiguous():
    data = json.loads(runner.invoke(app, ["tcg", "define", "sustained", "rage", "--json"], env=ENV).stdout)
    assert data["term"] == "Sustained Rage" and data["see"] == ["combat.sustained-rage"]
    result = runner.invoke(app, ["tcg", "define", "moon", "--json"], env=ENV)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["candidates"][0] == "Ahroun"


@pytest.mark.slow
def test_subprocess_define_and_search():
    env = {**os.environ, **ENV}
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "define", "Long", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert json.loads(out.stdout)["term"] == "Long"
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "rules", "search", "umbra", "free", "return"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "umbra.return-after-moots" in out.stdout


# Each Battlefields FAQ question, asked the way a player might, finds its ruling among the first three hits.
@pytest.mark.parametrize(
    "question, ruling",
    [
        ("buy vampire keyword ghouling", "battlefield-faq.vampire-keyword"),
        ("is umbral a keyword", "battlefield-faq.umbral-not-keyword"),
        ("undodgeable unblockable keyword", "battlefield-faq.undodgeable-unblockable"),
        ("exorcise spirit defenders", "battlefield-faq.exorcise-spirit"),
        ("den of rorth other defender wyrm cards", "battlefield-faq.den-of-rorth-other"),
        ("hellcat defend den of rorth", "battlefield-faq.den-of-rorth-bastet"),
        ("conflicting keywords human crinos form", "battlefield-faq.conflicting-keywords"),
        ("gang beating multiple creatures", "battlefield-faq.one-creature"),
        ("run like hell battlefield escapes", "battlefield-faq.escape"),
    ],
)
def test_faq_questions_find_their_ruling(question, ruling):
    assert ruling in ids(search_rules(question, kind="ruling"))[:3]


# Worked examples restated in the rules entries can be found by their details.
@pytest.mark.parametrize(
    "question, rule_id",
    [
        ("dave sarah first alpha action", "alpha.first-action-cards"),
        ("insight 2 draw 7 discard", "combat.insight"),
        ("rat spirit bone gnawers gift", "ground.spirit-ally-gifts"),
        ("sustained rage 2 zero rage", "combat.sustained-rage"),
        ("wendigo crinos female action", "ground.keyword-rule"),
    ],
)
def test_worked_examples_are_searchable(question, rule_id):
    assert rule_id in ids(search_rules(question))[:3]
