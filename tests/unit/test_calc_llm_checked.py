"""When the rules ask back or decline, an LLM reading is computed only when it checks out
against the question's own words and dates; otherwise the rules' answer stands."""

from __future__ import annotations

from typing import Any

from finagent.answering.calc import LlmReader
from finagent.answering.calc_common import CalcOutcome
from finagent.legal.calc_llm import SCHEMA_NAME
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.unit.calc_reading import ask as calculated

# invented: the asking part names no action the rules know; the addendum's receipt is dated
ADDENDUM = "Получили дополнение к акту 4 августа 2025 года. До какого числа нам действовать?"
# invented: the due date is named, the payment is told in words the rules do not know
SETTLED = (
    "Срок уплаты налога 100 000 руб. был 28.04.2025. 15.05.2025 сдали декларацию, "
    "20.06.2025 рассчитались с бюджетом. Организация. Сколько пеней?"
)


def reading(row: str | None, day: str) -> dict[str, Any]:
    return {
        "kind": "deadline",
        "row_id": row,
        "dates": [{"day": day, "role": "asked_event", "text": "", "year_assumed": False}],
    }


def penalty(due: str, paid: str) -> dict[str, Any]:
    return {
        "kind": "penalty",
        "dates": [
            {"day": due, "role": "due", "text": "", "year_assumed": False},
            {"day": paid, "role": "payment", "text": "", "year_assumed": False},
        ],
        "amounts": [{"value": "100000", "role": "arrears", "text": ""}],
        "payer": "organization",
    }


async def ask(question: str, args: dict[str, Any] | None) -> CalcOutcome:
    reader = None
    if args is not None:
        reader = LlmReader(
            ScriptedChatModel([tool_call_message(SCHEMA_NAME, args)]), "function_calling"
        )
    return await calculated(question, reader)


async def test_offline_the_rules_ask_for_the_procedure() -> None:
    outcome = await ask(ADDENDUM, None)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown


async def test_a_row_whose_event_the_question_dates_is_computed_and_said_so() -> None:
    # objections to an addendum: 15 working days from 04.08.2025 (Mon) end on 25.08.2025
    outcome = await ask(ADDENDUM, reading("objections_addendum_101", "2025-08-04"))
    assert outcome.mode == "answer" and "**Ответ: 25.08.2025**" in outcome.markdown
    assert "прочтение вопроса языковой моделью" in outcome.markdown
    assert outcome.debug["llm_reading"]["verdict"] == "verified"


async def test_a_row_whose_event_the_question_does_not_tell_is_not_computed() -> None:
    # the decision after a field audit runs from the end of objections: not told here
    outcome = await ask(ADDENDUM, reading("objections_100", "2025-08-04"))
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert outcome.debug["llm_reading"]["verdict"] == "unverified"


async def test_a_hallucinated_date_is_not_computed() -> None:
    outcome = await ask(ADDENDUM, reading("objections_addendum_101", "2025-08-05"))
    assert outcome.mode == "clarify"
    assert "event date not in the question" in outcome.debug["llm_reading"]["differences"]


async def test_a_payment_date_anchored_by_the_due_words_is_computed() -> None:
    offline = await ask(SETTLED, None)
    assert offline.mode == "clarify"
    outcome = await ask(SETTLED, penalty("2025-04-28", "2025-06-20"))
    assert outcome.mode == "answer" and "**Ответ:" in outcome.markdown
    assert "срок уплаты 28.04.2025, недоимка погашена 20.06.2025" in outcome.markdown


async def test_a_due_date_the_words_call_otherwise_is_not_computed() -> None:
    # the model takes the declaration's day as due and the due day as paid
    outcome = await ask(SETTLED, penalty("2025-05-15", "2025-06-20"))
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert "another due date than the rules'" in outcome.debug["llm_reading"]["differences"]


async def test_a_model_that_disagrees_on_the_amount_is_not_computed() -> None:
    args = penalty("2025-04-28", "2025-06-20")
    args["amounts"][0]["value"] = "10000"
    outcome = await ask(SETTLED, args)
    assert outcome.mode == "clarify"
    assert outcome.debug["llm_reading"]["differences"] == ["arrears not an amount of the question"]
