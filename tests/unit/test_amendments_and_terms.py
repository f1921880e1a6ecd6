"""Amended contracts, day-of-month terms, counts, limits, moments and spans (invented
documents): the clause answering the asked kind of value is quoted first."""

from __future__ import annotations

import pytest

from finagent.answering.amendments import changed_clauses, superseded
from finagent.answering.answer_kinds import counted_nouns, states_condition
from finagent.answering.context import build_context
from finagent.answering.date_bounds import dates_with_roles
from finagent.answering.direct import stated_values
from finagent.answering.document_sentences import (
    document_sentences,
    rerank_document_sentences,
    value_level,
    whole_document_candidates,
    with_whole_documents,
)
from finagent.answering.sentence_profile import profile
from finagent.cards.build import build_card
from finagent.language.dates import days_of_month_in
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.question.revision import asked_revision
from finagent.state import Chunk

LEASE = """# Договор аренды склада № ВК-9/2026
г. Кострома 3 марта 2026 г.
ООО «Волжский Кедр», именуемое в дальнейшем «Арендодатель», и ООО «Пряжа-Сервис»,
именуемое в дальнейшем «Арендатор», заключили настоящий договор.
2.1. Склад передаётся в аренду на срок с 1 апреля 2026 г. по 31 декабря 2026 г.
3.1. Арендная плата составляет 70 000 рублей в месяц.
3.2. Арендная плата вносится не позднее 5-го числа текущего месяца.
"""
AMENDMENT = """ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2
к договору аренды склада № ВК-9/2026 от 03.03.2026
г. Кострома 1 сентября 2026 г.
ООО «Волжский Кедр» и ООО «Пряжа-Сервис» заключили настоящее соглашение.
1. Пункт 2.1 Договора изложить в следующей редакции:
«2.1. Склад передаётся в аренду на срок с 1 апреля 2026 г. по
30 июня 2027 г.»
2. Доплату в размере 14 000 рублей Арендатор вносит не позднее 15 сентября 2026 г.
"""


def _ranked(question: str) -> list[str]:
    lease = build_card("lease", "lease.md", LEASE)
    amendment = build_card("amend", "amend.txt", AMENDMENT)
    cards = [lease, amendment]
    q = build_question(question, cards=cards)
    chunks = [
        Chunk(
            id=f"{c.document_id}:0",
            text="",
            source="user_docs",
            title=c.title,
            document_id=c.document_id,
        )
        for c in cards
    ]
    ctx = build_context(chunks, [], 10_000)
    whole = whole_document_candidates(q, {"lease": LEASE, "amend": AMENDMENT}, ctx)
    ranked = rerank_document_sentences(q, with_whole_documents([], whole), cards)
    return [c.sentence for c in ranked]


@pytest.mark.parametrize(
    ("question", "revision"),
    [
        ("Какая теперь арендная плата по складу?", "amended"),
        ("После допсоглашения № 2 до какой даты аренда?", "amended"),
        ("С какого числа меняется арендная плата?", "amended"),
        ("Сколько была плата до дополнительного соглашения?", "original"),
        ("Какая первоначальная цена договора?", "original"),
        ("Сколько стоит аренда склада?", None),
    ],
)
def test_the_edition_asked(question: str, revision: str | None) -> None:
    assert asked_revision(build_question(question).lemmas) == revision


def test_an_amendment_is_named_by_its_contract_and_comes_first() -> None:
    lease = build_card("lease", "lease.md", LEASE)
    amendment = build_card("amend", "amend.txt", AMENDMENT)
    q = build_question("До какой даты теперь аренда склада ВК-9/2026?", cards=[lease, amendment])
    assert [d.document_id for d in q.documents] == ["amend", "lease"]
    original = build_question(
        "До какой даты была аренда склада ВК-9/2026 до допсоглашения?", cards=[lease, amendment]
    )
    assert original.documents[0].document_id == "lease"
    signed = build_question("Когда подписан договор аренды ВК-9/2026?", cards=[lease, amendment])
    assert signed.documents[0].document_id == "lease"


def test_a_clause_an_amendment_restates_gives_way_to_the_new_text() -> None:
    assert changed_clauses("1. Пункт 2.1 Договора изложить в следующей редакции:") == {"2.1"}
    assert changed_clauses("Пункт 4.2 Договора утрачивает силу.") == {"4.2"}
    assert changed_clauses("в соответствии с п. 3.7 Договора заключили соглашение") == set()
    top = _ranked("До какой даты действует аренда склада ВК-9/2026?")[0]
    assert "30 июня 2027" in top
    lease = build_card("lease", "lease.md", LEASE)
    amendment = build_card("amend", "amend.txt", AMENDMENT)
    cards = [lease, amendment]
    q = build_question("Какой срок аренды по договору ВК-9/2026?", cards=cards)
    chunks = [
        Chunk(
            id=f"{c.document_id}:0",
            text="",
            source="user_docs",
            title=c.title,
            document_id=c.document_id,
        )
        for c in cards
    ]
    ctx = build_context(chunks, [], 10_000)
    both = whole_document_candidates(q, {"lease": LEASE, "amend": AMENDMENT}, ctx)
    # base first: its restated clause is marked whatever the order
    both = sorted(both, key=lambda c: c.chunk.document_id != "lease")
    marked = [c.sentence for c in both if id(c) in superseded(both, cards)]
    assert marked == ["Склад передаётся в аренду на срок с 1 апреля 2026 г. по 31 декабря 2026 г."]


