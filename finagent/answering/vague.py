"""A question too vague to answer: it asks for a value («сколько», «какой срок») but names
no subject — no tax (for a sum, not even one: «Сколько там НДС?» names no base), field,
document, party, figure or date; every content word is a word for a kind of value, a
request, a payment or a document («Сколько налога нам платить?», «посмотри договор и
скажи срок»). Its answer is the S5 clarification, not a guess among
the many values the sources hold.

So is, in the documents' scenarios, a field asked of no document when several of the
user's documents state it with different values and nothing in the question picks one
(«какая неустойка за просрочку?» of a lease, a supply contract and an act): the question
asks which document, naming those that state it (:func:`several_holders`)."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering.coverage import undated
from finagent.answering.sentence_profile import profile
from finagent.cards.fields import BY_KEY, Field
from finagent.cards.model import DocumentCard, Fact
from finagent.language.cues import cue_lemmas
from finagent.language.synonyms import names_lemma
from finagent.prompts import routing_messages
from finagent.question.content import content_lemmas
from finagent.question.model import Question
from finagent.question.parts import QUESTION_WORDS
from finagent.question.tables import GENERIC_HEADS, TAXES

_VALUE_TYPES = frozenset({"amount", "rate", "period", "date", "limit"})
# words that say how the question is asked, not what about
_REQUESTS = frozenset(
    "посмотреть глянуть сказать подсказать назвать показать найти проверить уточнить "
    "платить заплатить уплатить оплатить должный должен нужный там тут весь".split()
)
_DOCUMENT_WORDS = frozenset({"договор", "документ", "контракт", "соглашение"})
# a condition of being late or failing that names nothing late: «какой штраф будет, если
# опоздаю?» — late with a return, a payment or an answer; the sanctions differ
_CONDITIONS = frozenset({"если", "когда", "при"})
_LATE_ACTS = frozenset({"опоздать", "опаздывать", "просрочить", "задержать", "успеть"})
_MAX_TITLES = 5
# words that point at something named before, and the particles that may open a question
# before them
_POINTERS = frozenset({"там", "тут"})
_OPENERS = frozenset({"а", "и", "ну", "так"})


def _unresolved_reference(question: Question) -> bool:
    """«Какая там неустойка за просрочку?», «А тут какой срок?»: the question opens by
    pointing at something (only question words and particles before the pointer) and
    names no document, party, number, figure or date it could point at. Asked first in a
    conversation, it points at nothing the agent can know."""
    words = [lemma for lemma in question.lemmas if lemma.isalnum()]
    at = next((i for i, word in enumerate(words) if word in _POINTERS), -1)
    if at < 0 or not all(word in QUESTION_WORDS | _OPENERS for word in words[:at]):
        return False
    return not _names_something(question, documents=True, with_fields=False)


def _names_something(
    question: Question, documents: bool, generic: bool = False, with_fields: bool = True
) -> bool:
    """Whether the question names a subject. Outside the documents' scenarios a tax alone
    is no subject of a sum: «Сколько там НДС?» asks the tax of some base it does not name
    (its rate would be a subject); in them, the document's own VAT is one. Outside them
    too, a document field read from ``generic`` words alone (every content word a word
    for a kind of value, a request or a payment: «до какого числа платить?» reads as a
    payment term, «сколько штраф?» as a penalty) names no more than the asked type does;
    in them it is the field of the user's documents the next step chooses among."""
    sum_of_tax = question.answer_type == "amount" and not documents
    # a field that is the tax itself («НДС» of a document) names no more than the tax
    fields = [f for f in question.fields if not (sum_of_tax and f in question.taxes)]
    if generic and not documents:
        fields = [f for f in fields if f in question.taxes]
    if not with_fields:  # only what a pointer could point at: no tax, no field
        sum_of_tax, fields = True, []
    return bool((question.taxes and not sum_of_tax) or fields or _points_at(question))


def _points_at(question: Question) -> bool:
    """The question names a name, a number, a sum, a share, a date, a period or a year, or a
    document by more than its type."""
    return bool(
        question.names
        or question.identifiers
        or question.organisations
        or question.money
        or question.percents
        or question.periods
        or question.dates
        or question.years
        or any(reason != "тип" for match in question.documents for reason in match.reasons)
    )


