"""Forms titled by their own heading (dated, or under an approval note), numbered by their
«Номер документа» box, and a unified form's code read as a kind, not a number."""

from __future__ import annotations

from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.routing.named_documents import named_documents

TIMESHEET = """ООО «Сосна-Трейд»                         ИНН 7017000011 / КПП 701701001
634000, г. Томск, пр. Ленина, д. 3

                 ТАБЕЛЬ УЧЁТА РАБОЧЕГО ВРЕМЕНИ ЗА МАРТ 2027 г.

Сотрудник:     Круглов Пётр Ильич
Отработано:    21 рабочий день
"""
CARD_UNDER_NOTE = """Приложение № 2 к приказу Минфина России от 01.02.2027 № 12н

КАРТОЧКА УЧЁТА ВЗНОСОВ
за 2026 год

Плательщик: ООО «Сосна-Трейд», ИНН 7017000011
Начислено взносов: 412 000 руб.
"""
TRANSFER_ACT = """Унифицированная форма № ОС-1
Утверждена постановлением Госкомстата России от 21.01.2003 № 7
Организация-получатель: ООО «Сосна-Трейд», ИНН 7017000011
Номер документа Дата составления
41 12.05.2027
АКТ О ПРИЁМЕ-ПЕРЕДАЧЕ ОБЪЕКТА ОСНОВНЫХ СРЕДСТВ
Первоначальная стоимость объекта: 1 240 000 руб.
"""
PLEDGE = """ДОГОВОР ЗАЛОГА № З-5/2027 в обеспечение обязательств по договору поставки № П-1/2027

г. Томск, 2 апреля 2027 г.

1.1. Залогодатель передаёт в залог станок стоимостью 900 000 руб.
"""


def test_a_dated_heading_under_a_letterhead_titles_the_document() -> None:
    card = build_card("t", "tabel.txt", TIMESHEET)
    assert card.title == "Табель учёта рабочего времени за март 2027 г."


def test_an_approval_note_yields_to_the_forms_own_heading() -> None:
    card = build_card("c", "kartochka.pdf", CARD_UNDER_NOTE)
    assert card.title == "Карточка учёта взносов за 2026 год"
    assert card.doc_type != "order"


def test_a_forms_number_box_numbers_the_document() -> None:
    assert build_card("a", "os1.pdf", TRANSFER_ACT).number == "41"


def test_a_deal_the_heading_secures_is_not_its_kind() -> None:
    card = build_card("p", "zalog.md", PLEDGE)
    assert card.doc_type != "supply"
    assert card.doc_type_name == "договор залога"


def test_a_unified_forms_code_names_a_kind_and_the_number_follows_the_sign() -> None:
    cards = [build_card("a", "os1.pdf", TRANSFER_ACT)]

    def missing(question: str) -> str | None:
        return named_documents(build_question(question, cards=cards), cards).missing

    assert missing("Какая стоимость объекта по акту ОС-1 № 41?") is None
    assert missing("Какая стоимость объекта по акту ОС-1 № 42?") == "акт № 42"
    assert missing("Что принято по акту по форме ОС-1?") is None


# a cash form as a text file draws its number box beside its heading
CASH_ORDER = """                                          Унифицированная форма № КО-2
                                 Утверждена постановлением Госкомстата России
                                                      от 18.08.98 № 88
ООО «Сосна-Трейд»
                               +------------------+-------------------+
                               | Номер документа  | Дата составления  |
   РАСХОДНЫЙ КАССОВЫЙ ОРДЕР    +------------------+-------------------+
                               |       57         |    03.06.2027     |
                               +------------------+-------------------+
Выдать: Круглову Петру Ильичу
Сумма: 12 400,00 руб.
"""


def test_a_forms_heading_beside_its_number_box_titles_and_numbers_it() -> None:
    card = build_card("k", "ko2.txt", CASH_ORDER)
    assert card.title == "Расходный кассовый ордер"
    assert card.number == "57"
    found = build_question("Сколько выдали по расходнику № 57?", cards=[card]).documents
    assert [m.document_id for m in found] == ["k"]
