"""Which of the user's documents a question names, read from the turn's ``Question`` and the
user's cards, and what it names that the user does not hold.

``Question.documents`` lists the cards named by type, number, counterparty, person or role.
Routing needs two more things from it:

- ``document_ids``: the documents to search. A number, counterparty or person names
  documents precisely, so the search is narrowed to them; a type or a role alone («по
  субаренде», «арендодатель») does not (an amendment or an appendix may hold the answer),
  and the search covers every document.
- ``missing``: a document the question names as its source («по договору займа», «в
  трудовом договоре», «счёт-фактура № 90», «договор с ООО «Финлайн»») that none of the
  user's cards is. Then the agent says so and lists what the user does have.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from finagent.answering.abstention import other_code_asked
from finagent.cards.doc_types import BY_KEY, DOC_TYPES, GENERIC, RECORD_KINDS, DocType
from finagent.cards.fields import ROLES
from finagent.cards.model import DocumentCard
from finagent.cards.records import record_held
from finagent.cards.title import doc_type_of
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.form_codes import is_form_code
from finagent.language.lemmas import (
    first_person,
    fold,
    genitive,
    lemma,
    normal_forms,
    part_of_speech,
    past_passive_participle,
    stated_participle,
)
from finagent.language.organisations import ABBREVIATIONS
from finagent.language.synonyms import names_lemma
from finagent.language.text import analyse
from finagent.question.build import asked_clause_words
from finagent.question.conditions import done_in_passive, realised_words
from finagent.question.documents import PRECISE, institution_numbers, number_key
from finagent.question.model import Question
from finagent.question.parts import QUESTION_WORDS
from finagent.question.tables import GENERIC_HEADS
from finagent.routing.corpus_lemmas import corpus_lemmas
from finagent.routing.distinctive import distinctive_terms, vocabulary_hits
from finagent.routing.held_time import names_held_time
from finagent.routing.subject import subject_words
from finagent.routing.unheld import unheld_detail, unheld_kind_adjective, unheld_party
from finagent.yaml_data import load_yaml

_WORD = re.compile(r"[А-Яа-яЁё]+")
# a generic kind is held when any card is of its family («договор»: a lease is one)
_FAMILIES: dict[str, frozenset[str]] = {
    "contract": frozenset(
        {
            *("contract", "lease", "supply", "loan", "employment", "services", "work"),
            *("commission", "agency", "storage", "assignment", "licence"),
        }
    ),
    "act": frozenset({"act", "reconciliation"}),
    "invoice": frozenset({"invoice", "upd"}),
}
# lemmas before a document word that make it the question's source: «по договору займа»,
# «в трудовом договоре», «из выписки», «согласно акту», «мой договор»
_SOURCE_BEFORE = frozenset({"по", "в", "во", "из", "согласно", "мой", "наш", "у"})
_PUNCTUATION = "?!.,;:»)"
_NUMBER_SIGNS = frozenset({"№", "n", "номер"})


@dataclass(frozen=True)
class NamedDocuments:
    """The user's documents a question names and what it names that they do not hold."""

    titles: list[str] = field(default_factory=list)  # every card named, most reasons first
    precise_ids: list[str] = field(default_factory=list)  # named by number, party or person
    typed: bool = False  # some card is named by its type («по субаренде», «мой договор»)
    # some card is named by a party role, and the question speaks of the user's own affairs
    # («кто арендодатель и сколько платим?», not «кто платит НДС, продавец или покупатель?»)
    roles: bool = False
    # names and rare words of the question that only some of the user's documents use
    # (``finagent.routing.distinctive``): «Тайга.Смета», «Мигалово», «бонус»
    names: list[str] = field(default_factory=list)
    rare: list[str] = field(default_factory=list)
    # names the law never uses as names that most of the user's documents use (their own
    # address or town): no document in particular, but the user's affairs
    own_names: list[str] = field(default_factory=list)
    # of the names, those the law does not use at all (one document holds each): no route
    # to the law can answer of them
    unheard: list[str] = field(default_factory=list)
    # words of the question that a held document holds and the law seldom uses, when they
    # name that document strongly enough (``distinctive.vocabulary_hits``): «задаток по
    # станку на торгах», «кто голосовал против»; and the documents they hit most
    vocabulary: list[str] = field(default_factory=list)
    vocabulary_ids: list[str] = field(default_factory=list)
    own: bool = False  # the question speaks of the user's own affairs («мы», «наш», «платим»)
    # … in its asking clause, not only in what it states before it («продаю квартиру по
    # договору … Какой доход налоговая посчитает?»)
    own_asked: bool = False
    # subject words of a held document's title in a question asking a value of a deal
    # (``finagent.routing.subject``): «аванс по лизингу», «открытие кредитной линии»
    subject: list[str] = field(default_factory=list)
    # the question asks a value a deal's document states (``DEAL_VALUES``), not the law's
    asks_value: bool = False
    # the question asks the rate of a tax it names («по какой ставке НДФЛ?»): the Code's,
    # unless the question ties it to a held document
    tax_rate: bool = False
    # its asking clause speaks of the user's own affairs or of an act already done
    # (``Question.of_record``): «кому мы отгрузили», «под какой процент банк начислил»
    of_record: bool = False
    # and of an act of the user's own (``Question.own_act``): «сколько мы заплатили …»
    own_act: bool = False
    # some card is named by a party role, whoever speaks («сколько банк начислил …?» of a
    # user holding a bank statement); ``roles`` when the question is the user's own
    held_role: bool = False
    # a day or month the question names is one a held document dates a line by
    # (``finagent.routing.held_time``: «ушёл единый налоговый платёж 28 марта»)
    held_time: bool = False
    # the kind of document named is the question's topic, not its source: no «по», «в»,
    # «из», number or party ties it to a document («сколько дней на выставление
    # счёта-фактуры после отгрузки?»)
    kind_as_topic: bool = False
    # the kind of document named is a word the law uses everywhere («требование», «акт»)
    common_kind: bool = False
    # a held kind named as the source of what it states («какие доходы показаны в
    # декларации по УСН?»): the user's document, not the law's kind of it
    stated_in_held: bool = False
    # the kind of document named is one the question says is absent («нет счетов-фактур»,
    # «без договора»): it names no document of the user's as the question's source
    absent_kind: bool = False
    missing: str | None = None  # Russian: «договор займа», «документ № 90»
    # the question names its document by a bare kind word («срок по договору?») and the user
    # holds several of that kind: the titles to ask between
    ambiguous: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        """Evidence that the question is about the user's documents."""
        return self.typed or self.specific or bool(self.rare)

    @property
    def specific(self) -> bool:
        """Evidence beyond a kind of document: what only the user's documents name, or a
        party role of theirs in a question about the user's own affairs."""
        return bool(
            self.precise_ids
            or self.names
            or self.own_names
            or self.roles
            or (self.rare and self.own)
        )


