"""The ranker's offline fit: cross-validated top-1, scored per kind, and the sentence cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evals.ranker.__main__ import load_groups, save_groups
from evals.ranker.fit import Group, cross_validated_top1, fit_logistic, top1


def groups(n: int) -> list[Group]:
    """Questions of six sentences whose value sentence has the higher first feature (the
    second is noise); odd ones are Tax Code / knowledge-base questions."""
    rng = np.random.default_rng(7)
    out = []
    for i in range(n):
        x = rng.normal(size=(6, 2))
        y = np.zeros(6)
        y[i % 6] = 1.0
        x[i % 6, 0] += 3.0
        out.append(Group(f"q{i}", x, y, "law" if i % 2 else "docs"))
    return out


def test_learned_weights_find_the_value_sentence_out_of_fold() -> None:
    data = groups(40)
    cv, folds = cross_validated_top1(data)
    assert cv >= 0.9 and len(folds) == 5
    weights, bias = fit_logistic(
        np.vstack([g.x for g in data]), np.concatenate([g.y for g in data])
    )
    assert weights[0] > 0 and top1(data, weights, bias) >= 0.9
    # a model that ranks by the wrong feature misses
    assert top1(data, np.asarray([-1.0, 0.0]), 0.0) < 0.2


def test_scoring_one_kind_only_counts_its_questions(tmp_path: Path) -> None:
    data = groups(20)
    data[1].y[:] = 0.0  # a law question with no value sentence is not scored
    cv_law, _ = cross_validated_top1(data, kind="law")
    assert cv_law >= 0.9
    path = tmp_path / "groups.npz"
    save_groups(path, data)
    loaded = load_groups(path)
    assert [(g.qid, g.kind) for g in loaded] == [(g.qid, g.kind) for g in data]
    pairs = zip(loaded, data, strict=True)
    assert all(np.array_equal(a.x, b.x) and np.array_equal(a.y, b.y) for a, b in pairs)
