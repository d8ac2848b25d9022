"""The rules search reads a player's words: real English words are never "corrected" into rules words,
slang and paraphrase reach the rules' own terms through the data file, and a question's situation is
weighed as a whole rather than by its single strongest word."""

import pytest

from stkit.errors import DataFileError
from stkit.tcg.rules import default_index, is_english, load_paraphrases


def test_real_english_words_are_never_rewritten_into_rules_words():
    index = default_index()
    # before: "healing" -> "dealing", "chuck" -> "check", "fresh" -> "fires"
    assert "dealing" not in index.correct("healing")[0]
    assert index.correct("fresh") == [["fresh"]]
    assert "check" not in index.correct("chuck")[0]
    assert all(is_english(w) for w in ("fresh", "healing", "chuck")) and not is_english("regenarate")


def test_words_that_are_not_english_are_still_corrected():
    index = default_index()
    assert index.correct("regenarate") == [["regenerate"]]
    assert index.correct("initative") == [["initiative"]]
    assert not is_english("kailindo") and index.correct("kailido") == [["kailindo"]]


def test_slang_and_paraphrase_reach_the_rules_terms():
    index = default_index()
    assert index.correct("war form") == [["crinos"]]
    assert "regenerate" in index.correct("healing")[0]
    assert "discard" in index.correct("chuck")[0]
    assert index.correct("grab a battlefield nobody owns") == [
        ["conquer", "take control", "control"],
        ["battlefield"],
        ["hunting grounds", "uncontrolled"],
    ]
    top3 = [h.entry.id for h in index.search("grab a battlefield nobody owns", limit=3).hits]
    assert "turn.alpha-attack-battlefield" in top3
    assert index.search("how do i heal my beat up ahroun").hits[0].entry.id == "regen.set"


def test_one_strong_word_does_not_outweigh_the_question():
    # "killed" is the strongest word, but the question is whether a Victim counts toward winning
    hits = default_index().search("killed a Victim worth 3 renown, does it count toward my win?").hits
    assert hits[0].entry.id == "victory.victims-worthless"


def test_a_group_of_synonyms_counts_as_one_word():
    index = default_index()
    # an entry saying "killed", "dead" and "death" holds one word of the question, not three
    grouped, held, findable, _ = index._bm25f([[("kill",), ("dead",), ("death",)]])
    apart, held_apart, _, _ = index._bm25f([[("kill",)], [("dead",)], [("death",)]])
    assert findable == 1 and held["combat.after-death"] == 1 and held_apart["combat.after-death"] == 3
    assert grouped["combat.after-death"] < apart["combat.after-death"]


def test_the_paraphrase_file_is_checked(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("- says: [war form]\n  means: [crinos]\n- says: [War Form]\n  means: [crinos]\n")
    with pytest.raises(DataFileError, match="item 2: phrase 'War Form' is already mapped"):
        load_paraphrases(path)
    path.write_text("- says: [war form]\n")
    with pytest.raises(DataFileError, match=r"item 1: must be \{says"):
        load_paraphrases(path)
    assert load_paraphrases()[("war", "form")] == ("crinos",)


def test_pronouns_and_filler_are_not_searched_for():
    words = [w for g in default_index().correct("ok so does he keep his rage when i pass") for w in g]
    assert not {"ok", "so", "he", "his", "i"} & set(words)
    assert "rage" in words


def test_a_situation_s_small_numbers_do_not_pull_in_the_worked_examples():
    index = default_index()
    words = [w for g in index.correct("a card makes him lose 4 rage but he only has 2 left") for w in g]
    assert "4" not in words and "2" not in words and "rage" in words
    # a larger number is more often the rule's own, and a question of numbers alone keeps them
    assert ["25"] in index.correct("what happens when the umbra marker reaches 25")
    assert index.correct("4 2") == [["4"], ["2"]]
    hits = [h.entry.id for h in index.search("a card makes my dude lose 4 rage and he has 2, is he at minus 2").hits]
    assert hits[0] == "ground.no-negative-rage"


def test_another_ending_of_a_mapped_word_is_mapped_too():
    index = default_index()
    assert ("switching",) not in load_paraphrases()
    assert index.correct("switching") == index.correct("switch")
    # a word the rules use themselves is looked for as it is, not through the map of a similar word
    assert index.correct("control") == [["control"]]


def test_mid_fight_is_during_combat_not_the_mid_combat_step():
    index = default_index()
    assert index.correct("mid fight") == [["during combat", "combat"]]
    hits = [h.entry.id for h in index.search("my lupus took more wounds than his health mid fight").hits]
    assert hits[0] != "combat.mid-combat"