def _kind_named(question: Question) -> tuple[DocType | None, int, int]:
    """The most specific document kind the question names and the lemma span of its word:
    its longest cue found («договор подряда», not its subject «подряд» alone)."""
    lemmas = tuple(question.lemmas)
    kind = doc_type_of(lemmas)
    if kind is None:
        return None, -1, -1
    best = (-1, -1)
    for cue in kind.cues:
        words = cue_lemmas(cue)
        at = find_cue(lemmas, cue)
        if at >= 0 and len(words) > best[1] - best[0]:
            best = (at, at + len(words))
    return kind, *best


def _as_source(lemmas: Sequence[str], start: int, end: int) -> bool:
    """The kind word at ``start:end`` names the question's source document, not its topic
    nor what it asks: «по какой доверенности» asks which document a held one refers to."""
    if start < 0 or (start > 0 and lemmas[start - 1] in QUESTION_WORDS | {"который"}):
        return False
    return (
        start == 0
        or bool(set(lemmas[max(0, start - 2) : start]) & _SOURCE_BEFORE)
        or (_numbered(lemmas, end))
    )


def _numbered(lemmas: Sequence[str], end: int) -> bool:
    """A number sign right after the kind word: «счёт-фактура № 87», «договор N 5», «акт
    КС-2 № 7» (a unified form's code between them is part of the kind)."""
    return bool(
        set(lemmas[end : end + 3 if _form_code_at(lemmas, end) else end + 2]) & _NUMBER_SIGNS
    )


def _form_code_at(lemmas: Sequence[str], at: int) -> bool:
    """The word at ``at`` is a unified form's code, which names a kind of document, not one
    document: a code of a known unified form's series («по акту ОС-1», «ТОРГ-12»), a code
    right before the number sign («акт КС-2 № 7») or after «форма» («по форме 2-НДФЛ»)."""
    if not 0 <= at < len(lemmas) or not any(ch.isdigit() for ch in lemmas[at]):
        return False
    return (
        is_form_code(lemmas[at])
        or (at + 1 < len(lemmas) and lemmas[at + 1] in _NUMBER_SIGNS)
        or (at > 0 and lemmas[at - 1] == "форма")
    )


def _held(kind: DocType, cards: Sequence[DocumentCard]) -> bool:
    family = _FAMILIES.get(kind.key, frozenset({kind.key}))
    return any(card.doc_type in family for card in cards)


_TITLE_NUMBER = re.compile(r"(?:№|\bN)\s*([^\s,;«»()]+)")


def _held_numbers(cards: Sequence[DocumentCard]) -> set[str]:
    """The numbers the user's documents are known by: the card's and those of its title
    («Договор комиссии № К-07/2025»), as a card's number field may hold another number of
    the text (a power of attorney's, an appendix's)."""
    held = {number_key(n) for card in cards for n in _numbers_of(card)}
    for card in cards:
        held |= {number_key(n.rstrip(_PUNCTUATION)) for n in _TITLE_NUMBER.findall(card.title)}
    return held


