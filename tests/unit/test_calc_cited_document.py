"""A citation attached to the document the question asks about, told apart from one that
describes the story (stop 34). Every question is invented for the test."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.legal.calc_text import read_question
from finagent.legal.period_cues import _anchor
from finagent.legal.references import find_references
from tests.unit.calc_reading import deadline, row_ids


def test_the_cited_document_dated_by_its_verb_alone() -> None:
    """«Поступило требование по ст. 93.1 ..., получили 21.05.2025»: the verb marks the day
    without the document next to it; the audit of the story is not the asked period."""
    read = deadline(
        "Поступило требование по ст. 93.1 в рамках камеральной проверки нашего поставщика, "
        "получили его по ТКС 21.05.2025. До какого числа отвечать?"
    )
    assert read is not None and read.row_id == "documents_93_1_audit"


def test_a_cited_narrower_article_wins_over_the_general_row_the_asking_part_names() -> None:
    """«Сколько дней на ответ» names the general period of документы (п. 3 ст. 93); the
    cited ст. 93.1 and the audited supplier («которого проверяют») narrow it."""
    read = deadline(
        "Мы — покупатель; пришло требование по ст. 93.1 НК РФ о документах по договору с "
        "поставщиком, которого проверяют, получено 8 сентября 2025. Сколько дней на ответ?"
    )
    assert read is not None and read.row_id == "documents_93_1_audit" and read.variants == []


def test_narrower_readings_of_a_cited_document_need_their_qualifier() -> None:
    """«Требование по ст. 93 ... в ходе камеральной проверки»: not the desk audit; of the
    article's rows, not the consolidated group's or a foreign person's."""
    rows = row_ids(
        "Требование по ст. 93 получили 2 февраля 2025 г. в ходе камеральной проверки. Когда "
        "истекает срок?"
    )
    assert "documents_93" in rows
    assert not {"desk_audit_88", "documents_93_kgn", "documents_93_foreign"} & set(rows)


@pytest.mark.parametrize(
    ("question", "row", "event"),
    [
        # the parenthetical names a field audit; the cited document is the demand of ст. 93.1
        (
            "Контрагентом проверяемого поставщика мы являемся, и нам пришло требование по "
            "ст. 93.1 (в рамках выездной проверки поставщика); получили его 3 марта 2025 г. "
            "Какой срок ответа?",
            "documents_93_1_audit",
            date(2025, 3, 3),
        ),
        # the cited point chooses the period outside an audit
        (
            "Пришло требование по п. 2 ст. 93.1 (сделка с покупателем, о которой спрашивают "
            "вне рамок выездной проверки), получили его 10.02.2025. Когда срок ответа?",
            "documents_93_1_deal",
            date(2025, 2, 10),
        ),
        # the citation in the asking part, the counterparty's audit named in the story
        (
            "До какого числа ответить на требование по ст. 93.1, полученное 12 мая 2025 года "
            "в рамках выездной проверки нашего контрагента?",
            "documents_93_1_audit",
            date(2025, 5, 12),
        ),
    ],
)
def test_a_citation_attached_to_the_asked_document_gives_its_rows(
    question: str, row: str, event: date
) -> None:
    read = deadline(question)
    assert read is not None and read.row_id == row and read.variants == []
    assert read.event_date == event


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # the citation describes the party, the asked event is the demand's own period
        (
            "Иностранная компания, стоящая на учете по п. 4.6 ст. 83, получила требование о "
            "представлении документов 2 июня 2025 г. в ходе камеральной проверки. До какого "
            "числа представить документы?",
            "documents_93_foreign",
        ),
        # the citation stands inside the story's noun phrase, the asking part names the act
        (
            "Иностранный продавец электронных услуг подал заявление о постановке на учет "
            "(п. 4.6 ст. 83 НК) 10 апреля 2025 года, инспекция его получила в тот же день. "
            "Когда его должны поставить на учет?",
            "registration_foreign_person_84",
        ),
        # a cited document of the story, another event asked (the audit itself)
        (
            "Получили требование по ст. 93 в рамках выездной проверки 5 марта 2025 г., "
            "решение о проверке вынесено 20 января 2025 г. До какого числа проверка должна "
            "закончиться?",
            "field_audit_89",
        ),
        # a cited act of the story, another duty asked by the asking part
        (
            "Акт по ст. 100 вручили 5 мая 2025 года. Когда нужно сдать годовую бухгалтерскую "
            "отчетность?",
            "annual_accounts_23",
        ),
    ],
)
def test_a_citation_of_the_story_does_not_choose_the_row(question: str, row: str) -> None:
    assert row_ids(question) == [row]


@pytest.mark.parametrize(
    ("question", "anchor"),
    [
        ("Пришло требование по ст. 93.1 вчера.", "требование"),
        ("Решение (ст. 101 НК РФ) вручили.", "решение"),
        ("Компания, состоящая на учете по п. 4.6 ст. 83 НК РФ, подала декларацию.", "учет"),
        ("По ст. 93.1 нам пришло требование.", None),
        # past a number, a date, a compound preposition, the genitive complement
        ("Пришло требование № 123 от 12.03.2025 по ст. 93.1.", "требование"),
        ("Пришло требование в соответствии со ст. 93.1 НК РФ.", "требование"),
        ("Пришло требование налогового органа по ст. 93.1.", "требование"),
        ("Вручили акт проверки (ст. 100 НК РФ).", "акт"),
        ("Подали заявление о постановке на учет (п. 4.6 ст. 83 НК).", "учет"),
    ],
)
def test_the_noun_a_citation_is_attached_to(question: str, anchor: str | None) -> None:
    text = read_question(question)
    ref = find_references(question)[0]
    word = _anchor(text, ref.start)
    assert (word.lemma if word else None) == anchor
