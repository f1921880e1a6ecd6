"""The scenario decision: one structured LLM call, the two-layer router as fallback, S3/S4
by real size. The orchestrate node and ``finagent route`` both decide here.

Every turn builds the typed ``Question`` once, with the user's document cards, and
returns it for ``state["question"]``; the router reads what of the cards it names
(``named_documents``). Every turn also reads the user's document inventory (titles, types,
counterparties, dates): the LLM gets a bounded summary of it, the offline router matches
the question against it. Without an LLM (or when it fails or is unsure) the routing text
is embedded once, in one batch with its reformulation in the Code's terms (``expand_query``,
the searches' second query); the vectors go to the router and, through
``Deps.query_vectors``, to the searches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.cards.model import DocumentCard
from finagent.clients.llm import keeps_schema_limits
from finagent.error_report import report
from finagent.moscow_time import moscow_today
from finagent.observability import get_logger
from finagent.question.build import build_question
from finagent.question.model import Question
from finagent.retrieval.retriever import KB
from finagent.routing.calc_rules import calc_decision
from finagent.routing.cross_check import cross_check, facts_for
from finagent.routing.expansion import expand_query
from finagent.routing.held_sentences import (
    HeldSentence,
    best_held_sentence,
    held_sentence_decision,
    law_closer_decision,
    may_yield,
)
from finagent.routing.inventory import Inventory
from finagent.routing.inventory_loader import load_inventory
from finagent.routing.llm_router import llm_decide
from finagent.routing.named_documents import NamedDocuments, named_documents
from finagent.routing.router import (
    Router,
    cards_decision,
    general_only,
    load_classifier,
    prepare,
    selected_documents_decision,
    word_only,
)
from finagent.routing.rules import classify, rule_decision
from finagent.state import Decision, Scenario, Turn
from finagent.storage.card_refresh import current_cards

log = get_logger("finagent.orchestrate")  # the event names predate this module


def held_document_states_it(named: NamedDocuments, question: Question | None) -> bool:
    """«До какого числа ответить на требование 18-07/4412?»: a held document named by its
    number, party or person, or one alone by its kind and a subject word of its heading
    («по требованию о пояснениях»), and no date, sum or period of the question's own to
    compute from: the document states the term (and the calculators would ask for the
    dates)."""
    if question is None:
        return False
    # «по требованию о пояснениях»: its kind and a subject word of its heading name one card
    described = [d for d in question.documents if {"тип", "заголовок"} <= set(d.reasons)]
    if not named.precise_ids and len(described) != 1:
        return False
    return not (question.dates or question.money or question.periods)


async def offline_decision(
    deps: Deps,
    query: str,
    history: list[Turn],
    inventory: Inventory,
    debug: dict[str, Any],
    named: NamedDocuments | None = None,
    question: Question | None = None,
    user_id: str | None = None,
    document_ids: Sequence[str] = (),
) -> Decision:
    """Rules and the user's cards, then the semantic classifier on the turn's query vector
    (rules and cards alone if the embedder fails).
    A law or knowledge-base decision yields to the documents ``document_ids`` of
    ``user_id`` when one of their sentences is clearly closer to the question
    (``finagent.routing.held_sentences``); a documents decision taken on a document word
    alone yields to the law when a law or knowledge-base passage is clearly closer."""
    named = named or NamedDocuments()
    # deadlines and пени go to the calculators first, unless a held document the question
    # names precisely states its own terms and the question gives nothing to count from
    calc = None if held_document_states_it(named, question) else calc_decision(query)
    text, follow_up = prepare(query, history)
    if calc is not None:
        lacks = calc_lacks(query)
        held_term = await held_term_decision(
            deps, text, question, user_id, document_ids, debug, lacks
        )
        return held_term or calc
    try:
        vector = await routing_vector(deps, text, searches_reformulation(text, inventory))
        classifier = await load_classifier(deps.embedder)
    except Exception as exc:  # embeddings endpoint down: the rules still route
        debug["classifier_unavailable"] = report(exc, "routing_classifier_unavailable")
        ruled = rule_decision(text, inventory)
        return cards_decision(text, named, ruled, None, inventory) or classify(
            query, history, False, inventory
        )
    router = Router(classifier, deps.settings.routing_min_confidence)
    answer_type = question.answer_type if question is not None else None
    decision = router.route(text, vector, inventory, follow_up, named, answer_type)
    if user_id is None or not document_ids:
        return decision
    if (decision.rule == "inventory" and word_only(decision, text, inventory, named)) or (
        general_only(decision, named)
    ):
        held = await held_sentence(deps, user_id, document_ids, vector, debug)
        return law_closer_decision(decision, held)
    if not may_yield(text, decision):
        return decision
    held = await held_sentence(deps, user_id, document_ids, vector, debug)
    return held_sentence_decision(text, decision, held)


def routing_texts(text: str, expand: bool = True) -> list[str]:
    """The routing text and, with ``expand``, its reformulation in the Code's terms."""
    plain = " ".join(text.split())
    return [text, *(q for q in expand_query(text) if expand and q != plain)]