# the words that name a kind of document («соглашение», «акт», «договор», «аренда» …);
# one-word cues only: «счёт» of «счёт на оплату» is also a bank statement's payment line
_KIND_WORDS = frozenset(
    words[0] for t in DOC_TYPES for cue in t.cues if len(words := cue_lemmas(cue)) == 1
)
_SIGN_BEFORE = re.compile(r"(?:№|\bN)\s*$")
_SIGN_FIRST = re.compile(r"(?:№|N\b)")
_TRAILING_CODE = re.compile(r"\s(?:[^\W\d_]+-\d+|\d+-[^\W\d_]+)\s*$")


def _numbered_documents(question: Question) -> list[tuple[str, str]]:
    """(kind word, number) of every «<document word> № <number>» of the question:
    «допсоглашение № 2», «акт № 52», «договор аренды № А-17/2025»."""
    found = []
    for ident in question.identifiers:
        if ident.label != "number":
            continue
        # the identifier's span may start at its sign («№ 2») or just after it
        span = question.text[ident.start : ident.end]
        before = question.text[max(0, ident.start - 60) : ident.start]
        sign = _SIGN_BEFORE.search(before)
        if sign is not None:
            before = before[: sign.start()]
        elif not _SIGN_FIRST.match(span):
            continue
        # «акт КС-2 № 7»: the form's code before the sign is the kind's, the number is «7»
        words = _WORD.findall(_TRAILING_CODE.sub("", before))
        if words and any(lemma(words[-1]).endswith(k) for k in _KIND_WORDS):
            found.append((lemma(words[-1]), ident.value.strip(_PUNCTUATION)))
    return found


def _card_names(cards: Sequence[DocumentCard]) -> str:
    names = [p.name for card in cards for p in card.parties]
    names += [o for card in cards for o in card.organisations]
    return fold(" ".join(names))


# documents that change another («дополнительное соглашение № 1 к договору № …»): the
# document they refer to is held in its amended form; an act, an invoice or a statement
# only mentions the contract it was issued under, which is not held for that
_AMENDING = frozenset({"amendment", "termination", "disagreements"})


def _unheld_amendment(question: Question, cards: Sequence[DocumentCard]) -> str | None:
    """An amending document named by its kind alone, as the source or the agent of an act
    done («по допсоглашению к договору А-17/2025», «продлён дополнительным соглашением»),
    is held only as a card of its kind: the held contract it amends is not it. A numbered
    one is ``_numbered_documents``' case."""
    lemmas = tuple(question.lemmas)
    acted = question.done or _done_passive(question)
    for kind in (k for k in DOC_TYPES if k.key in _AMENDING):
        for cue in kind.cues:
            at = find_cue(lemmas, cue)
            end = at + len(cue_lemmas(cue))
            if at < 0 or _numbered(lemmas, end):
                continue
            if (acted or _as_source(lemmas, at, end)) and not any(
                card.doc_type == kind.key for card in cards
            ):
                return kind.name
    return None


def _numbers_of(card: DocumentCard) -> list[str]:
    references = card.references if card.doc_type in _AMENDING else []
    return [n for n in (card.number, *references) if n]


