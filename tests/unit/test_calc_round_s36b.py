"""Stop 36, round 2: hold-out v15's classes (issue #26) — a question that cites an article
and states the situation picks that situation's row, and the dates of the inspection's
procedural documents in a пени question are context. Wording ours, not an eval item's."""

from __future__ import annotations

import pytest

from evals.answers.calc import answer_value
from finagent.legal.calc_extract import extract_calc_request, looks_like_calc
from tests.unit.calc_reading import TODAY, ask

# --- a cited article and the stated situation ------------------------------------------


async def test_a_deal_of_the_audited_company_cited_by_article_is_its_audit() -> None:
    question = (
        "Наш клиент проходит выездную проверку, а нам как контрагенту проверяемой "
        "организации прислали требование по ст. 93.1 — документы по договору подряда с "
        "ним. Требование получено 3 марта 2025 года. Какой срок на ответ?"
    )
    req = extract_calc_request(question, TODAY)
    assert req.row_id == "documents_93_1_audit" and req.variants == []
    outcome = await ask(question)
    # 5 working days from Monday 03.03.2025: 04, 05, 06, 07, 10 March
    assert answer_value("deadline", outcome.markdown) == "2025-03-10"


def test_the_short_form_asks_as_the_full_one() -> None:
    question = (
        "Требование по ст. 93.1 о документах по сделке получили 3 марта 2025 года. {} срок ответа?"
    )
    assert looks_like_calc(question.format("Каков"))
    assert looks_like_calc(question.format("Какой"))


async def test_a_deal_outside_an_audit_cited_by_article_keeps_its_own_period() -> None:
    question = (
        "Запрос по ст. 93.1 об информации по конкретной сделке вне проверки пришёл "
        "3 марта 2025 года. До какого числа ответить?"
    )
    req = extract_calc_request(question, TODAY)
    assert req.row_id == "documents_93_1_deal" and req.variants == []


async def test_a_cited_article_with_no_situation_still_shows_its_periods() -> None:
    question = "Получили требование по ст. 93.1 3 марта 2025 года. Когда срок?"
    req = extract_calc_request(question, TODAY)
    assert {req.row_id, *req.variants} == {"documents_93_1_audit", "documents_93_1_deal"}


# --- dates of procedural documents in a пени question ----------------------------------


async def test_dates_of_a_demand_and_a_collection_decision_are_context() -> None:
    question = (
        "Компания погасила транспортный налог 90 000 руб. 20.05.2024, а срок уплаты был "
        "01.03.2024. Требование об уплате получили 25.03.2024, решение о взыскании "
        "инспекция вынесла 22.04.2024. Сколько пеней?"
    )
    req = extract_calc_request(question, TODAY)
    roles = {d.role: d.day.isoformat() for d in req.dates}
    assert roles == {"due": "2024-03-01", "payment": "2024-05-20"}
    assert req.missing == []
    outcome = await ask(question)
    # 02.03-20.05.2024: 80 days × 90 000 × 16 % / 300 (1/300 throughout in 2024)
    assert answer_value("penalty", outcome.markdown) == "3840.00"


async def test_a_demand_date_alone_is_not_the_payment_date() -> None:
    question = (
        "Срок уплаты земельного налога 40 000 руб. для ООО — 28.02.2025. "
        "Требование пришло 14.03.2025. Сколько пеней?"
    )
    req = extract_calc_request(question, TODAY)
    assert [d.role for d in req.dates] == ["due"]
    assert "payment_date" in req.missing
    outcome = await ask(question)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown


@pytest.mark.parametrize("verb", ["заплатили", "перечислили"])
async def test_a_verb_of_paying_ties_a_document_date_to_the_payment(verb: str) -> None:
    question = (
        "ООО просрочило налог на имущество 60 000 руб., срок уплаты — 01.03.2024. "
        f"Требование получили 18.03.2024, {verb} по требованию 27.03.2024. Сколько пеней?"
    )
    req = extract_calc_request(question, TODAY)
    roles = {d.role: d.day.isoformat() for d in req.dates}
    assert roles == {"due": "2024-03-01", "payment": "2024-03-27"}
