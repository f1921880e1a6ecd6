"""Stop 34, round 2: a procedure's document read by meaning, not by one word, and a row
the Code makes conditional offered only when the question states its condition. Every
question is invented for the test."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.calc import clarification
from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.calc_lexicon import document_names
from finagent.legal.calc_text import read_question
from finagent.legal.period_cues import _anchor, _event_document
from finagent.legal.periods import period_by_id
from finagent.legal.references import find_references
from tests.unit.calc_reading import TODAY, deadline, row_ids


def test_the_names_of_a_demand_form_one_class() -> None:
    assert {"требование", "запрос", "истребование"} <= document_names("запрос")
    assert document_names("истребование") == document_names("требование")
    assert document_names("акт") == frozenset({"акт"})


def test_a_request_anchors_a_citation_like_a_demand() -> None:
    text = read_question("Инспекция прислала запрос по ст. 93.1, получили его 4 марта 2025 г.")
    ref = find_references(text.text)[0]
    anchor = _anchor(text, ref.start)
    assert anchor is not None and anchor.lemma == "запрос"


def test_the_event_document_is_the_head_noun_not_its_complement() -> None:
    """«день получения поручения об истребовании документов» is of the поручение: a
    требование told by the user is not that row's document."""
    assert _event_document("assignment_93_1") == "поручение"
    assert _event_document("documents_93") == "требование"


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        # a «запрос» citing the article: that article's periods, as a требование would
        (
            "Запрос по ст. 93.1 НК РФ к нам поступил 6 октября 2025 г. Сколько есть времени "
            "на ответ?",
            {"documents_93_1_audit", "documents_93_1_deal"},
        ),
        # the cited point decides between them
        (
            "Запрос по п. 2 ст. 93.1 пришел 15 октября 2025 года. Когда крайний срок?",
            {"documents_93_1_deal"},
        ),
        # «истребование» with the audited counterparty: п. 1 ст. 93.1
        (
            "Истребование документов по ст. 93.1 в рамках проверки контрагента получено "
            "3 февраля 2025. До какого числа представить?",
            {"documents_93_1_audit"},
        ),
        # a «запрос» of documents in an audit of our own: п. 3 ст. 93
        (
            "Получили запрос инспекции о представлении документов 14 апреля 2025 года в ходе "
            "выездной проверки. Когда последний день?",
            {"documents_93"},
        ),
    ],
)
def test_a_request_is_read_as_the_demand_its_rows_count_from(question: str, rows: set[str]) -> None:
    assert set(row_ids(question)) == rows


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # the same class must not make another document's rows match
        (
            "Требование по ст. 93.1 получено 12 мая 2025. Когда срок ответа?",
            "documents_93_1_audit",
        ),
        # a demand for documentation is not a demand for documents (п. 3 ст. 105.16-3)
        (
            "Требование инспекции о представлении глобальной документации мы получили "
            "4 августа 2025 года. Когда последний день ответа?",
            "global_documentation_105_16_3",
        ),
        # a bank's «мотивированное требование» is the motivated request of п. 2 ст. 86
        (
            "Банк получил мотивированное требование ИФНС 10 марта 2025. Когда выдать справки?",
            "bank_statements_86",
        ),
    ],
)
def test_the_class_does_not_carry_a_question_to_another_row(question: str, row: str) -> None:
    assert row_ids(question)[0] == row


@pytest.mark.parametrize(
    "question",
    [
        "Требование по ст. 93 получили 3 марта 2025 г. Когда заканчивается срок?",
        "Запрос по статье 93 получили 2 июня 2025. Какой срок?",
        # the citation opens the sentence: no anchor, the article's rows, the plainest
        "По ст. 93 нам 2 июня 2025 вручили требование. Когда срок?",
    ],
)
def test_a_demand_alone_asks_the_documents_term_not_the_notice(question: str) -> None:
    """п. 3 ст. 93: the documents are due in 10 days; the next-day notice applies only «в
    случае, если проверяемое лицо не имеет возможности представить» them."""
    read = deadline(question)
    assert read is not None and read.row_id == "documents_93" and read.variants == []
    assert read.period == 10


@pytest.mark.parametrize(
    "question",
    [
        "Требование по ст. 93 получили 3 марта 2025 г. Не успеваем собрать документы. "
        "Когда истекает срок?",
        "Требование по ст. 93 НК пришло 10 марта 2025 года, собрать всё вовремя не сможем. "
        "До какого числа сообщить инспекции?",
    ],
)
def test_a_demand_with_inability_asks_the_notice(question: str) -> None:
    read = deadline(question)
    assert read is not None and read.row_id == "documents_93_notice" and read.variants == []


def test_inability_told_but_the_documents_asked_keeps_their_term() -> None:
    read = deadline(
        "Требование по ст. 93 получили 3 марта 2025 г. Не успеваем. Когда последний день "
        "представить документы?"
    )
    assert read is not None and read.row_id == "documents_93"
    assert read.event_date == date(2025, 3, 3)


