"""A date question asks one end of the asked event's term: «до какого числа» its end,
«с какого числа» its start; a document's reference date («№ 4 от …») states neither."""

from __future__ import annotations

import pytest

from finagent.answering.context import build_context
from finagent.answering.date_bounds import asked_bound, bounded_dates, event_dates
from finagent.answering.direct import stated_values
from finagent.answering.document_sentences import (
    rerank_document_sentences,
    value_level,
    whole_document_candidates,
    with_whole_documents,
)
from finagent.answering.sentence_profile import profile
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk


@pytest.mark.parametrize(
    ("question", "bound"),
    [
        ("До какого числа действует договор с Ромашкой?", "end"),
        ("по какое число арендуем склад?", "end"),
        ("Срок действия поручительства до какого?", "end"),
        ("С какой даты вступает в силу допсоглашение?", "start"),
        ("с какого по какое число отпуск у Петровой?", None),
        ("Какого числа подписали акт?", None),
    ],
)
def test_the_preposition_before_which_names_the_end_asked(question: str, bound: str) -> None:
    assert asked_bound(build_question(question)) == bound


def test_the_preposition_before_a_date_names_its_end() -> None:
    sentence = "Работы выполняются с 3 мая 2026 г. по 14 июня 2026 г. включительно."
    assert bounded_dates(sentence, "start") == ["3 мая 2026 г."]
    assert bounded_dates(sentence, "end") == ["14 июня 2026 г."]
    reference = "Доверенность № 4 от 02.02.2026 отзывается."
    assert event_dates(reference) == []


def test_a_deadline_date_answers_in_what_term() -> None:
    q = build_question("В какой срок покупатель должен оплатить товар?")
    assert q.answer_type == "period"
    sentence = "Покупатель оплачивает товар не позднее 20 марта 2026 г."
    assert value_level(q, profile(sentence), sentence) == 1.0


LEASE = """# Договор аренды склада № ЛС-4/2026
г. Вологда 2 февраля 2026 г.
ООО «Вектор-Снаб», именуемое в дальнейшем «Арендодатель», и ООО «Северный Лён»,
именуемое в дальнейшем «Арендатор», заключили настоящий договор.
1.2. Склад передаётся Арендатору по акту не позднее 10 февраля 2026 г.
6.1. Договор вступает в силу с 15 февраля 2026 г. и действует по 14 февраля 2027 г.
"""


@pytest.mark.parametrize(
    ("question", "date"),
    [
        ("По какое число действует договор аренды ЛС-4/2026?", "14 февраля 2027"),
        ("С какого числа действует договор аренды ЛС-4/2026?", "15 февраля 2026"),
    ],
)
def test_the_clause_with_the_asked_end_is_first(question: str, date: str) -> None:
    card = build_card("d1", "lease.md", LEASE)
    q = build_question(question, cards=[card])
    chunk = Chunk(id="c", text=LEASE, source="user_docs", title=card.title, document_id="d1")
    whole = whole_document_candidates(q, {"d1": LEASE}, build_context([chunk], [], 10_000))
    ranked = rerank_document_sentences(q, with_whole_documents([], whole), [card])
    assert "вступает в силу" in ranked[0].sentence
    assert bounded_dates(ranked[0].sentence, asked_bound(q) or "end")[0].startswith(date)


@pytest.mark.parametrize(
    ("question", "sentence", "values"),
    [
        (
            "С какого числа бюро начинает обслуживание?",
            "Услуги оказываются в период с 1 июня 2026 г. по 31 мая 2027 г.",
            ("1 июня 2026 г.",),
        ),
        (
            "До какого числа действует полномочие Сидорова?",
            "Доверенность № 4 от 02.02.2026 выдана сроком до 30 ноября 2026 г.",
            ("30 ноября 2026 г.",),
        ),
        (
            "В какой срок покупатель должен оплатить товар?",
            "Покупатель оплачивает товар не позднее 20 марта 2026 г.",
            ("20 марта 2026 г.",),
        ),
    ],
)
def test_the_lead_states_the_date_of_the_asked_end(
    question: str, sentence: str, values: tuple[str, ...]
) -> None:
    assert stated_values(build_question(question), sentence) == values


def test_a_verb_of_ending_before_a_date_names_its_end() -> None:
    """«До какой даты действует поручительство?»: «прекращается 31 марта 2028 г.» states
    the end, as much as «по 30 ноября 2026 г.» of another term in the same document."""
    ending = "Поручительство прекращается 31 марта 2028 г., если Кредитор не предъявит иск."
    assert bounded_dates(ending, "end") == ["31 марта 2028 г."]
    assert bounded_dates("Срок действия полиса истекает 31.12.2026.", "end") == ["31.12.2026"]
    assert bounded_dates("Акт подписан 31.12.2026.", "end") == []
