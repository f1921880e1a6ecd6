"""The rule router on its own: traps from the issue and the routing dataset (>= 90 %)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finagent.routing.rules import classify
from finagent.state import Scenario, Turn

DATASET = Path(__file__).resolve().parents[2] / "evals" / "datasets" / "routing.jsonl"


@pytest.mark.parametrize(
    ("query", "scenario", "intents"),
    [
        ("найди информацию о вычетах", 2, ["kb"]),
        ("новости о ключевой ставке", 2, ["news"]),
        ("что такое ключевая ставка", 2, ["kb"]),
        ("какая ключевая ставка сейчас", 2, ["rates"]),
        ("а сколько?", 5, []),
        ("курс доллара на 1 апреля 2025", 2, ["rates"]),
        ("как ЦБ устанавливает официальный курс", 2, ["kb"]),
        ("найди в моих документах штрафы", 1, []),
        ("какая сейчас ключевая ставка и какие новости по ней", 2, ["rates", "news"]),
        ("привет", 2, ["smalltalk"]),
    ],
)
def test_traps(query: str, scenario: int, intents: list[str]) -> None:
    decision = classify(query)
    assert int(decision.scenario) == scenario
    assert decision.intents == intents
    assert decision.source == "rules"


def test_follow_up_with_history_is_not_clarification() -> None:
    history = [
        Turn(role="user", content="какой вычет на лечение по НДФЛ?"),
        Turn(role="assistant", content="Социальный вычет..."),
    ]
    decision = classify("а сколько можно вернуть?", history)
    assert decision.scenario == Scenario.ROUTED
    assert decision.intents == ["kb"]


def test_selected_documents_go_to_documents_scenario() -> None:
    assert classify("какая сумма?", (), True).scenario == Scenario.FULL_DOCUMENTS


def test_accuracy_on_routing_dataset() -> None:
    rows = [
        json.loads(line)
        for line in DATASET.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    assert len(rows) >= 80
    wrong = []
    for row in rows:
        history = [Turn.model_validate(t) for t in row.get("history", [])]
        decision = classify(row["query"], history, row.get("selected_documents", False))
        ok = int(decision.scenario) == row["scenario"] and (
            row["scenario"] != 2 or decision.intents == row["intents"]
        )
        if not ok:
            wrong.append((row["id"], row["query"], int(decision.scenario), decision.intents))
    accuracy = 1 - len(wrong) / len(rows)
    assert accuracy >= 0.90, f"accuracy {accuracy:.3f}; wrong: {wrong}"


HELD_OUT = [  # written after the rules were tuned on routing.jsonl: a generalisation check
    ("сколько стоит евро сегодня", 2, ["rates"]),
    ("курс юаня на 15.03.2025", 2, ["rates"]),
    ("что нового у ЦБ", 2, ["news"]),
    ("свежие новости про налоги для ИП", 2, ["news"]),
    ("как платить НДФЛ с продажи квартиры", 2, ["kb"]),
    ("лимит доходов для самозанятых", 2, ["kb"]),
    ("какой срок подачи 3-НДФЛ", 2, ["kb"]),
    ("в моей выписке есть платежи от ООО Ромашка?", 1, []),
    ("покажи из загруженного акта итоговую сумму", 1, []),
    ("добрый вечер", 2, ["smalltalk"]),
    ("спасибо, очень помогло", 2, ["smalltalk"]),
    ("а что с этим делать?", 5, []),
    ("ну и?", 5, []),
    ("что такое пени и как их считать", 2, ["kb"]),
    ("переведи 1000 долларов в рубли по курсу ЦБ", 2, ["rates"]),
    ("ключевая ставка в 2024 году", 2, ["rates"]),
    ("почему ЦБ повышает ключевую ставку", 2, ["kb"]),
    ("что заявил ЦБ о ключевой ставке", 2, ["news"]),
    ("какие штрафы за непредставление декларации", 2, ["kb"]),
    ("найди по моим документам все суммы НДС", 1, []),
]


@pytest.mark.parametrize(("query", "scenario", "intents"), HELD_OUT)
def test_held_out_queries(query: str, scenario: int, intents: list[str]) -> None:
    decision = classify(query)
    assert int(decision.scenario) == scenario
    if scenario == 2:
        assert decision.intents == intents
