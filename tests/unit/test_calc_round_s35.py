"""Stop 35: the classes found by covering every row of the period table in our own
wording (the date of another stage of the procedure, a citation with «подп.», a verb
and its object apart, kopecks and sums in words); wording ours, not an item's."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from finagent.language.money import money_in
from finagent.language.text import analyse
from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.calc_text import read_question
from tests.unit.calc_reading import TODAY, deadline, penalty, row_ids


@pytest.mark.parametrize(
    "question",
    [
        "Когда крайний срок для возражений на акт камеральной проверки? Проверка началась "
        "14 апреля 2025 г.",
        "Выездная проверка закончилась 20 августа 2025 года. До какого дня можно возразить на акт?",
        "Проверку завершили 3 июня 2025 г. Сколько дней на пояснения по требованию?",
    ],
)
def test_a_day_of_another_stage_is_not_the_asked_documents_event(question: str) -> None:
    """The only day dates the audit, not the receipt of the act or the требование: asked
    back for the event's date rather than computed from it (confidently wrong before)."""
    req = extract_calc_request(question, TODAY)
    assert req.row_id is not None
    assert "event_date" in req.missing
    assert all(d.role == "other_event" for d in req.dates)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "Камеральная проверка окончена 11 марта 2025 г., нарушения есть. Когда составят акт?",
            "act_desk_100",
        ),
        (
            "Выемку документов провели 2 апреля 2025 г. Когда нам передадут копии изъятого?",
            "seizure_copies_94",
        ),
    ],
)
def test_the_stage_a_row_counts_from_keeps_its_day(question: str, row: str) -> None:
    got = deadline(question)
    assert got is not None and got.row_id == row


def test_a_subpoint_abbreviated_with_podp_keeps_the_asking_sentence() -> None:
    """razdel ends a sentence after «подп.»: the citation and the question stay one
    sentence, so the asked action is read."""
    text = read_question("Когда сообщить по подп. 3 п. 2 ст. 23 НК РФ?")
    assert len({w.sentence for w in text.words}) == 1
    got = deadline(
        "Филиалом не является; подразделение открыто 14 мая 2025 г. В какой срок сообщить "
        "в инспекцию о его открытии по подп. 3 п. 2 ст. 23 НК РФ?"
    )
    assert got is not None and got.row_id == "division_created_23"
    assert (got.period, got.unit) == (1, "months")


def test_a_cited_subpoint_narrows_the_points_rows() -> None:
    """With no cue read, the rows of «подп. 2 п. 2 ст. 23» are that subpoint's only."""
    assert row_ids("Какой срок по подп. 2 п. 2 ст. 23 НК РФ, если событие 5 мая 2025 г.?") == [
        "participation_23"
    ]


def test_a_verb_and_its_object_apart_still_qualify_a_row() -> None:
    """«открыть счет» is a verb with its object: another complement may stand between."""
    got = deadline(
        "Банк 14 ноября 2025 г. открыл индивидуальному предпринимателю валютный счет. "
        "К какому дню банк должен известить налоговую?"
    )
    assert got is not None and got.row_id == "bank_account_info_86"
    assert got.event_date == date(2025, 11, 14)


def test_a_mismatch_of_control_ratios_told_as_not_agreeing() -> None:
    got = deadline(
        "Уведомление об исчисленных суммах налогов инспекция получила 14 июля 2025 г., "
        "контрольные соотношения в нем не совпадают. Когда она обязана сообщить об этом?"
    )
    assert got is not None and got.row_id == "payment_notice_rejected_58"


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("Недоимка 18 400 руб. 07 коп. по налогу", Decimal("18400.07")),
        ("долг 905 руб 90 коп", Decimal("905.90")),
        ("недоимка 12 000 рублей 5 копеек", Decimal("12000.05")),
    ],
)
def test_kopecks_abbreviated_are_read(text: str, amount: Decimal) -> None:
    """pymorphy3 lemmatises «коп» as «копа»: the abbreviation is read by its text."""
    assert [m.amount for m in money_in(analyse(text))] == [amount]


def test_arrears_in_kopecks_and_in_words_reach_the_penalty() -> None:
    got = penalty(
        "ИП недоплатил 41 250 руб. 40 коп. налога, срок 28 апреля 2025 г., погасил "
        "16 мая 2025 г. Пени?"
    )
    assert got is not None and got.amount == Decimal("41250.40")
    got = penalty(
        "Организация: долг по налогу девяносто тысяч рублей, срок уплаты 28 марта 2025 г., "
        "заплатили 7 апреля 2025 г. Сколько пеней?"
    )
    assert got is not None and got.amount == Decimal("90000")


@pytest.mark.parametrize(
    "question",
    [
        # two rows of one subpoint, nothing to tell them apart: both readings or ask back
        "Событие по подп. 3 п. 2 ст. 23 НК РФ — 12 мая 2025 г. Какой срок?",
        # an act received, but the asked step could be objections or the decision
        "Акт проверки у нас с 5 марта 2025 г. Что дальше и до какого числа?",
    ],
)
def test_an_uncertain_reading_is_never_one_confident_date(question: str) -> None:
    req = extract_calc_request(question, TODAY)
    assert req.variants or req.missing or req.decline or req.row_id is None


def test_a_day_told_as_an_end_is_no_start_of_a_row_run_from_another_event() -> None:
    """«мероприятия закончились …» does not date the decision to hold them: asked back
    rather than the month of п. 6 ст. 101 computed from the end (confidently wrong before);
    a row that runs from an end keeps the day."""
    req = extract_calc_request(
        "Дополнительные мероприятия завершились 16 июня 2025 г. Сколько они могли длиться "
        "и когда срок по ним?",
        TODAY,
    )
    assert req.row_id != "additional_measures_101" or "event_date" in req.missing
    got = deadline(
        "Дополнительные мероприятия налогового контроля завершились 16 июня 2025 г. До "
        "какого числа составят дополнение к акту?"
    )
    assert got is not None and got.row_id == "addendum_101"
    assert got.event_date == date(2025, 6, 16)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "НДС-декларацию сдали 24 октября 2025 г. Когда закончится камеральная проверка?",
            "desk_audit_vat_88",
        ),
        (
            "Декларацию по НДС сдали 24 октября 2025 г. Когда закончится камеральная проверка?",
            "desk_audit_vat_88",
        ),
    ],
)
def test_an_initialism_joined_by_a_hyphen_is_read_as_two_words(question: str, row: str) -> None:
    got = deadline(question)
    assert got is not None and got.row_id == row


def test_a_hyphenated_pronoun_or_preposition_stays_one_word() -> None:
    lemmas = [w.lemma for w in read_question("Кто-то опоздал из-за болезни").words]
    assert "кто-то" in lemmas and "из-за" in lemmas