async def routing_vector(deps: Deps, text: str, expand: bool = True) -> np.ndarray:
    """The routing text's query vector. With ``expand``, its reformulation in the Code's
    terms (``expand_query``: the knowledge-base and document searches' second query) is
    embedded in the same batch, so the search finds both vectors in ``Deps.query_vectors``
    instead of waiting for a second embedding call; a text's vector does not depend on its
    batch. Vectors already in ``Deps.query_vectors`` (or being embedded: ``prefetch``) are
    not embedded again."""
    texts = routing_texts(text, expand)
    await deps.query_vectors.settled(texts)
    known = deps.query_vectors.lookup(texts)
    missing = [each for each in texts if each.strip() not in known]
    if missing:
        vectors = await deps.embedder.embed_queries(missing)
        for each, vector in zip(missing, vectors, strict=True):
            deps.query_vectors.put(each, vector)
            known[each.strip()] = vector
    return np.asarray(known[text.strip()])


def prefetch(deps: Deps, text: str, expand: bool) -> None:
    """Start embedding the routing text (``routing_texts``) in the background: the model
    runs in its worker thread, outside the GIL, while the turn reads the question and its
    documents, instead of after them; ``routing_vector`` and the searches wait for it."""
    texts = [t for t in routing_texts(text, expand) if not deps.query_vectors.lookup([t])]
    if texts:
        task = asyncio.create_task(_embed_into(deps, texts))
        deps.query_vectors.begin(texts, task)


async def _embed_into(deps: Deps, texts: list[str]) -> None:
    vectors = await deps.embedder.embed_queries(texts)
    for each, vector in zip(texts, vectors, strict=True):
        deps.query_vectors.put(each, vector)


def searches_reformulation(text: str, inventory: Inventory) -> bool:
    """Whether the turn's search likely asks for the reformulation: not when the rules alone
    send the question to a live source or to small talk (their one sub-query is the
    question). A wrong guess costs a second embedding call in the search, or a few tokens
    embedded for nothing; the vectors are the same either way."""
    ruled = rule_decision(text, inventory)
    return ruled is None or len(ruled.sub_queries) > 1


EVENT_DATE = "event_date"  # what the calculators lack: the day a period runs from


def calc_lacks(query: str) -> frozenset[str]:
    """What the calculators would ask back of the question (the day a period runs from, a
    sum, a due day …); the full reading is imported only for the questions the
    calculators take: its lexicons are slow to load."""
    from finagent.legal.calc_extract import extract_calc_request

    return frozenset(extract_calc_request(query, moscow_today()).missing)


# a document named by its party role alone is no document of the question's (roles are the
# law's words too: «до какого числа работодатель перечисляет НДФЛ?»)
_ROLE_ONLY = frozenset({"роль"})


