"""A figure the document labels by a noun the question asks is the value asked, whatever its
kind, when the question's answer type is vague or a sum the clause does not state."""

from __future__ import annotations

import pytest

from finagent.answering.document_sentences import rerank_document_sentences
from finagent.answering.evidence import Candidate
from finagent.answering.labelled_value import labels_a_value
from finagent.question.build import build_question
from finagent.state import Chunk


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # a period labelled by a derived noun the cards know no field for
        (
            "какая рассрочка по лизингу у Вектора?",
            "Лизингополучатель вносит платежи с **рассрочкой на 18 месяцев** с даты передачи.",
        ),
        # a quantity in a unit of measure for «сколько …»
        (
            "сколько площади арендуем у Северного склада?",
            "Арендуемая площадь — 312,5 кв. м, этаж второй.",
        ),
        # a percent three words after its label
        (
            "какой допуск по весу партии без санкций?",
            "Допуск по весу партии в пределах ± 3 % без применения санкций.",
        ),
    ],
)
def test_a_noun_the_question_asks_labels_the_figure(question: str, sentence: str) -> None:
    assert labels_a_value(build_question(question), sentence, frozenset())


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # the asked noun and the figure are in two phrases: a verb between them
        (
            "какая рассрочка по оплате у Вектора?",
            "За просрочку оплаты Дилер уплачивает пени 0,1 % за каждый день просрочки.",
        ),
        # a money question is not answered by a period the noun labels
        ("сколько стоит доставка по договору?", "Доставка — в течение 5 рабочих дней."),
        # a year is no quantity in grams
        ("какие акты сверки у нас?", "Акты сверки за III квартал 2025 г. не подписаны."),
        # a bracket ends the label's phrase
        (
            "какое требование по реестру уступили?",
            "Комиссия — 0,4 % от суммы уступленного требования (разово) НДС 22 % сверх.",
        ),
        # a figure too far from the noun
        (
            "какая рассрочка у Вектора?",
            "Рассрочка предоставляется по отдельному согласованию сторон и оформляется "
            "дополнительным соглашением, не ранее чем через 3 месяца.",
        ),
    ],
)
def test_no_label_across_a_verb_a_money_ask_or_a_year(question: str, sentence: str) -> None:
    q = build_question(question)
    if q.answer_type != "amount":  # the label is what is tested, not the question's type
        q = q.model_copy(update={"answer_type": "procedure"})
    assert not labels_a_value(q, sentence, frozenset())


def test_a_linking_verb_keeps_the_label_and_its_figure_together() -> None:
    q = build_question("какая франшиза по полису при пожаре?")
    assert labels_a_value(q, "По риску «пожар» франшиза составляет 40 000 рублей.", frozenset())


DEALER = """Дилерский договор № Д-9/2026
1.1. Поставщик передаёт Дилеру право продажи насосов на территории области.
4.1. Дилер оплачивает каждую поставку с отсрочкой платежа 30 календарных дней с даты УПД.
4.2. За просрочку оплаты Дилер уплачивает пени 0,1 % за каждый день просрочки.
"""


def test_the_clause_whose_figure_the_asked_noun_labels_is_quoted_first() -> None:
    chunk = Chunk(
        id="c", text=DEALER, source="user_docs", title="Дилерский договор", document_id="d"
    )
    lines = [line for line in DEALER.splitlines()[1:] if line.strip()]
    ranked = [Candidate(chunk, 1, s, 0, i, score=float(-i)) for i, s in enumerate(lines)]
    q = build_question("какая у нас отсрочка оплаты по насосам у дилера?")
    q = q.model_copy(update={"answer_type": "procedure"})  # a vague type, as a new term gets
    first = rerank_document_sentences(q, ranked)[0]
    assert first.sentence.startswith("4.1.")


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # a price is not answered by an area the object of the price labels
        (
            "сколько стоит хранение на складе у Глобуса?",
            "Хранитель принимает на хранение склад площадью 1 200 кв. м под товары.",
        ),
        # nor by a volume of the thing whose cost is asked
        (
            "какова стоимость перевозки щебня?",
            "Перевозка щебня 300 тонн выполняется в течение месяца.",
        ),
        # nor by a weight
        ("сколько стоит упаковка заказа?", "Упаковка массой до 5 кг не оплачивается."),
        # a noun of the question that is not the asked attribute's head labels nothing
        (
            "что такое испытательный период по договору подряда?",
            "Договор подряда на сумму 840 000 руб. подписан сторонами.",
        ),
    ],
)
def test_only_the_asked_head_labels_and_a_price_wants_money(question: str, sentence: str) -> None:
    assert not labels_a_value(build_question(question), sentence, frozenset())


def test_the_title_lemmas_label_nothing() -> None:
    q = build_question("сколько площади арендуем у Северного склада?")
    sentence = "Арендуемая площадь — 312,5 кв. м, этаж второй."
    assert not labels_a_value(q, sentence, frozenset({"площадь"}))
