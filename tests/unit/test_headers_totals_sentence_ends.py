"""A count header counts a unit in the genitive plural («Число месяцев», not the date
«Число месяца»); one reader of «is a total asked»; a total row is «Итого»/«Всего», not an
attribute named «Общая …»; a sentence may end with initials or «и т.д.» (stop 44, mend16).
Invented wording."""

from __future__ import annotations

import pytest

from finagent.answering.document_sentences import document_sentences
from finagent.answering.evidence import sentences_of
from finagent.answering.row_totals import asks_total, total_label
from finagent.cards.header_units import header_unit, unit_cells
from finagent.cards.unwrap import joined
from finagent.language.abbreviations import leaves_open
from finagent.question.build import build_question
from tests.unit.card_reading import card_values


@pytest.mark.parametrize(
    "header",
    ["Число месяца", "Число дней месяца", "Число дня", "Количество часа работы"],
)
def test_a_count_head_before_a_singular_unit_names_no_unit(header: str) -> None:
    assert header_unit(header) is None


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("Число месяцев", "месяц"),
        ("Количество суток", "сутки"),
        ("Кол-во кал. дней", "день"),
        ("Кол-во отработанных часов", "час"),
        ("Количество тонн", "тонна"),
    ],
)
def test_a_count_head_before_a_plural_unit_names_it(header: str, unit: str) -> None:
    found = header_unit(header)
    assert found is not None and found[0] == unit


def test_a_day_of_month_column_is_no_count_of_months() -> None:
    row = "Дата: 12.03.2026; Число месяца: 12; Сотрудник: Гущин А. В."
    assert unit_cells(row) == []


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("сколько всего перечислили ООО «Вектор» за апрель?", True),
        ("какое итоговое сальдо по контрагенту «Вектор»?", True),
        ("какую общую сумму нужно заплатить по договору?", True),
        ("итого сколько вышло по счёту?", True),
        ("какая арендная плата за весь срок аренды?", False),
        ("сколько дней длится отпуск Кудриной?", False),
        # «общий» asks a total only beside an amount's noun
        ("каков общий размер пеней по договору поставки?", True),
        ("какая стоимость итоговая у заказа № 12?", True),
        ("сколько налога платит ИП на общей системе с продажи гаража?", False),
        ("в общем порядке какой срок уплаты взносов?", False),
        ("какой общий срок действия договора с «Вектором»?", False),
    ],
)
def test_one_reader_tells_whether_a_total_is_asked(text: str, asked: bool) -> None:
    assert asks_total(build_question(text)) is asked


@pytest.mark.parametrize(
    "row",
    [
        "Показатель: Общая площадь помещения; Значение, кв. м: 148,6",
        "Параметр: Общий срок поставки; Значение, дней: 45",
        "Показатель: Итоговая оценка; Баллы: 87",
    ],
)
def test_an_attribute_named_general_is_no_total_row(row: str) -> None:
    assert total_label(row) is None


@pytest.mark.parametrize(
    ("row", "label"),
    [
        ("Статья: Итого по разделу 2; Сумма, руб.: 12 400,00", "Итого по разделу 2"),
        ("Наименование: ВСЕГО; Сумма, руб.: 98 000,00", "ВСЕГО"),
        (
            "Показатель: Кредиторская задолженность, всего; Сумма: 5 000",
            "Кредиторская задолженность, всего",
        ),
    ],
)
def test_a_total_row_opens_with_itogo_or_vsego(row: str, label: str) -> None:
    assert total_label(row) == label


@pytest.mark.parametrize(
    ("line", "following"),
    [
        ("Акт со стороны Исполнителя подписал Гущин А.В.", "Оплата производится в течение 5 дней."),
        ("Поставщик передаёт паспорта, сертификаты и т.д.", "Приёмка ведётся по накладной."),
        ("Арендатор оплачивает воду, свет и т.п.", "Расчётный период — месяц."),
    ],
)
def test_a_line_closed_by_initials_or_etc_ends_before_a_new_sentence(
    line: str, following: str
) -> None:
    assert not leaves_open(line, following)
    assert joined(f"{line}\n{following}") == f"{line}\n{following}"
    assert document_sentences(f"{line}\n{following}") == [line, following]


