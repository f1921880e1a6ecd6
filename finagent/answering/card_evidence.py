"""Field answers from the user's document cards: each value with the sentence it came from.

A question about a document field or role («кто арендодатель», «сумма счёта-фактуры»)
is answered from the card of the document it names, else of the retrieved document that
has the field. Every candidate value of the field is kept: two values are both shown
with their sentences, never one picked silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from finagent.answering.context import AnswerContext
from finagent.answering.figures import known_numbers
from finagent.cards.fields import BY_KEY as FIELD_BY_KEY
from finagent.cards.model import DocumentCard, Fact
from finagent.language.cues import cue_lemmas
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.state import Chunk, Source

_PER = {"month": "в месяц", "year": "в год", "day": "в день", "quarter": "в квартал"}
# the fact kinds that answer a question of each answer type
_KINDS = {
    "amount": {"amount"},
    "limit": {"amount", "rate"},
    "rate": {"rate"},
    "date": {"date", "term"},  # «до какого числа?» — «в течение 10 рабочих дней»
    "period": {"term", "date"},
}
# the field kinds that may answer each answer type (others: any field)
_ANY = ("party", "amount", "rate", "date", "term")
_FIELD_KINDS = {"party": ("party",), "yes_no": ()}
MAX_VALUES = 3  # more candidates: those whose sentences share most words with the question


@dataclass
class CardValue:
    value: str  # as shown: «297 200 руб. в месяц», «АО «СеверСтройИнвест» (ИНН 7814556023)»
    sentence: str  # the document's sentence, verbatim


@dataclass
class CardAnswer:
    key: str  # the key of finagent.cards.fields
    name: str  # Russian: «арендодатель»
    document_id: str
    title: str
    number: int  # the document's source number in the answer
    values: list[CardValue] = field(default_factory=list)
    more: int = 0  # further candidate values in the document, not shown

    def evidence_chunk(self) -> Chunk:
        """The quoted sentences as a passage of the document (cited with its number)."""
        return Chunk(
            id=f"{self.document_id}:card:{self.key}",
            text="\n".join(dict.fromkeys(v.sentence for v in self.values)),
            source="user_docs",
            title=self.title,
            document_id=self.document_id,
            metadata={"card_field": self.key},
        )


def _source_number(ctx: AnswerContext, card: DocumentCard, new_sources: bool) -> int | None:
    """The document's number among the answer's sources; a card of a document no passage
    brought gets a source of its own (its sentences are quoted) when ``new_sources``."""
    for chunk, number in zip(ctx.chunks, ctx.chunk_numbers, strict=True):
        if chunk.document_id == card.document_id:
            return number
    if not new_sources:
        return None
    number = max((s.number for s in ctx.sources), default=0) + 1
    ctx.sources.append(Source(number=number, title=card.title, kind="user_docs", reference=""))
    return number


def _shown(fact: Fact) -> str:
    """The value as shown; as written when the normalised form states a number or date the
    sentence does not («2025-04-22» for «22 апреля 2025 г.», «…,00» added)."""
    value = fact.value
    if fact.kind == "date" or not known_numbers([value]) <= known_numbers([fact.sentence.text]):
        value = " ".join(fact.text.split())
    return f"{value} {_PER[fact.per]}" if fact.per in _PER else value


def _values(card: DocumentCard, key: str, question: Question) -> list[CardValue]:
    out: dict[str, CardValue] = {}
    for party in card.parties_with(key):
        shown = f"{party.name} (ИНН {party.inn})" if party.inn else party.name
        out.setdefault(shown, CardValue(shown, party.sentence.text))
    facts = card.values(key)
    kinds = _KINDS.get(question.answer_type)
    # an amount question is never answered with a rate, nor a date question with a term
    typed = [f for f in facts if f.kind in kinds] if kinds else facts
    for fact in typed:
        out.setdefault(_shown(fact), CardValue(_shown(fact), fact.sentence.text))
    return list(out.values())


def _closest(values: list[CardValue], question: Question) -> list[CardValue]:
    """Of many candidates, those whose sentences share most words with the question."""
    topic = set(question.topic) - STOP_LEMMAS
    overlap = [
        len(topic & {lm for w in v.sentence.split() for lm in cue_lemmas(w.strip(".,;:«»()"))})
        for v in values
    ]
    order = sorted(range(len(values)), key=lambda i: (-overlap[i], i))
    return [values[i] for i in sorted(order[:MAX_VALUES])]


def _ordered_cards(
    question: Question, cards: list[DocumentCard], ctx: AnswerContext
) -> list[DocumentCard]:
    """The cards of the documents the question names, else of the retrieved documents in
    their order (a card of a document neither named nor retrieved is not read)."""
    by_id = {c.document_id: c for c in cards}
    named = [by_id[d.document_id] for d in question.documents if d.document_id in by_id]
    if named:
        return named
    retrieved = dict.fromkeys(c.document_id for c in ctx.chunks if c.document_id)
    return [by_id[d] for d in retrieved if d in by_id]


def asked_fields(question: Question) -> list[str]:
    """The fields a card value may answer. A yes/no question asks whether a clause says
    so («надо ли начислять НДС»), not a value: its clause answers. A field answers only
    a question of a type its kind can state: «кто подписал акт» asks a party, not the
    date the cue «подписан» labels."""
    types = set(question.answer_types)
    if types <= {"yes_no"}:
        return []
    kinds = {kind for t in types for kind in _FIELD_KINDS.get(t, _ANY)}
    return [
        key
        for key in dict.fromkeys(question.fields)
        if key not in FIELD_BY_KEY or FIELD_BY_KEY[key].kind in kinds
    ]


def card_answers(
    question: Question, cards: list[DocumentCard], ctx: AnswerContext, new_sources: bool = True
) -> list[CardAnswer]:
    """One answer per field or role the question asks that a relevant card fills."""
    ordered = _ordered_cards(question, cards, ctx)
    answers: list[CardAnswer] = []
    for key in asked_fields(question):
        for card in ordered:
            values = _values(card, key, question)
            if not values:
                continue
            number = _source_number(ctx, card, new_sources)
            if number is None:
                continue
            name = FIELD_BY_KEY[key].name if key in FIELD_BY_KEY else key
            shown = values if len(values) <= MAX_VALUES else _closest(values, question)
            answers.append(
                CardAnswer(
                    key, name, card.document_id, card.title, number, shown, len(values) - len(shown)
                )
            )
            break
    return answers
