"""The agent answers deadline and пени questions with the calculators (S2 ``calc``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from evals.answers.cbr_loopback import published_key_rates
from finagent.graph.agent import Agent
from finagent.legal.key_rate_data import shipped_key_rates
from tests.fakes.cbr_soap import FakeCbrServer, running_server
from tests.fakes.llm import ScriptedChatModel, tool_call_message


@pytest.fixture
def cbr() -> Iterator[FakeCbrServer]:
    for fake in running_server():
        fake.state.key_rates = published_key_rates(date.today())
        yield fake


def live(cbr: FakeCbrServer) -> dict[str, Any]:
    return {
        "cbr_enabled": True,
        "cbr_url": cbr.url,
        "cbr_retry_backoff_s": 0.0,
        "cbr_timeout_s": 2.0,
    }


async def test_offline_deadline_answer_shows_steps_and_both_norms(make_services, cbr) -> None:
    services = await make_services(**live(cbr))
    result = await Agent(services).run(
        user_id="alice",
        query="До какого числа подать возражения на акт проверки, полученный 9 апреля 2026 года?",
    )
    assert result.debug["decision"]["intents"] == ["calc"]
    assert result.debug["decision"]["rule"] == "calc"
    assert result.debug["answer_mode"] == "calc"
    answer = result.answer
    assert "**Ответ: 12.05.2026**" in answer
    assert "п. 6 ст. 100 НК РФ" in answer  # the substantive norm
    assert "п. 2 ст. 6.1 НК РФ" in answer and "п. 7 ст. 6.1 НК РФ" in answer
    assert "## Расчёт" in answer and "## Источники" in answer


async def test_offline_penalty_answer_has_the_breakdown(make_services, cbr) -> None:
    services = await make_services(**live(cbr))
    result = await Agent(services).run(
        user_id="alice",
        query="ООО просрочило уплату 1 000 000 руб.: срок уплаты 25.05.2025, "
        "деньги перечислены 15.07.2025. Сколько пеней?",
    )
    assert result.debug["answer_mode"] == "calc"
    answer = result.answer
    # 25.05.2025 is a Sunday: the due date is Monday 26.05 (п. 7 ст. 6.1), 50 days late
    assert "последний день уплаты — 26.05.2025" in answer
    assert "**Ответ: 47 100,00 руб.**" in answer
    assert "| 26.06.2025 – 15.07.2025 | 20 | 20.00 % | 1/150 |" in answer
    assert "п. 3 ст. 75 НК РФ" in answer and "п. 5.1 ст. 75 НК РФ" in answer


async def test_penalty_without_the_bank_of_russia_uses_the_shipped_history(make_services) -> None:
    services = await make_services()  # cbr disabled
    result = await Agent(services).run(
        user_id="alice", query="сколько пеней на 10 000 руб., срок 28.04.2025, уплачено 05.05.2025"
    )
    assert "**Ответ: 49,00 руб.**" in result.answer  # 10 000 × 21 % / 300 × 7 days
    as_of = shipped_key_rates().as_of
    assert f"встроенная история ставок Банка России по состоянию на {as_of:%d.%m.%Y}" in (
        result.answer
    )
    later = await Agent(services).run(
        user_id="alice",
        query="сколько пеней на 10 000 руб., срок 20.10.2025, уплачено 05.11.2025, ИП",
    )
    assert "Ответ:" not in later.answer
    assert "на даты с 28.10.2025 по 05.11.2025" in later.answer
    assert "источник Банка России не подключён" in later.answer


def calc_reading(row: str, day: str) -> AIMessage:
    """The LLM extractor's scripted reading of a deadline question."""
    dated = {"day": day, "role": "asked_event", "text": "", "year_assumed": False}
    return tool_call_message("CalcReading", {"kind": "deadline", "row_id": row, "dates": [dated]})


ROUTED_TO_CALC = tool_call_message(
    "OrchestratorOutput",
    {"scenario": 2, "intents": ["calc"], "confidence": 0.95, "reason": "срок"},
)


async def test_llm_orchestrator_routes_to_calc(make_services, cbr) -> None:
    llm = ScriptedChatModel([ROUTED_TO_CALC, calc_reading("explanations_88", "2025-02-03")])
    services = await make_services(llm, **live(cbr))
    result = await Agent(services).run(
        user_id="alice", query="Пояснения по требованию от 3 февраля 2025: последний день?"
    )
    assert result.debug["decision"]["source"] == "llm"
    assert "**Ответ: 10.02.2025**" in result.answer  # the LLM's reading agrees: computed
    assert "п. 3 ст. 88 НК РФ" in result.answer
    assert llm.calls == 2  # the routing and the reading, no answer LLM
    assert result.debug["calc"]["llm_reading"]["verdict"] == "agree"


