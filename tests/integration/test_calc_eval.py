"""``finagent eval answers --calc`` runs from the package alone (no ``tests`` import)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from evals.answers.calc import (
    CALC_DATASETS,
    CALC_DEV_ASKS,
    CALC_DEV_BLIND,
    CALC_DEV_BLIND_ROUNDS,
    CALC_DEV_SEEN,
    CALC_HOLDOUT,
    CALC_HOLDOUT_V4,
    CALC_HOLDOUT_V5,
    CALC_HOLDOUT_V6,
    CalcItem,
    answer_value,
    asked_right,
    load_calc_dataset,
    summarise,
)
from evals.answers.calc_missing import missing_codes
from finagent.answering.calc_common import CalcOutcome

REPO = Path(__file__).resolve().parents[2]

# Blocks the ``tests`` package, then runs the evaluation on a few items of each kind.
SCRIPT = """
import asyncio, json, sys
sys.modules["tests"] = None  # any `import tests...` now raises ImportError
from evals.answers.calc import CALC_DEV, load_calc_dataset, run_calc_eval
ids = ("cd01", "cd03", "cp01", "cp05", "cp11")
items = [i for i in load_calc_dataset(CALC_DEV) if i.id in ids]
runs = {str(mode): asyncio.run(run_calc_eval(items, mode)) for mode in (None, "agree", "perturb")}
print(json.dumps(runs))
"""


def test_calc_eval_runs_without_the_tests_package() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout.strip().splitlines()[-1])
    result = runs["None"]
    kinds = {r["kind"] for r in result["items"]}
    assert kinds == {"deadline", "penalty"}
    # cp01 and cp05 fall in the shipped history; cp11 runs past its as_of, so its key
    # rates came through the loopback key-rate responder
    assert len(result["items"]) == 5
    assert all(r["correct"] for r in result["items"]), result["items"]
    # a scripted LLM extractor: agreeing, the same answers; disagreeing, never a wrong one
    assert all(r["correct"] for r in runs["agree"]["items"]), runs["agree"]["items"]
    perturbed = runs["perturb"]["items"]
    assert all(r["got"] is None for r in perturbed), perturbed
    assert {r["mode"] for r in perturbed} <= {"variants", "clarify"}


def test_default_datasets() -> None:
    assert CALC_DEV_SEEN.exists() and CALC_DEV_SEEN in CALC_DATASETS
    assert CALC_DEV_BLIND.exists() and CALC_DEV_BLIND in CALC_DATASETS
    assert all(p.exists() and p in CALC_DATASETS for p in CALC_DEV_BLIND_ROUNDS)
    assert CALC_HOLDOUT.name == "calc_holdout_v3.jsonl" and CALC_HOLDOUT in CALC_DATASETS
    assert CALC_HOLDOUT_V4.exists() and CALC_HOLDOUT_V4 in CALC_DATASETS
    assert CALC_HOLDOUT_V5.exists() and CALC_HOLDOUT_V5 in CALC_DATASETS
    assert CALC_HOLDOUT_V6.exists() and CALC_HOLDOUT_V6 in CALC_DATASETS
    assert not (REPO / "evals" / "datasets" / "calc_holdout.jsonl").exists()
    assert CALC_DEV_ASKS in CALC_DATASETS
    kinds = {item.kind for item in load_calc_dataset(CALC_DEV_ASKS)}
    assert kinds == {"decline", "clarify"}


def _item(kind: str, **raw: object) -> CalcItem:
    return CalcItem("x", kind, "?", "", "d", {"kind": kind, **raw})


def test_a_decline_is_right_without_a_value_and_with_its_reason() -> None:
    foreign = _item("decline", reason="jurisdiction")
    refused = CalcOutcome("В загруженных источниках нет оснований для ответа …", True, {})
    assert asked_right(foreign, True, refused)
    assert not asked_right(foreign, True, CalcOutcome("Чтобы ответить …", True, {}, "clarify"))
    row = _item("decline", reason="appeals_not_in_text")
    declined = CalcOutcome("", False, {"request": {"decline": "appeals_not_in_text"}}, "not_calc")
    assert asked_right(row, True, declined) and asked_right(row, False, declined)


def test_a_clarification_is_right_when_it_names_what_is_missing() -> None:
    item = _item("clarify", missing=["amount"])
    asked = CalcOutcome(
        "Чтобы ответить точно, уточните, пожалуйста:\n- Какова сумма недоимки?",
        True,
        {"request": {"missing": ["amount", "payer"]}},
        "clarify",
    )
    assert asked_right(item, True, asked)
    assert not asked_right(_item("clarify", missing=["event_date"]), True, asked)
    assert not asked_right(item, False, asked)  # the calc route must claim it
    # a value on the «Ответ:» line is never a clarification
    assert answer_value("clarify", "**Ответ: 10.02.2025**") == "2025-02-10"


def test_what_is_missing_may_be_written_as_a_phrase() -> None:
    assert missing_codes("дата, когда пришло уведомление") == {"event_date"}
    assert missing_codes("размер неуплаченного взноса") == {"amount"}
    assert missing_codes("день погашения долга") == {"payment_date"}
    assert missing_codes("срок уплаты налога") == {"due_date"}
    assert missing_codes("о каком документе речь") == {"procedure"}
    assert missing_codes(["payer"]) == {"payer"}
    asked = CalcOutcome(
        "Чтобы ответить точно, уточните, пожалуйста:\n- Когда недоимка погашена?",
        True,
        {"request": {"missing": ["payment_date"]}},
        "clarify",
    )
    assert asked_right(_item("clarify", missing="день погашения долга"), True, asked)
    assert not asked_right(_item("clarify", missing="размер взноса"), True, asked)
    # nothing recognisable in the phrase: never counted as asked right
    assert not asked_right(_item("clarify", missing="???"), True, asked)


def test_a_decline_reason_in_words_takes_any_refusal() -> None:
    item = _item("decline", reason="Срок по закону другой страны, не по НК РФ.")
    refused = CalcOutcome("… нет оснований для ответа …", True, {}, "decline")
    assert asked_right(item, True, refused)
    assert asked_right(item, True, CalcOutcome("", False, {}, "not_calc"))
    asking = CalcOutcome("Чтобы ответить точно …", True, {"request": {}}, "clarify")
    assert not asked_right(item, True, asking)


def test_wrong_and_declined_are_counted_apart() -> None:
    rows = [
        {
            "dataset": "d",
            "kind": "deadline",
            "routed": True,
            "correct": True,
            "got": "x",
            "calculator_correct": True,
        },
        {
            "dataset": "d",
            "kind": "deadline",
            "routed": True,
            "correct": False,
            "got": "y",
            "calculator_correct": True,
        },
        {
            "dataset": "d",
            "kind": "deadline",
            "routed": False,
            "correct": False,
            "got": None,
            "calculator_correct": True,
        },
        {
            "dataset": "d",
            "kind": "deadline",
            "routed": True,
            "correct": False,
            "got": None,
            "mode": "clarify",
            "calculator_correct": True,
        },
    ]
    summary = summarise(rows)["d"]
    # asked back is a kind of declined: no value claimed
    assert (summary["wrong"], summary["declined"], summary["asked"]) == (1, 2, 1)
    ambiguous = "Вопрос подходит под несколько норм ... **26.06.2025**"
    assert answer_value("deadline", ambiguous) is None
