"""A law or KB decision yields to the user's documents when one held sentence is clearly
closer to the question than any law or knowledge-base passage."""

from __future__ import annotations

import numpy as np

from finagent.cards.sentence_vectors import pack
from finagent.routing.held_sentences import (
    SENTENCE_MARGIN,
    best_held_sentence,
    held_sentence_decision,
    law_closer_decision,
)
from finagent.routing.named_documents import NamedDocuments
from finagent.routing.router import general_only
from finagent.state import Decision, Scenario

MODEL = "test-model"


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _records() -> list:
    sentences = ["Арендатор вносит плату до 5 числа.", "Склад принимает паллеты."]
    vectors = np.stack([_unit(1, 0, 0), _unit(0, 1, 0)])
    return [pack("doc-lease", MODEL, sentences, vectors)]


def _kb(intents: list[str] | None = None, reason: str = "classifier: kb (0.95)") -> Decision:
    return Decision(
        scenario=Scenario.ROUTED,
        intents=intents or ["kb"],
        confidence=0.95,
        reason=reason,
        source="classifier",
    )


def test_the_closest_sentence_is_found_and_compared_with_the_law() -> None:
    held = best_held_sentence(_records(), _unit(1, 0.1, 0), MODEL, law_similarity=0.5)
    assert held is not None
    assert held.document_id == "doc-lease"
    assert held.sentence.startswith("Арендатор")
    assert held.leads


def test_no_vectors_of_this_model_no_signal() -> None:
    assert best_held_sentence(_records(), _unit(1, 0, 0), "other-model", 0.0) is None
    assert best_held_sentence([], _unit(1, 0, 0), MODEL, 0.0) is None


def test_a_closer_law_passage_keeps_the_question() -> None:
    held = best_held_sentence(_records(), _unit(1, 0, 0), MODEL, law_similarity=0.995)
    assert held is not None and not held.leads
    decision = _kb()
    assert held_sentence_decision("Когда платить аренду?", decision, held) is decision


def test_a_leading_sentence_takes_a_knowledge_question_to_the_documents() -> None:
    held = best_held_sentence(_records(), _unit(1, 0, 0), MODEL, 1.0 - 2 * SENTENCE_MARGIN)
    decided = held_sentence_decision("До какого числа платим за помещение?", _kb(), held)
    assert decided.scenario == Scenario.ALL_DOCUMENTS
    assert decided.rule == "held_sentence"
    assert decided.sub_queries


def test_live_rates_and_questions_about_the_law_itself_stay() -> None:
    held = best_held_sentence(_records(), _unit(1, 0, 0), MODEL, 0.0)
    rates = _kb(["rates"])
    assert held_sentence_decision("Какой курс доллара?", rates, held) is rates
    law = _kb()
    asked = "Что такое арендная плата по Гражданскому кодексу?"
    assert held_sentence_decision(asked, law, held) is law


def _documents_by_word() -> Decision:
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=0.9,
        reason="names the user's documents: акт",
        source="rules",
        rule="inventory",
        sub_queries=["Сколько дней на возражения по акту выездной проверки?"],
    )


def test_a_closer_law_passage_takes_a_document_word_question_to_the_law() -> None:
    # the best held sentence is far from the question; an article is much closer
    held = best_held_sentence(_records(), _unit(0, 0, 1), MODEL, law_similarity=0.5)
    assert held is not None and held.law_leads
    decided = law_closer_decision(_documents_by_word(), held)
    assert decided.scenario == Scenario.ROUTED
    assert decided.intents == ["kb"]
    assert decided.rule == "law_closer"
    assert decided.sub_queries


def test_a_held_sentence_as_close_as_the_law_keeps_the_documents() -> None:
    held = best_held_sentence(_records(), _unit(1, 0, 0), MODEL, 1.0 - SENTENCE_MARGIN / 2)
    decision = _documents_by_word()
    assert law_closer_decision(decision, held) is decision
    assert law_closer_decision(decision, None) is decision


def _documents_by(rule: str) -> Decision:
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=0.9,
        reason="classifier: the user's documents (0.54) over nothing",
        source="rules",
        rule=rule,
        sub_queries=["Самозанятый второй раз не выбил чек. Какой штраф?"],
    )


def test_a_general_documents_route_may_yield_to_a_closer_law_passage() -> None:
    impersonal = NamedDocuments()
    assert general_only(_documents_by("classifier_documents"), impersonal)
    assert general_only(_documents_by("cards"), impersonal)
    held = best_held_sentence(_records(), _unit(0, 0, 1), MODEL, law_similarity=0.5)
    decided = law_closer_decision(_documents_by("classifier_documents"), held)
    assert decided.scenario == Scenario.ROUTED and decided.rule == "law_closer"


def test_a_question_with_the_users_own_affairs_keeps_its_documents_route() -> None:
    decision = _documents_by("classifier_documents")
    assert not general_only(decision, NamedDocuments(own=True))
    assert not general_only(decision, NamedDocuments(precise_ids=["doc-lease"]))
    assert not general_only(decision, NamedDocuments(of_record=True))
    assert not general_only(decision, NamedDocuments(stated_in_held=True))
    assert not general_only(_documents_by("cards_vocabulary"), NamedDocuments())
