"""Fit the Rage rules search's reranker and measure it by grouped k-fold cross-validation.

For each question of the open question sets (tests/tcg/rules: tuned, dev, heldout, fresh, blind, unseen; never
the sealed set), the first ranking's top RERANK_DEPTH entries and their feature vectors (stkit.tcg.rules.FEATURES)
are taken; a linear listwise model (softmax over the candidates, the likelihood of any right entry maximised,
L2 penalty, features standardised on the training folds) is fitted with numpy (a development tool: the search
itself only takes a dot product). Cross-validation: the questions are grouped by (set, right ids), so a set's
near-duplicate questions about one rule stay in one fold, and the groups dealt into K folds; each fold is scored
by a model fitted on the others. ``--write`` then fits on every question and writes
stkit/tcg/data/rules_reranker.json with how it was fitted.

Run: ``python tools/fit_rules_reranker.py [--folds 5] [--l2 0.01] [--write]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from tcg_rules import SEALED_SETS, SETS  # noqa: E402  (the benchmark's one table of question sets)

#: Every question set but the sealed ones, which are never fitted on.
OPEN_SETS = {name: where for name, where in SETS.items() if name not in SEALED_SETS}


#: how many of the first ranking's entries keep their place (see stkit.tcg.rules.RERANK_KEEP)
KEEP = 0


def load_questions() -> list[tuple[str, str, tuple[str, ...]]]:
    """(set name, question, right ids) for every open set."""
    sys.path.insert(0, str(ROOT))
    out = []
    for name, (module, attr) in OPEN_SETS.items():
        for q, ids in getattr(importlib.import_module(module), attr):
            out.append((name, q, tuple(ids)))
    return out


def build(questions, depth: int | None = None):
    """Per question: (ranked ids of the first ranking, feature matrix of its head, label vector of the head)."""
    from stkit.tcg.rules import RulesIndex, _glossary, load_rules

    index = RulesIndex(load_rules(), _glossary())  # no reranker: the first ranking alone
    data = []
    for _, q, ids in questions:
        ranked, evidence = index.first_ranking(q)
        rids = [rid for _, rid in ranked]
        x = np.array(index.features(q, ranked, evidence), dtype=float) if ranked else np.zeros((0, 0))
        x = x[:depth] if depth else x
        y = np.array([rid in ids for rid in rids[: len(x)]], dtype=float)
        data.append((rids, x, y, set(ids)))
    return data


def fit(items, l2: float, steps: int = 400, lr: float = 0.05):
    """Weights, mean, scale of the listwise softmax model over ``items`` (rids, x, y, ids) with a right entry
    in the head; Adam on the mean negative log-likelihood plus ``l2`` times the squared weights."""
    usable = [(x, y) for _, x, y, _ in items if len(x) and y.any()]
    stacked = np.vstack([x for x, _ in usable])
    mean = stacked.mean(axis=0)
    scale = stacked.std(axis=0)
    scale[scale < 1e-9] = 1.0
    depth = max(len(x) for x, _ in usable)
    xs = np.zeros((len(usable), depth, stacked.shape[1]))
    ys = np.zeros((len(usable), depth))
    mask = np.zeros((len(usable), depth), dtype=bool)
    for i, (x, y) in enumerate(usable):
        xs[i, : len(x)] = (x - mean) / scale
        ys[i, : len(x)] = y
        mask[i, : len(x)] = True
    w = np.zeros(stacked.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        s = np.where(mask, xs @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        q = p * ys
        q /= q.sum(axis=1, keepdims=True)
        grad = np.einsum("nd,ndf->f", p - q, xs) / len(usable) + 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w, mean, scale


def order(item, model) -> list[str]:
    """The item's ids as the search would give them: the head reordered by ``model`` (None: as first ranked)."""
    rids, x, _, _ = item
    if model is None or not len(x):
        return rids
    w, mean, scale = model
    s = ((x - mean) / scale) @ w
    head = [rids[i] for i in sorted(range(KEEP, len(x)), key=lambda i: (-s[i], rids[i]))]
    return rids[:KEEP] + head + rids[len(x) :]


def score(items, model) -> tuple[int, int]:
    first = top3 = 0
    for item in items:
        got = order(item, model)[:3]
        first += bool(got and got[0] in item[3])
        top3 += bool(set(got) & item[3])
    return first, top3


def folds_of(questions, k: int, seed: int) -> list[int]:
    groups = sorted({(name, tuple(sorted(ids))) for name, _, ids in questions})
    random.Random(seed).shuffle(groups)
    fold = {g: i % k for i, g in enumerate(groups)}
    return [fold[(name, tuple(sorted(ids)))] for name, _, ids in questions]