def named_beyond_roles(question: Question) -> list[str]:
    """The held documents the question names by more than a party role."""
    return [m.document_id for m in question.documents if set(m.reasons) - _ROLE_ONLY]


async def held_term_decision(
    deps: Deps,
    text: str,
    question: Question | None,
    user_id: str | None,
    document_ids: Sequence[str],
    debug: dict[str, Any],
    lacks: frozenset[str],
) -> Decision | None:
    """The documents, instead of the calculators asking back what they count from, when
    the user's documents state the answer: the question names a held document by more
    than a party role, whatever the calculators lack («какой крайний срок дать пояснения
    по требованию?» of a user holding the demand; «сколько пеней начислено на
    отрицательное сальдо?» of a user holding the balance statement: a held document that
    states it beats asking the user for its inputs), or, when they lack the day a period
    runs from, one of their sentences is clearly closer than the law
    (``held_sentences``: «сколько дивидендов решили выплатить и до какого числа?»). The
    search is narrowed to those documents. None: the calculators decide."""
    if not lacks or question is None:
        return None
    ids = named_beyond_roles(question)
    reason = "names a held document"
    if not ids and EVENT_DATE in lacks and user_id is not None and document_ids:
        try:
            vector = await routing_vector(deps, text)
        except Exception as exc:  # the calculators still answer
            debug["classifier_unavailable"] = report(exc, "routing_classifier_unavailable")
            return None
        held = await held_sentence(deps, user_id, document_ids, vector, debug)
        if held is not None and held.leads:
            ids, reason = [held.document_id], "a held sentence is closer than the law"
    if not ids:
        return None
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=0.9,
        reason=f"the calculators lack {', '.join(sorted(lacks))}; {reason}",
        rule="held_term",
        sub_queries=expand_query(text),
        document_ids=ids,
    )


async def held_sentence(
    deps: Deps,
    user_id: str,
    document_ids: Sequence[str],
    vector: np.ndarray,
    debug: dict[str, Any],
) -> HeldSentence | None:
    """The user's sentence closest to the turn's query vector, compared with the closest
    law or knowledge-base passage (None when the store or the index fails)."""
    try:
        records = await deps.documents.sentence_vectors.get_many(user_id, document_ids)
        if not records:
            return None
        law = await deps.retriever.nearest_similarity(KB, vector)
    except Exception as exc:  # routing goes on without the signal
        debug["held_sentence_unavailable"] = report(exc, "routing_held_sentence_unavailable")
        return None
    held = best_held_sentence(records, vector, deps.embedder.model_id, law)
    if held is not None:
        debug["held_sentence"] = {
            "document_id": held.document_id,
            "similarity": round(held.similarity, 4),
            "law_similarity": round(held.law_similarity, 4),
        }
    return held


async def question_with_cards(
    deps: Deps, user_id: str, query: str
) -> tuple[Question, list[DocumentCard]]:
    """The turn's typed question, built once with the user's cards (read by every node)."""
    limit = deps.settings.routing_inventory_max_documents
    cards = await current_cards(deps.documents, user_id, limit) if limit > 0 else []
    return build_question(query, cards=cards), cards


def _narrowed(selected: list[str], named: list[str]) -> list[str]:
    """The selected documents the question names, else all of them."""
    chosen = [doc_id for doc_id in selected if doc_id in named]
    return chosen or selected


async def checked_decision(
    deps: Deps,
    llm: Decision,
    query: str,
    history: list[Turn],
    inventory: Inventory,
    debug: dict[str, Any],
    named: NamedDocuments,
    question: Question | None = None,
    held_in: tuple[str | None, Sequence[str]] = (None, ()),
) -> Decision:
    """The LLM's decision cross-checked against facts and the offline router; a documents
    decision keeps what the cards found (the documents named, the one not held)."""
    offline = await offline_decision(
        deps, query, history, inventory, debug, named, question, *held_in
    )
    text, _ = prepare(query, history)
    facts = facts_for(text, inventory, selected=False)
    facts = replace(facts, names_documents=facts.names_documents or named.any)
    checked = cross_check(
        llm,
        offline,
        facts,
        text,
        deps.settings.routing_cross_check_confidence,
        deps.settings.routing_over_clarification_confidence,
    )
    debug["routing_cross_check"] = checked.report
    log.info("routing_cross_check", decided_by=checked.decided_by, outcome=checked.outcome)
    decision = checked.decision
    if decision is not offline and decision.scenario == offline.scenario == Scenario.ALL_DOCUMENTS:
        decision.document_ids = offline.document_ids
        decision.missing_document = offline.missing_document
    return decision


