"""Stop 37, round 2: hold-out v18's classes (issue #26) — a delivery that failed («вручить
не смогли») dates no receipt, so a posted document counts from the sixth working day; a
day asked about a document received from the inspection with no date at all is asked
back (the day of receipt, the demand's kind); a party the speaker speaks as with no
first-person pronoun is the actor of an asked action with none; «сколько дней / времени»
asks a length. Wording ours, not an eval item's."""

from __future__ import annotations

from evals.answers.calc import answer_value
from finagent.answering.messages import CLARIFY_HEADER
from finagent.legal.calc_extract import asks_penalty, looks_like_calc
from finagent.legal.calc_text import read_question
from tests.unit.calc_reading import ask, row_ids

# --- a failed delivery, then registered mail -------------------------------------------


async def test_a_failed_handing_over_then_post_counts_from_the_sixth_working_day() -> None:
    for failed in ("вручить не смогли", "вручить не получилось", "не удалось вручить"):
        question = (
            f"Решение об отказе в привлечении к ответственности вынесено 3 марта 2025 года, "
            f"{failed}, и 11 марта 2025 его выслали заказным письмом. Когда истекает месяц, "
            "после которого решение вступает в силу?"
        )
        outcome = await ask(question)
        # 11.03 + six working days = 19.03 (п. 9 ст. 101), + one month = 19.04 (Saturday)
        assert answer_value("deadline", outcome.markdown) == "2025-04-21", failed
        assert "03.03.2025 из вопроса — не начало срока" in outcome.markdown


async def test_a_receipt_that_happened_still_dates_the_period() -> None:
    question = (
        "Акт выездной проверки отправили заказным письмом 5 мая 2025, а получили его "
        "7 мая 2025. До какого числа представить возражения?"
    )
    outcome = await ask(question)
    # the actual receipt before the sixth day: the period runs from it
    assert answer_value("deadline", outcome.markdown) == "2025-06-09"  # 07.06 is a Saturday


# --- a day asked with no date at all -----------------------------------------------------


def test_an_undated_receipt_from_the_inspection_is_claimed() -> None:
    assert looks_like_calc("Налоговая прислала по ТКС требование. По какое число отвечать?")
    assert looks_like_calc("Получили из ИФНС письмо. До какой даты нужно среагировать?")


def test_an_undated_story_without_the_inspection_is_not_claimed() -> None:
    assert not looks_like_calc("Получили от поставщика счёт. До какого числа оплатить?")
    # a length asked with no date stays a question about the law
    assert not looks_like_calc("Пришло требование из налоговой. Какой срок ответа?")


async def test_an_undated_demand_is_asked_back_for_its_day_and_kind() -> None:
    outcome = await ask("Из инспекции через ТКС поступило требование. По какое число ответить?")
    assert outcome.mode == "clarify"
    assert outcome.markdown.startswith(CLARIFY_HEADER)
    assert "дата получения" in outcome.markdown
    assert "ст. 88" in outcome.markdown and "ст. 93" in outcome.markdown
    assert set(outcome.debug["missing"]) >= {"event_date", "procedure"}


# --- the party the speaker speaks as, with no pronoun ------------------------------------


async def test_the_speakers_bank_is_the_actor_of_an_actorless_asked_action() -> None:
    for question in (
        "Наш банк закрыл клиенту расчётный счёт 17 июля 2025 г. Когда крайний срок для "
        "уведомления налоговой?",
        "У себя в банке 17.07.2025 закрыли счёт организации. Какой последний день сообщения?",
    ):
        outcome = await ask(question)
        assert answer_value("deadline", outcome.markdown) == "2025-07-22", question


def test_another_actor_named_in_the_asking_part_keeps_its_reading() -> None:
    question = (
        "Наш банк открыл счёт организации 17 июля 2025 г. Когда инспекция должна сообщить об этом?"
    )
    assert "bank_account_info_86" not in row_ids(question)


# --- «сколько дней / времени» asks a length ------------------------------------------------


async def test_how_many_days_asked_with_a_date_is_computed() -> None:
    question = "Требование о пояснениях по НДС получили 6 октября 2025 г. Сколько дней на ответ?"
    assert looks_like_calc(question)
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == "2025-10-13"


def test_how_many_days_of_delay_stays_a_penalty_question() -> None:
    text = read_question(
        "Налог 120 000 руб. нужно было заплатить 28.07.2025, заплатили 11.08.2025. Сколько "
        "дней просрочки и сколько пени?"
    )
    assert asks_penalty(text)


async def test_a_request_under_the_anti_laundering_law_is_declined() -> None:
    question = (
        "По 115-ФЗ банк 10 сентября 2025 запросил у нас договор с контрагентом. Сколько "
        "рабочих дней на ответ, как по требованию налоговой?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) is None
    assert outcome.mode in ("decline", "not_calc")
