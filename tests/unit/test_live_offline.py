"""Where the notice of an unavailable Bank of Russia source stands: first for today's or a
future value, after the lead for a question about the past."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering import messages
from finagent.answering.live_offline import asks_past, asks_standing, notice_follows
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)
CBR = messages.SOURCE_NOT_CONFIGURED.format(name="Банк России")
NEWS = messages.SOURCE_NOT_CONFIGURED.format(name="финансовые новости")


@pytest.mark.parametrize(
    "question",
    [
        "Какая ключевая ставка действовала в марте 2024 года?",
        "До скольких процентов ЦБ поднял ставку в конце октября 2024 года?",
        "Курс, установленный ЦБ в среду, с какого дня действует?",
        "Какой была ставка после решения, вступившего в силу 15 июня 2024 года?",
    ],
)
def test_a_past_date_or_an_act_done_asks_the_past(question: str) -> None:
    assert asks_past(build_question(question, TODAY))


@pytest.mark.parametrize(
    "question",
    [
        "Какая сейчас ключевая ставка?",
        "Какой курс фунта ЦБ поставил на завтра?",
        "Какой будет ключевая ставка в следующем году?",
        "Какая ключевая ставка на сегодняшний день?",
        "Какой курс доллара ЦБ установит в январе 2027 года?",
        "Какую инфляцию ЦБ считает целевой?",
    ],
)
def test_today_the_future_or_no_time_is_not_the_past(question: str) -> None:
    assert not asks_past(build_question(question, TODAY))


@pytest.mark.parametrize(
    "question",
    [
        "Официальный курс юаня на 3 февраля 2025 года какой?",
        "Какая ключевая ставка на 12.09.2023?",
        "Курс фунта за 2022 год?",
    ],
)
def test_a_named_date_before_the_turn_s_day_asks_the_past(question: str) -> None:
    # the named date is the question's as-of day: the past is judged by the turn's date
    asked = build_question(question, TODAY)
    assert asked.as_of < TODAY
    assert asks_past(asked)


def test_a_past_day_leads_with_the_knowledge_base_only_when_it_names_that_day() -> None:
    asked = build_question("Какая ключевая ставка действовала с 16 сентября 2024 года?", TODAY)
    history = ["С 16 сентября 2024 года ставка повышена до 19 %."]
    method = ["Совет директоров рассматривает ставку восемь раз в год."]
    assert notice_follows(asked, [CBR], history)
    # a sentence that never names the day asked does not state that day's reading
    assert not notice_follows(asked, [CBR], method)
    rate = build_question("Каким был курс фунта ЦБ 5 мая 2025 года?", TODAY)
    assert not notice_follows(rate, [CBR], ["Курс фунта ЦБ устанавливает ежедневно."])
    # an act done with no day, month or year named leads with the knowledge base
    done = build_question("До скольких процентов ЦБ поднимал ставку?", TODAY)
    assert notice_follows(done, [CBR], method)


@pytest.mark.parametrize(
    "question",
    ["Какой курс юаня на 27 ноября 2026 года?", "Ключевая ставка на 1 марта 2027 года какая?"],
)
def test_the_turn_s_day_or_a_later_named_date_is_not_the_past(question: str) -> None:
    assert not asks_past(build_question(question, TODAY))


def test_only_a_bank_of_russia_notice_follows_the_lead() -> None:
    past = build_question("Какая ключевая ставка действовала в марте 2024 года?", TODAY)
    dated = ["С 18 декабря 2023 года по 28 июля 2024 года ставка — 16 %."]
    assert notice_follows(past, [CBR], dated)
    assert not notice_follows(past, [NEWS], dated)
    assert not notice_follows(past, [CBR, NEWS], dated)
    assert not notice_follows(past, [], dated)


@pytest.mark.parametrize(
    "question",
    [
        "Какая доля ставки рефинансирования берётся для пеней ИП в первый месяц просрочки?",
        "Сколько раз в квартал регулятор публикует обзор финансовой стабильности?",
        "Каков потолок полной стоимости потребительского кредита?",
        "Какой целевой уровень инфляции у регулятора?",
        "Как часто совет директоров ЦБ пересматривает ключевую ставку?",
        "Раз в сколько недель регулятор пересматривает ставку?",
    ],
)
def test_a_standing_setting_is_answered_before_any_notice(question: str) -> None:
    asked = build_question(question, TODAY)
    assert asks_standing(asked)
    # the knowledge base states a setting whichever live source failed
    assert notice_follows(asked, [CBR])
    assert notice_follows(asked, [NEWS])


@pytest.mark.parametrize(
    "question",
    [
        "Какая доля ставки сейчас применяется для пеней?",
        "Какой потолок по вкладам ЦБ установит в следующем месяце?",
        "Какой будет предельный курс юаня в январе 2027 года?",
        "Какой курс евро?",
        "Какая ключевая ставка Банка России?",
        # «раз» that counts no frequency: a conjunction, an ordinal's «второй раз»
        "Какой курс доллара, раз ЦБ снижает ставку?",
        "Ключевая ставка второй раз подряд не меняется — какая она?",
        # a frequency stated, not asked; a ratio asked, not a frequency
        "Какой курс юаня, если менять рубли раз в квартал?",
        "Какая ключевая ставка, если проценты по вкладу выплачивают раз в месяц?",
        "Во сколько раз подорожал евро за пять лет?",
    ],
)
def test_a_reading_of_today_or_later_is_no_standing_setting(question: str) -> None:
    asked = build_question(question, TODAY)
    assert not asks_standing(asked)
    assert not notice_follows(asked, [NEWS])


def test_a_past_day_no_source_states_keeps_the_notice_first() -> None:
    """«курс фунта на 3 февраля 2025»: a method article quotes no rate of that day, so only
    the live source could answer; a source that states the day answers it."""
    asked = build_question("Какой курс фунта ЦБ был на 3 февраля 2025?", TODAY)
    method = "Официальный курс устанавливается по данным о сделках банков на внебиржевом рынке."
    assert not notice_follows(asked, [CBR], [method])
    stated = "С 3 февраля 2025 года курс составлял 124,5 руб."
    assert notice_follows(asked, [CBR], [method, stated])
    decision = build_question("Какой была ставка после решения от 14.02.2025?", TODAY)
    assert notice_follows(decision, [CBR], ["Решением от 14 февраля 2025 г. ставка — 21 %."])


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        # a month with its year, a year, a month the turn's date puts in this year
        (
            "Какой была ключевая ставка в мае 2025 года?",
            "С 25 апреля 2025 года по 8 июня 2025 года — 21 %.",
        ),
        ("Какой курс иены был за 2024 год в среднем?", "Средний курс иены в 2024 году — 0,6 руб."),
        ("Какой была ставка в сентябре?", "На 15 сентября 2026 года ставка составила 15 %."),
    ],
)
def test_a_past_month_or_year_no_source_states_keeps_the_notice_first(
    question: str, stated: str
) -> None:
    asked = build_question(question, TODAY)
    method = "Совет директоров Банка России рассматривает ключевую ставку восемь раз в год."
    assert asks_past(asked)
    assert not notice_follows(asked, [CBR], [method])
    assert notice_follows(asked, [CBR], [method, stated])


def test_a_past_month_a_dated_history_spans_is_held() -> None:
    """«в августе 2025»: the list's changes of 28 July and 15 September state August's
    rate, though no sentence names August."""
    asked = build_question("Какой была ключевая ставка в августе 2025 года?", TODAY)
    history = ["28 июля 2025 года — 18 %;", "15 сентября 2025 года — 17 %;"]
    assert notice_follows(asked, [CBR], history)
    assert not notice_follows(asked, [CBR], history[1:])


def test_two_unrelated_dates_years_apart_span_no_month() -> None:
    # review finding (stop 44): a rule's start and a later change, eleven years apart, do
    # not state the rate of every month between them
    asked = build_question("Какой была ключевая ставка в феврале 2019 года?", TODAY)
    unrelated = [
        "Ключевая ставка установлена Банком России с 13 сентября 2013 года.",
        "С 28 октября 2024 года ключевая ставка — 21 %.",
    ]
    assert not notice_follows(asked, [CBR], unrelated)


def test_a_month_named_without_a_year_after_the_turn_s_is_not_read_as_past() -> None:
    # asked on 27 November: «в декабре» may be last December or the coming one
    asked = build_question("Какой была ставка в декабре?", TODAY)
    assert notice_follows(asked, [CBR], ["Ставку пересматривают восемь раз в год."])


def test_a_month_opening_a_range_takes_the_range_s_year() -> None:
    # «с марта по май 2025»: March is March 2025, which a history of 2024-2025 states,
    # not March of the turn's year
    asked = build_question("Как менялась ключевая ставка с марта по май 2025 года?", TODAY)
    history = [
        "С 28 октября 2024 года по 25 апреля 2025 года — 21 %.",
        "С 25 апреля 2025 года по 8 июня 2025 года — 21 %.",
    ]
    assert notice_follows(asked, [CBR], history)
