"""A document named by its number that a held document only refers to
(finagent/answering/referenced_only.py), and the names, units and abbreviations a
question writes otherwise than its documents (finagent/answering/coverage.py)."""

from __future__ import annotations

from datetime import date

from finagent.answering.coverage import coverage_abstention
from finagent.answering.referenced_only import question_numbers, referenced_only
from finagent.cards.build import build_card
from finagent.language.transliteration import latin_forms
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 5, 12)

ACT = (
    "Акт № 14 приёмки выполненных работ\n\n"
    "Основание: договор на техническое сопровождение № ТП-11/2025 от 3 марта 2025 г.\n\n"
    "1. Исполнитель выполнил работы по сопровождению за апрель 2026 г.\n\n"
    "2. По п. 5.1 договора № ТП-11/2025 оплата производится не позднее 20 мая 2026 г.\n\n"
    "3. Стоимость работ — 96 000,00 руб., в том числе НДС 16 000,00 руб.\n"
)
STATEMENT = (
    "Выписка по расчётному счёту\n\n"
    "| № | Дата | Контрагент | Назначение платежа | Списано |\n"
    "|---|---|---|---|---|\n"
    "| 4 | 14.04.2026 | АО «Страховой дом» | Премия по договору страхования "
    "грузов № СГ-26-00731. НДС не облагается | 41 300,00 |\n"
)
TRANSFER = (
    "Соглашение № ПД-7/2026 о переводе долга к договору подряда № 63/25\n\n"
    "1. Первоначальный должник переводит долг по договору подряда № 63/25 в сумме "
    "812 000 руб.\n\n"
    "2. Неустойка по договору подряда уплачивается в течение 5 рабочих дней.\n"
)
HEADED = (
    "ИНСПЕКЦИЯ ФНС № 9\n\n"
    "АКТ НАЛОГОВОЙ ПРОВЕРКИ № 08-14/22\n\n"
    "Предлагается взыскать штраф 40 000 руб.\n"
)


def _check(question: str, texts: dict[str, str]) -> str | None:
    cards = [build_card(name, name, text) for name, text in texts.items()]
    chunks = [
        Chunk(id=n, text=t, source="user_docs", title=c.title, document_id=n)
        for (n, t), c in zip(texts.items(), cards, strict=True)
    ]
    asked = build_question(question, TODAY, cards=cards)
    found = referenced_only(asked, cards, chunks, texts)
    return found.reason if found else None


def test_the_numbers_a_question_names_documents_by() -> None:
    asked = build_question("Когда истекает лицензия ЛО-77-01-123 по договору № 5?", TODAY)
    assert question_numbers(asked) == ["ЛО-77-01-123"]
    # a unified form's code and bare digits are no such number
    assert question_numbers(build_question("Что такое форма ОС-1 и КС-2?", TODAY)) == []


def test_a_term_of_a_document_only_referred_to_is_declined() -> None:
    texts = {"act": ACT, "statement": STATEMENT}
    reason = _check("До какого числа действует договор на сопровождение ТП-11/2025?", texts)
    assert reason is not None and "ТП-11/2025" in reason and "Акт № 14" in reason
    # a statement's payment under a policy states no term of the policy
    reason = _check("До какой даты действует договор страхования грузов СГ-26-00731?", texts)
    assert reason is not None and "Выписка" in reason
    # a period of the referring document's own clause is no warranty of the contract
    reason = _check("Какой гарантийный срок по договору подряда 63/25?", {"transfer": TRANSFER})
    assert reason is not None and "63/25" in reason


def test_what_the_referring_sentence_states_is_answered() -> None:
    texts = {"act": ACT, "statement": STATEMENT}
    # the payment deadline the act states under the contract's clause, named by the verb
    assert _check("До какого числа оплатить работы по договору ТП-11/2025?", texts) is None
    # the contract's own date, written beside its number
    assert _check("Когда заключён договор ТП-11/2025?", texts) is None
    # the premium paid under the policy: the statement's row
    assert _check("Сколько заплатили по договору страхования СГ-26-00731?", texts) is None
    # a document written to the contract states its debt
    assert _check("Какой долг переводится по договору подряда 63/25?", {"t": TRANSFER}) is None


def test_a_held_documents_own_number_is_not_a_reference() -> None:
    assert _check("Какой срок по соглашению ПД-7/2026?", {"transfer": TRANSFER}) is None
    # its heading titles it by the number even when its card reads another heading
    assert _check("Какой штраф предлагают в акте 08-14/22?", {"act": HEADED}) is None


def test_a_cyrillic_spelling_of_a_latin_name_is_the_name() -> None:
    assert "largus" in latin_forms("Ларгуса")
    assert latin_forms("Largus") == frozenset()
    order = "Приказ № 8\n\n4. Лимит по топливной карте на LADA Largus — 25 000 рублей в месяц."
    chunk = Chunk(id="o", text=order, source="user_docs", title="Приказ № 8", document_id="o")
    asked = build_question("Какой лимит по топливной карте на Ларгус?", TODAY)
    assert coverage_abstention(asked, [chunk], [], True) is None
    asked = build_question("Какой лимит по топливной карте на Хендай?", TODAY)
    assert coverage_abstention(asked, [chunk], [], True) is not None


def test_an_abbreviated_unit_or_a_slashed_abbreviation_is_no_asked_indicator() -> None:
    clause = (
        "9.2. Гарантийный срок составляет 18 месяцев для металлоконструкций "
        "(опоры, ригели) с даты поставки."
    )
    chunk = Chunk(id="c", text=clause, source="user_docs", title="Договор", document_id="c")
    asked = build_question("гарантия на опоры и ригели сколько мес?", TODAY)
    assert asked.answer_type == "period"
    assert coverage_abstention(asked, [chunk], [], True) is None
    asked = build_question("НДС в с/ф 12 для Альфа-Трейда сколько?", TODAY)
    assert [a.head for a in asked.attributes] == ["ндс"]


def test_a_number_of_no_document_kind_or_of_the_held_documents_kind_is_not_declined() -> None:
    ruling = "Решение арбитражного суда\n\nДело № А40-55120/2026. Взыскать неустойку 120 000 руб.\n"
    # a court case is no document the user might lack
    assert _check("Сколько неустойки присудили по делу А40-55120/2026?", {"r": ruling}) is None
    claim = (
        "Претензия о нарушении сроков поставки\n\n"
        "Исх. № 77/П от 02.06.2026. Просрочка составила 12 дней.\n"
    )
    # the claim asked is the held one, whose heading gives its number elsewhere
    assert _check("Сколько дней просрочки указано в претензии 77/П?", {"c": claim}) is None


def test_a_verb_of_the_question_is_named_by_a_word_of_its_root() -> None:
    handover = (
        "Акт приёма-передачи дел\n\n"
        "4.1. Требование инспекции № 31-02/115 от 01.06.2026 получено 02.06.2026; ответ "
        "должен быть направлен не позднее 16.06.2026.\n"
    )
    assert _check("до какого числа ответить на требование 31-02/115?", {"h": handover}) is None


def test_a_number_inside_a_held_document_of_the_kind_asked_is_not_declined() -> None:
    preliminary = (
        "Предварительный договор аренды\n\n"
        "1. Предмет: нежилое помещение № 7-Б. Основной договор заключается не позднее "
        "1 августа 2026 г.\n"
    )
    asked = "до какого числа заключить основной договор по помещению 7-Б?"
    assert _check(asked, {"p": preliminary}) is None
