"""Field answers from the user's document cards: each value with the sentence it came from.

A question about a document field or role («кто арендодатель», «сумма счёта-фактуры»)
is answered from the card of the document it names, else of the retrieved document that
has the field. Of the field's candidate values, those that fit the question's qualifiers
(VAT, time basis, final figure) and words are kept (:mod:`finagent.answering.qualifiers`);
values equally supported are all shown with their sentences, never one picked silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from importlib import resources

from finagent.answering.acted_party import of_acted_party
from finagent.answering.companions import asks_bound, bound_facts, companion_facts
from finagent.answering.context import AnswerContext
from finagent.answering.document_choice import chosen_documents, first_tier, retrieved_ids
from finagent.answering.figures import known_numbers
from finagent.answering.qualifiers import asked as asked_qualifiers
from finagent.answering.qualifiers import best_facts, named_words, qualifier_words
from finagent.cards.fields import BY_KEY as FIELD_BY_KEY
from finagent.cards.model import DocumentCard, Fact, Party
from finagent.language.cues import cue_lemmas
from finagent.language.dates import MONTH_LEMMAS
from finagent.language.lemmas import fold, oblique_forms, part_of_speech, participle_noun
from finagent.language.text import analyse
from finagent.question.build import role_acts
from finagent.question.documents import PRECISE
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.state import Chunk, Source
from finagent.yaml_data import load_yaml

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
# fields that name the same figure in different words: «сумма», «стоимость», «итого»
_FAMILIES = ({"contract_amount", "total"},)
# the answer types each kind of field states, best first
_PREFERRED: dict[str, tuple[str, ...]] = {
    "amount": ("amount", "limit", "rate"),
    "rate": ("rate", "limit", "amount"),
    "date": ("date", "period"),
    "term": ("period", "date"),
}
QUALIFIED = "amount"  # the pseudo-field of an amount read by the question's qualifiers
_QUALIFIED_MAX = 2  # more tied figures: the qualifiers chose none
# reasons that name one document: its card alone answers, another's never stands in
ONE_DOCUMENT = PRECISE | {"заголовок"}


@dataclass
class CardValue:
    value: str  # as shown: «297 200 руб. в месяц», «АО «СеверСтройИнвест» (ИНН 7814556023)»
    sentence: str  # the document's sentence, verbatim
    label: str | None = None  # a table cell's row and column labels
    start: int | None = None  # the fact's offset in its document


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


_FIGURE_CHARS = "-\u22120123456789 ,"  # a normalised amount's figure, a minus too


def _shown(fact: Fact) -> str:
    """The value as shown; as written when the normalised form states a number or date the
    sentence does not («2025-04-22» for «22 апреля 2025 г.», «…,00» added)."""
    value = fact.value
    if fact.kind == "date" or not known_numbers([value]) <= known_numbers([fact.sentence.text]):
        value = " ".join(fact.text.strip("*").split())
        # a table cell's figure («84 000,00») takes its currency from the column header
        bare = fact.kind == "amount" and not any(ch.isalpha() for ch in value)
        if bare:
            value = f"{value} {fact.value.lstrip(_FIGURE_CHARS)}"
    return f"{value} {_PER[fact.per]}" if fact.per in _PER else value


def _fact_kinds(key: str, question: Question) -> set[str] | None:
    """The fact kinds that may answer field ``key``: the primary answer type's when the
    field's kind states it, else the first other asked type it states («с какого числа и
    сколько в месяц?» — the rent's amount, not the date), else the primary type's."""
    field_kind = FIELD_BY_KEY[key].kind if key in FIELD_BY_KEY else "amount"
    if question.answer_type in _PREFERRED.get(field_kind, ()):
        return _KINDS[question.answer_type]
    for answer_type in _PREFERRED.get(field_kind, ()):
        if answer_type in question.answer_types:
            return _KINDS[answer_type]
    # «какой теперь обеспечительный платёж и до какого числа доплатить?»: the field a
    # question word governs is asked itself when no other asked field states the type
    primary = _KINDS.get(question.answer_type)
    others = [FIELD_BY_KEY[k].kind for k in question.fields if k != key and k in FIELD_BY_KEY]
    if (
        primary
        and field_kind == "amount"
        and _governed(key, question)
        and not any(_KINDS.get(t, set()) & primary for k in others for t in _PREFERRED.get(k, ()))
    ):
        return _KINDS[_PREFERRED[field_kind][0]]
    return primary


def _governed(key: str, question: Question) -> bool:
    """The field is what a question word governs («какой теперь обеспечительный платёж»),
    not a topic («по НДС»)."""
    cues = {lm for cue in FIELD_BY_KEY[key].cues for lm in cue_lemmas(cue)}
    return any(set(a.lemmas) & cues for a in question.attributes)


def _candidates(card: DocumentCard, key: str, question: Question) -> list[Fact]:
    """The facts of the field and of the fields that name the same figure; any amount for
    the qualified amount, but the VAT only when the VAT is asked («сумма с НДС» is not)."""
    if key == QUALIFIED:
        vat = "vat" in question.fields
        return [f for f in card.facts if f.kind == "amount" and (vat or f.field != "vat")]
    family = next((f for f in _FAMILIES if key in f), {key})
    rows = named_words(question) - party_words(card) if _named_otherwise(question, card) else set()
    return [
        f
        for f in card.facts
        if f.field == key
        or (f.field in family and not _row_names_another(f, question))
        or (rows and _column_of(f, key, rows))
    ]


_UNLABELLED = "other"
# reasons that name a document by a name its text holds, or by its period alone
_BY_NAME = frozenset({"контрагент", "лицо", "период"})


def _named_otherwise(question: Question, card: DocumentCard) -> bool:
    """The question names the document by its kind, number or heading, not only by a name
    its text holds: a name the question gives then picks a row of it («в требовании … по
    ЛогистикПро»), not the document (a bank statement's payment row to a contractor)."""
    reasons = {
        r for d in question.documents if d.document_id == card.document_id for r in d.reasons
    }
    return bool(reasons - _BY_NAME)


def party_words(card: DocumentCard) -> set[str]:
    """Lemmas of the names of the document's own parties: they name the document, not a row."""
    return {
        lm for p in card.parties for lm in cue_lemmas(p.name.replace("«", " ").replace("»", " "))
    }


def _column_of(fact: Fact, key: str, rows: set[str]) -> bool:
    """A table cell no cue labelled, in a row holding a name the question gives, whose
    column heading names the field by one of its cues («Сумма НДС у контрагента, руб.»
    of the row «ООО «ЛогистикПро»»): that row's value of the field."""
    if fact.field != _UNLABELLED or not fact.label or " · " not in fact.label:
        return False
    field_ = FIELD_BY_KEY.get(key)
    if field_ is None or field_.kind not in ("amount", "rate"):
        return False
    if not rows & set(cue_lemmas(fact.sentence.text)):
        return False
    column = set(cue_lemmas(fact.label.split(" · ", 1)[1]))
    return any(set(cue_lemmas(cue)) <= column for cue in field_.cues)


def _row_names_another(fact: Fact, question: Question) -> bool:
    """A table row that totals a thing the question does not name («Общая сумма дохода»
    for «на какие суммы … вычеты»): a noun of its label beyond the field's and the
    qualifiers' cues that the question lacks. It states that thing's figure, not the
    figure of another field of the family."""
    if fact.label is None:
        return False
    row = fact.label.split(" · ")[0]
    cues = {
        lm
        for k in (fact.field,)
        if k in FIELD_BY_KEY
        for cue in FIELD_BY_KEY[k].cues
        for lm in cue_lemmas(cue)
    } | qualifier_words()
    asked = set(question.lemmas)
    return any(
        part_of_speech(token.text) == "NOUN"
        and token.text.isalpha()
        and token.lemma not in cues | asked | STOP_LEMMAS
        for sentence in analyse(row).sentences
        for token in sentence.tokens
    )


# words that name a document, not a clause of it
_DOCUMENT_WORDS = frozenset({"договор", "соглашение", "контракт", "документ"})


def _own_period(card: DocumentCard) -> set[str]:
    """The month and year of the document's own date («акт … от 28 февраля 2025 г.»): a
    question naming them («за февраль 2025») names the document, not one of its rows."""
    if card.date is None:
        return set()
    try:
        day = date.fromisoformat(card.date)
    except ValueError:
        return set()
    return {str(day.year), MONTH_LEMMAS[day.month]}  # «за февраль» — «февраль»


def _naming_words(card: DocumentCard, key: str) -> set[str]:
    """Words no value is told apart by: the document's title, its own month and year, the
    field's own cues (every candidate has them) and the words that name a document."""
    words = {lm for word in card.title.split() for lm in cue_lemmas(word.strip(".,;:«»()"))}
    if key in FIELD_BY_KEY:
        words |= {lm for cue in FIELD_BY_KEY[key].cues for lm in cue_lemmas(cue)}
    return words | _DOCUMENT_WORDS | _own_period(card)


def _values(card: DocumentCard, key: str, question: Question) -> list[CardValue]:
    out: dict[str, CardValue] = {}
    codes: set[str] = set()
    for party in card.parties_with(key):
        if party.inn in codes:  # «… (АО «ВЛК»)»: one party by its full and short names
            continue
        if party.inn:
            codes.add(party.inn)
        shown = f"{party.name} (ИНН {party.inn})" if party.inn else party.name
        out.setdefault(shown, CardValue(shown, party.sentence.text))
    kinds = _fact_kinds(key, question)
    # an amount question is never answered with a rate, nor a date question with a term
    facts = [f for f in _candidates(card, key, question) if not kinds or f.kind in kinds]
    ignore = _naming_words(card, key) | party_words(card)
    if not _named_otherwise(question, card):  # a name then names the document, not a row
        ignore |= named_words(question)
    best, conflict = best_facts(question, facts, card.facts, ignore)
    if len({f.value for f in best}) > 1:
        # «за сколько предупредить арендодателя»: the clause notifying that party
        best = of_acted_party(question.text, best, lambda f: f.sentence.text)
    if conflict and key != QUALIFIED and kinds and "amount" in kinds:
        # «плата в месяц без НДС» where the rent's clause states it with VAT: the
        # document restates the figure elsewhere («Сумма без НДС — … в месяц»)
        others = _candidates(card, QUALIFIED, question)
        best, conflict = best_facts(question, others, card.facts, ignore)
    if key == QUALIFIED and (conflict or len({f.value for f in best}) > _QUALIFIED_MAX):
        return []  # no figure fits the question clearly: sentences answer instead
    # one figure stated twice (a table's totals row and the line under it) is one value
    by_value: dict[str, Fact] = {}
    for fact in sorted(best, key=lambda f: f.label is not None):
        by_value.setdefault(fact.value, fact)
    for fact in sorted(by_value.values(), key=lambda f: f.start):
        shown = _shown(fact)
        out.setdefault(shown, CardValue(shown, fact.sentence.text, fact.label, fact.start))
    return list(out.values())


def _qualified(question: Question) -> bool:
    """An amount question that states how its figure is qualified (VAT, basis, final)."""
    wanted = asked_qualifiers(question)
    return "amount" in question.answer_types and bool(wanted.vat or wanted.basis or wanted.final)


def _overlaps(values: list[CardValue], question: Question) -> list[int]:
    """How many of the question's content words each candidate's sentence shares."""
    topic = set(question.topic) - STOP_LEMMAS
    return [
        len(topic & {lm for w in v.sentence.split() for lm in cue_lemmas(w.strip(".,;:«»()"))})
        for v in values
    ]


def _closest(values: list[CardValue], question: Question) -> list[CardValue]:
    """Of many candidates, those whose sentences share most words with the question."""
    overlap = _overlaps(values, question)
    order = sorted(range(len(values)), key=lambda i: (-overlap[i], i))
    return [values[i] for i in sorted(order[:MAX_VALUES])]


def _ordered_cards(
    question: Question, cards: list[DocumentCard], ctx: AnswerContext
) -> list[DocumentCard]:
    """The cards of the documents the question names, else of the retrieved documents in
    their order (a card of a document neither named nor retrieved is not read); the
    document the question's words decide on (:mod:`finagent.answering.document_choice`)
    first, those it was chosen over left out. A document named by its number, party, person
    or a subject word of its heading is read alone; so is the one chosen for a question
    naming none (another retrieved document's field would answer for it)."""
    by_id = {c.document_id: c for c in cards}
    retrieved = retrieved_ids(ctx.chunks)
    order = [d.document_id for d in question.documents] or retrieved
    chosen = chosen_documents(question, cards, retrieved)
    reasons = {r for d in question.documents if d.document_id in chosen for r in d.reasons}
    if reasons & ONE_DOCUMENT:  # another document's card never answers for it
        return [by_id[i] for i in chosen if i in by_id]
    if not question.documents:  # the document the words chose answers, or its sentences do
        return [by_id[i] for i in chosen if i in by_id]
    passed_over = set(first_tier(question, retrieved)) - set(chosen)
    ids = dict.fromkeys([*chosen, *(i for i in order if i not in passed_over)])
    return [by_id[i] for i in ids if i in by_id]


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


_WHO = "кто"  # in an oblique case («кому», «перед кем») it asks another party than the actor
_COPULAS = frozenset({"быть", "являться", "выступать"})
# the types a question's words give when they ask no value («какой страховщик»)
_NO_VALUE_TYPES = frozenset({"procedure", "unknown"})


def _phrase_roles_joined(
    words: list[str], lemmas: list[str], held: set[str]
) -> tuple[list[str], list[str]]:
    """The question's words and lemmas with a held role of several words («новый
    должник») read as one word, that role, at its noun («кто является новым должником»:
    the copula stands right before it)."""
    for role in held:
        size = len(cue_lemmas(role))
        if size < 2:  # a phrase is two words or more
            continue
        at = 0
        while at <= len(lemmas) - size:
            if tuple(lemmas[at : at + size]) == cue_lemmas(role):
                words = [*words[:at], words[at + size - 1], *words[at + size :]]
                lemmas = [*lemmas[:at], role, *lemmas[at + size :]]
            at += 1
    return words, lemmas


def own_roles_asked(question: Question, cards: list[DocumentCard]) -> list[str]:
    """The roles a question asks that no list names but a card's document names in its
    own words («…, именуемое в дальнейшем «Кредитор»»): the head «какой» or a request
    governs («какой страховщик», «назовите кредитора»), whatever type the question's
    other words ask but a value's; or, in a party question, «кто» names it through a
    copula («кто является одаряемым») or the word stands in the nominative with no
    predicate after it («кто в нём кредитор»); not a role that acts («у кого
    лизингодатель покупает»)."""
    held = {p.role for card in cards for p in card.parties if p.role not in FIELD_BY_KEY}
    party = "party" in question.answer_types
    if not held or not (party or set(question.answer_types) <= _NO_VALUE_TYPES):
        return []
    analysed = analyse(question.text)
    words = [t.text for sentence in analysed.sentences for t in sentence.tokens]
    # a role a participle names («одаряемый») is held in its own form, not its verb's
    lemmas = [
        lm if lm in held else participle_noun(word) or lm
        for sentence in analysed.sentences
        for word, lm in zip((t.text for t in sentence.tokens), sentence.lemmas, strict=True)
    ]
    words, lemmas = _phrase_roles_joined(words, lemmas, held)
    if not held & set(lemmas):
        return []
    heads = [a.head for a in question.attributes if a.head in held]
    if not party:
        return list(dict.fromkeys(heads))
    # «перед кем отвечает поручитель», «кому платит арендатор»: «кто» in an oblique case
    # asks another party than the nominative role, which acts
    oblique = any(fold(w) in oblique_forms(_WHO) for w in words)
    named = [
        lm
        for at, lm in enumerate(lemmas)
        if lm in held
        and (
            (not oblique and not role_acts(words, at))
            or (at > 1 and lemmas[at - 1] in _COPULAS and lemmas[at - 2] == "кто")
        )
    ]
    return list(dict.fromkeys([*heads, *named]))


def _own_role_name(key: str) -> str:
    """The name a lead gives a value: a role in the document's own words is its lemma
    («кредитор»), the qualified amount is «сумма»."""
    return "сумма" if key == QUALIFIED else key


def _asked_keys(question: Question, cards: list[DocumentCard]) -> list[str]:
    """The asked fields, and the qualified amount for an amount question that names a
    document and qualifies its figure but asks no amount field a card fills («сумма без
    НДС», «сколько в месяц», «сколько в итоге перечислить»); not for a count asked in a
    unit of measure («сколько квадратных метров в итоге приняли»): that is no sum of money."""
    keys = asked_fields(question)
    keys += [k for k in own_roles_asked(question, cards) if k not in keys]
    amount_fields = [k for k in keys if k in FIELD_BY_KEY and FIELD_BY_KEY[k].kind == "amount"]
    filled = any(_candidates(c, k, question) for c in cards for k in amount_fields)
    if question.documents and _qualified(question) and not filled and question.unit is None:
        keys = [k for k in keys if k not in amount_fields] + [QUALIFIED]
    return keys


COUNTERPARTY = "counterparty"  # the pseudo-field of «кому мы передаём …»: the other party


@cache
def _party_roles() -> tuple[frozenset[str], tuple[tuple[frozenset[str], frozenset[str]], ...]]:
    """``question/data/party_roles.yaml``: the folded words that ask the other party by
    no role, and the two sides of each contract by their folded role words."""
    path = resources.files("finagent.question").joinpath("data/party_roles.yaml")
    data = load_yaml(path.read_text("utf-8"))
    other = frozenset(fold(str(w)) for w in data.get("other_party", ()))
    sides = tuple(
        (frozenset(fold(str(w)) for w in one), frozenset(fold(str(w)) for w in two))
        for one, two in data.get("counterparts", ())
    )
    return other, sides


def _role_words(role: str) -> frozenset[str]:
    """The folded words of a party's role: a listed role's cues, else the document's own
    word for it (its lemma)."""
    if role in FIELD_BY_KEY:
        return frozenset(fold(w) for cue in FIELD_BY_KEY[role].cues for w in cue_lemmas(cue))
    return frozenset({fold(role)})


def _opposite(asked: str, own: frozenset[str]) -> bool:
    """The asked role stands on the other side of a contract than one of ``own``."""
    return any(
        (asked in one and own & two) or (asked in two and own & one)
        for one, two in _party_roles()[1]
    )


def _party_key(party: Party) -> str:
    return party.inn or party.name


def _own_party(cards: Sequence[DocumentCard]) -> str | None:
    """The user's own organisation: the party (by ИНН, else name) of more of the user's
    documents than any other, and of two at least."""
    counts = Counter(k for card in cards for k in {_party_key(p) for p in card.parties})
    ranked = counts.most_common(2)
    if not ranked or ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    return ranked[0][0]


def _asked_other_roles(
    question: Question, keys: Sequence[str], cards: Sequence[DocumentCard]
) -> frozenset[str] | None:
    """«Кому передаём теплицу по договору ДИ-02/2026?», «у кого мы покупаем станок по
    договору № 5?», «кто наш контрагент по нему?»: a party asked in the first person about
    a document the question names: the document's other party than the user's own. The
    folded words of the roles asked that no card holds (empty when none is asked), or
    None when this is no such question or a card holds an asked role (it answers)."""
    if not ("party" in question.answer_types and question.own_asked and question.documents):
        return None
    other = _party_roles()[0]
    roles = [k for k in keys if k not in FIELD_BY_KEY or FIELD_BY_KEY[k].kind == "party"]
    named = [a.head for a in question.attributes if a.role and fold(a.head) not in other]
    held_roles = {p.role for card in cards for p in card.parties}
    held = {w for role in held_roles for w in _role_words(role)}
    asked = {w for key in roles for w in _role_words(key)} | {fold(h) for h in named}
    if set(roles) & held_roles or asked & held:
        return None
    return frozenset(asked)


def _counterparty_values(
    card: DocumentCard, own: str | None, asked: frozenset[str]
) -> tuple[str, list[CardValue]]:
    """The role and the value of the card's one party that is not the user's own, when the
    user's own is a party of it and each role asked (no card holds it) stands on the other
    side of the contract than the user's own role («кто наш поставщик» of a sale where the
    user buys); a role on neither side («кто поручитель по нашему займу»: a third person a
    clause names) gets no value."""
    if own is None or own not in {_party_key(p) for p in card.parties}:
        return "", []
    others = {_party_key(p): p for p in card.parties if _party_key(p) != own}
    if len(others) != 1:
        return "", []
    own_words = {w for p in card.parties if _party_key(p) == own for w in _role_words(p.role)}
    if not all(_opposite(word, frozenset(own_words)) for word in asked):
        return "", []
    party = next(iter(others.values()))
    shown = f"{party.name} (ИНН {party.inn})" if party.inn else party.name
    role = FIELD_BY_KEY[party.role].name if party.role in FIELD_BY_KEY else party.role
    return role, [CardValue(shown, party.sentence.text)]


def card_answers(
    question: Question, cards: list[DocumentCard], ctx: AnswerContext, new_sources: bool = True
) -> list[CardAnswer]:
    """One answer per field or role the question asks that a relevant card fills."""
    ordered = _ordered_cards(question, cards, ctx)
    answers: list[CardAnswer] = []
    keys = _asked_keys(question, ordered)
    own: str | None = None
    other_roles = _asked_other_roles(question, keys, cards)
    if other_roles is not None:
        own = _own_party(cards)
        first = question.answer_types[0] == "party"
        keys = [COUNTERPARTY, *keys] if first else [*keys, COUNTERPARTY]
    by_id = {c.document_id: c for c in cards}
    for key in keys:
        pool = ordered
        if _bound_head(question, key) is not None:
            # a bound asked of a field: any retrieved document may state it
            held = {c.document_id for c in ordered}
            more = [i for i in retrieved_ids(ctx.chunks) if i in by_id and i not in held]
            pool = [*ordered, *(by_id[i] for i in more)]
        for card in pool:
            if key == COUNTERPARTY:
                role, values = _counterparty_values(card, own, other_roles or frozenset())
                if not values:
                    break  # the named document's party, or none
                number = _source_number(ctx, card, new_sources)
                if number is not None:
                    answers.append(
                        CardAnswer(key, role, card.document_id, card.title, number, values)
                    )
                break
            values = _values(card, key, question)
            if not values:
                continue
            bound = _of_bound_head(question, key, pool, card, values)
            if bound is None:
                continue  # another document states the asked bound of this field
            values = _bounded_first(question, card, bound)
            number = _source_number(ctx, card, new_sources)
            if number is None:
                continue
            name = FIELD_BY_KEY[key].name if key in FIELD_BY_KEY else _own_role_name(key)
            shown = values if len(values) <= MAX_VALUES else _closest(values, question)
            answers.append(
                CardAnswer(
                    key, name, card.document_id, card.title, number, shown, len(values) - len(shown)
                )
            )
            break
    return answers + _companions(question, ordered, answers)


def _bound_head(question: Question, key: str) -> str | None:
    """The noun a limit question asks of a field it governs («лимит остатка»: «лимит» of
    the balance), when that noun is none of the field's own words."""
    if question.answer_type != "limit" or not question.attributes or key not in FIELD_BY_KEY:
        return None
    head = question.attributes[0].head
    own = {lm for cue in FIELD_BY_KEY[key].cues for lm in cue_lemmas(cue)}
    return None if head in own else head


def _naming(values: list[CardValue], head: str) -> list[CardValue]:
    return [
        v
        for v in values
        if head in {lm for w in v.sentence.split() for lm in cue_lemmas(w.strip(".,;:«»()"))}
    ]


def _of_bound_head(
    question: Question,
    key: str,
    ordered: Sequence[DocumentCard],
    card: DocumentCard,
    values: list[CardValue],
) -> list[CardValue] | None:
    """«Какой лимит остатка наличных?»: of a field's values, those whose clause names the
    asked bound («соблюдение лимита остатка … 150 000 руб.»), not the balance itself; None
    when this card states none of them but a later card does (that card answers), else
    the values as they are."""
    head = _bound_head(question, key)
    if head is None:
        return values
    named = _naming(values, head)
    if named:
        return named
    later = ordered[list(ordered).index(card) + 1 :]
    if any(_naming(_values(other, key, question), head) for other in later):
        return None
    return values


def _bounded_first(
    question: Question, card: DocumentCard, values: list[CardValue]
) -> list[CardValue]:
    """When the question asks a bound, the candidate values whose sentence states one
    («0,1 % … но не более 10 %»), if any, and of several such the closest to the question:
    the bound is of that clause, not another's."""
    if len(values) < 2 or not asks_bound(question):
        return values
    by_start = {f.start: f for f in card.facts}
    kept = [v for v in values if v.start in by_start and bound_facts(card, [by_start[v.start]])]
    if len(kept) < 2:
        return kept or values
    # several bounded clauses («за просрочку поставки …», «за просрочку оплаты …»): those
    # sharing most words with the question, so that each bound is named with its own value
    overlap = _overlaps(kept, question)
    return [v for v, n in zip(kept, overlap, strict=True) if n == max(overlap)]


def _companions(
    question: Question, cards: list[DocumentCard], answers: list[CardAnswer]
) -> list[CardAnswer]:
    """The other value a two-value question asks, from the sentences of the first answer."""
    if not answers:
        return []
    first = answers[0]
    card = next((c for c in cards if c.document_id == first.document_id), None)
    if card is None:
        return []
    starts = {v.start for a in answers for v in a.values if a.document_id == card.document_id}
    stated = [f for f in card.facts if f.start in starts]
    out = []
    for name, facts in companion_facts(question, card, stated):
        values = list({_shown(f): CardValue(_shown(f), f.sentence.text) for f in facts}.values())
        shown = values[:MAX_VALUES]
        out.append(
            CardAnswer(
                f"companion:{name}",
                name,
                card.document_id,
                card.title,
                first.number,
                shown,
                len(values) - len(shown),
            )
        )
    return out
