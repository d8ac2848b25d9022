"""The unseen held-out rules questions: many, new, naming real rules, and never copied into the corpus."""

from dataclasses import replace

from rapidfuzz import fuzz

from stkit.tcg.rules import default_index

from .figures import at_least as _at_least
from .figures import counts as _figures
from .rules_questions import QUESTIONS
from .rules_questions_blind import BLIND
from .rules_questions_dev import DEV
from .rules_questions_fresh import FRESH
from .rules_questions_heldout import HELD_OUT
from .rules_questions_unseen import UNSEEN
from .test_rules_blind import NEAR_COPY, _copies, _norm


def near_copies() -> set[str]:
    """The unseen questions worded almost like a question of an earlier set (tuned or already measured)."""
    others = [_norm(q) for q, _ in QUESTIONS + HELD_OUT + DEV + FRESH + BLIND]
    return {q for q, _ in UNSEEN if max(fuzz.ratio(_norm(q), o) for o in others) >= NEAR_COPY}


def clean() -> list[tuple[str, tuple[str, ...]]]:
    """The unseen questions that are not near copies of an earlier question."""
    near = near_copies()
    return [(q, ids) for q, ids in UNSEEN if q not in near]


def test_unseen_questions_are_many_distinct_and_new():
    assert len(UNSEEN) >= 80
    assert len({_norm(q) for q, _ in UNSEEN}) == len(UNSEEN)
    others = {_norm(q) for q, _ in QUESTIONS + HELD_OUT + DEV + FRESH + BLIND}
    assert not {_norm(q) for q, _ in UNSEEN} & others
    assert len(clean()) >= 80
    assert "can my bastet vote on moots" in near_copies()


def test_unseen_questions_name_real_rules():
    index = default_index()
    assert all(ids for _, ids in UNSEEN)
    assert [i for _, ids in UNSEEN for i in ids if i not in index.entries] == []


def test_no_unseen_question_is_copied_into_the_corpus():
    assert _copies(UNSEEN, default_index().entries.values()) == []


def test_the_copy_check_catches_an_unseen_question_copied_as_an_ask_or_a_sentence():
    entries = list(default_index().entries.values())
    asked_q, told_q = UNSEEN[5][0], UNSEEN[60][0]
    asked = replace(entries[0], asks=(*entries[0].asks, asked_q.upper() + "?"))
    told = replace(entries[1], text=entries[1].text + " So, " + told_q + ".")
    found = {q for q, _ in _copies(UNSEEN, [asked, told, *entries[2:]])}
    assert found == {asked_q, told_q}


def test_unseen_figures_do_not_fall():
    # measured twice, never tuned on: before the ranking work first 112/139 (80.6 %), top three 123/139
    # (88.5 %), clean 99 and 109 of 124; after it 113/139 (81.3 %) and 125/139 (89.9 %), clean 100 and 111.
    # With the reranker ordering places 2 to 12 and asks for the entries' unasked parts: 117 (84.2 %) and
    # 133 (95.7 %), clean 103 and 118 of 124. A floor only: the 85 % first aimed for is not reached.
    assert _at_least(_figures(UNSEEN), (117, 133))
    assert _at_least(_figures(clean()), (103, 118))
