"""Stop 35, round 4: hold-out v12's declines (issue #26) — a told rule the Code does not
have, asked to be applied, and a contract debt's interest asked «как пени». Wording ours,
not an eval item's."""

from __future__ import annotations

import pytest

from evals.answers.calc import answer_value
from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.calc_text import read_question
from finagent.legal.law_scope import OTHER_LAW, names_tax
from finagent.legal.stated_rule import STATED_RULE, stated_rule, without_rule
from tests.unit.calc_reading import TODAY, ask

HOUR_RULE = (
    "Коллеги говорят, что если акт выездной проверки вручён после 16:30, то месяц на "
    "возражения считается со следующего понедельника. Акт вручили 2 июня 2025 г. в 16:50. "
    "Посчитайте по этому правилу, до какого числа возражения."
)


async def test_a_told_rule_with_an_hour_is_declined_and_the_code_count_labelled() -> None:
    outcome = await ask(HOUR_RULE)
    assert outcome.mode == "decline"
    text = outcome.markdown
    assert "Такого правила в НК РФ нет" in text and "п. 8)" in text
    # the Code's own count follows, labelled, never as the answer to the told rule
    assert "Ответ:" not in text and answer_value("deadline", text) is None
    assert "Срок по правилам НК РФ (без названного вами условия)" in text
    # one month from 02.06.2025 (п. 6 ст. 100): 02.07.2025, a Wednesday
    assert "**По НК РФ: 02.07.2025**" in text


async def test_added_days_for_sending_are_declined_for_a_penalty_too() -> None:
    question = (
        "Мне сказали, что если налог уплачен через банк, срок уплаты считается плюс 5 дней "
        "на перевод. Организация должна была заплатить 100 000 руб. 28 июля 2025 г., "
        "заплатила 1 августа 2025 г. Посчитайте пени по этому правилу."
    )
    req = extract_calc_request(question, TODAY)
    assert req.kind == "penalty" and req.decline == STATED_RULE
    outcome = await ask(question)
    assert outcome.mode == "decline" and "Такого правила в НК РФ нет" in outcome.markdown
    assert answer_value("penalty", outcome.markdown) is None


async def test_a_rule_with_no_foreign_condition_is_computed() -> None:
    # the Code's own rule told as hearsay: no hour, no added days
    outcome = await ask(
        "Говорят, если последний день срока приходится на воскресенье, он переносится на "
        "ближайший рабочий день. Требование о представлении документов получили "
        "3 апреля 2025 г. До какого числа представить документы?"
    )
    assert outcome.mode == "answer"
    assert answer_value("deadline", outcome.markdown) == "2025-04-17"


@pytest.mark.parametrize(
    "question",
    [
        # an hour told as a fact, no rule stated
        "Нам сказали, что требование о представлении документов пришло по ТКС 2 апреля "
        "2025 г. в 19:05. До какого числа представить документы?",
        # an hour in a rule, but nobody told it: the user's own condition
        "Если требование о представлении документов пришло 2 апреля 2025 г. в 19:05, "
        "до какого числа представить документы?",
        # 24 o'clock is the Code's own (п. 8 ст. 6.1)
        "Слышал, что если сдать документы до 24 часов последнего дня, срок не пропущен. "
        "Требование о представлении документов получили 2 апреля 2025 г. До какого числа "
        "представить документы?",
    ],
)
def test_no_told_rule_with_a_foreign_condition(question: str) -> None:
    assert not stated_rule(read_question(question))
    assert extract_calc_request(question, TODAY).decline != STATED_RULE


def test_the_code_count_reads_the_question_without_the_told_rule() -> None:
    stripped = without_rule(read_question(HOUR_RULE))
    assert "16:30" not in stripped and "понедельника" not in stripped
    assert stripped.startswith("Акт вручили 2 июня 2025 г.")


@pytest.mark.parametrize(
    "question",
    [
        "Заказчик рассчитался за работы 850 000 руб. на 30 дней позже срока по договору "
        "(15 апреля 2025 г.). Начислите проценты по ключевой ставке как пени по налогам.",
        "Контрагент просрочил оплату по договору поставки 300 000 руб.: срок 1 марта 2025 г., "
        "оплатил 20 марта 2025 г. Посчитайте пени по аналогии с налоговыми, нам для претензии.",
    ],
)
async def test_contract_interest_asked_like_tax_penalties_is_declined(question: str) -> None:
    assert extract_calc_request(question, TODAY).decline == OTHER_LAW
    outcome = await ask(question)
    assert outcome.mode == "decline" and outcome.ok
    text = outcome.markdown
    assert "ст. 75 НК РФ" in text and "ст. 395 ГК РФ" in text and "ст. 330 ГК РФ" in text
    assert "Ответ:" not in text and "руб." not in text


@pytest.mark.parametrize(
    ("question", "tax"),
    [
        ("Посчитайте проценты по договору, как пени по налогам.", False),
        ("Как посчитать пени по налогу на прибыль за 40 дней?", True),
        ("Как налоговые пени считаются по договору займа?", True),
        ("Пени по НДС за просрочку по договору: как считать?", True),
    ],
)
def test_a_tax_named_only_in_a_comparison_is_not_the_debt(question: str, tax: bool) -> None:
    assert names_tax(read_question(question)) is tax