def _names_one(question: Question) -> bool:
    """The question names what tells one document from another: what it points at
    (:func:`_points_at`) or a month."""
    return bool(question.months) or _points_at(question)


def _asked_field(question: Question) -> Field | None:
    """The first document field the question asks a value of (no party role)."""
    for key in question.fields:
        found = BY_KEY.get(key)
        if found is not None and found.kind != "party":
            return found
    return None


def _distinguishing(question: Question, asked: Field) -> set[str]:
    """The question's words that may tell documents apart: its content words but the
    field's own, words for a kind of value, requests and words for a document."""
    own = {lm for cue in asked.cues for lm in cue_lemmas(cue)}
    return set(content_lemmas(question)) - own - GENERIC_HEADS - _REQUESTS - _DOCUMENT_WORDS


def _fitting(card: DocumentCard, asked: Field, words: set[str]) -> list[Fact]:
    """The card's values of the field whose sentence, with the document's title, names
    every one of ``words`` (by lemma, synonym or root)."""
    title = profile(card.title).lemmas
    return [
        fact
        for fact in card.values(asked.key)
        if all(names_lemma(w, title | profile(fact.sentence.text).lemmas) for w in words)
    ]


def several_holders(
    question: Question, cards: Sequence[DocumentCard]
) -> tuple[Field, list[DocumentCard]] | None:
    """The documents a field question may mean when it names none of them: the question
    asks a field's value and names no document (but by its type), party, number, sum or
    date, and two or more of the user's documents (of the type named, if any) state that
    field in a sentence naming every other word of the question, with values that differ
    («какая неустойка за просрочку?» of a lease, a supply contract and an act). A word
    only some of them name picks those («неустойка за просрочку поставки»); a word none
    names leaves the question to the coverage checks; one value everywhere is the answer."""
    asked = _asked_field(question)
    if asked is None or _names_one(question):
        return None
    matched = {match.document_id for match in question.documents}
    words = _distinguishing(question, asked)
    holding = [
        (card, fitting)
        for card in cards
        if (not matched or card.document_id in matched)
        and (fitting := _fitting(card, asked, words))
    ]
    if len(holding) < 2:
        return None
    values = {frozenset(fact.value for fact in fitting) for _, fitting in holding}
    if len(values) < 2:
        return None
    return asked, [card for card, _ in holding]


def clarification(
    question: Question, documents: bool, cards: Sequence[DocumentCard]
) -> list[str] | None:
    """Clarifying questions for a value question with no subject, or None.

    In the documents' scenarios only when several of the user's documents could be meant
    (those the question names by type, else all), or when a field asked of no document
    is stated with different values by several (:func:`several_holders`)."""
    if question.answer_type not in _VALUE_TYPES:
        return None
    several = several_holders(question, cards) if documents else None
    if several is not None:
        asked, holders = several
        listed = "; ".join(f"«{undated(card.title)}»" for card in holders[:_MAX_TITLES])
        return [routing_messages.ASK_WHICH_HOLDS.format(field=asked.name, titles=listed)]
    taxes = {lm for t in TAXES if t.key in question.taxes for c in t.cues for lm in cue_lemmas(c)}
    vocabulary = GENERIC_HEADS | _REQUESTS | _DOCUMENT_WORDS | taxes
    if _CONDITIONS & set(question.topic):
        vocabulary |= _CONDITIONS | _LATE_ACTS | {"не"}
    generic = all(lemma in vocabulary for lemma in question.topic)
    # in the documents' scenarios, a pointer with nothing to point at asks which document
    pointing = documents and _unresolved_reference(question)
    if not pointing and (not generic or _names_something(question, documents, generic)):
        return None
    if not documents:
        return [routing_messages.ASK_SUBJECT, routing_messages.ASK_PERIOD]
    matched = {match.document_id for match in question.documents}
    candidates = [card for card in cards if not matched or card.document_id in matched]
    # the documents that state the field asked («неустойка»), when several do
    stating = [c for c in candidates if any(c.values(field) for field in question.fields)]
    titles = [undated(card.title) for card in (stating if len(stating) > 1 else candidates)]
    if len(titles) < 2:
        return None
    listed = "; ".join(f"«{title}»" for title in titles[:_MAX_TITLES])
    return [routing_messages.ASK_WHICH_OF.format(titles=listed), routing_messages.ASK_SUBJECT]
