"""A table's bare figure read in the unit its column header names («Отработано, ч» over
«178»): the header says what the figure is, so the row of the asked person or category
states a value of the asked kind (stop 43, docs16)."""

from __future__ import annotations

from finagent.answering.document_sentences import (
    document_sentences,
    header_units,
    rerank_document_sentences,
)
from finagent.answering.evidence import Candidate
from finagent.answering.row_units import counted_unit
from finagent.cards.build import build_card
from finagent.cards.header_units import header_unit, unit_cells
from finagent.question.build import build_question
from finagent.state import Chunk

TIMESHEET = """ТАБЕЛЬ УЧЁТА РАБОЧЕГО ВРЕМЕНИ № 7 (форма № Т-13)
Организация: ООО «Ладожский мукомол»
Отчётный период: с 01.03.2026 по 31.03.2026

+---+---------------------------+--------------------+------------+---------------+------------+
| № | Фамилия, имя, отчество    | Должность          | Явки, дней | Отработано, ч | Неявки     |
+===+===========================+====================+============+===============+============+
| 1 | Лаптева Ольга Игоревна    | мельник            |         21 |           168 | Б: 1       |
| 2 | Селиванов Пётр Юрьевич    | весовщик           |         19 |           155 | ОТ: 3      |
| 3 | Жаров Кирилл Андреевич    | грузчик            |         22 |           176 | —          |
+---+---------------------------+--------------------+------------+---------------+------------+
Сверхурочно отработано Селивановым П. Ю. 3 часа 14.03.2026 по распоряжению № 9-р.
Итого по цеху отработано 499 часов.
"""

LEAVE = """ПРИКАЗ № 58-о
о предоставлении отпусков работникам
г. Вологда                                                    02.06.2026

1. Предоставить работникам ежегодные отпуска:

| ФИО | Вид отпуска | Продолжительность, кал. дн. | Дата начала |
|---|---|---|---|
| Кудрина Алла Сергеевна | ежегодный основной оплачиваемый | 14 | 06.07.2026 |
| Мальцев Олег Петрович | ежегодный основной оплачиваемый | 21 | 13.07.2026 |

2. Бухгалтерии выплатить отпускные не позднее чем за 3 дня до начала отпуска.
"""


def _ranked(text: str, name: str, question: str) -> list[Candidate]:
    card = build_card("d1", name, text)
    chunk = Chunk(id="c", text=text, source="user_docs", title=card.title, document_id="d1")
    sentences = document_sentences(text)
    return rerank_document_sentences(
        build_question(question, cards=[card]),
        [Candidate(chunk, 1, s, 0, i, score=1.0) for i, s in enumerate(sentences)],
        [card],
    )


def test_a_header_names_the_unit_of_its_column() -> None:
    assert header_unit("Отработано, ч") == ("час", "time")
    assert header_unit("Стаж, лет") == ("год", "time")
    assert header_unit("Разовая выдача (руб.)") == ("рубль", "money")
    assert header_unit("Всего, тыс. руб. (без НДС)") == ("рубль", "money")
    assert header_unit("Ставка, % годовых") == ("процент", "percent")
    assert header_unit("Пробег, км") == ("километр", "measure")
    assert header_unit("Количество рабочих дней") == ("день", "time")
    assert header_unit("Договор (№ 14)") is None
    assert header_unit("Фамилия, имя, отчество") is None


def test_only_bare_figures_under_a_unit_header_are_read() -> None:
    row = "№: 2; ФИО: Селиванов Пётр Юрьевич; Стаж, лет: 7; Примечание, дней: нет данных"
    cells = unit_cells(row)
    assert [(c.name, c.unit, c.figure) for c in cells] == [("Стаж", "год", "7")]
    assert unit_cells("Лимит на поездку, руб. | 60 000")[0].figure == "60 000"


def test_the_unit_a_how_many_question_counts() -> None:
    assert counted_unit(build_question("сколько часов отработал Жаров за март?")) == "час"
    assert counted_unit(build_question("сколько тонн муки отгрузили по накладной?")) == "тонна"
    assert counted_unit(build_question("какой лимит выдачи механикам?")) is None