def _missing(question: Question, cards: Sequence[DocumentCard]) -> str | None:
    owned = institution_numbers(question)
    numbers = [i.value.strip(_PUNCTUATION) for i in question.identifiers if i.label == "number"]
    numbers = [n for n in numbers if n not in owned]
    held_numbers = _held_numbers(cards)
    # each numbered document the question names must be held: «допсоглашение № 2 к договору
    # № А-17/2025» names an amendment the user may lack, whatever the contract
    for word, number in _numbered_documents(question):
        if number_key(number) not in held_numbers:
            return f"{word} № {number}"
    # «по договору подряда № …» held as the amendment that names it; «по цессии ДЦ-03/2025»,
    # «по УПД 318»: a number without its sign
    written = [*numbers, *(t for t in question.lemmas if any(ch.isdigit() for ch in t))]
    written += _written_numbers(question.text)
    amendment = _unheld_amendment(question, cards)
    if amendment is not None:
        return amendment
    if any(number_key(n) in held_numbers for n in written):
        return None
    kind, start, end = _kind_named(question)
    if kind is None:
        return _unheld_record(question, cards) or _stranger(
            question, cards, "документ", inflected=True
        )
    kind, start, end = _source_kind(question.lemmas, kind, start, end)
    before = _party_before(question, start)
    source = _as_source(question.lemmas, start, end) or _of_party(question, end) or bool(before)
    # an act done with a kind as its subject or object («нам выдал кредит банк»): a word of
    # a held document's text («Кредит» of a statement's column) is not that kind held
    done = not source and _done_with_kind(question, kind, start)
    valued = _value_of_kind(question, start, end)
    if (
        (source or done or valued)
        and not _held(kind, cards)
        and not _said_by_named(question, cards, question.lemmas[start:end])
        and (done or not _common_noun_of_named(question, cards, start, end))
        and not (
            _valued_by_held(question, cards, start)
            if valued and not (source or done)
            else _subject_of_held(question, cards, kind, start, end)
        )
    ):
        return kind.name
    # «договор с ООО «ЛогистикПро»»: a counterparty, with its legal form or not, must be
    # one of a held document of that kind, not only a payee in a statement's row
    # a number the question writes is held by no card here (else it returned above)
    if source:
        family = _FAMILIES.get(kind.key, frozenset({kind.key}))
        of_kind = [c for c in cards if c.doc_type in family]
        # «по нашему кредитному договору (с …)»: a kind named by its adjective that no held
        # contract's heading names, in a question of the user's own contract or of a party
        own_contract = _speaks_of_own(question) or bool(question.organisations or question.names)
        qualified = unheld_kind_adjective(question.text, kind, start, of_kind) if of_kind else None
        if own_contract and qualified is not None:
            return qualified
        if question.organisations and of_kind:
            # its party, as written or declined («ИП Орловой»), is one of a held document
            # of that kind: that document is held, whatever other cards name
            return _stranger(question, of_kind, kind.name, inflected=True)
        if not question.organisations:
            unheld = unheld_detail(question.text, kind, end, of_kind)
            if unheld is None and before:
                unheld = unheld_party(before, kind, of_kind)
            if unheld is not None:
                return unheld
    if _numbered(question.lemmas, end) and numbers:
        if not any(number_key(n) in held_numbers for n in numbers):
            return f"{kind.name} № {numbers[0]}"
    bare = _bare_number(question, end)
    if (
        bare is not None
        and not _held_number(number_key(bare), held_numbers)
        and not _stated_by_referrer(question, cards, bare)
    ):
        return f"{kind.name} № {bare}"  # «срок договора ТС-08/2024» held only as mentioned
    return _stranger(question, cards, kind.name)


def _source_kind(
    lemmas: Sequence[str], kind: DocType, start: int, end: int
) -> tuple[DocType, int, int]:
    """The contract named as the question's source when the more specific kind it names
    later is only its topic: «в договоре с ООО «Сфера-Ресурс» о сроках поставки» asks a
    contract, whose kind «поставка» is what it is about. Only a generic contract word
    before the topic counts: a further document after it («по какому УПД … по договору
    …») is what the asked one refers to."""
    if start < 0 or kind.key == GENERIC or _as_source(lemmas, start, end):
        return kind, start, end
    generic = BY_KEY[GENERIC]
    for cue in generic.cues:
        at = find_cue(tuple(lemmas[:start]), cue)
        if at >= 0 and _as_source(lemmas, at, at + len(cue_lemmas(cue))):
            return generic, at, at + len(cue_lemmas(cue))
    return kind, start, end


# prepositions that tie a kind of document to its party: «трудовой договор с Белозёровой»,
# «доверенность на Аверина», «счёт от ЛогистикПро», «соглашение между …»
_PARTY_BEFORE = frozenset({"с", "на", "от", "между"})
# a legal form or an opening quote after it starts an organisation's name
_LEGAL_FORMS = ABBREVIATIONS | {"«"}
# words of the party's kind before its name («с рекламным агентством Пиксель»)
_PARTY_KIND_WORDS = 2


def _of_party(question: Question, end: int) -> bool:
    """The kind word is followed by its party, a name or an organisation: the question
    names one document of that party (a person's contract, a power of attorney issued to
    someone), which is its source even without «по» or «в» before it."""
    lemmas = question.lemmas
    if not 0 <= end < len(lemmas) - 1 or lemmas[end] not in _PARTY_BEFORE:
        return False
    names = {lemma(name) for name in question.names} | {fold(name) for name in question.names}
    names |= {fold(o.name) for o in question.organisations}
    # «с рекламным агентством Пиксель», «с банком «Восход»»: the party's kind may stand
    # before its name
    for following in lemmas[end + 1 : end + 2 + _PARTY_KIND_WORDS]:
        if following in _LEGAL_FORMS or fold(following) in names or following in names:
            return True
        if part_of_speech(following) not in ("NOUN", "ADJF"):
            return False
    return False


# a capital inside a word or after its hyphen: «ЛогистикПро», «Вектор-Транзит» are names
# even where they open the question (the opening capital alone says nothing)
_INNER_CAPITAL = re.compile(r"[а-яё][А-ЯЁ]|-[А-ЯЁ]")


