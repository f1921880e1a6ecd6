"""The Russian language layer: typed spans with values, offsets and sentences."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from decimal import Decimal

import pytest

from finagent.language.dates import as_of, dates_in, months_in, years_in
from finagent.language.identifiers import identifiers_in
from finagent.language.lemmas import lemma, oblique_forms
from finagent.language.money import money_in
from finagent.language.organisations import organisations_in
from finagent.language.percents import percents_in
from finagent.language.periods import periods_in, states_time_limit
from finagent.language.text import analyse


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("Арендная плата — 297 200 руб. в месяц.", "297200", "RUB"),
        ("лимит 1,5 млн рублей", "1500000", "RUB"),
        ("вычет до 150 000 ₽ в год", "150000", "RUB"),
        (
            "составляет 297 200 (двести девяносто семь тысяч двести) рублей 00 копеек",
            "297200",
            "RUB",
        ),
        ("НДС — 49 533 рубля 33 копейки", "49533.33", "RUB"),
        ("остаток 1 846 315,20 руб.", "1846315.20", "RUB"),
        ("выручка 450 тысяч рублей", "450000", "RUB"),
        ("контракт на 12 000 долларов", "12000", "USD"),
    ],
)
def test_money_reads_amounts_with_currency(text: str, amount: str, currency: str) -> None:
    [money] = money_in(analyse(text))
    assert money.amount == Decimal(amount) and money.currency == currency
    assert text[money.start : money.end] == money.text
    assert money.sentence.text == text


def test_a_bare_number_is_not_money() -> None:
    assert money_in(analyse("В 2025 году 3 месяца и 20 %")) == []


def test_percents_keep_decimal_commas() -> None:
    spans = percents_in(analyse("ставка 20 %, пени 0,1 % и 13 процентов"))
    assert [p.value for p in spans] == [Decimal(20), Decimal("0.1"), Decimal(13)]


def test_periods_with_day_kind_relation_and_anchor() -> None:
    text = "Оплата в течение 10 рабочих дней со дня получения счёта, проверка — 3 месяца."
    first, second = periods_in(analyse(text))
    assert (first.count, first.unit, first.day_kind) == (Decimal(10), "day", "working")
    assert first.relation == "в течение" and first.anchor == "со дня получения счёта"
    assert first.text == "в течение 10 рабочих дней со дня получения счёта"
    assert (second.count, second.unit, second.day_kind) == (Decimal(3), "month", None)


def test_periods_read_number_words_and_skip_years() -> None:
    spans = periods_in(analyse("не позднее чем за 30 (тридцать) календарных дней; в 2025 году"))
    assert [(p.count, p.day_kind, p.relation) for p in spans] == [
        (Decimal(30), "calendar", "не позднее чем за")
    ]
    [words] = periods_in(analyse("в течение трёх месяцев"))
    assert (words.count, words.unit) == (Decimal(3), "month")


def test_dates_in_words_and_digits() -> None:
    text = "Договор от 15 января 2025 г., акт от 13.03.2025 и отчёт 2025-04-01; до 5 мая."
    assert [d.value for d in dates_in(analyse(text))] == [
        date(2025, 1, 15),
        date(2025, 3, 13),
        date(2025, 4, 1),
    ]


def test_two_digit_years_follow_the_posix_window() -> None:
    # a unified form's approval note is 1998, not 2098; a short year of this century stays
    text = "Утверждена постановлением Госкомстата России от 18.08.98 № 88. Оплачено 05.03.25."
    assert [d.value for d in dates_in(analyse(text))] == [date(1998, 8, 18), date(2025, 3, 5)]


def test_years_are_not_taken_from_dates() -> None:
    text = "15 января 2025 г. и в 2024 году"
    assert [y.year for y in years_in(analyse(text))] == [2024]


@pytest.mark.parametrize(
    ("question", "expected", "source"),
    [
        ("Какая ставка НДС?", date(2026, 11, 27), "implicit"),
        ("Какая ставка НДС сейчас?", date(2026, 11, 27), "relative"),
        ("Какая ставка НДС в этом году?", date(2026, 11, 27), "relative"),
        ("Какая ставка НДС в 2025 году?", date(2025, 1, 1), "year"),
        ("Какая ставка НДС в 2026 году?", date(2026, 11, 27), "year"),
        ("Какая ставка была в прошлом году?", date(2025, 1, 1), "relative"),
        ("Что изменится со следующего года?", date(2027, 1, 1), "relative"),
        ("Ключевая ставка на 3 февраля 2025 года", date(2025, 2, 3), "date"),
    ],
)
def test_as_of_date(question: str, expected: date, source: str) -> None:
    found = as_of(analyse(question), today=date(2026, 11, 27))
    assert (found.value, found.source) == (expected, source)


def test_identifiers_with_labels() -> None:
    text = (
        "ИНН/КПП продавца: 7716889042 / 771601001; БИК 044525777, р/с 40702810500000067890, "
        "к/с 30101810400000000777; договор поставки № ВЛ-12/2024 от 02.12.2024"
    )
    found = {(i.label, i.value, i.of) for i in identifiers_in(analyse(text))}
    assert found == {
        ("inn", "7716889042", None),
        ("kpp", "771601001", None),
        ("bik", "044525777", None),
        ("account", "40702810500000067890", None),
        ("corr_account", "30101810400000000777", None),
        ("number", "ВЛ-12/2024", "поставка"),
    }


def test_an_inn_of_the_wrong_length_is_not_taken() -> None:
    assert identifiers_in(analyse("ИНН 12345")) == []


def test_organisations_by_legal_form_with_nested_quotes() -> None:
    text = (
        "Общество с ограниченной ответственностью «Ромашка-Трейд», банк АО «КБ «Вектор-Финанс», "
        "ИП Соколова Анна Петровна и ПАО «Сбербанк»"
    )
    found = [(o.legal_form, o.name) for o in organisations_in(analyse(text))]
    assert found == [
        ("ООО", "Ромашка-Трейд"),
        ("АО", "КБ «Вектор-Финанс»"),
        ("ИП", "Соколова Анна Петровна"),
        ("ПАО", "Сбербанк"),
    ]


def test_abbreviations_are_their_own_lemmas() -> None:
    assert lemma("ИНН") == "инн" and lemma("НДС") == "ндс"
    assert lemma("арендодателя") == "арендодатель" and lemma("займа") == "заем"


def test_sentences_end_at_line_breaks() -> None:
    analysed = analyse("Продавец: ООО «А»\nПокупатель: АО «Б»")
    assert [s.sentence.text for s in analysed.sentences] == [
        "Продавец: ООО «А»",
        "Покупатель: АО «Б»",
    ]
    assert analysed.sentences[1].sentence.start == len("Продавец: ООО «А»\n")


def test_the_question_path_loads_no_ner_and_no_pymorphy2() -> None:
    code = (
        "import sys\n"
        "from finagent.question.build import build_question\n"
        "q = build_question('Кто арендодатель и сколько платим в месяц?')\n"
        "assert q.answer_type == 'party', q\n"
        "heavy = ('natasha', 'slovnet', 'pymorphy2', 'yargy')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


def test_months_with_their_year_are_read_but_not_days() -> None:
    found = months_in(analyse("Акт за апрель 2025 г. подписан 1 мая 2025 года."))
    assert [(m.year, m.month) for m in found] == [(2025, 4)]


def test_months_named_with_no_day_and_no_year_are_bare() -> None:
    text = "Выручка за январь и февраль выросла; 3 марта и восьмого апреля отгрузок не было."
    assert [(m.year, m.month) for m in months_in(analyse(text))] == [(None, 1), (None, 2)]
    assert [m.month for m in months_in(analyse("Акт за июнь 2025 г., платёж с 1 по 31 июля."))] == [
        6
    ]
    # a year in two digits is the month's year; another figure after it names none
    assert [(m.year, m.month) for m in months_in(analyse("Сколько ушло в марте 25-го?"))] == [
        (2025, 3)
    ]
    assert months_in(analyse("Поставки шли в марте 2-3 раза в неделю.")) == []


def test_a_month_of_a_range_or_list_takes_the_year_at_its_end() -> None:
    def read(text: str) -> list[tuple[int | None, int]]:
        return [(m.year, m.month) for m in months_in(analyse(text))]

    assert read("Какая выручка набежала с февраля по апрель 2024 года?") == [(2024, 2), (2024, 4)]
    assert read("Отгрузки за октябрь, ноябрь и декабрь 2023 г. сверены.") == [
        (2023, 10),
        (2023, 11),
        (2023, 12),
    ]
    assert read("Аренда не платилась с июля до 10 сентября 2022 года.") == [(2022, 7)]
    # a year before the months names only its own month; a month alone keeps none
    assert read("За май 2024 и за июнь платежи прошли.") == [(2024, 5), (None, 6)]


def test_a_text_states_a_time_limit_by_its_periods_and_days() -> None:
    for text in (
        "Отчёт сдаётся не позднее дня, следующего за днём проверки.",
        "Жалоба рассматривается в течение пятнадцати рабочих дней со дня её получения.",
        "Взнос перечисляется до 15-го числа следующего месяца.",
        "Сбор уплачивается в срок до 1 марта.",
    ):
        assert states_time_limit(analyse(text)), text
    for text in (
        "Если фонд создан в течение календарного года, периодом считается остаток года.",
        "Ставка составляет 5 процентов до 31 тысячи рублей.",
        "Договор заключён на 3 года.",
    ):
        assert not states_time_limit(analyse(text)), text


def test_oblique_forms_come_from_the_words_lexeme() -> None:
    assert oblique_forms("кто") == {"кого", "кому", "кем", "ком"}


def test_a_count_agrees_its_noun_whatever_case_it_is_read_in_first() -> None:
    from finagent.language.lemmas import counted

    assert counted(3, "раз") == "3 раза"
    assert counted(11, "раз") == "11 раз"
    assert counted(4, "строка") == "4 строки"