def test_the_person_s_row_states_the_hours_the_header_names() -> None:
    ranked = _ranked(TIMESHEET, "tabel.txt", "сколько часов отработал Жаров в марте по табелю?")
    assert ranked[0].sentence.startswith("№: 3; Фамилия, имя, отчество: Жаров Кирилл Андреевич")


def test_a_column_of_another_thing_in_the_asked_unit_states_nothing() -> None:
    question = build_question("сколько дней болела Лаптева в марте?")
    row = next(s for s in document_sentences(TIMESHEET) if "Лаптева" in s)
    assert header_units(question, row, {"болеть", "день", "март"}) is None
    asked = build_question("сколько дней явок у Лаптевой в марте?")
    assert header_units(asked, row, {"явка", "день", "март"}) == {"день"}


def test_the_person_s_row_states_the_days_a_generic_header_names() -> None:
    ranked = _ranked(LEAVE, "prikaz.md", "на сколько дней уходит в отпуск Мальцев?")
    assert ranked[0].sentence.startswith("ФИО: Мальцев Олег Петрович")


REGISTER = """ОБОРОТНО-САЛЬДОВАЯ ВЕДОМОСТЬ ПО СЧЁТУ 60 «РАСЧЁТЫ С ПОСТАВЩИКАМИ»
Период: 1 квартал 2026 г.
Единица измерения: руб.

+-------+---------------------+------------+----------------+----------------+----------------+
| Счёт  | Контрагент          | ИНН        | Сальдо на      | Обороты за     | Сальдо на      |
|       |                     |            | 01.01.2026     | период, кредит | 31.03.2026     |
+=======+=====================+============+================+================+================+
| 60.01 | АО «Речной порт»    | 3525333444 |      88 000,00 |     402 000,00 |     226 400,00 |
| 60.01 | ООО «Вершина-Пласт» | 3525111222 |     310 500,00 |     920 000,00 |     145 800,00 |
+-------+---------------------+------------+----------------+----------------+----------------+

Пояснение: сальдо 226 400,00 руб. по АО «Речной порт» — оплата по графику.
"""


def test_a_register_s_sums_with_kopecks_are_money_and_the_named_organisation_s_row_leads() -> None:
    row = next(s for s in document_sentences(REGISTER) if "Вершина" in s)
    assert {c.figure for c in unit_cells(row)} == {"310 500,00", "920 000,00", "145 800,00"}
    ranked = _ranked(REGISTER, "osv_60.txt", "какое сальдо по Вершина-Пласт на 31 марта?")
    assert ranked[0].sentence.startswith("Счёт: 60.01; Контрагент: ООО «Вершина-Пласт»")


TRANSFER = """АКТ ПРИЁМА-ПЕРЕДАЧИ ДЕЛ ГЛАВНОГО БУХГАЛТЕРА
ООО «Северный хлеб», 01.12.2026

1. Денежные средства на 30.11.2026

| № | Показатель | Сумма, руб. |
|---|---|---|
| 1 | Денежные средства в кассе и на расчётном счёте, всего | 1 214 370,40 |
| 1.1 | в т.ч. в кассе (акт инвентаризации от 30.11.2026) | 9 870,40 |
| 1.2 | в т.ч. на счёте в АО «Банк Вологда» | 1 204 500,00 |
"""


def test_a_total_row_gives_way_to_the_row_it_sums_unless_a_total_is_asked() -> None:
    ranked = _ranked(TRANSFER, "akt.md", "сколько было в кассе на 30 ноября?")
    assert "в т.ч. в кассе" in ranked[0].sentence
    ranked = _ranked(TRANSFER, "akt.md", "сколько было в кассе и на счёте всего?")
    assert "всего" in ranked[0].sentence


def test_a_minutes_header_states_minutes_and_every_abbreviation_has_a_kind():
    # review finding (stop 43): «Простой, мин» raised KeyError, «минута» having no kind
    assert header_unit("Простой, мин") == ("минута", "time")
    cells = unit_cells("№: 2; Участок: сборка; Простой, мин: 45")
    assert [(c.name, c.unit, c.kind, c.figure) for c in cells] == [
        ("Простой", "минута", "time", "45")
    ]
    from finagent.cards.header_units import _abbreviations, _kinds

    assert {u for u in _abbreviations().values() if u not in _kinds()} == set()