def pct(a: int, n: int) -> str:
    return f"{a:4}/{n} {100 * a / n:5.1f} %"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--seeds", type=int, default=3, help="repeat the fold deal with this many seeds")
    parser.add_argument(
        "--train-sets",
        default=",".join(OPEN_SETS),
        help="the sets a model is fitted on (every open set is still scored)",
    )
    parser.add_argument("--depth", type=int, default=None, help="rerank only this many (default RERANK_DEPTH)")
    parser.add_argument("--write", action="store_true", help="fit on every question and write the weights")
    parser.add_argument("--keep", type=int, default=None, help="entries kept in place (default RERANK_KEEP)")
    args = parser.parse_args()
    global KEEP
    from stkit.tcg.rules import FEATURES, RERANK_DEPTH, RERANK_KEEP

    KEEP = RERANK_KEEP if args.keep is None else args.keep

    questions = load_questions()
    data = build(questions, args.depth)
    n = len(data)
    sets = list(OPEN_SETS)
    by_set = {s: [i for i, (name, _, _) in enumerate(questions) if name == s] for s in sets}
    trainable = set(args.train_sets.split(","))
    f0, t0 = score(data, None)
    reach = sum(bool(y.any()) for _, _, y, _ in data)
    print(f"{n} questions; right entry in the first {RERANK_DEPTH}: {pct(reach, n)}")
    print(f"first ranking      first {pct(f0, n)}  top three {pct(t0, n)}")
    cv_first = cv_top3 = 0
    per_set = {s: [0, 0] for s in sets}
    for seed in range(args.seeds):
        fold = folds_of(questions, args.folds, seed)
        for k in range(args.folds):
            train = [d for d, f, (s, _, _) in zip(data, fold, questions, strict=True) if f != k and s in trainable]
            model = fit(train, args.l2)
            for i, (d, f) in enumerate(zip(data, fold, strict=True)):
                if f != k:
                    continue
                got = order(d, model)[:3]
                hit1 = bool(got and got[0] in d[3])
                hit3 = bool(set(got) & d[3])
                cv_first += hit1
                cv_top3 += hit3
                per_set[questions[i][0]][0] += hit1
                per_set[questions[i][0]][1] += hit3
    total = n * args.seeds
    print(
        f"reranked, {args.folds}-fold CV x{args.seeds}  first {100 * cv_first / total:5.1f} %"
        f"  top three {100 * cv_top3 / total:5.1f} %  (l2 {args.l2})"
    )
    for s in sets:
        m = len(by_set[s]) * args.seeds
        b1, b3 = score([data[i] for i in by_set[s]], None)
        print(
            f"  {s:8} {len(by_set[s]):4}  first {100 * b1 / len(by_set[s]):5.1f} -> {100 * per_set[s][0] / m:5.1f} %"
            f"  top three {100 * b3 / len(by_set[s]):5.1f} -> {100 * per_set[s][1] / m:5.1f} %"
        )
    for held in ("unseen", "blind", "fresh"):
        # a whole set left out: the nearest thing to a new set written blind
        model = fit(
            [d for d, (name, _, _) in zip(data, questions, strict=True) if name != held and name in trainable],
            args.l2,
        )
        items = [data[i] for i in by_set[held]]
        b1, b3 = score(items, None)
        r1, r3 = score(items, model)
        m = len(items)
        before = f"first {100 * b1 / m:5.1f} -> {100 * r1 / m:5.1f} %"
        print(f"  {held} left out: {before}  top three {100 * b3 / m:5.1f} -> {100 * r3 / m:5.1f} %")
    if args.write:
        w, mean, scale = fit([d for d, (s, _, _) in zip(data, questions, strict=True) if s in trainable], args.l2)
        f1, t1 = score(data, (w, mean, scale))
        out = {
            "features": list(FEATURES),
            "weights": [round(float(x), 6) for x in w],
            "mean": [round(float(x), 6) for x in mean],
            "scale": [round(float(x), 6) for x in scale],
            "fitted": {
                "by": "tools/fit_rules_reranker.py",
                "model": "linear listwise softmax over the first ranking's head, L2-penalised, Adam",
                "depth": RERANK_DEPTH,
                "kept_in_place": KEEP,
                "l2": args.l2,
                "questions": n,
                "sets": sorted(trainable),
                "cross_validation": {
                    "folds": args.folds,
                    "seeds": args.seeds,
                    "grouped_by": "set and right ids",
                    "first_ranking": [round(f0 / n, 4), round(t0 / n, 4)],
                    "reranked": [round(cv_first / total, 4), round(cv_top3 / total, 4)],
                },
                "training_fit": [round(f1 / n, 4), round(t1 / n, 4)],
            },
        }
        path = ROOT / "stkit" / "tcg" / "data" / "rules_reranker.json"
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} (fit on all: first {pct(f1, n)}  top three {pct(t1, n)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
