"""The rules search's learned reranker: its packaged weights, their checks, and what it may reorder."""

import json
import math

import pytest

from stkit.errors import DataFileError
from stkit.tcg.rules import (
    FEATURES,
    RERANK_DEPTH,
    RERANK_KEEP,
    Reranker,
    RulesIndex,
    _glossary,
    default_index,
    load_reranker,
    load_rules,
)

from .rules_questions_unseen import UNSEEN


def _plain_index() -> RulesIndex:
    return RulesIndex(load_rules(), _glossary())


def test_the_packaged_weights_name_every_feature_and_how_they_were_fitted():
    model = load_reranker()
    assert model is not None and default_index().reranker == model
    assert len(model.weights) == len(model.mean) == len(model.scale) == len(FEATURES)
    fitted = model.fitted
    assert fitted["by"] == "tools/fit_rules_reranker.py"
    assert fitted["depth"] == RERANK_DEPTH and fitted["kept_in_place"] == RERANK_KEEP
    assert "sealed" not in fitted["sets"] and "unseen" in fitted["sets"]
    assert fitted["cross_validation"]["folds"] >= 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(features=d["features"][:-1]), "'features' must list"),
        (lambda d: d["weights"].__setitem__(0, math.nan), "'weights' must be"),
        (lambda d: d["mean"].pop(), "'mean' must be"),
        (lambda d: d["scale"].__setitem__(2, 0), "every 'scale' must be above 0"),
    ],
)
def test_a_broken_weights_file_is_refused_with_its_reason(tmp_path, change, message):
    data = json.loads(
        json.dumps({"features": list(FEATURES), **{k: [1.0] * len(FEATURES) for k in ("weights", "mean", "scale")}})
    )
    change(data)
    path = tmp_path / "w.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match=message):
        load_reranker(path)
    path.write_text("{not json")
    with pytest.raises(DataFileError, match="cannot read"):
        load_reranker(path)


def test_one_feature_vector_per_head_entry():
    index = _plain_index()
    ranked, evidence = index.first_ranking("can a garou in the umbra vote on a moot")
    vectors = index.features("can a garou in the umbra vote on a moot", ranked, evidence)
    assert len(vectors) == min(RERANK_DEPTH, len(ranked))
    assert all(len(v) == len(FEATURES) and all(math.isfinite(x) for x in v) for v in vectors)
    assert index.first_ranking("?!") == ([], {})


def test_the_reranker_reorders_only_the_head_after_the_kept_places():
    plain = _plain_index()
    # a model that prefers the entry the first ranking liked least
    backwards = Reranker(
        weights=tuple(-1.0 if f == "first_score" else 0.0 for f in FEATURES),
        mean=(0.0,) * len(FEATURES),
        scale=(1.0,) * len(FEATURES),
    )
    flipped = RulesIndex(load_rules(), _glossary(), backwards)
    query = "what happens to attached gifts when a garou dies"
    before = [h.entry.id for h in plain.search(query, limit=100).hits]
    after = [h.entry.id for h in flipped.search(query, limit=100).hits]
    assert after[:RERANK_KEEP] == before[:RERANK_KEEP]
    assert after[RERANK_KEEP:RERANK_DEPTH] == before[RERANK_KEEP:RERANK_DEPTH][::-1]
    assert after[RERANK_DEPTH:] == before[RERANK_DEPTH:]


def test_the_packaged_reranker_lifts_the_unseen_top_three():
    # questions written blind; the first ranking alone has 127 of 139 in the top three
    def top3(index: RulesIndex) -> int:
        return sum(bool({h.entry.id for h in index.search(q, limit=3).hits} & set(ids)) for q, ids in UNSEEN)

    assert top3(default_index()) >= top3(_plain_index()) + 3
