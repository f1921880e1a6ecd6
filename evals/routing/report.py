"""Plain-text reports of the routing evaluation (:mod:`evals.routing.runner`)."""

from __future__ import annotations

from typing import Any


def _why(miss: dict[str, Any]) -> str:
    if miss.get("rule"):
        return f"rule {miss['rule']}"
    scores = ", ".join(f"{k} {v:.2f}" for k, v in (miss.get("scores") or {}).items())
    nearest = "; ".join(
        f"{n['label']} {n['similarity']:.2f} «{n['text']}»" for n in miss.get("nearest") or []
    )
    return f"{miss.get('source')}: {scores} | nearest: {nearest}"


def format_report(result: dict[str, Any]) -> str:
    lines = [
        f"[{result.get('name', 'dataset')}] router: {result['router']}  rows: {result['size']}  "
        f"accuracy: {result['accuracy']:.3f}",
        "",
    ]
    if "training_overlap" in result:
        overlap = result["training_overlap"]
        lines += [f"rows also in the classifier's training examples: {len(overlap)} {overlap}", ""]
    clean = result.get("without_once_in_training")
    if clean:
        lines += [
            f"without the {len(clean['excluded'])} rows once copied into the training examples: "
            f"rows: {clean['size']}  accuracy: {clean['accuracy']:.3f}  "
            + "  ".join(
                f"recall {k} {v['recall']:.3f}" for k, v in clean["scenario_recall"].items()
            ),
            "",
        ]
    lines += [f"{k:22} n={v['n']:3}  {v['accuracy']:.3f}" for k, v in result["per_label"].items()]
    if result.get("scenario_recall"):
        lines += [""]
        lines += [
            f"recall {k:15} n={v['n']:3}  {v['recall']:.3f}"
            for k, v in result["scenario_recall"].items()
        ]
    if result["misses"]:
        lines += ["", "misses:"]
        for m in result["misses"]:
            lines.append(f"  {m['id']} {m['expected']} -> {m['got']}: {m['query']}")
            if m.get("source"):
                lines.append(f"      {_why(m)}")
    return "\n".join(lines)


def format_cross_validation(cv: dict[str, Any]) -> str:
    lines = [
        f"[training examples, {cv['folds']}-fold cross-validation] rows: {cv['size']}  "
        f"accuracy: {cv['accuracy']:.3f}  temperature: {cv['temperature']}",
    ]
    lines += [f"recall {k:15} n={v['n']:3}  {v['recall']:.3f}" for k, v in cv["per_label"].items()]
    if cv.get("thresholds"):
        lines += ["", "below the threshold -> S5 (out-of-fold, classifier alone):"]
        lines += [
            f"  threshold {t}: accuracy {v['accuracy']:.3f}  recall S5 {v['recall_S5']:.3f}  "
            f"recall S1 {v['recall_S1']:.3f}  asked {v['asked']:.3f}"
            for t, v in cv["thresholds"].items()
        ]
    if cv.get("confident_routes"):
        lines += ["", "routes at or above the confidence (out-of-fold; should ask = true S5):"]
        lines += [
            f"  confidence {t}: share {v['share']:.3f}  accuracy {v['accuracy']:.3f}  "
            f"should ask {v['should_ask']:.4f}  (n={v['n']})"
            for t, v in cv["confident_routes"].items()
        ]
    return "\n".join(lines)