async def test_a_disagreeing_llm_reading_is_asked_back_through_the_graph(
    make_services, cbr
) -> None:
    llm = ScriptedChatModel([ROUTED_TO_CALC, calc_reading("explanations_88", "2025-02-04")])
    services = await make_services(llm, **live(cbr))
    result = await Agent(services).run(
        user_id="alice", query="Пояснения по требованию от 3 февраля 2025: последний день?"
    )
    assert result.debug["answer_mode"] == "clarified" and "Ответ:" not in result.answer
    assert "03.02.2025 или 04.02.2025" in result.answer


async def test_a_failing_llm_reading_leaves_the_rules_answer(make_services, cbr) -> None:
    llm = ScriptedChatModel([ROUTED_TO_CALC, ConnectionError("connection refused")])
    services = await make_services(llm, **live(cbr))
    result = await Agent(services).run(
        user_id="alice", query="Пояснения по требованию от 3 февраля 2025: последний день?"
    )
    assert "**Ответ: 10.02.2025**" in result.answer and "refused" not in result.answer
    assert "failed" in result.debug["calc"]["llm_reading"]


async def test_llm_answer_calls_the_deadline_tool(make_loaded, cbr) -> None:
    llm = ScriptedChatModel(
        [
            tool_call_message(
                "OrchestratorOutput",
                {"scenario": 2, "intents": ["kb"], "confidence": 0.9, "reason": "t"},
            ),
            tool_call_message(
                "Req_Calculate_Deadline_For_Events",
                {"events": [{"event_date": "2025-02-03", "period": 5, "unit": "working_days"}]},
            ),
            AIMessage("## Краткий вывод\nСрок — 10.02.2025 [1].\n\n## Подробный анализ\nСм. [1]."),
        ]
    )
    services = (await make_loaded(llm, **live(cbr)))["services"]
    result = await Agent(services).run(user_id="alice", query="ставка НДС и срок пояснений")
    tools_prompt = llm.received[1][0].content
    assert "Req_Calculate_Deadline_For_Events" in tools_prompt  # the prompt says when
    tool_output = llm.received[2][-1].content
    assert '"end_date":"2025-02-10"' in tool_output
    assert "10.02.2025" in result.answer


async def test_calc_without_data_falls_back_to_the_knowledge_base(make_loaded, cbr) -> None:
    llm = ScriptedChatModel(
        [
            tool_call_message(
                "OrchestratorOutput",
                {"scenario": 2, "intents": ["calc"], "confidence": 0.9, "reason": "срок"},
            ),
            AIMessage("## Краткий вывод\nСм. [1].\n\n## Подробный анализ\nСм. [1]."),
        ]
    )
    services = (await make_loaded(llm, **live(cbr)))["services"]
    result = await Agent(services).run(user_id="alice", query="ставка НДС: до какого числа?")
    assert result.debug["calc"] == "not parsed"
    assert result.debug["answer_mode"] != "calc"
    assert "Не удалось извлечь" not in result.answer


async def test_a_calc_question_missing_its_date_is_asked_back(make_loaded, cbr) -> None:
    """Not passages from elsewhere: a short question naming what is missing, and the
    knowledge base is not searched."""
    services = (await make_loaded(**live(cbr)))["services"]
    result = await Agent(services).run(
        user_id="alice", query="До какого числа подать возражения на акт выездной проверки?"
    )
    assert result.debug["decision"]["intents"] == ["calc"]
    assert result.debug["answer_mode"] == "clarified"
    assert result.answer.startswith("Чтобы ответить точно, уточните, пожалуйста:")
    assert "получения акта" in result.answer and "Ответ:" not in result.answer
    assert "search_kb" not in result.debug and not result.used_chunks
    assert result.debug["calc_request"]["missing"] == ["event_date"]


async def test_another_countrys_deadline_is_declined_in_the_calc_route(make_loaded, cbr) -> None:
    services = (await make_loaded(**live(cbr)))["services"]
    result = await Agent(services).run(
        user_id="alice",
        query="Акт проверки получен 10.03.2025. До какого числа подать возражения по законам "
        "Казахстана?",
    )
    assert result.debug["decision"]["intents"] == ["calc"]
    assert "Ответ:" not in result.answer and "нет оснований для ответа" in result.answer
    assert "Казахстан" in result.answer


async def test_offline_penalty_after_today_explains_rates_not_set_yet(make_services) -> None:
    services = await make_services()  # cbr disabled
    due = date.today() + timedelta(days=40)
    paid = due + timedelta(days=75)
    result = await Agent(services).run(
        user_id="alice",
        query=f"Организация должна уплатить 90 000 руб. до {due:%d.%m.%Y}, рассчитается "
        f"{paid:%d.%m.%Y}. Сколько будет пеней?",
    )
    answer = result.answer
    assert "Ответ:" not in answer and "таблице долей" not in answer
    assert "ещё не установил" in answer and "п. 3 ст. 75 НК РФ" in answer
    # a due date on a day off moves to the next working day (п. 7 ст. 6.1): days may be fewer
    assert "Просрочка — " in answer and f"по {paid:%d.%m.%Y} включительно" in answer
    assert "90 000,00 руб. × доля × ключевая ставка" in answer
