"""Which of the user's documents answers: one counterparty in several documents, a role
word many documents hold, or no name at all — the question's other words decide."""

from __future__ import annotations

from finagent.answering.document_choice import chosen_documents, decided_documents
from finagent.cards.build import build_card
from finagent.question.build import build_question

LICENCE = """# Лицензионный договор № Л-9/2026
г. Самара — 3 февраля 2026 г.
ООО «Вега-Код», именуемое «Лицензиар», и ООО «Рассвет», именуемое «Лицензиат», заключили
настоящий договор.
1.1. Лицензиар предоставляет право использования программы «Вега.Склад».
3.1. Вознаграждение составляет 2 100 рублей за одно рабочее место в месяц.
"""
SUBLEASE = """# Договор субаренды нежилого помещения № С-4/2026
г. Самара — 10 января 2026 г.
ООО «Рассвет», именуемое «Арендатор», и ООО «Вега-Код», именуемое «Субарендатор»,
заключили настоящий договор.
1.1. Арендатор передаёт Субарендатору помещение площадью 40 кв. м под рабочее место
сотрудников.
3.1. Субарендная плата составляет 55 000 рублей в месяц.
"""
CLAIM = """# Претензия
ООО «Рассвет» — ООО «Кварц-Снаб».
Поставщик не поставил насос в срок. Требуем вернуть предоплату 310 000 рублей в течение
10 дней.
"""
DELIVERY = """# Универсальный передаточный документ № 77
Продавец: ООО «Кварц-Снаб». Покупатель: ООО «Рассвет».
Предоплата 50 % получена. Отгружены фильтры, 12 шт.
"""
ACT = """# Акт № 5 оказанных услуг
Исполнитель: ООО «Полюс». Заказчик: ООО «Рассвет».
Услуги по уборке оказаны полностью, претензий нет.
"""


def _cards() -> list:
    return [
        build_card("lic", "licence", LICENCE),
        build_card("sub", "sublease", SUBLEASE),
        build_card("claim", "claim", CLAIM),
        build_card("upd", "upd", DELIVERY),
        build_card("act", "act", ACT),
    ]


def test_a_counterparty_named_by_two_documents_is_told_apart_by_the_other_words() -> None:
    cards = _cards()
    question = build_question(
        "какую предоплату мы требуем вернуть от Кварц-Снаб за насос?", cards=cards
    )
    assert {"claim", "upd"} <= {d.document_id for d in question.documents}
    assert chosen_documents(question, cards) == ["claim"]


def test_an_unnamed_document_the_words_fit_clearly_better_than_the_first_retrieved() -> None:
    cards = _cards()
    question = build_question("почём одно рабочее место в Вега.Складе в месяц?", cards=cards)
    assert chosen_documents(question, cards, ["sub", "lic"]) == ["lic"]


def test_the_first_retrieved_document_stays_when_no_other_fits_clearly_better() -> None:
    cards = _cards()
    question = build_question("сколько платим в месяц?", cards=cards)
    assert chosen_documents(question, cards, ["sub", "lic"]) == ["sub"]
    assert decided_documents(question, cards, ["sub", "lic"]) == []


def test_a_document_named_by_its_kind_is_kept() -> None:
    cards = _cards()
    question = build_question("что сказано в акте про претензии?", cards=cards)
    assert "act" in chosen_documents(question, cards, ["claim"])


def test_documents_one_name_names_are_all_kept_when_the_words_fit_them_alike() -> None:
    cards = _cards()
    question = build_question("сколько стоит договор с Кварц-Снаб?", cards=cards)
    assert set(chosen_documents(question, cards)) >= {"claim", "upd"}


FREIGHT = """# Договор перевозки грузов № Г-3/2026
г. Самара — 12 января 2026 г.
ООО «Рассвет», именуемое «Грузоотправитель», и ООО «Трасса», именуемое «Перевозчик»,
заключили настоящий договор.
5.1. За просрочку доставки груза Перевозчик уплачивает штраф 5 % провозной платы.
"""
CREDIT = """# Кредитный договор № 77-К/2026 об открытии кредитной линии
г. Самара — 20 января 2026 г.
АО «Волга-Банк», именуемое «Банк», и ООО «Рассвет», именуемое «Заёмщик», заключили
настоящий договор.
2.1. Проценты начисляются по ставке 17 % годовых.
"""
TRAINING = """# Договор № ОБ-8/2026 возмездного оказания образовательных услуг
г. Самара — 1 февраля 2026 г.
ООО «Знание», именуемое «Исполнитель», и ООО «Рассвет», именуемое «Заказчик», заключили
настоящий договор.
3.1. Стоимость обучения составляет 90 000 рублей.
"""


def _contracts() -> list:
    return [
        build_card("freight", "freight", FREIGHT),
        build_card("credit", "credit", CREDIT),
        build_card("training", "training", TRAINING),
    ]


def test_a_number_names_its_document_over_every_document_of_the_kind() -> None:
    cards = _contracts()
    question = build_question("какая стоимость по договору ОБ-8/2026?", cards=cards)
    assert question.documents[0].document_id == "training"
    assert chosen_documents(question, cards, ["freight", "credit"]) == ["training"]


def test_a_subject_word_of_a_heading_names_that_document_over_a_bare_kind() -> None:
    cards = _contracts()
    question = build_question("какая ставка по кредитному договору?", cards=cards)
    assert "заголовок" in question.documents[0].reasons
    assert chosen_documents(question, cards, ["freight"]) == ["credit"]


def test_what_the_question_asks_names_no_document_by_its_heading() -> None:
    claim = "# Претензия об уплате неустойки\nООО «Рассвет» — ООО «Трасса».\nТребуем уплатить.\n"
    cards = [*_contracts(), build_card("claim", "claim", claim)]
    question = build_question("какая неустойка по кредитному договору?", cards=cards)
    assert "claim" not in {d.document_id for d in question.documents}
