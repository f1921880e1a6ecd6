"""Whether the evidence can state what was asked: the named entities and the asked
attributes of the typed question must occur in the passages that answer.

Four checks, each an abstention when it fails:
- names: in the user's documents, every company or person the question names occurs,
  capitalised, in some passage, card sentence or card of the user's (title, parties,
  organisations, persons); a passage also names what its document's card names: the
  clause on warranty terms belongs to the contract with the company in its heading;
- numbers: a document number («счёт № 15») occurs after «№» in the user's documents;
- date: in the user's documents, a calendar date the question names («остаток на 30
  апреля 2025») occurs in some passage: a value stated for another date is not it; a
  month with its year («по акту за апрель 2025») occurs as such or as a date in it; a
  period in a conditional clause («если управляющий опоздает в декабре 2026, какая
  неустойка?») names the case a held rule applies to and is not checked;
- attributes: each specific attribute asked («ОГРН», «франшиза», «численность») — not a
  word for a kind of value such as «сумма», «срок» or «норматив» (``GENERIC_HEADS``,
  ``STANDARD_HEADS``) — occurs by lemma,
  its abbreviation or full form, a synonym the card fields list or one of its group in
  ``question/data/attribute_synonyms.yaml`` or, a clipped compound («медосмотр»), as the
  words it stands for («медицинский осмотр»: ``language.compounds``), in the passages that
  may lend it (``_lenders``: those that name the question's entities or belong to a
  document about them; all passages when it names none). An identifier or contact
  of an entity (``REQUISITES``: ИНН, КПП, ОГРН, адрес …) must stand beside its name:
  anywhere in a passage of a document whose parties or title name it, else in the sentence
  (a statement's row) that names it or the line after — «КПП ООО X» is not in a row with
  X's ИНН under a heading with another company's КПП. A word for a kind of value
  qualified by a relative adjective («кадастровая стоимость») is asked as such when the
  evidence uses the adjective: then the adjective must stand before that word or another
  word for a value («кадастровый номер» does not state a cadastral value). A unit of
  measure the question counts in («сколько квадратных метров»: ``MEASURE_UNITS``) is not
  an attribute. A question of a noun phrase alone («кадастровая стоимость склада?») asks
  that qualified value too. What «сколько стоит» asks the price of («сколько стоит люкс»)
  is one some held document speaks of (its card's vocabulary) or the evidence names. A
  role asked with «кто» («кто главный бухгалтер», «кто поручитель») is an attribute too;
  it is also stated by the noun of its activity («поручительством»);
- balances now: in the user's documents, the state of an account or of settlements
  (остаток, сальдо, долг, переплата …) asked «сейчас» or «на сегодня» is stated only by
  a passage dated on the question's as-of day: a statement's closing balance is that of
  its own date;
- realised results: in the user's documents, a question asking how a case turned out
  («какой штраф в итоге начислила ИФНС», «сколько фактически перечислили»:
  ``Question.realised``) is declined when every passage that may lend it and speaks of
  what it asks (its verb's stem or an asked attribute) states it as a rule or a warning
  («может быть начислен штраф», «в случае непредставления», «вправе»): a demand that
  warns of a fine states no fine charged;
- places: in the user's documents, a place the question names («аренда цеха в
  Дзержинске», pymorphy3's Geox) occurs in some document the user holds (its card's
  vocabulary) or in the evidence: a value of the user's other premises is not it; when
  the question names documents by their kind («аренда», «по договору поставки»), in one
  of those: a supply contract's table naming a warehouse holds no lease of it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.cards.fields import ALL as ALL_FIELDS
from finagent.cards.header_units import abbreviated_unit
from finagent.cards.model import DocumentCard
from finagent.language.compounds import names_compound
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.dates import MONTH_LEMMAS, dates_in, months_in, years_in
from finagent.language.form_codes import is_form_code
from finagent.language.glossary import expanded_compound
from finagent.language.lemmas import (
    breach_act,
    can_be,
    compound_forms,
    done_participle,
    known_noun,
    leading_names,
    normal_forms,
    part_of_speech,
    past_participle,
    past_verb,
    person_or_organisation,
    place_name,
    standing_verb,
    surname,
)
from finagent.language.text import Analysed, Token, analyse
from finagent.language.transliteration import latin_forms
from finagent.question.asked import AskedAttribute, leading_attribute, priced_thing
from finagent.question.conditions import in_condition, realised_words
from finagent.question.documents import institution_numbers
from finagent.question.model import Question
from finagent.question.tables import (
    ATTRIBUTE_ABBREVIATIONS,
    GENERIC_HEADS,
    MEASURE_UNITS,
    REQUISITES,
    STANDARD_HEADS,
    TAXES,
)
from finagent.state import Chunk
from finagent.yaml_data import load_yaml

_MAX_TITLES = 3
# a document the question names by itself (its kind, number or title), not by a party or
# person it mentions (a statement names many)
_BY_ITSELF = frozenset({"тип", "номер", "заголовок"})
# the noun of a role's activity: «поручитель» — «поручительство», «представитель» —
# «представительство»
_ACTIVITY = "ство"
_YEAR = re.compile(r"(?<![\d.,])(?:19|20)\d{2}(?![\d,])")
# the state of an account or of settlements, which changes with every operation: asked
# «сейчас» / «на сегодня», only a source dated today states it
_BALANCES = frozenset("остаток сальдо задолженность долг переплата недоимка баланс".split())
_NOW = frozenset({"сейчас", "сегодня", "сегодняшний", "текущий", "нынешний"})
# «сколько мы должны X»: «должны» (pymorphy3: the short adjective «должный») without an
# infinitive after it asks a debt; «должны заплатить» asks an obligation, not a balance
_OWE = "должный"
# a count of the people who work somewhere: asked now, it is a state like a balance
_STAFF = frozenset({"человек", "работник", "сотрудник", "численность", "штат"})
_WORK = frozenset({"работать", "трудиться", "числиться", "штат", "численность"})
# a price asked now («почём сейчас продают», «какая сегодня цена») is a market's state: a
# held document states the price of its own deal on its own date
_PRICES = frozenset({"цена", "почём", "почем", "прайс", "расценка"})
# a yes/no question or a definition asks for no value of the entities it names («нужно ли
# регистрировать договор в Росреестре?»)
_NOT_VALUES = frozenset({"yes_no", "definition"})
# kinds of document whose card has many parties, one a row (a statement's payees)
_LISTINGS = frozenset({"bank_statement"})
_ANCHOR = 5  # letters of a verb's stem that a sentence's words must contain
_PREFIX = 4  # letters of a verb's prefix read past
_ROOT = 6  # letters of a verb past its prefix that a deverbal noun starts with
_LEGAL_FORM = 4  # letters of a legal form written in capitals («ООО», «ПАО», «АНО»)


@dataclass
class _Sentence:
    lemmas: list[str]
    names: set[str]
    text: str
    months: set[tuple[int, int]] = field(default_factory=set)
    line: int = 0  # the line of the text it is on (a table's row is one line)


@dataclass
class _Text:
    """One evidence text: its lemmas and the normal forms of its capitalised words."""

    text: str
    lemmas: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    dates: set[date] = field(default_factory=set)
    months: set[tuple[int, int]] = field(default_factory=set)  # (year, month) it names
    years: set[int] = field(default_factory=set)  # years it names, alone or in dates
    sentences: list[_Sentence] = field(default_factory=list)
    owners: set[str] = field(default_factory=set)  # names of its document's title and parties
    parties: set[str] = field(default_factory=set)  # name forms of its document's parties
    document: str = ""  # the user's document it is a passage of
    # verbs (lemmas) it uses as a participle of something other than its document
    # («задолженность просрочена», not «договор подписан»): ``_derived_adjective``
    participles: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, text: str, header: str = "", owners: str = "") -> _Text:
        """``header``: names the text belongs to (its document's card), for names only;
        ``owners``: its document's title and parties. A copy of the text's remembered
        reading (:func:`_text_of`): a caller sets its ``document`` and ``parties``."""
        return copy.copy(_text_of(text, header, owners))

    @classmethod
    def read(cls, text: str, header: str = "", owners: str = "") -> _Text:
        """The reading :meth:`of` copies."""
        analysed = analyse(text)
        out = cls(text)
        out.names = _capitalised(header)
        out.owners = _capitalised(owners)
        # the head noun of its title (the first line): its document's kind
        kind = _kind(analyse(text.partition("\n")[0])) if "\n" in text else ""
        for sentence in analysed.sentences:
            names: set[str] = set()
            for token in sentence.tokens:
                if token.text[:1].isupper():
                    names |= _name_forms(token.text)
            lemmas = [token.lemma for token in sentence.tokens]
            line = text.count("\n", 0, sentence.sentence.start)
            out.participles |= _participles(sentence.tokens, kind)
            out.sentences.append(_Sentence(lemmas, names, sentence.sentence.text, line=line))
            out.lemmas.extend(lemmas)
            out.names |= names
        days = dates_in(analysed)
        months = [m for m in months_in(analysed) if m.year is not None]
        out.dates = {mention.value for mention in days}
        out.months = {(m.year, m.month) for m in months if m.year is not None}
        out.months |= {(day.year, day.month) for day in out.dates}
        out.years = {year for year, _ in out.months} | {int(y) for y in _YEAR.findall(text)}
        by_sentence: dict[int, set[tuple[int, int]]] = {}
        for m in months:
            if m.year is not None:
                by_sentence.setdefault(m.sentence.start, set()).add((m.year, m.month))
        for d in days:
            by_sentence.setdefault(d.sentence.start, set()).add((d.value.year, d.value.month))
        for kept, read in zip(out.sentences, analysed.sentences, strict=True):
            kept.months = by_sentence.get(read.sentence.start, set())
        return out


@lru_cache(maxsize=1024)  # a passage with its card's names, read for every question: bounded
def _text_of(text: str, header: str, owners: str) -> _Text:
    """:meth:`_Text.read`, remembered; never changed in place (:meth:`_Text.of` copies)."""
    return _Text.read(text, header, owners)


# words either side of a participle where the noun it is said of stands
_PARTICIPLE_REACH = 2


def _kind(title: Analysed) -> str:
    """The first noun of a document's title: its kind («договор», «акт»)."""
    tokens = (t for sentence in title.sentences for t in sentence.tokens)
    return next((t.lemma for t in tokens if known_noun(t.text)), "")


def _participles(tokens: Sequence[Token], kind: str) -> set[str]:
    """The verbs (lemmas) the tokens use as past participles, save those said of the
    document itself (its kind ``kind``: «Договор подписан» in a contract states its
    signing, not a «подписка»). A participle is said of the nearest noun beside it."""
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if not past_participle(token.text):
            continue
        near = sorted(
            range(max(0, i - _PARTICIPLE_REACH), min(len(tokens), i + _PARTICIPLE_REACH + 1)),
            key=lambda j: abs(j - i),
        )
        noun = next((tokens[j].lemma for j in near if j != i and known_noun(tokens[j].text)), "")
        if not noun or noun != kind:
            found.add(token.lemma)
    return found


def _capitalised(text: str) -> set[str]:
    forms: set[str] = set()
    for sentence in analyse(text).sentences:
        for token in sentence.tokens:
            if token.text[:1].isupper():
                forms |= _name_forms(token.text)
    return forms


def _name_forms(word: str) -> frozenset[str]:
    """The forms of a written name and of its hyphenated parts: «ТехСервис-Плюс» is
    called «ТехСервис» too, and a model written with its number («КАМАЗ-43253») is called
    by its name alone («КАМАЗ»); a CamelCase name by its leading segments («ПромСнаб» of
    «ПромСнабКомплект»)."""
    pieces = word.split("-")
    parts = [part for part in pieces if part[:1].isupper()]
    numbered = len(pieces) > 1 and all(p[:1].isupper() or p.isdigit() for p in pieces)
    forms = set(compound_forms(word)) | leading_names(word)
    for part in parts if len(parts) > 1 or numbered else []:
        forms |= normal_forms(part)
    return frozenset(forms)


def _header(card: DocumentCard) -> str:
    parties = [party.name for party in card.parties]
    return "\n".join([card.title, *card.organisations, *card.persons, *parties])


def _owners(card: DocumentCard) -> str:
    return "\n".join([card.title, *(party.name for party in card.parties)])


def _party_forms(card: DocumentCard) -> set[str]:
    """The name forms of a document's parties and organisations, without legal forms in
    capitals («ООО», «АО»): a line naming one of them begins that party's requisites."""
    forms: set[str] = set()
    for name in [*(party.name for party in card.parties), *card.organisations]:
        for word in _LINE_WORDS.findall(name):
            if word[:1].isupper() and not (word.isupper() and len(word) <= _LEGAL_FORM):
                forms |= _name_forms(word)
    return forms


def _party_name(word: str, question: Question) -> bool:
    """A person's or a company's name: so read by pymorphy3, written with a capital inside
    («СеверСтройИнвест»), or part of an organisation the question names with its legal form."""
    inner_capital = any(ch.isupper() for ch in word[1:].replace("-", ""))
    in_organisation = any(word in organisation.text for organisation in question.organisations)
    return person_or_organisation(word) or inner_capital or in_organisation


_LOCATIVE_BEFORE = re.compile(r"(?<![\w-])(?:в|во|на)\s+$", re.IGNORECASE)


def _located(name: str, text: str) -> bool:
    """A name written as a place: after «в», «во» or «на», in the locative («склад в
    Дзержинском», read by pymorphy3 first as the surname «Дзержинский»)."""
    at = text.find(name)
    after = text[at + len(name) :].split(maxsplit=1)
    # one word of its own: «на Большой Покровской» is a street of two, whose first word is
    # a common adjective
    alone = not after or not after[0][:1].isupper()
    return (
        at > 0
        and alone
        and bool(_LOCATIVE_BEFORE.search(text[max(0, at - 4) : at]))
        and can_be(name, "loct")
        and not can_be(name, "Qual")
    )


def _mentions(text: _Text, name: str) -> bool:
    """The text names it, or a Cyrillic name the text writes in Latin letters («Ларгус» —
    «LADA Largus»)."""
    return bool((compound_forms(name) | latin_forms(name)) & text.names)


def _synonyms(attribute: AskedAttribute) -> list[tuple[str, ...]]:
    """Lemma phrases that name the attribute: itself, its abbreviation or full form, and
    the other cues of a card field it is a cue of («зарплата» — «оклад»)."""
    phrases: list[tuple[str, ...]] = [(attribute.head,)]
    if attribute.role:  # «поручитель» — «обеспечивается поручительством»
        phrases.append((attribute.head + _ACTIVITY,))
    for short, full in ATTRIBUTE_ABBREVIATIONS.items():
        if attribute.head == short:
            phrases.append(cue_lemmas(full))
        elif tuple(attribute.lemmas) == cue_lemmas(full)[: len(attribute.lemmas)]:
            phrases.append((short,))
    for known in ALL_FIELDS:
        cues = [cue_lemmas(cue) for cue in known.cues]
        if (attribute.head,) in cues:
            phrases.extend(cues)
    for group in _synonym_groups():
        if (attribute.head,) in group:
            phrases.extend(group)
    # a clipped compound («матпомощь», «госномер») is named by its full words
    phrases.extend(expanded_compound(attribute.head))
    return phrases


@cache
def _synonym_groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The lemma phrases of ``question/data/attribute_synonyms.yaml``, by group."""
    path = resources.files("finagent.question").joinpath("data/attribute_synonyms.yaml")
    table = load_yaml(path.read_text("utf-8")) or {}
    return tuple(
        tuple(cue_lemmas(str(phrase)) for phrase in group) for group in table.get("groups", ())
    )


def _generic(head: str) -> bool:
    taxes = {lemma for tax in TAXES for cue in tax.cues for lemma in cue_lemmas(cue)}
    return head in GENERIC_HEADS or head in STANDARD_HEADS or head in taxes


def _unit(attribute: AskedAttribute) -> bool:
    """«сколько квадратных метров», «сколько дней»: a unit of measure counts the value
    asked, it is not an attribute of the entities."""
    # «сколько мес», «сколько руб»: an abbreviation of a unit is a unit too
    return attribute.head in MEASURE_UNITS or abbreviated_unit(attribute.text) is not None


# parts of an address a document writes abbreviated with a dot («г. Реутов», «ул. Лесная»)
_PLACE_ABBREVIATIONS = {"город": "г", "улица": "ул", "область": "обл", "район": "р-н"}
# an item of a list or a table («по какой позиции»): the answer names the item itself
_LIST_ITEMS = frozenset({"позиция", "строка"})


def _covered(
    attribute: AskedAttribute,
    scopes: Sequence[Sequence[str]],
    participles: Collection[str] = frozenset(),
) -> bool:
    """Whether some scope (a lemma sequence) names the attribute, as itself, a synonym or
    a relative adjective made of it (``_derived_adjective``); ``participles``: the verbs
    the evidence uses as participles, which may state the noun made of them."""
    synonyms = _synonyms(attribute)
    phrases = [" ".join(p) for p in synonyms]
    if any(find_cue(scope, phrase) >= 0 for scope in scopes for phrase in phrases):
        return True
    # the lemmas as read («инн»): read again from a lower-case phrase, an abbreviation
    # may become a name («инна»)
    if any(_contains(scope, phrase) for scope in scopes for phrase in synonyms):
        return True
    if any(
        _derived_adjective(attribute.head, lemma, participles)
        for scope in scopes
        for lemma in scope
    ):
        return True
    # a clipped compound the evidence writes out («амортпремия» — «амортизационная премия»)
    if any(names_compound(attribute.head, scope) for scope in scopes):
        return True
    short = _PLACE_ABBREVIATIONS.get(attribute.head)
    # «г.» of a place, not of a year («2025 г.»)
    return short is not None and any(
        word == short
        and scope[i + 1 : i + 2] == ["."]
        and not (i and any(ch.isdigit() for ch in scope[i - 1]))
        for scope in scopes
        for i, word in enumerate(scope)
    )


def _alternatives(attribute: AskedAttribute, text: str) -> list[str]:
    """The other names the question gives the attribute after a slash («прогул / НН»,
    «неустойка/пени»), as lemma phrases: the evidence may name the value by any of them."""
    pattern = re.compile(rf"{re.escape(attribute.text)}\s*/\s*([\w-]+)", re.IGNORECASE)
    return [
        " ".join(cue_lemmas(m.group(1))) for m in pattern.finditer(text) if _other_name(m.group(1))
    ]


def _other_name(word: str) -> bool:
    """Whether a word after a slash may name the attribute: a noun, an abbreviation or a
    code («пени», «НН», «T2»), not a preposition or another stop word («оклад / в месяц»)."""
    kind = part_of_speech(word)
    return kind == "NOUN" if kind else any(ch.isalpha() for ch in word)


def _contains(lemmas: Sequence[str], phrase: Sequence[str]) -> bool:
    size = len(phrase)
    return size > 0 and any(
        tuple(lemmas[i : i + size]) == tuple(phrase) for i in range(len(lemmas) - size + 1)
    )


# a relative adjective keeps its noun's stem but for the last letters and a consonant
# alternation: «дизель» — «дизельный», «пусконаладка» — «пусконаладочный»
_DERIVED_LOST = 2
_DERIVED_MIN = 6


def _derived_adjective(head: str, lemma: str, participles: Collection[str] = ()) -> bool:
    """Whether ``lemma`` is an adjective made of the noun ``head``, or the verb the noun is
    made of used as a participle (``participles``): «дизельное топливо» states the diesel
    asked as «дизель», «пусконаладочные работы» the «пусконаладка», «задолженность
    просрочена» (lemma «просрочить») the «просрочка»; «установить оборудование» is no
    «установка», «договор подписан» no «подписка». The shared beginning covers all of the
    noun but its last two letters and is at least six letters long: «численность» is not
    «число», «ставка» not «ставочный»."""
    if lemma == head or len(head) < _DERIVED_MIN or lemma[:_DERIVED_MIN] != head[:_DERIVED_MIN]:
        return False
    pairs = zip(head, lemma, strict=False)
    shared = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(head), len(lemma)))
    if shared < len(head) - _DERIVED_LOST:
        return False
    kind = part_of_speech(lemma)
    return kind == "ADJF" or (
        kind == "INFN" and lemma in participles and part_of_speech(head) == "NOUN"
    )


def _qualified_covered(attribute: AskedAttribute, scopes: Sequence[Sequence[str]]) -> bool:
    """«кадастровая стоимость»: where the evidence uses the adjective, it qualifies the
    value asked or another word for a value (not «кадастровый номер»)."""
    for qualifier in attribute.qualifiers:
        used = [scope for scope in scopes if qualifier in scope]
        if not used:
            continue  # the evidence names the value some other way
        if not any(
            lemma_ == qualifier and any(w in GENERIC_HEADS for w in scope[i + 1 : i + 3])
            for scope in used
            for i, lemma_ in enumerate(scope)
        ):
            return False
    return True


# a table's row as the documents render it: «| 22 | 26.03.2025 | …» or «№: 22; Дата: …; …»
_ROW = re.compile(r"\|[^|\n]*\||[^;:\n]+: [^;\n]*; [^;:\n]+: ")
_LINE_WORDS = re.compile(r"[\w-]+")


def _lenders(texts: Sequence[_Text], names: Sequence[str], asked: set[str]) -> list[_Text]:
    """The passages that may lend an asked attribute to the named entities (every passage
    when the question names none), in evidence order: a passage that names them, and every
    passage of a user's document that is about them. A document is about them when it
    names them in a line of its own, not in a table's row (one of a statement's many
    payees): the waybill's mileage section speaks of the lorry its vehicle section names;
    or when the question names the document by itself (``asked``: its kind, number or
    title) and one of its passages names them: the waybill «№ 0872» naming the truck
    «КАМАЗ-43253» in a row states its mileage in another passage. A statement not asked
    for keeps to its rows. Empty when none may."""

    def naming(text: _Text) -> bool:
        return all(_mentions(text, name) for name in names)

    about = {
        t.document
        for t in texts
        if t.document
        and (
            all(_named_outside_rows(t, name) for name in names)
            or (t.document in asked and naming(t))
        )
    }
    return [t for t in texts if naming(t) or t.document in about]


def _named_outside_rows(text: _Text, name: str) -> bool:
    """Whether a line of the text that is no table row names ``name``."""
    forms = compound_forms(name)
    return any(
        not _ROW.search(line)
        and any(forms & _name_forms(w) for w in _LINE_WORDS.findall(line) if w[:1].isupper())
        for line in text.text.splitlines()
    )


def _naming(name: str, sentence: _Sentence) -> bool:
    return bool(compound_forms(name) & sentence.names)


def _scopes(texts: Sequence[_Text], names: Sequence[str], fallback: bool = True) -> list[list[str]]:
    """Where an attribute of the named entities may stand: a whole passage of a document
    they are a party of, else the sentence naming them and the line after it (when that
    line quotes no other name); when none names them, every passage (``fallback``) or
    none."""
    if not names:
        return [t.lemmas for t in texts]
    scopes: list[list[str]] = []
    for text in texts:
        if all(compound_forms(name) & text.owners for name in names):
            scopes.append(text.lemmas)
            continue
        for at, sentence in enumerate(text.sentences):
            if not all(_naming(name, sentence) for name in names):
                continue
            scope = list(sentence.lemmas)
            following = text.sentences[at + 1] if at + 1 < len(text.sentences) else None
            if following is not None and "«" not in following.text:
                scope += following.lemmas
            scopes.append(scope)
    return scopes or ([t.lemmas for t in texts] if fallback else [])


def _requisite_scopes(texts: Sequence[_Text], names: Sequence[str]) -> list[list[str]]:
    """Where a requisite (ИНН, КПП, адрес …) of the named parties may stand: in a passage
    of a document they are a party of, the sentences after one naming them and before one
    naming another of its parties (and those before any party is named: a passage may
    begin past its party's name); elsewhere as ``_scopes`` reads it. The sender's «КПП» in
    a letter's heading is not the addressee's."""
    if not names:
        return [t.lemmas for t in texts]
    scopes: list[list[str]] = []
    for text in texts:
        if not all(compound_forms(name) & text.owners for name in names) or not text.parties:
            scopes += _scopes([text], names, fallback=False)
            continue
        current: bool | None = None
        scope: list[str] = []
        for sentence in text.sentences:
            if sentence.names & text.parties:
                current = all(_naming(name, sentence) for name in names)
            if current is not False:
                scope += sentence.lemmas
        scopes.append(scope)
    return scopes or [t.lemmas for t in texts]


def _row_scopes(texts: Sequence[_Text], names: Sequence[str]) -> list[list[str]]:
    """Where a requisite of the named parties may stand when a statement lists them as
    payees (its card's parties): a whole passage naming them in a line of its own, else
    the sentences naming them and the line after (``_scopes``); none when no passage
    names them."""
    if not names:
        return [t.lemmas for t in texts]
    scopes: list[list[str]] = []
    for text in texts:
        if all(_named_outside_rows(text, name) for name in names):
            scopes.append(text.lemmas)
        else:
            bare = _Text(text.text, sentences=text.sentences)
            scopes += _scopes([bare], names, fallback=False)
    return scopes


def _person_scopes(texts: Sequence[_Text], persons: Sequence[str]) -> list[list[str]]:
    """Where an attribute of the named persons may stand: a whole passage of a document
    they are a party of, or of one that is no other person's; in another person's document
    (a liability contract of Захаров that names the warehouse head Гаврилов as the one
    goods are handed to), only the sentence naming them and the line after it: the salary
    it states is its party's."""
    scopes: list[list[str]] = []
    for text in texts:
        if all(compound_forms(p) & text.owners for p in persons) or not any(
            surname(owner.title()) for owner in text.owners
        ):
            scopes.append(text.lemmas)
            continue
        scopes += _scopes([text], persons) if _names_all(text, persons) else []
    return scopes


def _names_all(text: _Text, persons: Sequence[str]) -> bool:
    return any(all(_naming(p, s) for p in persons) for s in text.sentences)


def _periods_beside(
    texts: Sequence[_Text], names: Sequence[str]
) -> tuple[set[tuple[int, int]], set[int]]:
    """The months and years the evidence states of the named entities (of every passage
    when the question names none). A month dates one operation: anywhere in a passage of
    a document one of them is a party of, else on a line naming one of them (a
    statement's row) or the heading line of its passage. A year is a document's period
    («распределение прибыли за 2025 год» of a protocol naming the participant elsewhere):
    anywhere in a passage naming one of them."""
    months: set[tuple[int, int]] = set()
    years: set[int] = set()
    for text in texts:
        if not names or any(compound_forms(name) & text.owners for name in names):
            months |= text.months
            years |= text.years
            continue
        if any(_mentions(text, name) for name in names):
            years |= text.years
        lines = {s.line for s in text.sentences if any(_naming(name, s) for name in names)}
        # the period its heading names («Справка о доходах … за 2025 год») is that of
        # every line of the document
        for sentence in text.sentences if lines else []:
            if sentence.line in lines or sentence.line == 0:
                months |= sentence.months
    return months, years


def _owes(question: Question) -> bool:
    """«сколько мы должны поставщику»: a debt asked with «должны» and no infinitive after
    it («должны заплатить до 10 числа» asks an obligation)."""
    lemmas = question.lemmas
    return any(
        lemma == _OWE and not any(part_of_speech(w) == "INFN" for w in lemmas[at + 1 :])
        for at, lemma in enumerate(lemmas)
    )


def _now(question: Question) -> bool:
    return bool(_NOW & set(question.lemmas))


@cache
def _held_money() -> tuple[frozenset[str], ...]:
    """«сколько сейчас денег на счёте»: the words of money and of where it is held
    (``data/held_money.yaml``); a question naming one of each asks a balance."""
    text = resources.files("finagent.answering").joinpath("data/held_money.yaml").read_text("utf-8")
    table: dict[str, list[str]] = load_yaml(text)
    return tuple(frozenset(str(w) for w in table[key]) for key in ("money", "held"))


def _balance_now(question: Question) -> bool:
    """The state of an account or of settlements asked «сейчас» / «на сегодняшний день»."""
    lemmas = set(question.lemmas)
    held = all(words & lemmas for words in _held_money())
    return _now(question) and (bool(_BALANCES & set(question.topic)) or _owes(question) or held)


def _price_now(question: Question) -> bool:
    """A price asked «сейчас» / «сегодня» of no document the question names by its kind or
    number («почём сейчас поставщик продаёт стеллажи?»; «какая сейчас цена по договору
    поставки?» asks the deal's own price)."""
    named = any({"тип", "номер"} & set(m.reasons) for m in question.documents)
    return _now(question) and bool(_PRICES & set(question.lemmas)) and not named


def _staff_now(question: Question) -> bool:
    """The number of people who work somewhere asked «сейчас» («сколько человек сейчас
    работает», «какая сейчас численность»): it changes with every hire, so only a source
    dated on the as-of day states it."""
    lemmas = set(question.lemmas)
    counted = "численность" in lemmas or ("сколько" in lemmas and bool(_STAFF & lemmas))
    return _now(question) and counted and bool(_WORK & lemmas)


def undated(title: str) -> str:
    """A title without its date or period («Счёт № 87 от 13 марта 2025» → «Счёт № 87»,
    «Расчётный листок за октябрь 2026 г.» → «Расчётный листок»): an abstention states no
    figure that no cited source holds."""
    analysed = analyse(title)
    # a date, a month or a year of its period («Справка о доходах … за 2025 год»)
    months = [m for m in months_in(analysed) if m.year is not None]
    starts = [m.start for m in [*dates_in(analysed), *months, *years_in(analysed)]]
    if not starts:
        return title
    head = title[: min(starts)].rstrip()
    words = head.rsplit(" ", 1)
    cut = len(words) == 2 and words[1].lower() in ("от", "за", "на")
    return (words[0] if cut else head).rstrip(" ,") or title


def searched_titles(chunks: Sequence[Chunk]) -> str:
    """The first titles searched, undated, for an abstention to name."""
    titles = dict.fromkeys(undated(c.metadata.get("citation") or c.title) for c in chunks)
    return "; ".join(list(titles)[:_MAX_TITLES]) or "ничего не найдено"


def _number_held(number: str, texts: Sequence[_Text]) -> bool:
    pattern = re.compile(rf"(?:№|\bN)\s*{re.escape(number)}(?![\w/-])", re.IGNORECASE)
    return any(pattern.search(t.text) for t in texts)


def coverage_abstention(
    question: Question,
    chunks: Sequence[Chunk],
    sentences: Sequence[str],
    documents: bool,
    cards: Sequence[DocumentCard] = (),
) -> Abstention | None:
    """An abstention when the evidence does not name what the question names or asks;
    ``sentences`` are the card sentences, ``documents`` whether the evidence is the user's
    documents, ``cards`` the user's document cards."""
    attributes = [a for a in question.attributes if not _unit(a)]
    specific = [a for a in attributes if not _generic(a.head) and a.head not in _LIST_ITEMS]
    qualified = [a for a in attributes if _generic(a.head) and a.qualifiers]
    # «кадастровая стоимость помещения на Лесной?»: a noun phrase alone asks its value too
    leading = _leading(question) if documents and not question.attributes else None
    if leading is not None and _generic(leading.head) and leading.qualifiers:
        qualified.append(leading)
    # «сколько стоит люкс»: the priced thing must be one the user's documents speak of
    priced = _priced(question) if documents and cards else None
    # a body's number («ИФНС № 16») and a unified form's code («ОС-1») name no document
    owned = institution_numbers(question)
    numbers = (
        [
            value
            for i in question.identifiers
            if i.label == "number"
            and (value := i.value.rstrip("?.,;:!")) not in owned
            and not is_form_code(value)
        ]
        if documents
        else []
    )
    # a period in a condition («если управляющий опоздает в декабре 2026, какая
    # неустойка?») is the case a held rule is applied to, not the period of a value asked
    dates = [d for d in question.dates if not in_condition(question.text, d)] if documents else []
    months = [m for m in question.months if not in_condition(question.text, m)] if documents else []
    # a year asked as a period («оклад в 2024 году»), not the year of a month or a date
    years = (
        sorted(
            {y.year for y in question.years if not in_condition(question.text, y)}
            - {m.year for m in question.months}
            - {d.value.year for d in question.dates}
        )
        if documents
        else []
    )
    if not chunks:
        return None
    if (
        documents
        and (_balance_now(question) or _staff_now(question) or _price_now(question))
        and not any(
            question.as_of in t.dates for t in (_Text.of(f"{c.title}\n{c.text}") for c in chunks)
        )
    ):
        if _balance_now(question):
            reason, missing = messages.ABSTAIN_BALANCE_NOW, messages.ABSTAIN_BALANCE_NOW_MISSING
        elif _price_now(question):
            reason, missing = messages.ABSTAIN_PRICE_NOW, messages.ABSTAIN_PRICE_NOW_MISSING
        else:
            reason, missing = messages.ABSTAIN_STAFF_NOW, messages.ABSTAIN_STAFF_NOW_MISSING
        return Abstention("date", reason, missing.format(titles=searched_titles(chunks)))
    if question.answer_type in _NOT_VALUES:
        return None
    # only in the user's documents, and only a person or a company: a street, a product or
    # a place may be written otherwise there («ул. Промышленная» for «на Промышленной»);
    # a name in a question answered from the Code or the knowledge base is most often a
    # document question the router sent there, which the routing must fix, not a decline
    names = [n for n in question.names if _party_name(n, question)] if documents else []
    places = (
        [
            n
            for n in question.names
            if (place_name(n) and not _party_name(n, question)) or _located(n, question.text)
        ]
        if documents
        else []
    )
    complements = [a for a in attributes if _complement(a, question.text)] if documents else []
    if (
        not (specific or qualified or complements or names or places or numbers or dates or months)
        and not (years or priced)
        and not (documents and (question.realised or question.event))
    ):
        return None
    headers = {card.document_id: _header(card) for card in cards}
    owners = {card.document_id: _owners(card) for card in cards}
    texts = [
        _Text.of(
            f"{c.title}\n{c.text}",
            headers.get(c.document_id or "", ""),
            owners.get(c.document_id or "", ""),
        )
        for c in chunks
    ]
    parties = {card.document_id: _party_forms(card) for card in cards}
    for text, chunk in zip(texts, chunks, strict=True):
        text.document = chunk.document_id or ""
        text.parties = parties.get(text.document, set())
    texts += [_Text.of(s) for s in sentences]
    held = [_Text.of("", header) for header in headers.values()]
    searched = searched_titles(chunks)
    vocabulary = {word for card in cards for word in card.vocabulary}
    # a place of a document the question names by its kind («аренда склада в Дзержинском»)
    # is that document's: a supply contract's table naming the town holds no lease there
    typed = {m.document_id for m in question.documents if "тип" in m.reasons}
    of_kind = [card for card in cards if card.document_id in typed]
    place_vocabulary = {w for card in of_kind for w in card.vocabulary} if of_kind else vocabulary
    place_texts = [t for t in texts if t.document in typed] if of_kind else texts
    for name in places if vocabulary else []:
        if not normal_forms(name) & place_vocabulary and not any(
            _mentions(t, name) for t in place_texts
        ):
            if of_kind and (
                normal_forms(name) & vocabulary or any(_mentions(t, name) for t in texts)
            ):
                kinds = "; ".join(undated(card.title) for card in of_kind[:_MAX_TITLES])
                return Abstention(
                    "name",
                    messages.ABSTAIN_PLACE_OF_KIND.format(name=name, titles=kinds),
                    messages.ABSTAIN_PLACE_OF_KIND_MISSING.format(name=name, titles=kinds),
                )
            return Abstention(
                "name",
                messages.ABSTAIN_NAME.format(name=name),
                messages.ABSTAIN_NAME_MISSING.format(name=name, titles=searched),
            )
    for name in names:
        if not any(_mentions(t, name) for t in [*texts, *held]):
            return Abstention(
                "name",
                messages.ABSTAIN_NAME.format(name=name),
                messages.ABSTAIN_NAME_MISSING.format(name=name, titles=searched),
            )
    for number in numbers:
        if number and not _number_held(number, texts):
            return Abstention(
                "number",
                messages.ABSTAIN_NUMBER.format(number=number),
                messages.ABSTAIN_NUMBER_MISSING.format(number=number, titles=searched),
            )
    if question.answer_type not in ("date", "period"):
        for day in dates:
            if not any(day.value in t.dates for t in texts):
                shown = day.text  # as the question writes it
                return Abstention(
                    "date",
                    messages.ABSTAIN_DATE.format(date=shown),
                    messages.ABSTAIN_DATE_MISSING.format(date=shown, titles=searched),
                )
        # the month is that of what the named company or person did: stated in a passage
        # that names them («Вектор-Логистик» paid in April), not in any passage at all
        stated_months, stated_years = _periods_beside(texts, names)
        for month in months:
            if (month.year, month.month) not in stated_months:
                return _other_period(f"{MONTH_LEMMAS[month.month]} {month.year} г.", searched)
        for year in years:
            if year not in stated_years:
                return _other_period(f"{year} год", searched)
    if priced is not None and not _spoken_of(priced, vocabulary, texts):
        return _uncovered(priced, searched)
    asked = {match.document_id for match in question.documents if _BY_ITSELF & set(match.reasons)}
    asked |= {t.document for t in texts for number in numbers if _number_held(number, [t])}
    lenders = _lenders(texts, names, asked) or texts
    passages = [t.lemmas for t in lenders]
    beside = _requisite_scopes(lenders, names)
    # a person's attribute («оклад Гаврилова») in another person's document is theirs;
    # the asked persons have one reader (no organisation's word, no street with its house)
    from finagent.answering.named_person import asked_persons  # it imports this module

    asked_names = set(asked_persons(question))
    persons = [n for n in names if n in asked_names and n not in places]
    of_person = _person_scopes(lenders, persons) if persons else passages
    earned = _earned(question, persons, specific)
    participles = {verb for t in lenders for verb in t.participles}
    if earned is not None and not _covered(earned, of_person, participles):
        return _uncovered(earned, searched)
    accounts = {id(a): account for a in attributes if (account := _account(a, question))}
    for attribute in attributes:
        # «какой расчётный счёт у X», «номер расчётного счёта X»: beside X's name, in the
        # passages that name X (a statement's title is not X's account)
        named = _row_scopes(texts, names) if id(attribute) in accounts else []
        if id(attribute) in accounts and not any(
            find_cue(scope, phrase) >= 0 for scope in named for phrase in accounts[id(attribute)]
        ):
            return _uncovered(_with_account(attribute, question), searched)
    for attribute in specific:
        if id(attribute) in accounts:
            continue
        scopes = beside if attribute.head in REQUISITES else of_person
        if not _covered(attribute, scopes, participles) and not any(
            find_cue(scope, other) >= 0
            for other in _alternatives(attribute, question.text)
            for scope in scopes
        ):
            return _uncovered(attribute, searched)
    for attribute in qualified:
        if not _qualified_covered(attribute, passages):
            return _uncovered(attribute, searched)
    listings = {card.document_id for card in cards if card.doc_type in _LISTINGS}
    realised = question.realised or (documents and question.event)
    if realised and _only_rules(question, lenders, names, listings):
        if question.realised:
            reason, missing = messages.ABSTAIN_REALISED, messages.ABSTAIN_REALISED_MISSING
        else:  # the date or sum of an event asked without «в итоге», «фактически»
            reason, missing = messages.ABSTAIN_EVENT, messages.ABSTAIN_EVENT_MISSING
        return Abstention("attribute", reason, missing.format(titles=searched))
    if complements and vocabulary:
        stems = _stems([*vocabulary, *(lm for t in texts for lm in t.lemmas)])
        # a specific attribute («номер свидетельства») is of a thing the passages that may
        # lend it speak of: a birth certificate in another document is not the deed asked
        lent = _stems([lm for t in lenders for lm in t.lemmas])
        for attribute in complements:
            what = _complement(attribute, question.text) or ""
            if what[:_STEM] not in (stems if _generic(attribute.head) else lent):
                return _uncovered(attribute, searched)
    return None


@cache
def _requisites() -> dict[str, list[str]]:
    """The word lists of ``question/data/requisites.yaml``."""
    path = resources.files("finagent.question").joinpath("data/requisites.yaml")
    table = load_yaml(path.read_text("utf-8")) or {}
    return {str(key): [str(w) for w in words] for key, words in table.items()}


@cache
def _accounts() -> tuple[tuple[str, ...], ...]:
    """The lemma phrases of the bank accounts asked (``requisites.yaml``)."""
    return tuple(cue_lemmas(phrase) for phrase in _requisites()["accounts"])


def _earned(
    question: Question, persons: Sequence[str], specific: Sequence[AskedAttribute]
) -> AskedAttribute | None:
    """«сколько в месяц получает Аверин»: an amount asked with a verb of earning of a named
    person, and no attribute named, asks that person's pay: the pay is then checked as an
    asked attribute would be (a director who signs an act has no salary stated there)."""
    if not persons or question.attributes or question.answer_type != "amount":
        return None
    table = _requisites()
    if not set(table["earn"]) & set(question.lemmas):
        return None
    pay = table["pay"][0]
    return AskedAttribute(head=pay, lemmas=[pay], text=pay)


def _account(attribute: AskedAttribute, question: Question) -> list[str] | None:
    """The account phrases (lemmas joined) that state an asked bank account: the attribute
    is the account («какой расчётный счёт»: its head with the adjective before it) or its
    number («номер расчётного счёта»); None for another attribute («счёт № 15»)."""
    lemmas = question.lemmas
    for phrase in _accounts():
        at = find_cue(lemmas, " ".join(phrase))
        if at < 0:
            continue
        spans_head = attribute.head == phrase[-1] and lemmas[at + len(phrase) - 1] == phrase[-1]
        if spans_head or find_cue(attribute.lemmas, " ".join(phrase)) >= 0:
            return [" ".join(p) for p in _accounts()]
    return None


def _with_account(attribute: AskedAttribute, question: Question) -> AskedAttribute:
    """The attribute named with its account's adjective («расчётный счёт», not «счёт»)."""
    words = question.text.split()
    at = next((i for i, w in enumerate(words) if w.strip("?.,;:!«»") == attribute.text), -1)
    if at > 0 and attribute.text == words[at] and len(attribute.lemmas) == 1:
        return attribute.model_copy(update={"text": f"{words[at - 1]} {attribute.text}"})
    return attribute


def _only_rules(
    question: Question,
    texts: Sequence[_Text],
    names: Sequence[str] = (),
    listings: set[str] | None = None,
) -> bool:
    """Every sentence of ``texts`` that speaks of what a realised-result question asks (the
    stem of its verbs, an asked attribute's head) is a rule or a warning, and there is at
    least one: «может быть начислен штраф» states no fine charged. None speaking of it
    decides nothing (a record may state the fact in other words). An asked attribute of a
    kind («обеспечительный платёж») is spoken of only with its kind's adjective: a
    statement's rows of other payments do not record it. A listing of many parties
    (``listings``: a statement) speaks of the named ones (``names``) only in the rows
    naming them: a payroll row does not record a payment to the landlord."""
    listings = listings or set()
    infinitives = [lm for lm in question.lemmas if part_of_speech(lm) == "INFN"]
    verbs = [lm[:_ANCHOR] for lm in infinitives]
    # the verb past a prefix of up to four letters: «регистрация» of «зарегистрировать»
    roots = tuple(
        root
        for lm in infinitives
        for k in range(1, _PREFIX + 1)
        if len(root := lm[k : k + _ROOT]) == _ROOT
    )
    # an outcome named anywhere in the question («сколько уже выплачено неустойки»)
    heads = {a.head for a in question.attributes} | (
        realised_words("outcome") & set(question.lemmas)
    )
    kinds = {q for a in question.attributes for q in a.qualifiers}
    # «сколько заплатили»: a sentence of «оплата», «платёж», «перечисление» speaks of it,
    # unless the question names what was paid («выплачено неустойки»)
    paying = {word.replace("ё", "е") for word in realised_words("pay")}  # lemmas fold ё
    named = {h for h in heads if not _generic(h)} | (heads & realised_words("outcome"))
    # only for an event asked without «фактически»: such a cue anchors the verb already
    event = question.event and not question.realised
    paid = event and bool(paying & set(question.lemmas)) and not named

    def speaks(sentence: _Sentence) -> bool:
        lemmas = set(sentence.lemmas)
        if kinds and not kinds & lemmas:
            return False
        return (
            bool(heads & lemmas)
            or (paid and bool(paying & lemmas))
            or any(stem in lm for stem in verbs if len(stem) == _ANCHOR for lm in sentence.lemmas)
            or (event and any(lm.startswith(roots) for lm in sentence.lemmas))
        )

    def of_names(text: _Text, sentence: _Sentence) -> bool:
        if not names or text.document not in listings:
            return True
        # the row is its line: «Контрагент: …; Назначение платежа: …» are two sentences
        row = [s for s in text.sentences if s.line == sentence.line]
        return any(_naming(name, s) for name in names for s in row)

    speaking = [
        s for t in texts for s in t.sentences if of_names(t, s) and speaks(s) and not _heading(s)
    ]
    return bool(speaking) and all(_rule(s) or _standing_term(s) for s in speaking)


_HEADING_WORDS = 3
_SECTION_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s*")


def _heading(sentence: _Sentence) -> bool:
    """A section's heading («3. Регистрация»): a few words after its number, no other
    figure and no verb, which state nothing of what happened («Оплата по счёту № 15» is a
    statement's row)."""
    rest = _SECTION_NUMBER.sub("", sentence.text)
    words = [w for w in _LINE_WORDS.findall(rest) if w.isalpha()]
    return (
        len(words) <= _HEADING_WORDS
        and not any(ch.isdigit() for ch in rest)
        and not any(part_of_speech(lm) in ("INFN", "VERB") for lm in sentence.lemmas)
    )


def _standing_term(sentence: _Sentence) -> bool:
    """A contract's term, not a record: the sentence speaks in the present or future
    («финансирование перечисляется в течение 2 рабочих дней», «Фактор перечислит», «за
    нарушение срока перечисления Клиент уплачивает пени») or names a term («срок
    действия — до …»), and nowhere in the past («перечислил», «перечислено»)."""
    words = _LINE_WORDS.findall(sentence.text)
    # «Срок действия регистрации — до 14.02.2033», «Итого к оплате …»: a term or a sum
    # due named, no verb at all
    cues = realised_words("term") | realised_words("due")
    term = any(find_cue(sentence.lemmas, cue) >= 0 for cue in cues)
    return (term or any(standing_verb(w) for w in words)) and not any(
        past_verb(w) or done_participle(w) for w in words
    )


# a sanction for a breach («за непредставление пояснений — штраф», «за неуплату») or a
# reference to the law it follows from («п. 1 ст. 129.1 НК РФ»)
_LAW_REFERENCE = re.compile(r"(?<!\w)(?:ст\.|стать[яиюей])\s*\d", re.IGNORECASE)


def _rule(sentence: _Sentence) -> bool:
    """A rule or a warning, not a record of what happened: a modal or conditional word
    («может», «вправе», «в случае», «если»), a sanction «за» a breach (a negated
    deverbal noun: «непредставление», «неуплата») or a reference to an article."""
    lemmas = sentence.lemmas
    breach = any(lm == "за" and breach_act(nxt) for lm, nxt in pairwise(lemmas))
    rules = realised_words("rule")
    return bool(rules & set(lemmas)) or breach or bool(_LAW_REFERENCE.search(sentence.text))


_STEM = 5  # letters compared: «представление» of «представить», «овердрафт» of «овердрафтный»


def _stems(lemmas: Sequence[str]) -> set[str]:
    return {lm[:_STEM] for lm in lemmas if len(lm) >= _STEM}


def _complement(attribute: AskedAttribute, text: str) -> str | None:
    """The noun an asked value is of («лимит овердрафта», «сумма предоплаты», «номер
    страхового полиса»): what the value is of must be spoken of by the user's documents,
    or the value is not theirs (a contract that only obliges to insure states no policy's
    number); None for a name, an abbreviation, a tax or another value word («ставка
    НДС»)."""
    # a qualified value («выкупная стоимость станка») is checked by its qualifier; what it
    # is of is then often the user's own word for the document's subject («станок»)
    if len(attribute.lemmas) < 2 or attribute.qualifiers:
        return None
    # the first noun after the head, past its adjectives: «номер страхового полиса» is
    # a number of a «полис»
    words = attribute.text.split()[1:]
    at = next(
        (i for i, lm in enumerate(attribute.lemmas[1:]) if part_of_speech(lm) != "ADJF"), None
    )
    if at is None or at >= len(words):
        return None
    after, written = attribute.lemmas[1 + at], words[at]
    if (
        len(after) < _STEM
        or _generic(after)
        or part_of_speech(after) != "NOUN"
        or written[:1].isupper()
        or written.lower() not in text.lower()
    ):
        return None
    return after


def _other_period(period: str, searched: str) -> Abstention:
    """The abstention for a month or year of which the evidence says nothing."""
    return Abstention(
        "date",
        messages.ABSTAIN_MONTH.format(month=period),
        messages.ABSTAIN_MONTH_MISSING.format(month=period, titles=searched),
    )


def _words_and_lemmas(question: Question) -> tuple[list[str], list[str]]:
    """The question's tokens as written and their lemmas, aligned."""
    tokens = [t for sentence in analyse(question.text).sentences for t in sentence.tokens]
    return [t.text for t in tokens], [t.lemma for t in tokens]


def _leading(question: Question) -> AskedAttribute | None:
    """The value a question made of a noun phrase alone asks (``leading_attribute``)."""
    return leading_attribute(*_words_and_lemmas(question))


def _priced(question: Question) -> AskedAttribute | None:
    """What the question asks the price of with «сколько стоит» (``priced_thing``), unless
    it asks that attribute otherwise too, or it is a word for a kind of value or a list's
    item."""
    priced = priced_thing(*_words_and_lemmas(question))
    if (
        priced is None
        or _generic(priced.head)
        or priced.head in _LIST_ITEMS
        or any(a.head == priced.head for a in question.attributes)
    ):
        return None
    return priced


def _spoken_of(
    attribute: AskedAttribute, vocabulary: Collection[str], texts: Sequence[_Text]
) -> bool:
    """Whether the user's documents speak of a priced thing anywhere (``vocabulary``: their
    cards' lemmas) or the evidence names it: its head, a synonym (each lemma of it) or an
    adjective made of it. A contract that names «рейс» once, far from the price of its
    route, still speaks of it; a hotel contract listing other room categories does not
    speak of a «люкс»."""
    words = set(vocabulary)
    if any(phrase and all(lm in words for lm in phrase) for phrase in _synonyms(attribute)):
        return True
    if any(_derived_adjective(attribute.head, lemma) for lemma in words):
        return True
    return _covered(attribute, [t.lemmas for t in texts])


def _uncovered(attribute: AskedAttribute, searched: str) -> Abstention:
    """The abstention for an asked attribute the evidence does not state."""
    return Abstention(
        "attribute",
        messages.ABSTAIN_ATTRIBUTE.format(attribute=attribute.text),
        messages.ABSTAIN_ATTRIBUTE_MISSING.format(attribute=attribute.text, titles=searched),
    )
