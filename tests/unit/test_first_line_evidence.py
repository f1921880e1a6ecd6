"""The first line's sentence: an asked noun named by its adjective in the clause
(«залог» — «залоговый платёж»), the value words of every asked part tell no clause apart,
and what a question states before its question word is context, not the type asked."""

from __future__ import annotations

import pytest

from finagent.answering.card_evidence import CardAnswer, CardValue
from finagent.answering.card_or_sentence import clause_answers_instead
from finagent.answering.document_sentences import (
    asked_lemmas,
    later_part_words,
    rerank_document_sentences,
)
from finagent.answering.evidence import Candidate
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk

STORAGE = """# Договор хранения № ХР-9/2026
г. Тверь — 3 марта 2026 г.
ООО «Ока-Склад», именуемое в дальнейшем «Хранитель», и ООО «Верхневолжский мёд», именуемое
в дальнейшем «Поклажедатель», заключили настоящий договор.
3.1. Имущество застраховано на весь срок хранения на сумму не ниже 900 000 рублей.
3.2. Залоговый платёж составляет 120 000 рублей и перечисляется в течение 3 (трёх) рабочих дней.
"""


def _ranked_first(question: str) -> str:
    card = build_card("d1", "storage", STORAGE)
    chunk = Chunk(id="c", text=STORAGE, source="user_docs", title=card.title, document_id="d1")
    lines = [line for line in STORAGE.splitlines() if line.strip()]
    found = [Candidate(chunk, 1, s, 0, i, score=float(len(lines) - i)) for i, s in enumerate(lines)]
    ranked = rerank_document_sentences(build_question(question, cards=[card]), found)
    return ranked[0].sentence


def test_an_asked_noun_named_by_its_adjective_counts_as_named() -> None:
    first = _ranked_first("Какой залог по договору ХР-9/2026 и в какой срок его внести?")
    assert first.startswith("3.2.")


@pytest.mark.parametrize(
    ("text", "answer_type"),
    [
        (
            "Досудебный порядок обязателен — в какой срок контрагент рассматривает претензию?",
            "period",
        ),
        ("Штраф уже выставили, какой?", "amount"),  # «какой» alone: the context names it
        ("Какой порядок уплаты НДС?", "procedure"),
    ],
)
def test_what_a_question_states_before_its_question_word_is_context(
    text: str, answer_type: str
) -> None:
    assert build_question(text).answer_type == answer_type


@pytest.mark.parametrize(
    ("text", "answer_type", "fields"),
    [
        # one part naming a field by «какой» alone asks the field's kind of value
        ("Какой оклад у кладовщика с 1 марта?", "amount", ["salary"]),
        # a field's word in the genitive after another noun is that noun's complement
        ("Какой фонд оплаты труда по штатному расписанию?", "procedure", []),
        ("Какая дата оплаты по счёту?", "date", ["payment_term"]),
        # a field's word after «на» and a noun is what that noun is charged on
        ("Под какой процент банк начислил проценты на остаток?", "rate", ["interest_rate"]),
        ("Какой остаток на счёте?", "amount", ["balance"]),
        ("Какая премия положена водителю по приказу?", "amount", ["bonus"]),
    ],
)
def test_a_field_named_by_the_question_sets_its_type(
    text: str, answer_type: str, fields: list[str]
) -> None:
    question = build_question(text)
    assert question.answer_type == answer_type
    assert question.fields == fields


SUPPLY = """# Договор поставки № НС-4/2026
ООО «Гидромаш», ИНН 7701234567, именуемое в дальнейшем «Поставщик», и ООО «Водоканал-Сервис»,
именуемое в дальнейшем «Покупатель», заключили настоящий договор.
6.1. Гарантийный срок на насосы составляет 18 месяцев с даты поставки.
"""


