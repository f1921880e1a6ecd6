"""With an LLM, a calc question is read by the LLM too and refereed by the rule extractor."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from structlog.testing import capture_logs

from finagent.answering.calc import LlmReader
from finagent.answering.calc_common import CalcOutcome
from finagent.legal.calc_llm import SCHEMA_NAME, reading_schema, rows_listing
from finagent.legal.periods import procedural_periods
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.unit.calc_reading import ask as calculated

# an invented question: objections to a field audit act received on Friday 13.03.2026
OBJECTIONS = (
    "Акт выездной проверки вручили 13 марта 2026 года. Когда последний день для возражений?"
)
DEBT = (
    "Организация не уплатила вовремя 200 000 руб. налога: срок уплаты был 28.04.2025, "
    "заплатили 20.05.2025. Сколько пеней?"
)


def deadline_reading(row: str = "objections_100", day: str = "2026-03-13") -> dict[str, Any]:
    return {
        "kind": "deadline",
        "row_id": row,
        "dates": [{"day": day, "role": "asked_event", "text": "", "year_assumed": False}],
    }


def penalty_reading(amount: str = "200000", due: str = "2025-04-28") -> dict[str, Any]:
    return {
        "kind": "penalty",
        "dates": [
            {"day": due, "role": "due", "text": "", "year_assumed": False},
            {"day": "2025-05-20", "role": "payment", "text": "", "year_assumed": False},
        ],
        "amounts": [{"value": amount, "role": "arrears", "text": ""}],
        "payer": "organization",
    }


async def ask(question: str, llm: ScriptedChatModel | None) -> CalcOutcome:
    reader = LlmReader(llm, "function_calling") if llm is not None else None
    return await calculated(question, reader, penalties=False)


def scripted(*replies: Any) -> ScriptedChatModel:
    return ScriptedChatModel(list(replies))


async def test_an_agreeing_model_gives_the_offline_answer() -> None:
    offline = await ask(OBJECTIONS, None)
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading()))
    outcome = await ask(OBJECTIONS, llm)
    assert outcome.markdown == offline.markdown and "**Ответ:" in outcome.markdown
    assert outcome.debug["llm_reading"]["verdict"] == "agree"
    system = llm.received[0][0].content
    assert "- objections_100:" in system and "asked_event" in system and "payer" in system
    assert llm.received[0][1].content == OBJECTIONS


async def test_another_row_shows_both_readings_computed_and_claims_neither() -> None:
    # the explanations to a demand (5 working days) instead of objections (one month)
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading(row="explanations_88")))
    outcome = await ask(OBJECTIONS, llm)
    assert outcome.mode == "variants" and "Ответ:" not in outcome.markdown
    assert "п. 6 ст. 100 НК РФ" in outcome.markdown and "п. 3 ст. 88 НК РФ" in outcome.markdown
    assert outcome.debug["llm_reading"]["differences"] == ["procedure"]


async def test_another_event_date_is_asked_back_naming_both_dates() -> None:
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading(day="2026-03-16")))
    outcome = await ask(OBJECTIONS, llm)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert outcome.markdown.startswith("Чтобы ответить точно, уточните, пожалуйста:")
    assert "13.03.2026 или 16.03.2026" in outcome.markdown


async def test_another_arrears_amount_is_asked_back() -> None:
    llm = scripted(tool_call_message(SCHEMA_NAME, penalty_reading(amount="20000")))
    outcome = await ask(DEBT, llm)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert "200 000,00 руб. или 20 000,00 руб." in outcome.markdown


async def test_a_due_date_on_a_day_off_is_the_same_date_for_both_readings() -> None:
    # 25.05.2025 is a Sunday: the rules move it to Monday, the model writes it as stated
    question = DEBT.replace("28.04.2025", "25.05.2025").replace("20.05.2025", "20.06.2025")
    reading = penalty_reading(due="2025-05-25")
    reading["dates"][1]["day"] = "2025-06-20"
    outcome = await ask(question, scripted(tool_call_message(SCHEMA_NAME, reading)))
    assert outcome.debug["llm_reading"]["verdict"] == "agree"


async def test_invalid_json_leaves_the_rules_alone_and_is_logged() -> None:
    offline = await ask(OBJECTIONS, None)
    with capture_logs() as logs:
        outcome = await ask(OBJECTIONS, scripted(AIMessage('{"kind": "deadline", "row_id": ')))
    assert outcome.markdown == offline.markdown
    assert "failed" in outcome.debug["llm_reading"]
    failures = [e for e in logs if e["event"] == "calc_llm_failed"]
    assert len(failures) == 1 and "no JSON object" in failures[0]["cause"]


async def test_a_model_that_raises_leaves_the_rules_alone() -> None:
    offline = await ask(DEBT, None)
    with capture_logs() as logs:
        outcome = await ask(DEBT, scripted(TimeoutError("read timed out")))
    assert outcome.markdown == offline.markdown and "Error" not in outcome.markdown
    assert logs[0]["event"] == "calc_llm_failed" and "read timed out" in logs[0]["cause"]


async def test_an_unknown_row_id_is_an_invalid_reading() -> None:
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading(row="no_such_row")))
    outcome = await ask(OBJECTIONS, llm)
    assert outcome.mode == "answer" and "failed" in outcome.debug["llm_reading"]


async def test_a_date_the_question_does_not_name_leaves_the_rules_question_back() -> None:
    # the rules ask for the act's date; the model invents one
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading()))
    outcome = await ask("Когда последний день для возражений на акт выездной проверки?", llm)
    assert outcome.mode == "clarify" and llm.calls == 1
    assert outcome.debug["llm_reading"]["verdict"] == "unverified"
    assert "event date not in the question" in outcome.debug["llm_reading"]["differences"]


async def test_another_country_is_declined_without_asking_the_model() -> None:
    llm = scripted()  # any call would fail the script
    question = "Акт проверки в Эстонии вручили 13 марта 2026 года. Когда последний день возражений?"
    outcome = await ask(question, llm)
    assert outcome.mode == "decline" and len(llm.received) == 0


def test_the_prompt_and_the_schema_list_every_row_of_the_table() -> None:
    ids = [row.id for row in procedural_periods()]
    listing = rows_listing()
    assert all(f"- {row_id}:" in listing for row_id in ids)
    schema = reading_schema().model_json_schema()
    enums = [
        option.get("enum")
        for option in schema["properties"]["row_id"]["anyOf"]
        if option.get("enum")
    ]
    assert enums == [ids]


POSTED = (
    "Директор уклонился от получения акта выездной проверки, и инспекция 3 апреля 2025 года "
    "отправила акт заказным письмом. До какого числа подать возражения?"
)


async def test_a_model_counting_a_posted_act_from_its_sending_agrees_with_the_sixth_day() -> None:
    """The rules count from the sixth day after the sending (п. 5 ст. 100); a model that
    names the sending day as the event read the same fact: the rules' answer stands."""
    offline = await ask(POSTED, None)
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading(day="2025-04-03")))
    outcome = await ask(POSTED, llm)
    assert "**Ответ: 12.05.2025**" in offline.markdown
    assert outcome.markdown == offline.markdown
    assert outcome.debug["llm_reading"]["verdict"] == "agree"


async def test_a_model_with_another_day_for_a_posted_act_is_asked_back() -> None:
    llm = scripted(tool_call_message(SCHEMA_NAME, deadline_reading(day="2025-04-07")))
    outcome = await ask(POSTED, llm)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert "07.04.2025" in outcome.markdown and "11.04.2025" in outcome.markdown
