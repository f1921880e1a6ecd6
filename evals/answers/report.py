"""Plain-text tables of an answer evaluation: one per dataset, baseline beside verified."""

from __future__ import annotations

from typing import Any

from evals.answers.aggregate import TARGETS

# (label, metric key, format): rows of the table, in order
ROWS: tuple[tuple[str, str, str], ...] = (
    ("key fact rate", "key_fact", "ratio"),
    ("article recall", "article_recall", "ratio"),
    ("article precision", "article_precision", "ratio"),
    ("point recall", "point_recall", "ratio"),
    ("point precision", "point_precision", "ratio"),
    ("abstention on traps", "trap_abstention", "ratio"),
    ("false abstention", "false_abstention", "ratio"),
    ("unsupported references", "unsupported_refs", "int"),
    ("  of them in abstentions", "unsupported_in_abstentions", "int"),
    ("answers w/ unsupported", "answers_with_unsupported", "int"),
    ("quoted references", "quoted_refs", "int"),
    ("named as missing (abstentions)", "named_missing_refs", "int"),
    ("latency p50, ms", "latency_p50_ms", "ms"),
    ("latency p95, ms", "latency_p95_ms", "ms"),
    ("LLM calls / answer", "llm_calls_per_answer", "calls"),
    ("errors", "errors", "int"),
)
_TARGET_TEXT = {key: f"{op} {threshold:g}" for key, op, threshold in TARGETS}
_MARK = {True: "met", False: "NOT met", None: "n/a"}


def _cell(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "ratio":
        return f"{value:.3f}"
    if kind == "ms":
        return f"{value:.1f}"
    if kind == "calls":
        return f"{value:.2f}"
    return str(int(value))


def _dataset_table(name: str, part: dict[str, Any]) -> list[str]:
    modes = list(part["modes"])
    header = f"{'metric':<26}" + "".join(f"{m:>10}" for m in modes) + f"{'target':>10}  met"
    lines = [f"== {name} ({part['size']} items)", header, "-" * len(header)]
    for label, key, kind in ROWS:
        cells = "".join(f"{_cell(part['modes'][m]['metrics'].get(key), kind):>10}" for m in modes)
        target = _TARGET_TEXT.get(key, "")
        met = ""
        if target:
            met = " / ".join(_MARK[part["modes"][m]["targets"].get(key)] for m in modes)
        lines.append(f"{label:<26}{cells}{target:>10}  {met}".rstrip())
    return lines


def format_report(result: dict[str, Any]) -> str:
    """Per dataset: metric rows, one column per mode, the target and whether each met it."""
    lines = [
        f"answers: llm={result['llm']}, embedder={result['embedder']}, "
        f"langsmith upload={'on' if result['langsmith']['upload'] else 'off'}",
        "columns: baseline = verified_answers=false (unverified extractive composer), "
        "verified = defaults",
    ]
    if not result.get("verified_setting", True):
        lines.append("note: Settings has no verified_answers field yet; both columns are equal")
    lines.append("point precision is the citation precision target; n/a = no item applies")
    for name, part in result["by_dataset"].items():
        lines += ["", *_dataset_table(name, part)]
    return "\n".join(lines)
