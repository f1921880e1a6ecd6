"""The ranker's offline fit: cross-validated top-1, scored per kind, and the sentence cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evals.ranker.__main__ import load_groups, save_groups
from evals.ranker.documents import FEATURES as DOC_FEATURES
from evals.ranker.documents import Question as DocQuestion
from evals.ranker.documents import leave_one_set_out
from evals.ranker.documents import load as load_questions
from evals.ranker.documents import save as save_questions
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


def test_leave_one_set_out_scores_each_held_out_set_against_the_cascade(
    tmp_path: Path,
) -> None:
    """A model fitted on the other sets is scored on each held-out one beside the cascade's
    own first sentence; the collected sentences survive the cache."""
    rng = np.random.default_rng(3)
    questions = []
    for n in range(1, 4):
        for i in range(6):
            x = rng.normal(size=(5, len(DOC_FEATURES)))
            # every sentence a clause, not restated, no value: the cascade's shared words decide
            x[:, :3] = (1.0, 1.0, 0.0)
            y = np.zeros(5)
            y[i % 5] = 1.0
            x[i % 5, 3] += 4.0  # shared words tell the value sentence apart
            keys = [(True, True, float(r[2]), float(r[3]), int(r[4]), float(r[5])) for r in x]
            questions.append(DocQuestion(f"q{n}_{i}", f"direct_dev_blind{n}", keys, x, y))
    report = leave_one_set_out(questions)
    assert report["total"]["questions"] == 18
    assert report["total"]["cascade"] == 18
    assert report["total"]["learned"] >= 15
    path = tmp_path / "docs.npz"
    save_questions(path, questions)
    loaded = load_questions(path)
    assert [(q.qid, q.dataset, q.keys) for q in loaded] == [
        (q.qid, q.dataset, q.keys) for q in questions
    ]