def test_a_wrapped_line_opening_with_a_date_goes_on_the_sentence() -> None:
    sentences = document_sentences(AMENDMENT)
    assert any("с 1 апреля 2026 г. по 30 июня 2027 г." in s for s in sentences)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "Плата вносится не позднее 10-го числа текущего (оплачиваемого) месяца.",
            "10-го числа текущего (оплачиваемого) месяца",
        ),
        (
            "Отчёт направляется не позднее 7 числа месяца, следующего за отчётным, по почте.",
            "7 числа месяца, следующего за отчётным",
        ),
        ("Проценты уплачиваются до 20-го каждого квартала.", "20-го каждого квартала"),
        ("В таблице 5 числа не указаны.", None),
    ],
)
def test_a_day_of_the_month_is_a_term(text: str, found: str | None) -> None:
    days = [d.text for d in days_of_month_in(analyse(text))]
    assert days == ([found] if found else [])


def test_a_day_of_the_month_answers_until_which_day() -> None:
    q = build_question("До какого числа платить аренду по складу?")
    sentence = "3.2. Арендная плата вносится **не позднее 5-го числа** текущего месяца."
    # a recurring payment («платить» is imperfective): the day of the month is the end of
    # the term asked, above the end date of a span (stop 38, docs4)
    assert value_level(q, profile(sentence), sentence) == 2.5
    assert dates_with_roles(sentence)[0][1] == "end"
    assert stated_values(q, "Арендная плата вносится не позднее 5-го числа текущего месяца.") == (
        "5-го числа текущего месяца",
    )


def test_a_count_of_the_asked_thing_answers_how_many() -> None:
    assert counted_nouns("Хранитель резервирует 120 стеллажей и 40 000 руб.") == {"стеллаж"}
    q = build_question("Какой минимальный объём стеллажей оплачивает поклажедатель?")
    counted = "Поклажедатель оплачивает не менее 120 стеллажей в месяц."
    money = "Стоимость хранения составляет 900 руб. за стеллаж."
    assert value_level(q, profile(counted), counted) > value_level(q, profile(money), money)


def test_a_limit_question_prefers_a_bounded_value() -> None:
    q = build_question("Сколько максимум возместит хранитель за утраченный товар?")
    assert q.answer_type == "limit"
    bounded = "Хранитель возмещает стоимость товара, но не более 50 000 руб. за место."
    plain = "Хранение оплачивается по ставке 300 руб. за место."
    assert value_level(q, profile(bounded), bounded) > value_level(q, profile(plain), plain)


def test_a_moment_may_be_answered_by_the_event_it_waits_for() -> None:
    q = build_question("Когда право собственности на станок переходит к покупателю?")
    sentence = "Право собственности переходит к Покупателю с момента полной оплаты станка."
    assert states_condition(sentence)
    assert value_level(q, profile(sentence), sentence) == 1.0
    day = build_question("Какого числа право переходит к покупателю?")
    assert value_level(day, profile(sentence), sentence) == 0.0


def test_both_ends_of_a_span_are_asked_together() -> None:
    q = build_question("Петрова в командировке с какого по какое число?")
    span = "Командировка: с 2 марта 2026 г. по 6 марта 2026 г."
    single = "Приказ подписан, аванс выдан не позднее 27 февраля 2026 г."
    assert value_level(q, profile(span), span) > value_level(q, profile(single), single)
    assert stated_values(q, span) == ("2 марта 2026 г.", "6 марта 2026 г.")


def test_price_per_unit_is_an_amount_for_one_unit() -> None:
    q = build_question("Почём одна лицензия в месяц?")
    assert q.answer_type == "amount"
    one = "Вознаграждение составляет 900 рублей за одну лицензию в месяц."
    total = "Общая сумма вознаграждения за 10 лицензий составляет 108 000 рублей в год."
    assert value_level(q, profile(one), one) > value_level(q, profile(total), total)


@pytest.mark.parametrize(
    ("question", "fields"),
    [
        ("С какой даты договор поставки считается расторгнутым?", []),
        ("Какая дата договора поставки с «Ольхой»?", ["signed"]),
        ("Какой срок оплаты по счёту № 12?", ["payment_term"]),
    ],
)
def test_a_genitive_cue_is_the_phrase_only_in_the_genitive(
    question: str, fields: list[str]
) -> None:
    assert build_question(question).fields == fields


def test_a_term_asked_by_its_end_wants_the_end_date() -> None:
    q = build_question("Срок действия поручительства ПР-5/2026 до какого?")
    dated = "Поручительство действует по 30 ноября 2026 г. включительно."
    period = "Поручитель исполняет требование в течение 5 рабочих дней."
    assert value_level(q, profile(dated), dated) > value_level(q, profile(period), period)


def test_a_noun_of_the_end_names_the_date_and_completion_asks_the_span_end() -> None:
    sentence = "4.1. Начало монтажа — 3 марта 2026 г. Окончание монтажа — 17 апреля 2026 г."
    assert dates_with_roles(sentence) == (
        ("3 марта 2026 г.", "start"),
        ("17 апреля 2026 г.", "end"),
    )
    q = build_question("К какой дате монтажник должен завершить монтаж?")
    deadline = "Монтажник обязуется до 1 марта 2026 г. застраховать оборудование."
    assert value_level(q, profile(sentence), sentence) > value_level(q, profile(deadline), deadline)


@pytest.mark.parametrize(
    ("question", "answer_type", "fields"),
    [
        ("Сколько времени у покупателя, чтобы ответить на претензию?", "period", []),
        ("Какая дата заключения договора с «Ольхой»?", "date", ["signed"]),
    ],
)
def test_question_words_that_name_the_answer_type(
    question: str, answer_type: str, fields: list[str]
) -> None:
    q = build_question(question)
    assert (q.answer_type, q.fields) == (answer_type, fields)