@pytest.mark.parametrize(
    "line",
    [
        "Уплачено 512 400 руб., в т.ч.",
        "Акт со стороны Исполнителя подписал Гущин А.В.",
        "Поставщик передаёт паспорта, сертификаты и т.д.",
    ],
)
def test_a_dotted_abbreviation_goes_on_unless_it_closes_before_a_capital(line: str) -> None:
    assert leaves_open(line, "НДС 92 400 руб.") is line.endswith("в т.ч.")
    assert leaves_open(line, "в том числе по акту № 3")
    assert leaves_open(line, "(далее — Акт)")


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "Акт подписал Гущин А. В. Оплата производится в течение 5 дней.",
            "Акт подписал Гущин А. В.",
        ),
        (
            "Поставщик передаёт паспорта, сертификаты и т. д. Приёмка ведётся по накладной.",
            "Поставщик передаёт паспорта, сертификаты и т. д.",
        ),
        (
            "Арендатор оплачивает воду, свет и др. Расчётный период — месяц.",
            "Арендатор оплачивает воду, свет и др.",
        ),
    ],
)
def test_a_sentence_ends_at_initials_or_etc_before_a_capital(text: str, first: str) -> None:
    assert sentences_of(text) == [first, text[len(first) + 1 :]]


@pytest.mark.parametrize(
    "text",
    [
        "Договор подписал директор И. В. Гущин от имени Общества.",
        "Цена — 90 000 руб., в т.ч. НДС 15 000 руб.",
        "Согласовано: Гущин А. В. (главный инженер) и Лаптева О. И.",
    ],
)
def test_initials_before_a_surname_or_a_bracket_end_no_sentence(text: str) -> None:
    assert sentences_of(text) == [text]


# a plain-text contract as a PDF loader gives it: hard-wrapped lines, an aligned form, a
# table flattened without cell separators, a signature block
WRAPPED_CONTRACT = """ДОГОВОР ОКАЗАНИЯ УСЛУГ № 14-У/2026
г. Пермь                                                     3 марта 2026 г.
Общество с ограниченной ответственностью «Прикамье-Сервис» (ООО «Прикамье-Сервис»),
ИНН 5902001122, КПП 590201001, именуемое в дальнейшем «Исполнитель», в лице директора
Гущина Андрея Викторовича, с одной стороны, и
ООО «Камский берег», именуемое в дальнейшем «Заказчик», с другой стороны, заключили
настоящий договор.
Стоимость услуг
Показатель Сумма
Абонентская плата за месяц 48 000,00

Основание:        приказ директора № 12 от 01.03.2026 «О привлечении
                  сторонней организации»

ИНН 5902001122, КПП 590201001
Р/с 40702810000000000123 в ПАО «Уральский банк»

Исполнитель ООО «Прикамье-Сервис»
Директор ____________ А. В. Гущин
"""


def _one(sentences: list[str], start: str) -> str:
    return next(" ".join(s.split()) for s in sentences if s.startswith(start))


def test_a_card_reads_a_party_with_its_requisites_and_each_label_apart() -> None:
    from_card = sentences_of(joined(WRAPPED_CONTRACT))
    party = _one(from_card, "Общество")
    assert "(ООО «Прикамье-Сервис»), ИНН 5902001122" in party
    assert "«Исполнитель», в лице директора Гущина" in party
    assert _one(from_card, "Основание").endswith("«О привлечении сторонней организации»")
    assert _one(from_card, "ИНН") == "ИНН 5902001122, КПП 590201001"
    assert _one(from_card, "Директор").startswith("Директор ____")


