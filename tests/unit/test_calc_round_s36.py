"""Stop 36: hold-out v13's classes (issue #26) — a second document of the same kind as a
distractor, debts under other laws, rows that exist but were not reached, and a demand
without its kind. Wording ours, not an eval item's."""

from __future__ import annotations

import pytest

from evals.answers.calc import answer_value
from evals.answers.calc_missing import missing_codes
from finagent.answering.calc import LlmReader, calculate
from finagent.legal.calc_extract import extract_calc_request, looks_like_calc
from finagent.legal.calc_llm import SCHEMA_NAME
from finagent.legal.calc_text import read_question
from finagent.legal.law_scope import OTHER_LAW, governing_law
from finagent.tools.base import ToolContext
from finagent.tools.calc import (
    Req_Calculate_Deadline_For_Events,
)
from finagent.tools.registry import ToolRegistry
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.unit.calc_reading import TODAY, ask

# --- a second document of the same kind ------------------------------------------------


async def test_a_demand_already_answered_is_context_not_the_asked_event() -> None:
    question = (
        "Идёт выездная проверка. 5 мая 2025 года получили требование о представлении "
        "документов по закупкам. Ещё 14 мая пришло требование о представлении документов по "
        "кадрам, его мы уже исполнили. До какого числа сдать документы по закупкам?"
    )
    req = extract_calc_request(question, TODAY)
    assert req.row_id == "documents_93" and req.event_date is not None
    assert req.event_date.isoformat() == "2025-05-05"
    outcome = await ask(question)
    # 10 working days from 05.05.2025 (the May holidays of 2025: 8-11 May)
    assert answer_value("deadline", outcome.markdown) == "2025-05-21"
    assert "уже исполненный" in outcome.markdown


async def test_two_open_demands_of_one_kind_are_asked_back_naming_both_dates() -> None:
    question = (
        "Налоговая прислала по ТКС требование о представлении документов 2 июля 2025 года, "
        "а 8 июля — ещё одно требование о представлении документов. До какой даты их "
        "представить?"
    )
    outcome = await ask(question)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert "02.07.2025" in outcome.markdown and "08.07.2025" in outcome.markdown


@pytest.mark.parametrize(
    ("ordinal", "expected"), [("первому", "2025-07-16"), ("второму", "2025-07-22")]
)
async def test_an_ordinal_of_the_asking_part_picks_the_demand(ordinal: str, expected: str) -> None:
    question = (
        "Налоговая прислала требование о представлении документов 2 июля 2025 года, "
        f"а 8 июля — второе требование о документах. Когда срок по {ordinal} требованию?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == expected


# --- debts under other laws --------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "law"),
    [
        (
            "Ввозную таможенную пошлину 64 000 руб. нужно было уплатить 11.08.2025, "
            "уплатили 29.08.2025. Сколько пеней?",
            "289-ФЗ",
        ),
        (
            "Импорт из Турции: НДС при ввозе по декларации на товары 210 000 руб. уплачен "
            "03.10.2025 вместо 19.09.2025. Посчитайте пени.",
            "289-ФЗ",
        ),
        (
            "Взносы от несчастных случаев на производстве 9 500 руб. уплатили 20.05.2025 "
            "вместо 15.05.2025. Какие пени?",
            "125-ФЗ",
        ),
        (
            "Подруга сказала, что самозанятым списывают пени по НПД по амнистии через "
            "месяц. Срок уплаты был 28.07.2025. Когда спишут?",
            "422-ФЗ",
        ),
    ],
)
async def test_another_laws_debt_is_declined_naming_that_law(question: str, law: str) -> None:
    req = extract_calc_request(question, TODAY)
    assert req.decline == OTHER_LAW
    outcome = await ask(question)
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    assert law in outcome.markdown


def test_a_self_employed_persons_own_penalty_is_still_computed_by_the_code() -> None:
    req = extract_calc_request(
        "Самозанятый заплатил НПД 5 200 руб. 10.06.2025 вместо 28.05.2025. Сколько пеней?",
        TODAY,
    )
    assert req.decline is None and req.kind == "penalty"


def test_an_importers_desk_audit_is_still_the_codes() -> None:
    req = extract_calc_request(
        "НДС на таможне мы платим сами. Декларацию по НДС за 1 квартал 2025 сдали "
        "22.04.2025. Когда закончится камеральная проверка?",
        TODAY,
    )
    assert req.decline is None and req.row_id == "desk_audit_vat_88"
    assert governing_law(read_question("Когда уплатить ввозную пошлину?")) is not None


# --- rows that exist but were not reached ------------------------------------------------


def test_an_aside_in_the_asking_part_is_not_the_asked_action() -> None:
    req = extract_calc_request(
        "1 сентября 2025 года мы купили 30 % акций ПАО. Как я понимаю, об этом надо "
        "сообщить в инспекцию — в какой срок и до какого числа?",
        TODAY,
    )
    assert req.row_id == "participation_23"


def test_the_desk_audit_of_a_simplified_deduction_is_its_own_row() -> None:
    req = extract_calc_request(
        "Через личный кабинет 1 октября 2025 подано заявление на вычет в упрощённом порядке. "
        "Когда истекает камеральная проверка этого заявления?",
        TODAY,
    )
    assert req.row_id == "desk_audit_deduction_88" and not req.variants


def test_a_demand_received_by_tks_is_routed_to_calc() -> None:
    assert looks_like_calc(
        "Пришёл запрос по ст. 93.1 по сделке с поставщиком. Получили по ТКС 6 октября 2025. "
        "До какой даты нужно ответить?"
    )


# --- a demand without its kind -----------------------------------------------------------


async def test_a_dated_demand_without_its_kind_asks_for_the_kind() -> None:
    outcome = await ask("По ТКС 2 сентября 2025 г. пришло требование. Когда крайний срок ответа?")
    assert outcome.mode == "clarify"
    assert "О чём требование" in outcome.markdown and "п. 3 ст. 93" in outcome.markdown


def test_an_items_examples_in_brackets_are_not_what_is_missing() -> None:
    assert missing_codes("вид документа (требование — 10 дней, пояснения — 5 дней)") == {
        "procedure"
    }


async def test_an_llm_reading_does_not_pick_one_of_two_open_demands() -> None:
    question = (
        "Налоговая прислала по ТКС требование о представлении документов 2 июля 2025 года, "
        "а 8 июля — ещё одно требование о представлении документов. До какой даты их "
        "представить?"
    )
    args = {
        "kind": "deadline",
        "row_id": "documents_93",
        "dates": [{"day": "2025-07-02", "role": "asked_event", "text": "", "year_assumed": False}],
    }
    reader = LlmReader(
        ScriptedChatModel([tool_call_message(SCHEMA_NAME, args)]), "function_calling"
    )
    registry = ToolRegistry([Req_Calculate_Deadline_For_Events()])
    outcome = await calculate(question, registry, ToolContext(user_id="u"), TODAY, None, reader)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown
    assert outcome.debug["llm_reading"]["verdict"] == "unverified"