def _party_before(question: Question, start: int) -> str:
    """The name written right before the kind word, as written: «ЛогистикПро договор
    перевозки — какая там неустойка?» names that party's document telegraphically, as
    «договор с ЛогистикПро» does; empty when there is none."""
    if start <= 0:
        return ""
    analysed = analyse(question.text)
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    if len(words) != len(question.lemmas):
        return ""
    word = words[start - 1]
    names = {fold(name) for name in question.names}
    return word if fold(word) in names or _INNER_CAPITAL.search(word) else ""


def _value_of_kind(question: Question, start: int, end: int) -> bool:
    """The kind's subject word in the genitive right after the asked value's head names the
    deal whose value is asked: «ставка аренды склада», «сумма займа у учредителя» ask a
    lease's, a loan's value, which only a document of that kind states (not a tax's
    question, nor one naming the law)."""
    if end - start != 1 or start < 1 or not _asks_deal_value(question) or _of_law(question):
        return False
    if not any(a.head == question.lemmas[start - 1] for a in question.attributes):
        return False
    analysed = analyse(question.text)
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    return len(words) == len(question.lemmas) and genitive(words[start])


def _valued_by_held(question: Question, cards: Sequence[DocumentCard], start: int) -> bool:
    """A held document states the asked value of the kind's subject: one of its value
    sentences names both, by lemma, synonym or root («ставка аренды» in a statement's row
    of rent; not «поставки» for «ставка»): a document that only mentions the subject
    («не сдавать в аренду» of a pledge) does not."""
    head, subject = question.lemmas[start - 1], question.lemmas[start]
    for card in cards:
        for fact in card.facts:
            lemmas = {lemma(w) for w in _WORD.findall(fact.sentence.text)}
            if names_lemma(head, lemmas) and names_lemma(subject, lemmas):
                return True
    return False


def _unheld_record(question: Question, cards: Sequence[DocumentCard]) -> str | None:
    """A record the question names as its source («по декларации», «по авансовому
    отчёту», «в платёжном поручении») that no card's heading is: such records are not
    kinds the cards tell apart (``DOC_TYPES``), so their heading words decide; a card
    whose heading was not found (no kind at all) holds it when its words speak of it."""
    lemmas = tuple(question.lemmas)
    for kind in RECORD_KINDS:
        for cue in kind.cues:
            at = find_cue(lemmas, cue)
            end = at + len(cue_lemmas(cue))
            if at < 0:
                continue
            if _as_source(lemmas, at, end) or _of_party(question, end):
                if not any(record_held(card, other) for card in cards for other in kind.cues):
                    return kind.name
            elif _done_with_kind(question, kind, at) and not any(
                record_held(card, other) or _record_mentioned(card, other)
                for card in cards
                for other in kind.cues
            ):
                # «когда ушла платёжка с авансом?»: the record of an act done, which no
                # held document is or mentions (a statement's rows mention payment orders)
                return kind.name
    return None


def _done_with_kind(question: Question, kind: DocType, at: int) -> bool:
    """An act done that the user's own records would state, asked with a specific kind of
    document as its subject or object rather than its source: «когда ушла платёжка с
    авансом?», «под какой процент нам выдал кредит банк?» (a finite verb in the past,
    in a question of the user's own affairs or naming a company). A generic kind
    («договор») and a question word right before the kind («каким платёжным поручением
    …», asking which of the held records) do not count."""
    if at < 0 or kind.key == GENERIC:
        return False
    end = at + next(
        (len(cue_lemmas(cue)) for cue in kind.cues if find_cue(question.lemmas[at:], cue) == 0),
        1,
    )
    if not (question.done or _done_passive(question) or _kind_participle(question, at, end)):
        return False
    if at > 0 and question.lemmas[at - 1] in QUESTION_WORDS | {"который"}:
        return False
    return question.own_asked or bool(question.organisations) or bool(question.names)


def _done_passive(question: Question) -> bool:
    """The asking clause states an act done in the passive voice, by a short participle in
    the past («под какой процент нам выдан кредит», «когда перечислен аванс»); an
    obligation («в какой срок мы обязаны выкупить») asks a rule, not an act done."""
    analysed = analyse(question.text)
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    return done_in_passive(asked_clause_words(question.lemmas, words))


def _kind_participle(question: Question, at: int, end: int) -> bool:
    """The kind word is qualified by a past passive participle, before it or right after
    it (past a comma): «полученный кредит», «кредит, выданный банком», «по займу,
    предоставленному …» state an act done with it, as «нам выдали кредит» does; a
    participle of mentioning («указанный кредит») does not."""
    analysed = analyse(question.text)
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    if len(words) != len(question.lemmas) or not 0 <= at < end <= len(words):
        return False
    after = end + 1 if end < len(words) and words[end] == "," else end
    near = [words[i] for i in (at - 1, after) if 0 <= i < len(words)]
    verbs = [past_passive_participle(word) for word in near]
    return any(verb and verb not in realised_words("mention") for verb in verbs)


