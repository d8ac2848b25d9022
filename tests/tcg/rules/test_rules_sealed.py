"""The sealed held-out rules questions: many, distinct, labelled with real entries, and new.

Only the set's shape is checked here; how well the search answers it is measured once, elsewhere.
"""

import re

from rapidfuzz import fuzz

from stkit.tcg.rules import default_index

from .figures import at_least as _at_least
from .figures import counts as _figures
from .rules_questions import QUESTIONS
from .rules_questions_blind import BLIND
from .rules_questions_dev import DEV
from .rules_questions_fresh import FRESH
from .rules_questions_heldout import HELD_OUT
from .rules_questions_sealed import SEALED
from .rules_questions_unseen import UNSEEN
from .test_rules_blind import NEAR_COPY


def _norm(text: str) -> str:
    """Lower-case words and digits only, single-spaced: punctuation and case never make a question new."""
    return " ".join(re.findall(r"[a-z0-9]+", text.casefold()))


def test_norm_strips_case_and_punctuation():
    assert _norm("Min SEPT-deck size?!") == "min sept deck size"


def test_sealed_questions_are_many_and_distinct():
    assert len(SEALED) >= 90
    assert len({_norm(q) for q, _ in SEALED}) == len(SEALED)
    assert all(q.strip() and ids for q, ids in SEALED)


def test_every_sealed_label_is_a_corpus_entry():
    known = set(default_index().entries)
    unknown = sorted({i for _, ids in SEALED for i in ids} - known)
    assert not unknown, unknown
    assert all(len(set(ids)) == len(ids) for _, ids in SEALED)


def test_no_sealed_question_is_an_entry_ask():
    asks = {_norm(a) for e in default_index().entries.values() for a in e.asks}
    assert not [q for q, _ in SEALED if _norm(q) in asks]


def test_no_sealed_question_nearly_copies_an_earlier_set():
    earlier = [_norm(q) for q, _ in QUESTIONS + HELD_OUT + DEV + FRESH + BLIND + UNSEEN]
    assert earlier
    near = [q for q, _ in SEALED if max(fuzz.ratio(_norm(q), o) for o in earlier) >= NEAR_COPY]
    assert not near, near


def test_sealed_figures_do_not_fall():
    # Measured once before the reranker and the new asks (138 first, 179 in the top three of 195) and once
    # after (149, 181). A floor only: the 85 % first and 95 % top three aimed for are not reached.
    assert _at_least(_figures(SEALED), (149, 181))
