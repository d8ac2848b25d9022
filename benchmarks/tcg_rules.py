"""Accuracy of the Rage rules search on the question sets: the share of questions whose answer comes first,
and the share with the answer in the top three.

Sets: ``tuned`` (tests/tcg/rules/rules_questions.py, what the ranking is tuned on), ``dev`` (rules_questions_dev.py,
more tuning questions), ``heldout`` (the earlier held-out set) and ``fresh`` (rules_questions_fresh.py, written
from the seed text alone, since tuned on) and ``blind`` (rules_questions_blind.py, written from the seed
text alone before any corpus entry was read; measured twice, since looked at) and ``unseen``
(rules_questions_unseen.py, written from the seed text alone before the ranking code or any entry's text or
asks was read; since part of the learned reranker's fit, with every open set). An expected id missing from
the corpus counts as a miss.
Run: ``python benchmarks/tcg_rules.py [--misses SET]`` (``--misses`` lists the questions a tuning set gets wrong).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = {
    "tuned": ("tests.tcg.rules.rules_questions", "QUESTIONS"),
    "dev": ("tests.tcg.rules.rules_questions_dev", "DEV"),
    "heldout": ("tests.tcg.rules.rules_questions_heldout", "HELD_OUT"),
    "fresh": ("tests.tcg.rules.rules_questions_fresh", "FRESH"),
    "blind": ("tests.tcg.rules.rules_questions_blind", "BLIND"),
    "unseen": ("tests.tcg.rules.rules_questions_unseen", "UNSEEN"),
    "sealed": ("tests.tcg.rules.rules_questions_sealed", "SEALED"),
}
#: Sets measured only when named: written blind, measured once before and once after ranking work, never
#: while tuning (a set looked at while tuning is a tuned set).
SEALED_SETS = ("sealed",)


def load(name: str) -> list[tuple[str, tuple[str, ...]]]:
    """The (question, expected ids) pairs of one set; an empty list when the set's file does not exist."""
    module, attr = SETS[name]
    try:
        return list(getattr(importlib.import_module(module), attr))
    except ModuleNotFoundError:
        return []


def measure(
    questions: list[tuple[str, tuple[str, ...]]],
) -> tuple[int, int, list[tuple[str, tuple[str, ...], list[str]]]]:
    """(first, top three, misses) counted over ``questions``; a miss is (question, expected, top three got)."""
    from stkit.tcg.rules import default_index

    index = default_index()
    first = top3 = 0
    misses = []
    for q, ids in questions:
        got = [h.entry.id for h in index.search(q, limit=3).hits]
        first += bool(got[:1] and got[0] in ids)
        top3 += bool(set(got) & set(ids))
        if not (got[:1] and got[0] in ids):
            misses.append((q, ids, got))
    return first, top3, misses


def main() -> int:
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # the held-out sets' misses are not listed: reading them is the first step to tuning on them
    parser.add_argument("--misses", choices=["dev", "tuned"], help="list the questions of this set not answered first")
    parser.add_argument(
        "--sets",
        default=",".join(n for n in SETS if n not in SEALED_SETS),
        help="comma-separated sets to measure (default: all but the sealed set, which is measured only by name)",
    )
    args = parser.parse_args()
    for name in args.sets.split(","):
        if name not in SETS:
            parser.error(f"unknown set {name!r}; choose from {', '.join(SETS)}")
        questions = load(name)
        if not questions:
            continue
        first, top3, misses = measure(questions)
        n = len(questions)
        shares = f"first {first:3}/{n} {100 * first / n:5.1f} %  top three {top3:3}/{n} {100 * top3 / n:5.1f} %"
        print(f"{name:8} {n:4} questions  {shares}")
        if args.misses == name:
            for q, ids, got in misses:
                print(f"  {q!r}\n      want {', '.join(ids)}\n      got  {', '.join(got)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
