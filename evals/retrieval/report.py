"""Plain-text tables of the retrieval evaluation (:mod:`evals.retrieval.runner`)."""

from __future__ import annotations

from typing import Any

from evals.retrieval.runner import KS, TARGET_GAIN_OVER_SINGLE, TARGET_RECALL_AT_5


def _method_table(methods: dict[str, dict[str, Any]]) -> list[str]:
    header = (
        f"{'method':<22}"
        + "".join(f"{'art@' + str(k):>8}" for k in KS)
        + f"{'art MRR':>9}"
        + "".join(f"{'pt@' + str(k):>8}" for k in KS)
        + f"{'pt MRR':>8}{'ms':>8}"
    )
    lines = [header, "-" * len(header)]
    for method, s in methods.items():
        art, pt = s["article"], s["point"]
        latency = s.get("mean_latency_ms")
        lines.append(
            f"{method:<22}"
            + "".join(f"{art[f'recall@{k}']:>8.3f}" for k in KS)
            + f"{art['mrr']:>9.3f}"
            + "".join(f"{pt[f'recall@{k}']:>8.3f}" for k in KS)
            + f"{pt['mrr']:>8.3f}"
            + (f"{latency:>8.1f}" if latency is not None else f"{'':>8}")
        )
    return lines


def _targets_line(targets: dict[str, Any] | None) -> str:
    if not targets:
        return ""
    mark = {True: "met", False: "NOT met"}
    return (
        f"targets: hybrid art@5 {targets['hybrid_recall@5']:.3f} >= {TARGET_RECALL_AT_5:.2f} "
        f"{mark[targets['recall_met']]}; gain over {targets['best_single']} "
        f"{100 * targets['gain']:+.1f} points >= +{100 * TARGET_GAIN_OVER_SINGLE:.0f} "
        f"{mark[targets['gain_met']]}"
    )


def format_table(result: dict[str, Any]) -> str:
    """Plain-text side-by-side tables: one per dataset, then all questions together."""
    lines: list[str] = []
    by_dataset = result.get("by_dataset", {})
    if len(by_dataset) > 1:
        for name, part in by_dataset.items():
            lines += [f"== {name} ({part['size']} questions)", *_method_table(part["methods"])]
            lines += [_targets_line(part["targets"]), ""]
        lines.append(f"== all ({result['dataset_size']} questions)")
    lines += _method_table(result["methods"])
    lines.append(_targets_line(result.get("targets")))
    return "\n".join(lines).rstrip()