def _record_mentioned(card: DocumentCard, cue: str) -> bool:
    """A held document's words speak of the record («Комиссия за исполнение платёжных
    поручений» of a statement, whose rows are payment orders)."""
    return set(cue_lemmas(cue)) <= set(card.vocabulary)


def _said_by_named(question: Question, cards: Sequence[DocumentCard], words: Sequence[str]) -> bool:
    """A document the question names by more than a kind word has the kind's words in its
    own heading: then the kind is what that document refers to, not another document the
    user lacks («поручительство Горелова … по подряду» of «Договор поручительства … по
    договору строительного подряда»)."""
    named = {m.document_id for m in question.documents if set(m.reasons) - {"тип"}}
    kind_words = {word for word in words if word.isalpha()}
    if not kind_words:
        return False
    for card in cards:
        if card.document_id not in named:
            continue
        # as its heading says it: words in its text («кредит» of a statement's column,
        # «трудовые ресурсы») are not that kind
        if kind_words <= set(cue_lemmas(card.title)):
            return True
    return False


def _common_noun_of_named(
    question: Question, cards: Sequence[DocumentCard], start: int, end: int
) -> bool:
    """A kind's single word that ends the question unqualified («затянет оплату по
    требованию?»: no number, authority or period after it) and that the document the
    question names by more than a kind word uses itself («с даты получения требования
    Кредитора») is that document's common noun, not another document the user lacks."""
    if end - start != 1 or any(lm.isalnum() for lm in question.lemmas[end:]):
        return False
    word = question.lemmas[start]
    named = {m.document_id for m in question.documents if set(m.reasons) - {"тип"}}
    return any(c.document_id in named and word in c.vocabulary for c in cards)


def _subject_of_held(
    question: Question, cards: Sequence[DocumentCard], kind: DocType, start: int, end: int
) -> bool:
    """A kind's subject noun said alone («платил по поставке», «по аренде»: the «поставка»
    of «договор поставки») that a held document's content speaks of (an УПД, an invoice or
    a statement of that supply) names what the held documents are about, not a contract
    the user lacks; the kind's own document noun («по договору поставки») still does."""
    if end - start != 1:
        return False
    word = question.lemmas[start]
    subject = any(word in cue_lemmas(cue)[1:] for cue in kind.cues)
    return subject and any(word in card.vocabulary for card in cards)


def _stated_by_referrer(question: Question, cards: Sequence[DocumentCard], number: str) -> bool:
    """A held document that cites the unheld one by its number («Основание: договор
    № ТС-08/2024») and speaks of a specific value asked of it («норматив времени реакции»:
    every word of the asked attribute, not a word for a kind of value such as «срок» or
    «сумма»): the value is stated by a held document about that very thing, which answers
    (the coverage check still requires the attribute in its passages)."""
    key = number_key(number)
    specific = [a for a in question.attributes if a.head not in GENERIC_HEADS]
    if not specific:
        return False
    for card in cards:
        cites = any(key in number_key(fact.sentence.text) for fact in card.facts)
        words = set(card.vocabulary)
        if cites and any(set(a.lemmas) <= words for a in specific):
            return True
    return False


def _held_number(key: str, held: set[str]) -> bool:
    """Held as written or without its year («45-ТД» of «45-ТД/2025»)."""
    return key in held or any(number.startswith(f"{key}/") for number in held)


def _bare_number(question: Question, end: int) -> str | None:
    """A document number written right after the kind word without its sign («договора
    ТС-08/2024», «по УПД 318»), as the question writes it; not a date or a year."""
    if end < 0 or end >= len(question.lemmas):
        return None
    token = question.lemmas[end]
    if _form_code_at(question.lemmas, end):
        return None
    if not any(ch.isdigit() for ch in token) or "." in token:
        return None
    # the whole number as written: the tokenizer splits «1С-14/2026» into «1» and «С-14/2026»
    following = question.lemmas[end : end + 4]
    whole = {"".join(following[:k]) for k in range(1, len(following) + 1)}
    written = next((w for w in _written_numbers(question.text) if fold(w) in whole), "")
    if not written or "." in written:
        return None
    if written.isdigit():
        year = _FIRST_YEAR <= int(token) <= _LAST_YEAR
        return None if year or question.lemmas[end + 1 : end + 2] == ["год"] else written
    # «ТС-08/2024», «А-17»: letters in capitals or a slash; «16-й» is an ordinal
    return written if "/" in written or any(ch.isupper() for ch in written) else None


_FIRST_YEAR, _LAST_YEAR = 1990, 2100
_CHUNK = re.compile(r"[^\s,;:«»()?!]+")