async def decide(
    deps: Deps, user_id: str, query: str, history: list[Turn], selected_ids: list[str]
) -> dict[str, Any]:
    """The orchestrate node's state update for ``query``: ``decision``, the deduplicated
    ``selected_document_ids`` and ``debug``, or ``error`` and ``answer`` for documents the
    user does not have."""
    settings = deps.settings
    selected = list(dict.fromkeys(selected_ids))
    debug: dict[str, Any] = {}
    decision: Decision | None = None
    inventory = await load_inventory(
        deps.documents, user_id, settings.routing_inventory_max_documents
    )
    if not selected:  # the offline router embeds the routing text: start it now
        text, _ = prepare(query, history)
        prefetch(deps, text, searches_reformulation(text, inventory))
    question, cards = await question_with_cards(deps, user_id, query)
    named = named_documents(question, cards)
    # whose documents' sentences may take a law question (``held_sentences``)
    held_in = (user_id, [card.document_id for card in cards])
    if deps.llm is not None:
        try:
            decision = await llm_decide(
                deps.llm_for("orchestrator"),
                query,
                history,
                bool(selected),
                settings.llm_structured_method,
                inventory.summary(max_chars=settings.routing_inventory_prompt_chars),
                keeps_schema_limits(settings),
            )
            if decision.confidence < settings.orchestrator_confidence_threshold:
                debug["orchestrator_fallback"] = f"low confidence {decision.confidence:.2f}"
                debug["llm_decision"] = decision.model_dump(mode="json")
                decision = None
            elif not selected:  # with a selection the documents decide (S3/S4)
                decision = await checked_decision(
                    deps,
                    decision,
                    query,
                    history,
                    inventory,
                    debug,
                    named,
                    question,
                    held_in,
                )
        except Exception as exc:  # any failure or invalid output -> rules
            debug["orchestrator_fallback"] = report(exc, "orchestrator_llm_failed")
            decision = None
    if decision is None:
        if selected:
            decision = selected_documents_decision(query)
        else:
            decision = await offline_decision(
                deps,
                query,
                history,
                inventory,
                debug,
                named,
                question,
                *held_in,
            )
    decision.user_documents = len(inventory)
    if selected and decision.scenario != Scenario.CLARIFY:
        docs, missing = await deps.documents.get_many(user_id, selected)
        if missing:
            text = messages.DOCUMENTS_NOT_FOUND.format(ids=", ".join(missing))
            return {"error": "unknown_documents", "answer": text, "decision": decision}
        decision.document_ids = _narrowed(selected, [m.document_id for m in question.documents])
        decision.missing_document = None
        docs = [doc for doc in docs if doc.id in decision.document_ids]
        total = sum(d.size for d in docs)
        decision.scenario = (
            Scenario.FULL_DOCUMENTS
            if total <= settings.full_documents_max_chars
            else Scenario.SELECTED_SEARCH
        )
        decision.intents = []
        debug["selected_total_chars"] = total
    log.info(
        "scenario_decision",
        scenario=int(decision.scenario),
        intents=decision.intents,
        confidence=decision.confidence,
        source=decision.source,
        rule=decision.rule,
    )
    debug["decision"] = decision.model_dump(mode="json")
    debug["named_documents"] = [m.model_dump() for m in question.documents]
    return {
        "decision": decision,
        "selected_document_ids": selected,
        "question": question,
        "debug": debug,
    }
