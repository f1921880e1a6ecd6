"""A plain numpy logistic regression over the ranker's features, and its top-1 score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class Group:
    """The candidate sentences of one question: features and whether each holds the value."""

    qid: str
    x: np.ndarray
    y: np.ndarray
    kind: str = ""  # "law" (Tax Code, knowledge base, key facts) or "docs"


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 3000, lr: float = 0.5
) -> tuple[np.ndarray, float]:
    """Weights and bias (in the raw feature scale), positives weighted as much as negatives."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, float(len(y) - y.sum()))
    sample = np.where(y > 0, 0.5 / pos, 0.5 / neg)
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = sample * (p - y)
        w -= lr * (z.T @ g + l2 * w / len(y))
        b -= lr * float(g.sum())
    weights = w / scale
    return weights, float(b - (weights * mean).sum())


def top1(groups: Sequence[Group], weights: np.ndarray, bias: float) -> float:
    """Share of questions whose best-scored sentence holds the value (answerable ones)."""
    answerable = [g for g in groups if g.y.any()]
    hits = sum(bool(g.y[int(np.argmax(g.x @ weights + bias))]) for g in answerable)
    return hits / max(1, len(answerable))


def cross_validated_top1(
    groups: Sequence[Group],
    folds: int = 5,
    l2: float = 1.0,
    kind: str | None = None,
) -> tuple[float, list[float]]:
    """Top-1 of models fitted without the question's fold (questions split by id order);
    ``kind``: scored on that kind's questions only (trained on all)."""
    per_fold: list[float] = []
    hits = 0
    total = 0
    for k in range(folds):
        test = [g for i, g in enumerate(groups) if i % folds == k and kind in (None, g.kind)]
        train = [g for i, g in enumerate(groups) if i % folds != k]
        if not test or not train:
            continue
        w, b = fit_logistic(
            np.vstack([g.x for g in train]), np.concatenate([g.y for g in train]), l2
        )
        score = top1(test, w, b)
        per_fold.append(round(score, 3))
        answerable = sum(1 for g in test if g.y.any())
        hits += round(score * answerable)
        total += answerable
    return hits / max(1, total), per_fold