def _written_numbers(text: str) -> list[str]:
    """The space-separated words of ``text`` that hold a digit, as written, without the
    punctuation that ends them: whole document numbers («1С-14/2026», «15/3-К», «ТО-7/26»),
    which the tokenizer may split at a letter after a digit."""
    chunks = (m.group().rstrip(_PUNCTUATION + ".") for m in _CHUNK.finditer(text))
    return [c for c in chunks if any(ch.isdigit() for ch in c)]


def _stranger(
    question: Question, cards: Sequence[DocumentCard], what: str, inflected: bool = False
) -> str | None:
    """A document with an organisation the question names and no card of the user's has;
    ``inflected``: the name may be declined («ИП Орловой», «заплатили ИП Гончарову»):
    when ``cards`` are the held documents of the kind the question names, or every card
    when it names no kind (not for a kind the user lacks: a payee in a statement is no
    contract)."""
    known = _card_names(cards)
    strangers = [
        o
        for o in question.organisations
        if not (_name_held(o.name, known) if inflected else fold(o.name) in known)
    ]
    if not strangers or len(strangers) < len(question.organisations):
        return None
    name = " ".join(filter(None, (strangers[0].legal_form, f"«{strangers[0].name}»")))
    return f"{what} с {name}"


def _name_held(name: str, known: str) -> bool:
    """An organisation's name is one of the cards' names, as written or inflected: «ИП
    Орловой» is the card's «ИП Орлова Наталья Геннадьевна» (each word of the name shares a
    normal form with a word of the cards' names)."""
    if fold(name) in known:
        return True
    words = _WORD.findall(name)
    if not words:
        return False
    forms = {form for word in _WORD.findall(known) for form in normal_forms(word)}
    return all(normal_forms(word) & forms for word in words)


def _ambiguous(question: Question, cards: Sequence[DocumentCard]) -> list[str]:
    """Titles of the user's documents a bare kind word («по договору», «в акте») may mean,
    when there are several; empty when the question says more of which one it means."""
    kind, start, end = _kind_named(question)
    if kind is None or start < 0:
        return []
    lemmas = question.lemmas
    bare_before = start == 0 or lemmas[start - 1] in _SOURCE_BEFORE
    bare_after = all(not any(ch.isalnum() for ch in word) for word in lemmas[end:])
    if not (bare_before and bare_after) or question.identifiers or question.organisations:
        return []
    family = _FAMILIES.get(kind.key, frozenset({kind.key}))
    titles = [card.title for card in cards if card.doc_type in family]
    return titles if len(titles) > 1 else []


# a kind of document whose every word is used by this share of the law's articles names
# the law's documents as often as the user's («по требованию», «акт проверки»)
COMMON_IN_LAW = 0.2


def _common_in_law(words: Sequence[str]) -> bool:
    corpus = corpus_lemmas()
    return bool(words) and min(corpus.df(w) for w in words) >= COMMON_IN_LAW * corpus.units


# what a deal's document states: an amount, a date, a term, a rate, a party, a limit
DEAL_VALUES = frozenset({"amount", "rate", "date", "period", "party", "limit"})
# a question that names the law as its source asks a rule, whatever its words
_LAW_LEMMAS = frozenset({"кодекс", "закон", "нк", "законодательство"})


# lemmas that make a question one of a tax, whatever else it names


@cache
def _tax_lemmas() -> frozenset[str]:
    """The words of taxation (``data/named_documents.yaml``)."""
    text = (
        resources.files("finagent.routing").joinpath("data/named_documents.yaml").read_text("utf-8")
    )
    return frozenset(str(w) for w in load_yaml(text)["tax_lemmas"])


def _held_words(cards: Sequence[DocumentCard]) -> frozenset[str]:
    """The lemmas the user's documents use."""
    return frozenset(word for card in cards for word in card.vocabulary)


def _of_law(question: Question) -> bool:
    """The question names a tax («НДФЛ», «налог на имущество») or taxation, or gives a sum
    or period of its own for the law to reckon with («долг просрочен на 60 дней»)."""
    taxed = bool(question.taxes) or bool(_tax_lemmas() & set(question.lemmas))
    return taxed or bool(question.money or question.periods)


def _asks_deal_value(question: Question) -> bool:
    return question.answer_type in DEAL_VALUES and not (_LAW_LEMMAS & set(question.lemmas))


# words that say a document is absent when they stand just before its kind word
_ABSENT_BEFORE = frozenset({"нет", "без", "отсутствие", "отсутствовать", "не"})
_ABSENT_WITHIN = 3  # «нет первички и счетов-фактур»


def _absent(lemmas: Sequence[str], start: int) -> bool:
    """A word of absence within ``_ABSENT_WITHIN`` words before the kind word at ``start``,
    in its clause: «нет первички и счетов-фактур», «работаем без договора»."""
    for word in reversed(lemmas[max(0, start - _ABSENT_WITHIN) : max(start, 0)]):
        if word in _CLAUSE_BREAKS:
            return False
        if word in _ABSENT_BEFORE:
            return True
    return False


