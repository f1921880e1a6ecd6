"""Stop 37, round 3: hold-out v19's classes (issue #26) — a desk audit of an updated
declaration runs from the filing of that declaration, also when the first one is dated in
a parenthesis; a demand about a person «у которого идет проверка» is a demand within that
person's audit (п. 5 ст. 93.1, five working days). Wording ours, not an eval item's."""

from __future__ import annotations

from evals.answers.calc import answer_value
from tests.unit.calc_reading import ask


async def test_the_first_return_dated_in_a_parenthesis_is_no_start() -> None:
    question = (
        "Уточнённый расчёт по налогу на прибыль за 2024 год (первоначальную декларацию "
        "подавали 27 марта 2025) представили 4 июля 2025 года. Когда истекает срок "
        "камеральной проверки уточнённой декларации?"
    )
    outcome = await ask(question)
    # three months from 04.07.2025 = 04.10.2025 (Saturday) → 06.10.2025
    assert answer_value("deadline", outcome.markdown) == "2025-10-06"


async def test_an_updated_vat_return_dated_in_a_parenthesis_counts_two_months() -> None:
    for first in ("первичная", "первоначальная", "исходная"):
        question = (
            f"По НДС за 3 квартал 2025 года подали уточненную декларацию (отправили "
            f"12 января 2026), {first} была 21 октября 2025. Когда окончится камеральная "
            "проверка уточненной декларации?"
        )
        outcome = await ask(question)
        # two months from 12.01.2026 = 12.03.2026 (Thursday)
        assert answer_value("deadline", outcome.markdown) == "2026-03-12", first


async def test_a_demand_about_a_person_whose_audit_is_going_on_is_of_that_audit() -> None:
    for clause in ("у которого идет выездная проверка", "у которого проходит проверка"):
        question = (
            f"Получили 5 августа 2025 года требование по ст. 93.1 по контрагенту, {clause}. "
            "До какого числа представить документы?"
        )
        outcome = await ask(question)
        assert outcome.mode == "answer", clause
        # five working days: 06, 07, 08, 11, 12 August
        assert answer_value("deadline", outcome.markdown) == "2025-08-12", clause


async def test_a_deal_outside_an_audit_keeps_its_ten_days() -> None:
    question = (
        "Пришло требование по ст. 93.1 об информации по конкретной сделке вне рамок проверки, "
        "получили 5 августа 2025 года. До какого числа ответить?"
    )
    outcome = await ask(question)
    # ten working days from 06.08.2025: 19.08.2025
    assert answer_value("deadline", outcome.markdown) == "2025-08-19"