@pytest.mark.parametrize(
    ("question", "clause_leads"),
    [
        # a role the question mentions while it asks a term: the clause states the term
        ("Какой гарантийный срок поставщик даёт на насосы?", True),
        ("Кто поставщик насосов по договору НС-4/2026?", False),
    ],
)
def test_a_clause_of_the_asked_type_leads_over_a_role_field(
    question: str, clause_leads: bool
) -> None:
    card = build_card("d1", "supply", SUPPLY)
    chunk = Chunk(id="c", text=SUPPLY, source="user_docs", title=card.title, document_id="d1")
    preamble = " ".join(SUPPLY.splitlines()[1:3])
    answer = CardAnswer(
        "supplier",
        "поставщик",
        "d1",
        card.title,
        1,
        [CardValue("ООО «Гидромаш» (ИНН 7701234567)", preamble)],
    )
    clause = SUPPLY.splitlines()[3]
    ranked = [Candidate(chunk, 1, clause, 0, 0, score=1.0)]
    asked = build_question(question, cards=[card])
    assert clause_answers_instead(asked, [answer], ranked, [card]) is clause_leads


def test_words_only_a_later_part_has_do_not_choose_the_first_line() -> None:
    question = build_question("Сколько всего поступило на счёт за март и сколько списано?")
    assert "списать" in later_part_words(question)
    assert "списать" not in asked_lemmas(question, [])
    assert "поступить" in asked_lemmas(question, [])


WRITE_OFF = """# Акт № 14 о результатах проверки склада
г. Самара — 12 мая 2026 г.
Итого по описи: 2 430 000,00 руб.
Выявлена порча: плитка керамическая — 30 коробок на сумму 48 600,00 руб.
Транспортные расходы по доставке плитки составили 12 500,00 руб. и включены в её стоимость.
Стоимость ремонта стеллажей составляет 90 000,00 руб.
"""


@pytest.mark.parametrize(
    ("question", "quoted", "clause", "clause_leads"),
    [
        # a generic amount word asks the sum of what the question measures: a clause
        # naming it leads over a field whose sentence names nothing asked
        ("На какую сумму порча плитки на складе?", 2, 3, True),
        ("Какие транспортные расходы включили в стоимость плитки?", 2, 4, True),
        # the field's sentence names what is measured: the card keeps the lead
        ("На какую сумму ремонт стеллажей?", 5, 3, False),
        # a clause that does not name what is measured does not lead
        ("На какую сумму порча плитки на складе?", 2, 5, False),
    ],
)
def test_a_generic_amount_field_yields_to_the_clause_naming_what_is_measured(
    question: str, quoted: int, clause: int, clause_leads: bool
) -> None:
    card = build_card("d1", "act", WRITE_OFF)
    lines = WRITE_OFF.splitlines()
    chunk = Chunk(id="c", text=WRITE_OFF, source="user_docs", title=card.title, document_id="d1")
    answer = CardAnswer(
        "contract_amount",
        "сумма договора",
        "d1",
        card.title,
        1,
        [CardValue("1 руб.", lines[quoted])],
    )
    ranked = [Candidate(chunk, 1, lines[clause], 0, 0, score=1.0)]
    asked = build_question(question, cards=[card])
    assert clause_answers_instead(asked, [answer], ranked, [card]) is clause_leads


def test_a_field_the_question_asks_by_name_keeps_the_lead() -> None:
    card = build_card("d1", "act", WRITE_OFF)
    lines = WRITE_OFF.splitlines()
    chunk = Chunk(id="c", text=WRITE_OFF, source="user_docs", title=card.title, document_id="d1")
    answer = CardAnswer("balance", "остаток", "d1", card.title, 1, [CardValue("1 руб.", lines[2])])
    ranked = [Candidate(chunk, 1, lines[3], 0, 0, score=1.0)]
    asked = build_question("Какой остаток плитки по акту после порчи?", cards=[card])
    assert clause_answers_instead(asked, [answer], ranked, [card]) is False
