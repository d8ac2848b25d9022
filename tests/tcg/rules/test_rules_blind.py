"""The blind held-out rules questions: many, new, naming real rules, and never copied into the corpus."""

import re
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


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.casefold()))


def _copies(questions, entries) -> list[tuple[str, str]]:
    # an ask, title, keyword list or sentence of an entry that reads like a held-out question tunes the search on it
    texts = set()
    for e in entries:
        texts.update(_norm(a) for a in e.asks)
        texts.add(_norm(e.title))
        texts.add(_norm(" ".join(e.keywords)))
        texts.update(_norm(s) for s in re.split(r"(?<=[.?!])\s+", e.text))
    texts.discard("")
    found = []
    for q, _ in questions:
        n = _norm(q)
        found += [(q, t) for t in texts if fuzz.ratio(n, t) >= 85 or (len(n) > 25 and n in t)]
    return found


#: How close (rapidfuzz ratio of the normalised text) a blind question may come to a question of the tuning
#: sets before it counts as a near copy: written independently, 22 of the blind questions still came out
#: worded almost like an earlier question, so figures are also reported on the rest (CLEAN).
NEAR_COPY = 80


def near_copies() -> set[str]:
    """The blind questions worded almost like a question of the tuning and earlier held-out sets."""
    others = [_norm(q) for q, _ in QUESTIONS + HELD_OUT + DEV + FRESH]
    return {q for q, _ in BLIND if max(fuzz.ratio(_norm(q), o) for o in others) >= NEAR_COPY}


def clean() -> list[tuple[str, tuple[str, ...]]]:
    """The blind questions that are not near copies of an earlier question."""
    near = near_copies()
    return [(q, ids) for q, ids in BLIND if q not in near]


def test_blind_questions_are_many_distinct_and_new():
    assert len(BLIND) >= 60
    assert len({_norm(q) for q, _ in BLIND}) == len(BLIND)
    others = {_norm(q) for q, _ in QUESTIONS + HELD_OUT + DEV + FRESH}
    assert not {_norm(q) for q, _ in BLIND} & others
    assert len(clean()) >= 60
    assert "can i just chuck cards from my hand to dig for better ones" in near_copies()


def test_blind_questions_name_real_rules():
    index = default_index()
    assert all(ids for _, ids in BLIND)
    assert [i for _, ids in BLIND for i in ids if i not in index.entries] == []


def test_no_blind_question_is_copied_into_the_corpus():
    assert _copies(BLIND, default_index().entries.values()) == []


def test_the_copy_check_catches_a_copied_ask_and_a_sentence():
    entries = list(default_index().entries.values())
    asked_q, told_q = BLIND[3][0], BLIND[40][0]
    asked = replace(entries[0], asks=(*entries[0].asks, asked_q.upper() + "?"))
    told = replace(entries[1], text=entries[1].text + " So, " + told_q + ".")
    found = {q for q, _ in _copies(BLIND, [asked, told, *entries[2:]])}
    assert found == {asked_q, told_q}


def test_blind_figures_do_not_fall():
    # measured twice untuned (first 99/117, top three 109/117; clean 80 and 89), then tuned on alongside the
    # other old sets: first 111/117, top three 116/117; on the 95 clean questions 89 and 94. A floor only.
    # with the reranker and the asks for unasked parts: 111 and 116, clean 89 and 94
    assert _at_least(_figures(BLIND), (111, 116))
    assert _at_least(_figures(clean()), (89, 94))
