"""Does one sentence of the user's documents answer the question better than the law does?
And the other way: does the law answer a question that names a kind of document only?

A question may name no document at all («до какого числа по решению участников выплатить
дивиденды?», «на какую сумму перевозчик обязан застраховать ответственность?») and still
be about one: its counterparty, object and action stand together in one clause of a held
document. Whole-document word counts do not show it (a supply contract uses most words of
any tax question); one sentence does. The sentences' e5 ``passage:`` vectors are stored at
ingestion (``finagent.cards.sentence_vectors``), so the check costs one matrix product per
document and one dense search of the law and knowledge-base collection with the turn's
query vector, which routing has already computed.

The signal is the *margin*: the best held sentence's cosine minus the best law or
knowledge-base passage's. An impersonal rule question («какая ставка НДС?») matches a
passage of the law far better than any contract clause; a question about the user's deal
matches its clause better than any article. Without documents (or vectors of another
model) there is no signal. A question that chose the documents by a document word alone
(«возражения по акту налоговой проверки», «импортный контракт на учёт») yields to the law
when the law leads by the same margin.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from finagent.cards.sentence_vectors import SentenceVectors, similarities
from finagent.language.lemmas import content_or_verb, nouns_by_adjective
from finagent.language.short_forms import short_forms
from finagent.language.text import analyse
from finagent.routing.expansion import expand_query
from finagent.routing.rules import asks_the_law
from finagent.state import Decision, Scenario

# how much closer the best held sentence must be than the best law or KB passage: e5
# cosines of one query spread little, so a clear lead is a few hundredths
SENTENCE_MARGIN = 0.02
# a smaller lead suffices when the sentence also names the question's own content words
# («до какого числа по решению участников выплатить дивиденды?» — «Выплатить дивиденды …
# участников не позднее 19 июня 2026 г.»): the sentence is about what is asked, not only
# near it in the embedding
NEAR_MARGIN = 0.01
SHARED_WORDS = 2
_MIN_LETTERS = 4


@dataclass(frozen=True)
class HeldSentence:
    """The held sentence closest to the question and how it compares with the law."""

    document_id: str
    sentence: str
    similarity: float
    law_similarity: float

    @property
    def margin(self) -> float:
        return self.similarity - self.law_similarity

    @property
    def leads(self) -> bool:
        """The held sentence is clearly closer than anything in the law or the KB."""
        return self.margin >= SENTENCE_MARGIN

    def leads_with_words(self, question: str) -> bool:
        """The held sentence leads clearly; or it is as close as the law and states a
        paper's number the question names; or it leads by ``NEAR_MARGIN`` and names at
        least ``SHARED_WORDS`` content words of the question (by lemma, a noun named by its
        adjective counting: «кража» — «кражей»)."""
        if self.leads or (self.margin >= 0 and self.states_number_of(question)):
            return True
        return self.margin >= NEAR_MARGIN and len(shared_words(question, self.sentence)) >= (
            SHARED_WORDS
        )

    def states_number_of(self, question: str) -> bool:
        """The held sentence states a paper's number the question names («ответить на
        требование 21-14/7718» — «Требование … № 21-14/7718 от 28.10.2026»): no law or
        knowledge-base passage numbers the user's papers, so being as close as the law
        suffices."""
        return any(number in self.sentence for number in paper_numbers(question))

    @property
    def law_leads(self) -> bool:
        """The best law or knowledge-base passage is clearly closer than any held sentence."""
        return -self.margin >= SENTENCE_MARGIN


def _content_words(text: str) -> dict[str, str]:
    """The content words (nouns, adjectives, verbs) of ``text`` as written, with lemmas."""
    return {
        token.text: token.lemma
        for sentence in analyse(text).sentences
        for token in sentence.tokens
        if len(token.lemma) >= _MIN_LETTERS and token.text.isalpha() and content_or_verb(token.text)
    }


def _content_lemmas(text: str) -> set[str]:
    return set(_content_words(text).values())


def shared_words(question: str, sentence: str) -> set[str]:
    """The question's content words (nouns, adjectives, verbs) the sentence names, by
    lemma, for a noun by its adjective, or as the short form of its phrase
    (:mod:`finagent.language.short_forms`: «техподдержка» — «технической поддержки»)."""
    words, held = _content_words(question), _content_lemmas(sentence)
    asked = set(words.values())
    shared = (asked & held) | nouns_by_adjective(asked - held, held)
    rest = [word for word, lemma in words.items() if lemma not in shared]
    return shared | {words[word] for word in short_forms(rest, sentence)}


# a number of the user's own papers: a digit and a slash («№ 21-14/7718», «ОП-3/2026»);
# the law and the knowledge base number their articles and forms otherwise («ст. 429.3»,
# «6-НДФЛ», «КС-2»)
_PAPER_NUMBER = re.compile(r"[\w-]*\d[\w-]*(?:/[\w-]+)+")


def paper_numbers(text: str) -> set[str]:
    """The numbers of papers (:data:`_PAPER_NUMBER`) ``text`` states."""
    return {m.group(0).strip("-") for m in _PAPER_NUMBER.finditer(text)}


def best_held_sentence(
    records: Sequence[SentenceVectors],
    query: np.ndarray,
    model_id: str,
    law_similarity: float,
) -> HeldSentence | None:
    """The held sentence closest to ``query`` (None without usable vectors), with the best
    law or knowledge-base similarity ``law_similarity`` for comparison."""
    sims = similarities(records, query, model_id)
    if not sims:
        return None
    (document_id, sentence), similarity = max(sims.items(), key=lambda kv: kv[1])
    return HeldSentence(document_id, sentence, similarity, law_similarity)


# routes a held sentence may take a question from: the knowledge base and the law (news
# rides along with them in a multi-intent decision); never live rates or small talk
_FROM_INTENTS = frozenset({"kb", "news"})


def may_yield(text: str, decision: Decision) -> bool:
    """The decision sends the question to the law or the knowledge base, and the question
    does not ask about the law itself (an explanation, a definition, a code's article)."""
    return (
        decision.scenario == Scenario.ROUTED
        and "kb" in decision.intents
        and set(decision.intents) <= _FROM_INTENTS
        and not asks_the_law(text)
    )


def held_sentence_decision(text: str, decision: Decision, held: HeldSentence | None) -> Decision:
    """The documents when a held sentence leads the law for a question that may yield
    (``may_yield``), else ``decision`` unchanged."""
    if held is None or not held.leads_with_words(text) or not may_yield(text, decision):
        return decision
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=decision.confidence,
        reason=(
            f"a sentence of the user's documents is closer than the law or the knowledge "
            f"base ({held.similarity:.3f} vs {held.law_similarity:.3f}) over {decision.reason}"
        ),
        source=decision.source,
        rule="held_sentence",
        sub_queries=expand_query(text),
        classifier=decision.classifier,
        user_documents=decision.user_documents,
    )


def law_closer_decision(decision: Decision, held: HeldSentence | None) -> Decision:
    """The law and the knowledge base when the documents were chosen on a document word
    alone (the caller checks that) and a law or knowledge-base passage is clearly closer
    than every held sentence («возражения по акту налоговой проверки» for a user holding
    an act of services), else ``decision`` unchanged. The same margin as the other way."""
    if held is None or not held.law_leads or decision.scenario != Scenario.ALL_DOCUMENTS:
        return decision
    return Decision(
        scenario=Scenario.ROUTED,
        intents=["kb"],
        confidence=decision.confidence,
        reason=(
            f"the law or the knowledge base is closer than any sentence of the user's "
            f"documents ({held.law_similarity:.3f} vs {held.similarity:.3f}) over "
            f"{decision.reason}"
        ),
        source=decision.source,
        rule="law_closer",
        sub_queries=decision.sub_queries,
        classifier=decision.classifier,
        user_documents=decision.user_documents,
    )