def test_a_whole_document_keeps_a_flattened_table_and_a_signature_together() -> None:
    whole = document_sentences(WRAPPED_CONTRACT)
    table = _one(whole, "Стоимость услуг")
    assert table.endswith("Показатель Сумма Абонентская плата за месяц 48 000,00")
    assert _one(whole, "Исполнитель").endswith("Директор ____________ А. В. Гущин")
    # the rules both readers share: a sentence's end, a numbered clause, a Word row
    assert _one(whole, "Общество").endswith(
        "с одной стороны, и ООО «Камский берег», именуемое в "
        "дальнейшем «Заказчик», с другой стороны, заключили настоящий договор."
    )
    for loose in (False, True):
        clauses = "Цена услуг 5 000 руб. в месяц\n3.1 Оплата — до 5-го числа."
        assert joined(clauses, unended_goes_on=loose) == clauses
        assert joined("Стоимость\nЭтап | Доля | Сумма", unended_goes_on=loose).count("\n") == 1


def test_a_comma_joins_a_code_and_its_figure_not_the_next_paragraph() -> None:
    assert joined("… (ООО «Альфа»),\nИНН 5902001122, КПП 590201001") == (
        "… (ООО «Альфа»), ИНН 5902001122, КПП 590201001"
    )
    parties = "… (далее — «Товарищ 1»),\nИндивидуальный предприниматель Лаптева О. И."
    assert joined(parties) == parties
    assert joined("по ставке 80\n% оклада") == "по ставке 80 % оклада"


OUR_LOAN = (
    "# Договор займа № З-4/2026\n\n"
    "Общество с ограниченной ответственностью «Кама-Кредит» (ООО «Кама-Кредит»), ИНН "
    "5902334455, именуемое в дальнейшем «Займодавец», и Общество с ограниченной "
    "ответственностью «Бор-Трейд» (ООО «Бор-Трейд»), ИНН 5260112233, именуемое в дальнейшем "
    "«Заёмщик», заключили договор.\n\n"
    "1. Исполнение обязательств Заёмщика обеспечивается поручительством Лаптевой О. И.\n"
)
OUR_LEASE = (
    "# Договор аренды № А-2/2026\n\n"
    "Общество с ограниченной ответственностью «Ока-Недвижимость» (ООО «Ока-Недвижимость»), "
    "ИНН 5260445566, именуемое в дальнейшем «Арендодатель», и Общество с ограниченной "
    "ответственностью «Бор-Трейд» (ООО «Бор-Трейд»), ИНН 5260112233, именуемое в дальнейшем "
    "«Арендатор», заключили договор.\n\n"
    "1. Арендная плата составляет 90 000 рублей в месяц.\n"
)


def test_a_role_asked_by_name_is_not_the_other_party() -> None:
    documents = [OUR_LOAN, OUR_LEASE]
    # the guarantor is no party of the card: a clause names it, not the lender
    assert card_values(documents, "Кто поручитель по нашему займу у Кама-Кредит?") == []
    assert card_values(documents, "Кто наш контрагент по договору займа З-4/2026?") == [
        ("займодавец", ["ООО «Кама-Кредит» (ИНН 5902334455)"])
    ]


def test_each_two_cell_form_line_is_a_sentence_of_its_own() -> None:
    # a Word form's «label | value» lines read whole: none glued to the next
    form = (
        "Получатель | ООО «Сосна-Мебель»\n"
        "Город | Вологда\n"
        "Вид работ | монтаж стеллажей\n"
        "Стоимость | 86 000 руб."
    )
    assert document_sentences(form) == form.split("\n")


def test_an_avenue_s_abbreviation_at_a_line_s_end_goes_on() -> None:
    text = "Товар доставляется по адресу: г. Самара, пр.\nКирова, д. 14, склад 2."
    assert document_sentences(text) == [text.replace("\n", " ")]
    assert leaves_open("Склад находится по адресу: г. Тверь, ул.", "Советская, д. 8")
    # after a figure it is a unit's: a year ends its sentence
    assert not leaves_open("Платёж поступил 14.05.2025 г.", "Оплата подтверждена банком.")
    assert not leaves_open(
        "Поставщик передаёт образцы, каталоги и пр.", "Приёмка ведётся на складе."
    )
