"""Semantic routing classifier: softmax regression over e5 query vectors, in numpy.

Training examples live in ``finagent/routing/data/routing_train.jsonl`` (``text``,
``label``), written for this purpose and kept apart from the evaluation sets. Labels:
``S1`` (the user's own documents), ``S5`` (too vague, ask), and the S2 intents ``kb``,
``rates``, ``news``, ``smalltalk``.

Model: the 384-dimensional e5 ``query:`` vectors are standardised (training mean and
standard deviation per dimension) and a multinomial logistic regression with L2 penalty
is fitted by full-batch gradient descent with momentum (deterministic, about 0.1 s).

Calibration: temperature scaling. The examples are split into ``folds`` stratified folds;
for each fold a model fitted on the other folds scores it, and the temperature ``T`` that
minimises the negative log-likelihood of those out-of-fold logits is chosen on a grid.
The final model is fitted on all examples and its probabilities are ``softmax(logits/T)``.
The same out-of-fold predictions give the cross-validated accuracy that
``finagent eval routing`` reports.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

LABELS: tuple[str, ...] = ("S1", "S5", "kb", "rates", "news", "smalltalk")
TRAINING_FILE = "routing_train.jsonl"
L2 = 0.03
ITERATIONS = 300
LEARNING_RATE = 0.5
MOMENTUM = 0.9
FOLDS = 5
NEIGHBOURS = 3
TEMPERATURES = np.round(np.arange(0.3, 5.01, 0.05), 2)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)
#: confidences at which a route may overrule an LLM clarification (``confident_routes``)
ROUTE_THRESHOLDS = (0.8, 0.9, 0.95, 0.98, 0.99)


@dataclass(frozen=True)
class Example:
    text: str
    label: str


@dataclass(frozen=True)
class Neighbour:
    text: str
    label: str
    similarity: float


@dataclass(frozen=True)
class Prediction:
    """Calibrated probabilities per label, the best label and the nearest examples."""

    label: str
    probability: float
    scores: dict[str, float]
    nearest: list[Neighbour] = field(default_factory=list)

    def runner_up(self) -> tuple[str, float]:
        ranked = sorted(self.scores.items(), key=lambda kv: kv[1], reverse=True)
        return ranked[1] if len(ranked) > 1 else ranked[0]

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "probability": round(self.probability, 4),
            "scores": {k: round(v, 4) for k, v in self.scores.items()},
            "nearest": [
                {"text": n.text, "label": n.label, "similarity": round(n.similarity, 4)}
                for n in self.nearest
            ],
        }


def load_examples() -> list[Example]:
    """The bundled training examples (package data)."""
    text = resources.files("finagent.routing").joinpath("data", TRAINING_FILE).read_text("utf-8")
    examples = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row["label"] not in LABELS:
            raise ValueError(f"{TRAINING_FILE}:{number}: unknown label {row['label']!r}")
        examples.append(Example(text=row["text"], label=row["label"]))
    return examples


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True))


@dataclass(frozen=True)
class _Linear:
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (dim + 1, labels); last row is the bias

    def logits(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.scale
        return np.asarray(z @ self.weights[:-1] + self.weights[-1])


def _fit_linear(x: np.ndarray, y: np.ndarray, n_labels: int) -> _Linear:
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    target = np.eye(n_labels)[y]
    weights = np.zeros((z.shape[1], n_labels))
    velocity = np.zeros_like(weights)
    penalty = np.ones((z.shape[1], 1))
    penalty[-1] = 0.0  # the bias is not penalised
    for _ in range(ITERATIONS):
        grad = z.T @ (_softmax(z @ weights) - target) / len(z) + L2 * penalty * weights
        velocity = MOMENTUM * velocity - LEARNING_RATE * grad
        weights += velocity
    return _Linear(mean=mean, scale=scale, weights=weights)


def _stratified_folds(y: np.ndarray, folds: int) -> list[np.ndarray]:
    """Deterministic stratified folds: each label's items dealt round-robin."""
    buckets: list[list[int]] = [[] for _ in range(folds)]
    for label in np.unique(y):
        for position, index in enumerate(np.flatnonzero(y == label)):
            buckets[position % folds].append(int(index))
    return [np.asarray(sorted(b), dtype=int) for b in buckets]


def _best_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    best, best_nll = 1.0, float("inf")
    for t in TEMPERATURES:
        probs = _softmax(logits / t)
        nll = float(-np.mean(np.log(probs[np.arange(len(y)), y] + 1e-12)))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


