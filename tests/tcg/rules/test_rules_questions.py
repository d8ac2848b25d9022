"""Rules search answers plain questions: the thresholded question set, and what the ranking must not do."""

from stkit.tcg.rules import default_index

from .figures import shares as _figures
from .rules_questions import QUESTIONS


def _ranks() -> list[tuple[str, tuple[str, ...], list[str]]]:
    index = default_index()
    return [(q, ids, [h.entry.id for h in index.search(q, limit=3).hits]) for q, ids in QUESTIONS]


def test_question_set_is_large_and_names_real_rules():
    index = default_index()
    assert len(QUESTIONS) >= 60
    assert len({q for q, _ in QUESTIONS}) == len(QUESTIONS)
    assert [i for _, ids in QUESTIONS for i in ids if i not in index.entries] == []


def test_the_answer_is_in_the_top_three_for_95_percent_and_first_for_80_percent():
    ranks = _ranks()
    first = [q for q, ids, got in ranks if got[:1] and got[0] in ids]
    top3 = [q for q, ids, got in ranks if set(got) & set(ids)]
    missed = [(q, ids, got) for q, ids, got in ranks if not set(got) & set(ids)]
    # with the reranker and the asks for unasked parts: 172/187 (92.0 %) first, 184/187 (98.4 %) in the top three
    assert len(top3) / len(ranks) >= 0.98, missed
    assert len(first) / len(ranks) >= 0.91, [(q, ids, got) for q, ids, got in ranks if q not in first]


def test_filler_words_are_not_required_and_real_words_are_not_rewritten():
    index = default_index()
    # "how", "does", "work" are in no entry about Kailindo: they must not decide the answer
    assert index.search("how does kailindo work").hits[0].entry.id == "combat.kailindo"
    assert index.correct("how does kailindo work") == [["kailindo"]]
    # a short real word is never turned into another word, and a stem of a corpus word stays as typed
    assert index.correct("big") == [["big"]]
    assert index.correct("give") == [["give"]]
    assert index.correct("kailido") == [["kailindo"]]  # a typo of 5+ letters is still corrected


def test_conflicts_list_every_replaced_rule_a_player_could_misread():
    index = default_index()
    conflicts = {e.id: e for e in index.entries.values() if e.kind == "conflict"}
    assert len(conflicts) >= 9
    for cid, covered in [
        ("conflicts.attached-cards-gnosis-falls", "ground.rulebook-attached-stay"),
        ("conflicts.new-card-timing", "ground.rulebook-modifier-delay"),
        ("conflicts.who-may-vote", "moot.rulebook-who-votes"),
        ("conflicts.alpha-actions", "turn.rulebook-alpha-attack"),
    ]:
        assert covered in conflicts[cid].conflict["with"]


def test_the_two_readings_give_their_reasoning():
    index = default_index()
    flip = index.entries["conflicts.crinos-flip-threshold"].conflict["ruling"]
    assert "no misprint" in flip and "earlier game" in flip
    draw = index.entries["conflicts.battlefield-extra-cards"].conflict["ruling"]
    assert "in addition to the usual hand of five" in draw and "additional combat cards" in draw


def test_held_out_questions_are_new_and_name_real_rules():
    from .rules_questions_heldout import HELD_OUT

    index = default_index()
    assert len(HELD_OUT) >= 60
    assert not {q for q, _ in HELD_OUT} & {q for q, _ in QUESTIONS}
    asks = {a.casefold() for e in index.entries.values() for a in e.asks}
    assert not {q.casefold() for q, _ in HELD_OUT} & asks  # no held-out question is copied into an entry
    assert [i for _, ids in HELD_OUT for i in ids if i not in index.entries] == []


def test_held_out_figures_do_not_fall():
    # measured, never tuned on: first 57/68 (83.8 %), top three 64/68 (94.1 %); the floor guards a regression
    from .rules_questions_heldout import HELD_OUT

    first, top3 = _figures(HELD_OUT)
    # with the reranker and the asks for unasked parts: 62/68 (91.2 %), 66/68 (97.1 %)
    assert top3 >= 0.97 and first >= 0.91, (first, top3)


def test_asks_are_indexed_with_the_text():
    index = default_index()
    entry = index.entries["moot.result"]
    assert "what happens on a tie vote" in entry.asks
    assert entry.to_dict()["asks"] == list(entry.asks)
    # "tied" is in no rule text: the ask and the tie synonyms find the entry
    assert index.search("moot vote tied").hits[0].entry.id == "moot.result"
    assert index.correct("tied") == [["tie", "equal", "same"]]


def test_question_cues_read_consequence_and_timing():
    from stkit.tcg.rules import question_cues

    assert question_cues("How long does an Event last?") == ["cuelong"]
    assert question_cues("when can I use it") == ["cuewhen", "cuecan"]
    assert question_cues("may a regenerating garou vote") == ["cuecan"]
    assert question_cues("do i have to pick an alpha") == ["cuecan"]
    assert question_cues("what happens if the vote is tied") == ["cueafter"]
    assert question_cues("how many cards do I draw") == ["cuecount"]
    assert question_cues("who plays the enemy") == ["cuewho"]
    assert question_cues("kailindo") == []
