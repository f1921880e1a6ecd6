"""The direct-answer table (one per dataset, one column per composer mode), the key fact
of the answer evaluation, the per-item miss list of dev datasets, and the hits whose lead
line does not state the value (:func:`lead_misses`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from evals.direct.matching import group_met
from evals.direct.scoring import TARGETS, check_targets

# (label, metric key): rows of the table, in order
ROWS: tuple[tuple[str, str], ...] = (
    ("value: doc_sample", "doc_sample"),
    ("value: doc_new", "doc_new"),
    ("value: documents (both)", "doc"),
    ("  lead: documents", "lead_doc"),
    ("value: taxcode", "taxcode"),
    ("value: kb", "kb"),
    ("value: taxcode + kb", "taxcode_kb"),
    ("  lead: taxcode + kb", "lead_taxcode_kb"),
    ("value: all answerable", "value_all"),
    ("  lead: all answerable", "lead_all"),
    ("  hits with the value in a quote only", "hit_not_lead"),
    ("declined or clarified", "declined"),
    ("  of them: live source offline", "live_unavailable"),
    ("answered but wrong", "wrong"),
    ("  value elsewhere in answer", "value_elsewhere"),
    ("false abstentions", "false_abstentions"),
    ("answered instead of declining", "answered_instead_of_declining"),
    ("unsupported figures", "unsupported_figures"),
    ("  answers with them", "answers_with_unsupported_figures"),
    ("unsupported references", "unsupported_refs"),
    ("latency p50, ms", "latency_p50_ms"),
    ("latency p95, ms (warm)", "latency_p95_ms"),
    ("errors", "errors"),
)
_TARGET_TEXT = {key: f"{op} {threshold:g}" for key, op, threshold in TARGETS}
_MARK = {True: "met", False: "NOT met", None: "n/a"}
WIDTH = 18


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        rate = value.get("rate")
        return "-" if rate is None else f"{rate:.3f} ({value['hit']}/{value['n']})"
    if value is None:
        return "-"
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def _table(
    title: str,
    rows: list[tuple[str, str]],
    modes: list[str],
    metrics: dict[str, Any],
    targets: dict[str, dict[str, bool | None]],
) -> list[str]:
    header = f"{'metric':<31}" + "".join(f"{m:>{WIDTH}}" for m in modes) + f"{'target':>10}  met"
    lines = [title, header, "-" * len(header)]
    for label, key in rows:
        cells = "".join(f"{_cell(metrics[m].get(key)):>{WIDTH}}" for m in modes)
        target = _TARGET_TEXT.get(key, "")
        met = " / ".join(_MARK[targets[m].get(key)] for m in modes) if target else ""
        lines.append(f"{label:<31}{cells}{target:>10}  {met}".rstrip())
    return lines


def format_report(result: dict[str, Any]) -> str:
    """Every dataset's table, then the key fact; hold-outs show totals only."""
    modes = list(result["modes"])
    lines = [
        f"direct answers: composer modes {', '.join(modes)}; data dir {result['data_dir']} "
        f"({'warm' if result['warm'] else 'built now'})",
        "value = every must_contain group in the Краткий вывод; "
        "declined = abstention, S5 or live source offline",
    ]
    for name, part in result["by_dataset"].items():
        title = f"== {name} ({part['size']} items, {part['skipped']} skipped)"
        if part["blind"]:
            title += " [hold-out: totals only]"
        metrics = {m: part["modes"][m]["metrics"] for m in modes}
        targets = {m: part["modes"][m]["targets"] for m in modes}
        lines += ["", *_table(title, list(ROWS), modes, metrics, targets)]
        if not part["blind"] and part.get("problems"):
            lines += ["skipped items:", *(f"  {p}" for p in part["problems"])]
    if result.get("key_fact"):
        names = list(dict.fromkeys(n for m in modes for n in result["key_fact"].get(m, {})))
        for name in names:
            metrics = {
                m: {"key_fact": _key_fact_cell(result["key_fact"][m].get(name))} for m in modes
            }
            targets = {m: check_targets(metrics[m]) for m in modes}
            title = f"== key fact of the answer evaluation: {name}"
            lines += ["", *_table(title, [("key fact", "key_fact")], modes, metrics, targets)]
    return "\n".join(lines)


def _key_fact_cell(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    if not entry or entry.get("key_fact") is None:
        return None
    n = int(entry["n"])
    return {"rate": entry["key_fact"], "hit": round(entry["key_fact"] * n), "n": n}


def _dev_items(result: dict[str, Any]) -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    """Each dev dataset's (not a blind hold-out's) scored items, per mode."""
    for name, part in result["by_dataset"].items():
        if not part["blind"]:
            for mode, entry in part["modes"].items():
                yield name, mode, entry.get("items", [])


def misses(result: dict[str, Any]) -> dict[str, Any]:
    """Per dev dataset and mode: the answerable items missed and the refusals answered
    (id, category, answer type, expected groups, the Краткий вывод, where the value was)."""
    out: dict[str, Any] = {}
    for name, mode, items in _dev_items(result):
        rows = []
        for item in items:
            missed = item["expected"] == "answer" and not item["hit"]
            answered = item["expected"] != "answer" and not (
                item["declined"] or item["clarified"] or item["live_unavailable"]
            )
            unsupported = item.get("unsupported_refs") or item.get("unsupported_figures")
            if missed or answered or unsupported:
                rows.append(
                    {
                        k: item[k]
                        for k in (
                            "id",
                            "category",
                            "answer_type",
                            "expected",
                            "expected_groups",
                            "missing",
                            "summary",
                            "scenario",
                            "declined",
                            "clarified",
                            "live_unavailable",
                            "value_in_body",
                            "value_in_sources",
                            "source_kinds",
                            "cited",
                            "error",
                            "unsupported_refs",
                            "unsupported_figures",
                        )
                        if k in item
                    }
                )
        out.setdefault(name, {})[mode] = rows
    return out


def lead_misses(result: dict[str, Any]) -> dict[str, Any]:
    """Per dev dataset and mode: the hits whose lead line does not state every expected
    value (the value only in the quote): id, category, answer type, the groups missing
    from the lead, the lead as scored and the Краткий вывод."""
    out: dict[str, Any] = {}
    for name, mode, items in _dev_items(result):
        rows = []
        for item in items:
            if item["expected"] != "answer" or not item["hit"] or item.get("lead_hit"):
                continue
            missing = [g for g in item["expected_groups"] if not group_met(item.get("lead", ""), g)]
            rows.append(
                {
                    "id": item["id"],
                    "category": item["category"],
                    "answer_type": item["answer_type"],
                    "expected_groups": item["expected_groups"],
                    "missing_from_lead": missing,
                    "lead": item.get("lead", ""),
                    "summary": item["summary"],
                }
            )
        out.setdefault(name, {})[mode] = rows
    return out