@dataclass(frozen=True)
class CrossValidation:
    """Out-of-fold results on the training examples."""

    folds: int
    accuracy: float
    per_label: dict[str, dict[str, float]]
    temperature: float
    predicted: list[str]
    thresholds: dict[str, dict[str, float]] = field(default_factory=dict)
    confident_routes: dict[str, dict[str, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "folds": self.folds,
            "size": len(self.predicted),
            "accuracy": round(self.accuracy, 4),
            "temperature": self.temperature,
            "per_label": self.per_label,
            "thresholds": self.thresholds,
            "confident_routes": self.confident_routes,
        }


def threshold_sweep(probs: np.ndarray, y: np.ndarray) -> dict[str, dict[str, float]]:
    """Out-of-fold accuracy, S5 and S1 recall when a confidence below each threshold
    becomes S5: the evidence for ``FINAGENT_ROUTING_MIN_CONFIDENCE``."""
    s5, s1 = LABELS.index("S5"), LABELS.index("S1")
    out = {}
    for threshold in THRESHOLDS:
        final = np.where(probs.max(axis=1) < threshold, s5, probs.argmax(axis=1))
        out[f"{threshold:.2f}"] = {
            "accuracy": round(float((final == y).mean()), 4),
            "recall_S5": round(float((final[y == s5] == s5).mean()), 4) if (y == s5).any() else 0.0,
            "recall_S1": round(float((final[y == s1] == s1).mean()), 4) if (y == s1).any() else 0.0,
            "asked": round(float((final == s5).mean()), 4),
        }
    return out


def confident_route_sweep(probs: np.ndarray, y: np.ndarray) -> dict[str, dict[str, float]]:
    """Out-of-fold routes (not S5) at or above each confidence: their share of the
    examples, their accuracy and the share of them that should have asked (true S5): the
    evidence for ``FINAGENT_ROUTING_OVER_CLARIFICATION_CONFIDENCE``."""
    s5 = LABELS.index("S5")
    predicted, top = probs.argmax(axis=1), probs.max(axis=1)
    out = {}
    for threshold in ROUTE_THRESHOLDS:
        chosen = (predicted != s5) & (top >= threshold)
        n = int(chosen.sum())
        out[f"{threshold:.2f}"] = {
            "n": n,
            "share": round(n / max(len(y), 1), 4),
            "accuracy": round(float((predicted[chosen] == y[chosen]).mean()), 4) if n else 0.0,
            "should_ask": round(float((y[chosen] == s5).mean()), 4) if n else 0.0,
        }
    return out


def cross_validate(
    vectors: np.ndarray, examples: list[Example], folds: int = FOLDS
) -> tuple[CrossValidation, np.ndarray]:
    """Out-of-fold predictions, accuracy, per-label recall and the fitted temperature."""
    y = np.asarray([LABELS.index(e.label) for e in examples])
    oof = np.zeros((len(examples), len(LABELS)))
    for held in _stratified_folds(y, folds):
        train = np.setdiff1d(np.arange(len(y)), held)
        oof[held] = _fit_linear(vectors[train], y[train], len(LABELS)).logits(vectors[held])
    predicted = oof.argmax(axis=1)
    per_label = {}
    for index, name in enumerate(LABELS):
        mask = y == index
        if mask.any():
            per_label[name] = {
                "n": int(mask.sum()),
                "recall": round(float((predicted[mask] == index).mean()), 4),
            }
    temperature = _best_temperature(oof, y)
    result = CrossValidation(
        folds=folds,
        accuracy=float((predicted == y).mean()),
        per_label=per_label,
        temperature=temperature,
        predicted=[LABELS[i] for i in predicted],
        thresholds=threshold_sweep(_softmax(oof / temperature), y),
        confident_routes=confident_route_sweep(_softmax(oof / temperature), y),
    )
    return result, oof


@dataclass(frozen=True)
class FittedModel:
    """What fitting produces: standardisation, weights and the calibration temperature."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    temperature: float


def fit(vectors: np.ndarray, examples: list[Example], folds: int = FOLDS) -> FittedModel:
    """Temperature from cross-validation, then the model on all examples (about 0.5 s idle)."""
    x = np.asarray(vectors, dtype=np.float64)
    y = np.asarray([LABELS.index(e.label) for e in examples])
    cv, _ = cross_validate(x, examples, folds)
    linear = _fit_linear(x, y, len(LABELS))
    return FittedModel(linear.mean, linear.scale, linear.weights, cv.temperature)


class SemanticClassifier:
    """Calibrated label probabilities and nearest training examples for a query vector.

    ``model`` is the shipped fit for these vectors; without it the classifier is fitted
    here (another embeddings model)."""

    def __init__(
        self,
        examples: list[Example],
        vectors: np.ndarray,
        model: FittedModel | None = None,
        folds: int = FOLDS,
    ) -> None:
        if len(examples) != len(vectors):
            raise ValueError("one vector per example is required")
        self.examples = examples
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.folds = folds
        self.model = model or fit(self.vectors, examples, folds)
        self.temperature = self.model.temperature
        self._model = _Linear(self.model.mean, self.model.scale, self.model.weights)
        self._cv: CrossValidation | None = None

    @property
    def cv(self) -> CrossValidation:
        """Out-of-fold results on the training examples (computed on first use)."""
        if self._cv is None:
            self._cv, _ = cross_validate(self.vectors.astype(np.float64), self.examples, self.folds)
        return self._cv

    def predict(self, vector: np.ndarray) -> Prediction:
        x = np.asarray(vector, dtype=np.float64).reshape(1, -1)
        probs = _softmax(self._model.logits(x) / self.temperature)[0]
        # einsum, not BLAS: a threaded gemv wakes worker threads and costs milliseconds
        # at p95 on a busy host for a 0.1 ms product
        similarities = np.einsum("ij,j->i", self.vectors, x[0].astype(np.float32))
        top = np.argsort(-similarities)[:NEIGHBOURS]
        nearest = [
            Neighbour(self.examples[i].text, self.examples[i].label, float(similarities[i]))
            for i in top
        ]
        best = int(probs.argmax())
        return Prediction(
            label=LABELS[best],
            probability=float(probs[best]),
            scores={name: float(p) for name, p in zip(LABELS, probs, strict=True)},
            nearest=nearest,
        )
