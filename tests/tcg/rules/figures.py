"""How often the rules search answers a question set: the right entry first, or in the top three."""

from __future__ import annotations

from stkit.tcg.rules import default_index


def counts(questions) -> tuple[int, int]:
    """(answered first, answered in the top three) over ``questions``, each (question, right ids)."""
    index = default_index()
    first = top3 = 0
    for q, ids in questions:
        got = [h.entry.id for h in index.search(q, limit=3).hits]
        first += bool(got[:1] and got[0] in ids)
        top3 += bool(set(got) & set(ids))
    return first, top3


def shares(questions) -> tuple[float, float]:
    """:func:`counts` as shares of the set (0 to 1)."""
    first, top3 = counts(questions)
    return first / len(questions), top3 / len(questions)


def at_least(got: tuple[int, int], floor: tuple[int, int]) -> bool:
    """Both figures (first, top three) at or above their floor: a tuple's ``>=`` would let one fall."""
    return got[0] >= floor[0] and got[1] >= floor[1]