_CLAUSE_BREAKS = frozenset({",", ".", ";", "?", "!", "—", "-", ":"})


def _stated_in_held(question: Question, cards: Sequence[DocumentCard]) -> bool:
    """The question names a kind of a held card as its source («в декларации», «по
    ордеру») and asks what is stated in it by a short participle in the past («показаны»,
    «указана»): the user's document, not the law's kind of it."""
    typed = {m.document_id for m in question.documents if "тип" in m.reasons}
    cues = [cue for card in cards if card.document_id in typed for cue in (_kind_cues(card))]
    lemmas = question.lemmas
    sourced = False
    for cue in cues:
        at = find_cue(lemmas, cue)
        if at >= 0 and _as_source(lemmas, at, at + len(cue_lemmas(cue))):
            sourced = True
            break
    if not sourced:
        return False
    analysed = analyse(question.text)
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    return any(stated_participle(word) for word in asked_clause_words(lemmas, words))


def _kind_cues(card: DocumentCard) -> Sequence[str]:
    kind = next((t for t in DOC_TYPES if t.key == card.doc_type), None)
    return kind.cues if kind is not None else card.kind_cues


def _speaks_of_own(question: Question) -> bool:
    return any(first_person(word) for word in _WORD.findall(question.text))


# the words of every party role the cards know («банк», «исполнитель», «арендодатель»)
_ROLE_WORDS = frozenset(w for role in ROLES for cue in role.cues for w in cue_lemmas(cue))


def _held_role(question: Question) -> bool:
    """Some card is named by a party role, and no role word is written as part of a name:
    «Банк России» is the regulator, not the bank of the user's statement."""
    if not any("роль" in m.reasons for m in question.documents):
        return False
    return not ({lemma(name) for name in question.names} & _ROLE_WORDS)


def _held_time(question: Question, cards: Sequence[DocumentCard]) -> bool:
    """A sum of an act already done, on a day or in a month a held document dates a line
    by, and no name the user's parties lack: a dated line of theirs («сколько ушло 28
    марта?»), not an institution's act («на сколько Банк России поднял ставку в марте?»)."""
    if not question.of_record or question.answer_type != "amount":
        return False
    known = _card_names(cards)
    if any(fold(name) not in known for name in question.names):
        return False
    return names_held_time(question.text, cards)


def named_documents(question: Question, cards: Sequence[DocumentCard]) -> NamedDocuments:
    """What of ``cards`` (the user's) the turn's ``question`` names."""
    if not cards:
        return NamedDocuments()
    # «акт № 52 от ТехСервис-Плюс»: the act (number and counterparty), not the bank
    # statement that only mentions the counterparty
    counts = {m.document_id: len(PRECISE & set(m.reasons)) for m in question.documents}
    best = max(counts.values(), default=0)
    precise = [doc_id for doc_id, n in counts.items() if best and n == best]
    typed = any("тип" in m.reasons for m in question.documents)
    kind, _, _ = _kind_named(question)
    if kind is not None and kind.key in _FAMILIES and _held(kind, cards):
        typed = True  # «мой договор»: a lease is a contract
    own = _speaks_of_own(question)
    terms = distinctive_terms(question.text, cards)
    hits = vocabulary_hits(question.text, cards)
    strong = hits.strong(_asks_deal_value(question), _of_law(question))
    # «какой административный штраф грозит водителю …»: another code's sanction, whatever
    # a held document says of cars and drivers
    strong = strong and other_code_asked(question.text, _held_words(cards)) is None
    chosen = hits.best() if strong else []
    _, start, end = _kind_named(question)
    return NamedDocuments(
        titles=[m.title for m in question.documents],
        precise_ids=precise,
        typed=typed,
        roles=any("роль" in m.reasons for m in question.documents) and own,
        held_role=_held_role(question),
        held_time=_held_time(question, cards),
        kind_as_topic=start >= 0
        and not _as_source(question.lemmas, start, end)
        and not _of_party(question, end)
        and not _party_before(question, start),
        names=terms.names,
        rare=terms.rare,
        own_names=terms.everywhere,
        unheard=terms.unheard,
        vocabulary=sorted({t for doc_id in chosen for t in hits.by_document[doc_id]}),
        vocabulary_ids=chosen,
        own=own,
        own_asked=question.own_asked,
        asks_value=_asks_deal_value(question),
        tax_rate=question.answer_type == "rate" and bool(question.taxes),
        of_record=question.of_record,
        own_act=question.own_act,
        subject=subject_words(question.text, cards) if _asks_deal_value(question) else [],
        common_kind=start >= 0 and _common_in_law(question.lemmas[start:end]),
        absent_kind=start >= 0 and _absent(question.lemmas, start),
        stated_in_held=_stated_in_held(question, cards),
        missing=_missing(question, cards),
        ambiguous=[] if precise else _ambiguous(question, cards),
    )
