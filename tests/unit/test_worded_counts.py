"""A count in words is stated on the first line in digits, its noun agreed with the
number; the figure checks (product and eval) read the source's words as that number."""

from __future__ import annotations

from decimal import Decimal

from evals.direct.figures import unsupported_figures as eval_unsupported
from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate
from finagent.answering.figures import check_figures
from finagent.answering.sentence_profile import shown
from finagent.language.counts import count_in_digits, count_in_nominative, worded_counts
from finagent.question.build import build_question
from finagent.state import Chunk

LAW = Chunk(
    id="nk:1", text="", source="law", title="Образцовая статья", metadata={"citation": "ст. 999"}
)


def test_a_worded_count_in_an_oblique_case_reads_in_the_nominative() -> None:
    assert count_in_nominative("трех недель") == "три недели"
    assert count_in_nominative("одной недели") == "одна неделя"
    assert count_in_nominative("четырех лет") == "четыре года"
    assert count_in_nominative("тридцати рабочих дней") == "тридцать рабочих дней"
    assert count_in_nominative("двадцати одного календарного дня") == (
        "двадцать один календарный день"
    )
    assert count_in_nominative("семью часами") == "семь часов"
    assert count_in_nominative("восьми лет") == "восемь лет"  # not the dictionary's «годов»
    assert count_in_nominative("пятнадцати календарных лет") == "пятнадцать календарных лет"
    assert count_in_nominative("пять суток") is not None  # already nominative: kept so


def test_what_is_not_a_worded_count_is_left_alone() -> None:
    assert count_in_nominative("10 дней") is None  # digits of a whole number
    assert count_in_nominative("следующего месяца") is None  # no number word
    assert count_in_nominative("трех") is None  # no counted noun


def test_a_worded_count_reads_in_digits_with_its_noun_agreed() -> None:
    assert count_in_digits("трех недель") == "3 недели"
    assert count_in_digits("одной недели") == "1 неделя"
    assert count_in_digits("четырех лет") == "4 года"
    assert count_in_digits("тридцати рабочих дней") == "30 рабочих дней"
    assert count_in_digits("двадцати одного календарного дня") == "21 календарный день"
    assert count_in_digits("восьми лет") == "8 лет"
    assert count_in_digits("шестидесяти часов") == "60 часов"
    assert count_in_digits("10 дней") is None


def test_a_count_of_times_agrees_with_its_number() -> None:
    assert count_in_nominative("трёх раз") == "три раза"
    assert count_in_digits("двух раз") == "2 раза"
    assert count_in_digits("двадцати трёх раз") == "23 раза"
    assert count_in_digits("одного раза") == "1 раз"
    assert count_in_digits("семи раз") == "7 раз"


def test_a_fraction_counts_its_noun_in_the_genitive_singular() -> None:
    assert count_in_nominative("полутора лет") == "полтора года"
    assert count_in_nominative("полутора рабочих недель") == "полторы рабочих недели"
    assert count_in_digits("полутора лет") == "1,5 года"
    assert count_in_digits("2,5 месяцев") == "2,5 месяца"
    assert count_in_digits("0,5 календарных лет") == "0,5 календарного года"
    assert worded_counts("в течение полутора лет с даты сделки") == [Decimal("1.5")]
    # a share stays a share, a sum a sum
    assert shown("3,5 процентов") == "3,5 %"
    assert shown("812,00 руб") == "812,00 руб"
    assert shown("2,5 руб") == "2,5 руб"
    assert shown("64,30 рублей") == "64,30 рублей"


def test_worded_counts_are_the_numbers_before_a_counted_noun() -> None:
    text = (
        "Заявление рассматривается в течение семи рабочих дней; одна из сторон вправе "
        "продлить срок до тридцати календарных дней, но не более двух раз. Из трех."
    )
    assert worded_counts(text) == [Decimal(7), Decimal(30), Decimal(2)]
    assert worded_counts("Одна из организаций подала отчёт за 2024 год.") == []


def test_shown_states_a_worded_period_in_digits() -> None:
    assert shown("восьми месяцев") == "8 месяцев"
    assert shown("двух тысяч рублей") == "2 000 руб."  # a sum in words: digits, as before


def test_the_lead_states_the_count_in_digits_and_the_figure_checks_keep_it() -> None:
    q = build_question("Сколько длится образцовая проверка отчёта по сбору?")
    sentence = (
        "Образцовая проверка отчёта по сбору проводится в течение трех месяцев со дня "
        "его представления."
    )
    top = Candidate(LAW, 1, sentence, 0, 0)
    line, quote = sentence_lead(q, top)
    assert line.startswith("Срок — 3 месяца")
    assert "в течение трех месяцев" in quote
    checked, report = check_figures(f"{line}\n\n«{quote}»", [sentence])
    assert "3 месяца" in checked and not report.removed
    assert not eval_unsupported(line, [sentence], q.text)


def test_a_count_the_source_states_neither_way_is_still_removed() -> None:
    source = "Уведомление направляется в течение пяти рабочих дней со дня изменения сведений."
    answer = "Срок — 6 рабочих дней, не 5 рабочих дней [1]."
    checked, report = check_figures(answer, [source])
    assert report.removed == ["6 рабочих дней"]
    assert report.supported == ["5 рабочих дней"]
    assert "6 рабочих" not in checked
    assert eval_unsupported(answer, [source], "Когда подать уведомление?") == ["6 рабочих дней"]
    # a number word with no counted noun after it supports no figure
    alone = "Одна из сторон направляет уведомление."
    assert check_figures("Срок — 1 месяц [1].", [alone])[1].removed == ["1 месяц"]


def test_a_capitalised_unit_or_a_decimal_point_keeps_the_sources_form() -> None:
    # review finding (stop 44): the fraction's noun was re-inflected from its folded parse
    for phrase in ("2,5 кВт", "0,5 МРОТ", "4,5 МВт", "2.5 месяца"):
        assert count_in_nominative(phrase) is None
        assert count_in_digits(phrase) is None
    assert count_in_digits("2,5 месяцев") == "2,5 месяца"