# --- a cited article with no period for the asked action --------------------------------


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        (
            "Решение по ст. 101 нам вручили 16 июня 2025 года. До какого числа оплатить "
            "доначисленный налог?",
            {"decision_in_force_101"},
        ),
        (
            "Акт проверки по ст. 100 получили 5 мая 2025 г. Когда уплатить штраф?",
            {"objections_100"},
        ),
        (
            "Требование по ст. 93 получили 2 февраля 2025 г. Когда заплатить налог?",
            {"documents_93"},
        ),
        # the inspection's reply to a request for more time is no period of the demand
        (
            "Требование по ст. 93 получили 2 февраля 2025 г., попросили продлить срок. До "
            "какого числа инспекция ответит?",
            {"documents_93_notice"},
        ),
    ],
)
def test_a_cited_article_without_the_asked_action_is_asked_back(
    question: str, cited: set[str]
) -> None:
    """Decided from the asking clause: its action («уплатить») is no period of the cited
    document's rows, and no other row names it: no reading is computed, the rows are
    named in the question back."""
    req = extract_calc_request(question, TODAY)
    assert req.row_id is None and req.variants == [] and "procedure" in req.missing
    assert set(req.cited_rows) == cited
    asked = clarification(req)
    assert asked is not None and "нет срока того действия" in asked
    table = period_by_id()
    assert all(table[row].norm in asked for row in cited)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # the asked action has its own row elsewhere: the citation describes the story
        (
            "Решение по ст. 101 вручили 14 июля 2025 года. До какого числа можно подать "
            "апелляционную жалобу?",
            "appeal_139_1",
        ),
        # the asked action is the cited document's own
        ("Решение по ст. 101 вручено 1 сентября 2025 г. Когда оно вступит в силу?", None),
        # a reply named as the object of the asked verb
        (
            "Запрос по ст. 93.1 в рамках проверки контрагента получен 5 мая 2025 г. Когда "
            "направить ответ?",
            "documents_93_1_audit",
        ),
        # a reply to a demand is the period of the demand's rows
        (
            "Запрос по ст. 93 получили 2 июня 2025 года в ходе выездной проверки. До какого "
            "числа отвечать?",
            "documents_93",
        ),
    ],
)
def test_an_asked_action_with_a_row_is_computed(question: str, row: str | None) -> None:
    req = extract_calc_request(question, TODAY)
    assert req.cited_rows == [] and "procedure" not in req.missing
    assert req.row_id == (row or "decision_in_force_101")


def test_a_question_without_an_asked_action_keeps_the_cited_rows() -> None:
    """«Сколько есть времени на ответ?»: «есть» is no action of any period."""
    assert set(
        row_ids(
            "Запрос по ст. 93.1 к нам поступил 6 октября 2025 г. Сколько есть времени на ответ?"
        )
    ) == {"documents_93_1_audit", "documents_93_1_deal"}


# --- a day told of another document ------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        # the act's objections, but the only day is the receipt of a request
        "Запрос по ст. 93.1 получили 2 июня 2025. Когда подать возражения?",
        # a chain from the act's objections, but the day is a требование's
        "Требование по ст. 93 получили 2 июня 2025. Когда инспекция вынесет решение?",
    ],
)
def test_a_day_of_another_document_is_not_the_asked_event(question: str) -> None:
    req = extract_calc_request(question, TODAY)
    assert req.event_date is None and "event_date" in req.missing


def test_a_complement_of_the_document_is_not_another_document() -> None:
    """«Требование о пояснениях по декларации получено …»: the declaration qualifies the
    demand; the day is the demand's receipt."""
    read = deadline(
        "Требование о пояснениях по уточненной декларации получено 11 марта 2025 года. "
        "Когда крайний срок представить пояснения?"
    )
    assert read is not None and read.row_id == "explanations_88"
    assert read.event_date == date(2025, 3, 11)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # explanations have no notice of inability (п. 3 ст. 88): their own five days
        (
            "Требование о представлении пояснений по ст. 88 получено 10 июня 2025. Не "
            "успеваем. Когда истекает срок?",
            "explanations_88",
        ),
        # «док-ты», «доки»: the documents of п. 3 ст. 93 in an accountant's shorthand
        (
            "Требование о представлении док-тов пришло 3 марта 2025 года, в срок не успеем. "
            "Когда уведомить инспекцию о невозможности?",
            "documents_93_notice",
        ),
    ],
)
def test_the_notice_of_inability_is_of_demanded_documents(question: str, row: str) -> None:
    read = deadline(question)
    assert read is not None and read.row_id == row and read.variants == []


@pytest.mark.parametrize(
    ("question", "row", "event"),
    [
        (
            "Акт получили 10 марта 2025 года, а дополнение к акту — 20 апреля 2025. Когда "
            "подать возражения на дополнение?",
            "objections_addendum_101",
            date(2025, 4, 20),
        ),
        (
            "Акт вручили 4 февраля 2025 г., а решение — 17 марта 2025 г. Когда решение "
            "вступит в силу?",
            "decision_in_force_101",
            date(2025, 3, 17),
        ),
    ],
)
def test_a_dash_in_place_of_the_verb_dates_the_named_document(
    question: str, row: str, event: date
) -> None:
    """«…, а дополнение — 20 апреля»: the verb of the clause before is meant, the day is
    the named document's, not the first document's."""
    read = deadline(question)
    assert read is not None and read.row_id == row and read.event_date == event


def test_a_document_date_before_its_receipt_is_not_taken_for_it() -> None:
    read = deadline(
        "Дополнение к акту от 20 апреля 2025 получили 25 апреля 2025. Когда подать "
        "возражения на дополнение?"
    )
    assert read is not None and read.event_date == date(2025, 4, 25)
