"""Stop 38 (issue #26): no confidently wrong deadline where the reading is not sure — a
receipt told through a verb of ability, a sending told in other words (the personal
account, ТКС), a day picked by no cue while another day's clause tells the event, a day
inside a parenthesis. Wording ours, not an eval item's."""

from __future__ import annotations

from evals.answers.calc import answer_value
from finagent.answering.calc import clarification
from finagent.legal.calc_extract import extract_calc_request
from tests.unit.calc_reading import ask

_TODAY_YEAR_Q = "До какого числа подать возражения?"


async def test_a_posted_act_received_through_an_ability_verb_counts_from_that_day() -> None:
    for verb in ("смогли", "удалось", "успели"):
        question = (
            "Инспекция направила акт проверки по НДФЛ заказным письмом 7 июля 2025 года, "
            f"получить его нам {verb} 9 июля. {_TODAY_YEAR_Q}"
        )
        outcome = await ask(question)
        # received 09.07.2025, before the sixth working day (15.07): a month → 09.08.2025
        # (Saturday) → 11.08.2025
        assert answer_value("deadline", outcome.markdown) == "2025-08-11", verb


async def test_a_posted_letter_picked_up_early_counts_from_the_pick_up() -> None:
    question = (
        "Акт выездной проверки по акцизам выслали заказным письмом 14 июля 2025 года, а "
        f"забрать его с почты сумели 16 июля 2025 года. {_TODAY_YEAR_Q}"
    )
    outcome = await ask(question)
    # a month from 16.07.2025 = 16.08.2025 (Saturday) → 18.08.2025
    assert answer_value("deadline", outcome.markdown) == "2025-08-18"


async def test_a_document_placed_in_the_personal_account_asks_its_receipt() -> None:
    for verb in ("разместила", "разместили"):
        question = (
            f"Налоговая {verb} в личном кабинете требование о представлении документов по "
            "налогу на имущество 4 августа 2025 года. До какого числа отправить документы?"
        )
        outcome = await ask(question)
        assert outcome.mode == "clarify", verb
        assert answer_value("deadline", outcome.markdown) is None, verb


async def test_a_decision_placed_in_the_personal_account_is_no_desk_audit() -> None:
    question = (
        "Решение по камеральной проверке декларации по НДС инспекция разместила в личном "
        "кабинете 6 августа 2025 года. Когда оно вступает в силу?"
    )
    outcome = await ask(question)
    assert outcome.mode == "clarify"
    assert answer_value("deadline", outcome.markdown) is None


async def test_a_tks_sending_far_before_its_day_is_no_receipt() -> None:
    question = (
        "Инспекция направила требование о пояснениях по декларации по налогу на прибыль "
        "по телекоммуникационным каналам связи 11 августа 2025 года, квитанцию о приеме мы "
        "не отправляли. Когда последний день для пояснений?"
    )
    outcome = await ask(question)
    assert outcome.mode == "clarify"


async def test_a_receipt_of_acceptance_in_its_own_clause_dates_the_receipt() -> None:
    question = (
        "Требование о пояснениях по НДС пришло по ТКС 3 сентября 2025 года, квитанцию о "
        "приеме направили 4 сентября 2025 года. Когда истекает срок ответа?"
    )
    outcome = await ask(question)
    # five working days from 04.09.2025: 05, 08, 09, 10, 11 September
    assert answer_value("deadline", outcome.markdown) == "2025-09-11"


async def test_a_day_whose_clause_tells_the_event_far_off_contests_the_first() -> None:
    question = (
        "Акт выездной проверки подписан 2 сентября 2025 года, и только 15 сентября нашему "
        "юристу наконец удалось получить экземпляр акта на руки. До какого числа возражения?"
    )
    outcome = await ask(question)
    assert outcome.mode == "clarify"
    assert "02.09.2025" in outcome.markdown and "15.09.2025" in outcome.markdown
    # each reading is named with the day it gives
    assert "02.10.2025" in outcome.markdown and "15.10.2025" in outcome.markdown


def test_the_question_back_names_what_each_day_gives() -> None:
    req = extract_calc_request(
        "Акт выездной проверки подписан 2 сентября 2025 года, и только 15 сентября нашему "
        "юристу наконец удалось получить экземпляр акта на руки. До какого числа возражения?",
        today=__import__("datetime").date(2026, 1, 1),
    )
    asked = clarification(req)
    assert asked is not None and "от 02.09.2025 — 02.10.2025" in asked


async def test_a_day_in_a_parenthesis_is_no_fallback_pick() -> None:
    for question in (
        "Выездная проверка по НДС (с 3 февраля 2025 года), справка о проведенной проверке "
        "от 14 августа 2025 года. Когда крайний срок составления акта?",
        "Справка о проведенной выездной проверке по НДС (проверка с 3 февраля 2025 года) — "
        "14 августа 2025 года. Когда крайний срок для акта?",
    ):
        outcome = await ask(question)
        # two months from 14.08.2025 = 14.10.2025 (Tuesday); not from 03.02.2025
        assert answer_value("deadline", outcome.markdown) == "2025-10-14", question
