"""Which of the user's documents a question names: by type, number, counterparty, person,
a subject word of its heading, or a party role the card holds."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from finagent.cards.doc_types import BY_KEY as DOC_TYPES
from finagent.cards.doc_types import DOC_TYPES as ALL_KINDS
from finagent.cards.fields import ROLES
from finagent.cards.model import DocumentCard
from finagent.cards.records import record_kind_named
from finagent.cards.vocabulary import written_codes
from finagent.language.corpus_lemmas import corpus_lemmas
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.dates import MONTHS, period_years
from finagent.language.lemmas import (
    animate,
    content_word,
    fold,
    lemma,
    name_like,
    normal_forms,
    surname,
)
from finagent.language.short_forms import initials_of, short_forms
from finagent.language.text import analyse
from finagent.question.model import DocumentMatch, Question

# reasons that name one document, not a kind or a role many documents share
PRECISE = frozenset({"номер", "контрагент", "лицо"})
# the words of every kind of document: a kind names its documents by the «тип» reason
_KIND_WORDS = frozenset(word for kind in ALL_KINDS for cue in kind.cues for word in cue_lemmas(cue))
_ROLE_KEYS = frozenset(role.key for role in ROLES) | {"party"}
_MIN_SUBJECT = 4  # letters of a heading's subject word
_MIN_QUOTED = 5  # letters of a quoted shortened name («Альфа» of «Альфа Трейд»)
_MIN_NUMBER = 2  # «№ 5» alone is too common to name a document by
_MIN_SURNAME = 3  # letters of a surname found in a document's words only
# a street or a place named after a person («на Ленина», «ул. Гагарина», «имени Попова»)
_PLACE_BEFORE = re.compile(
    r"(?:\bна|\bул\.?|\bулиц[аеуы]|\bпр-т|\bпроспект[аеу]?|\bпл\.|\bплощад[иь]|"
    r"\bпер\.|\bпереул[оа]к[аеу]?|\bбульвар[аеу]?|\bшоссе|\bим\.|\bимени)\s+$",
    re.IGNORECASE,
)
_NAME_WORD = re.compile(r"(?<!^)(?<![.!?]\s)\b[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?")
# Latin letters that look like Cyrillic ones: «A-17/2025» typed for «А-17/2025»
_LOOK_ALIKES = str.maketrans("abcehkmoptxy", "авсенкмортху")
_DASHES = str.maketrans({ch: "-" for ch in "‐‑‒–—―−"})


def _unified(text: str) -> str:
    return fold(text).translate(_DASHES).translate(_LOOK_ALIKES)


def number_key(number: str) -> str:
    """A document number as compared: folded, Latin look-alikes as Cyrillic, one kind of
    dash, no spaces or number sign («№ A–17 / 2025» = «а-17/2025»)."""
    kept = "".join(ch for ch in _unified(number) if not ch.isspace() and ch != "№")
    return kept.strip(".,;:»«()")


def _name_core(name: str) -> str:
    """«АО «КБ «Вектор-Финанс»» -> «вектор-финанс»: the innermost quoted name, folded;
    «ИП Соколова Анна Петровна» -> «соколова»: the surname."""
    if "«" not in name:
        words = [word for word in name.split() if not word.isupper()]
        return fold(words[0]) if words else ""
    return fold(name.rsplit("«", 1)[-1].strip('»" '))


@lru_cache(maxsize=4096)
def _title_words(title: str) -> frozenset[str]:
    """The words of a heading that name its subject beyond its kind: «кредитный» of
    «Кредитный договор», «лизинг» of «Договор финансовой аренды (лизинга)»; not a kind of
    document, a party («покупатель») or a function word."""
    return frozenset(
        token.lemma
        for sentence in analyse(title).sentences
        for token in sentence.tokens
        if token.text.isalpha()
        and len(token.lemma) >= _MIN_SUBJECT
        and content_word(token.text)
        and not animate(token.text)
        and token.lemma not in _KIND_WORDS
        and token.lemma not in MONTHS
    )


def _named_by_phrase(lemmas: Sequence[str], folded: str, phrase: str) -> bool:
    core = fold(phrase)
    return bool(core) and (
        core in folded or find_cue(lemmas, phrase) >= 0 or _named_by_quote(folded, core)
    )


_QUOTED = re.compile(r"«([^«»]+)»")


def _named_by_first_word(core: str, written_names: frozenset[str]) -> bool:
    """A name the question writes as a name (``_written_names``) that is the first word of
    a party's name of several words, by lemma: «сколько платим Альфе» of «Альфа Трейд»,
    «БухЭксперт компенсирует» of «БухЭксперт Консалтинг». Users shorten names to their
    first word without quotes as often as with them."""
    words = core.split()
    return (
        len(words) > 1
        and len(words[0]) >= _MIN_QUOTED
        and bool(normal_forms(words[0]) & written_names)
    )


def _written_names(text: str) -> frozenset[str]:
    """The question's words written as names: capitalised inside a sentence or with
    capitals inside the word («БухЭксперт»), as their normal forms (a word the dictionary
    does not know but writes in lower case, «бариста», is no name)."""
    found = set()
    # a quoted name is matched whole or by its leading words (``_named_by_quote``)
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    for sentence in analyse(text).sentences:
        for index, token in enumerate(sentence.tokens):
            word = token.text
            if any(a <= token.start < b for a, b in quoted):
                continue
            capitalised = index > 0 and word[:1].isupper() and not word.isupper()
            inner = word[:1].isupper() and any(ch.isupper() for ch in word[1:])
            if len(word) >= _MIN_QUOTED and (capitalised or (inner and name_like(word))):
                found |= {token.lemma, *normal_forms(word)}
    return frozenset(found)


def _named_by_quote(folded: str, core: str) -> bool:
    """A name the question quotes («у «Стратегии Роста»») that is the leading words of a
    party's name («Стратегия Роста Консалт»), in any case: users shorten names."""
    name = cue_lemmas(core)
    for quoted in _QUOTED.findall(folded):
        words = cue_lemmas(quoted)
        if words and sum(len(w) for w in words) >= _MIN_QUOTED and name[: len(words)] == words:
            return True
    return False


_LETTERS = re.compile(r"[а-я]+")


def _reasons(
    card: DocumentCard,
    lemmas: Sequence[str],
    folded: str,
    numbers: set[str],
    keyed: str,
    asked: frozenset[str] = frozenset(),
    years: frozenset[int] = frozenset(),
    surnames: frozenset[str] = frozenset(),
    written_names: frozenset[str] = frozenset(),
    initials: frozenset[str] = frozenset(),
) -> list[str]:
    reasons: list[str] = []
    doc_type = DOC_TYPES.get(card.doc_type or "")
    # a kind no list names is named by its heading's own words («по платёжному поручению»)
    kind_cues = doc_type.cues if doc_type is not None else tuple(card.kind_cues)
    if any(find_cue(lemmas, cue) >= 0 for cue in kind_cues):
        reasons.append("тип")
    elif doc_type is None and record_kind_named(lemmas, card) is not None:
        # a record the cards do not type, named by its heading's kind («по уставу» of
        # «Устав», «в декларации» of «Налоговая декларация по УСН»)
        reasons.append("тип")
    if any(
        number_key(held) in numbers or (len(held) > _MIN_NUMBER and number_key(held) in keyed)
        for held in filter(None, [card.number, *card.references])
    ):
        reasons.append("номер")
    # parties with roles, else every organisation the card found (a heading without roles)
    for name in [*(party.name for party in card.parties), *card.organisations]:
        core = _name_core(name)
        if len(core) > 2 and (
            _named_by_phrase(lemmas, folded, core) or _named_by_first_word(core, written_names)
        ):
            reasons.append("контрагент")
            break
    for person in card.persons:
        # «Белова Екатерина Андреевна», «И. С. Лаврентьев»: the first word that is no initial
        words = [word for word in person.replace(".", " ").split() if len(word) > 2]
        if words and len(words[0]) > 3 and find_cue(lemmas, words[0]) >= 0:
            reasons.append("лицо")
            break
    else:
        # a person the card's reading missed (a name in a form's grid, «Лаптева И. С.» of an
        # income certificate) is still in the document's words
        if surnames & set(card.vocabulary):
            reasons.append("лицо")
    # «по кредитному договору», «по договору лизинга»: a subject word of its own heading
    # or by the short form of a phrase of it («по техприсоединению» of «… технологического
    # присоединения»)
    # or by its initials («по БДДС» of «Бюджет движения денежных средств»)
    if (
        (_title_words(card.title) - asked) & set(lemmas)
        or short_forms(_LETTERS.findall(folded), card.title, _KIND_WORDS)
        or any(initials_of(word, card.title) for word in initials)
    ):
        reasons.append("заголовок")
    held = {party.role for party in card.parties}
    listed = any(
        role.key in held and any(find_cue(lemmas, cue) >= 0 for cue in role.cues) for role in ROLES
    )
    # a role the document names in its own words («именуемое в дальнейшем «Страховщик»»)
    if listed or (held - _ROLE_KEYS) & set(lemmas):
        reasons.append("роль")
    # the period its heading names tells apart documents named alike («справка … за 2025
    # год» and «расчётный листок за октябрь 2026 г.» of one person); it names none alone
    if reasons and years & title_years(card.title):
        reasons.append("период")
    return reasons


@lru_cache(maxsize=256)
def title_years(title: str) -> frozenset[int]:
    """The years a heading's period names: «за 2025 год», «за октябрь 2026 г.» (not a
    number's «/2025»)."""
    return period_years(analyse(title))


def strength(reasons: Sequence[str]) -> tuple[int, int, int, int]:
    """How precisely reasons name a document: a number, counterparty or person names one
    document, a subject word of its heading («кредитный», «лизинг») one kind of deal, and a
    kind word («договор») or a role every document of that kind. A kind word says which
    document it is, a role only which party it has: «доли участников … по уставу» names
    the charter, not a contract whose party is called «Участник»."""
    kinds = int("тип" in reasons)
    return len(PRECISE & set(reasons)), int("заголовок" in reasons), kinds, len(reasons)


def named_documents(
    lemmas: Sequence[str],
    text: str,
    numbers: Sequence[str],
    cards: Sequence[DocumentCard],
    asked: frozenset[str] = frozenset(),
    years: frozenset[int] = frozenset(),
) -> list[DocumentMatch]:
    """Cards the question names, those named more precisely (``strength``) first;
    ``asked``: the lemmas of what the question asks («неустойка», «срок»), which name no
    document even in its heading («Претензия об уплате неустойки»); ``years``: the years of
    the periods it names («за 2025 год»)."""
    folded = fold(text)
    wanted = {number_key(number) for number in numbers}
    keyed = _unified(text)
    surnames = frozenset(
        lemma(found.group())
        for found in _NAME_WORD.finditer(text)
        if len(found.group()) > _MIN_SURNAME
        and surname(found.group())
        and not _PLACE_BEFORE.search(text[: found.start()])
    )

    written_names = _written_names(text) if cards else frozenset()
    codes = frozenset(number_key(code) for code in written_codes(text))
    initials = _initialisms(text) if cards else frozenset()
    matches = []
    for card in cards:
        reasons = _reasons(
            card,
            lemmas,
            folded,
            wanted,
            keyed,
            asked,
            years,
            surnames,
            written_names,
            initials,
        )
        if reasons:
            matches.append(
                DocumentMatch(document_id=card.document_id, title=card.title, reasons=reasons)
            )
    if codes and not any(PRECISE & set(m.reasons) for m in matches):
        matches = _by_codes(matches, cards, codes)
    return sorted(matches, key=lambda m: tuple(-n for n in strength(m.reasons)))


def _by_codes(
    matches: list[DocumentMatch], cards: Sequence[DocumentCard], codes: frozenset[str]
) -> list[DocumentMatch]:
    """``matches`` with the cards whose text writes a code of the question («линия
    HT-520», «сервер R750»: a model, an article or a number only that document's dealings
    use) named by it as by a number. Weaker than a number, party or person the question
    names, it is read only when none names a document."""
    out = {m.document_id: m for m in matches}
    for card in cards:
        if not codes & {number_key(code) for code in card.codes}:
            continue
        found = out.get(card.document_id)
        if found is None:
            out[card.document_id] = DocumentMatch(
                document_id=card.document_id, title=card.title, reasons=["номер"]
            )
        else:
            out[card.document_id] = found.model_copy(update={"reasons": [*found.reasons, "номер"]})
    return list(out.values())


_CAPITALS = re.compile(r"\b[А-ЯЁ]{3,8}\b")


def _initialisms(text: str) -> frozenset[str]:
    """The question's words in capitals that the law never writes («БДДС», not «НДС» or
    «УСН»): a user's own abbreviation, which may be a held document's initials."""
    corpus = corpus_lemmas()
    return frozenset(w for w in _CAPITALS.findall(text) if not corpus.df(fold(w)))


# a body's abbreviation before its number sign («ИФНС № 16», «ОСП № 2»): not a kind of
# document when no kind's one-word cue is that word («УПД № 318» stays a document's)
_ABBREVIATION = re.compile(r"^[А-ЯЁ]{2,}$")
_ONE_WORD_KINDS = frozenset(
    words[0] for kind in ALL_KINDS for cue in kind.cues if len(words := cue_lemmas(cue)) == 1
)
_SIGN_BEFORE = re.compile(r"(?:№|\bN)\s*$")
_SIGN_FIRST = re.compile(r"(?:№|N\b)")
_NUMBER_PUNCTUATION = "?!.,;:»)"


def institution_numbers(question: Question) -> set[str]:
    """Numbers that an abbreviation right before their sign owns, not a document: «ИФНС
    № 16», «ОСП № 2» (a body's number; «УПД № 318» names a kind and stays a document's)."""
    out = set()
    for ident in question.identifiers:
        if ident.label != "number":
            continue
        before = question.text[max(0, ident.start - 60) : ident.start]
        sign = _SIGN_BEFORE.search(before)
        if sign is not None:
            before = before[: sign.start()]
        elif not _SIGN_FIRST.match(question.text[ident.start : ident.end]):
            continue
        words = re.findall(r"[А-Яа-яЁё]+", before)
        if words and _ABBREVIATION.match(words[-1]) and lemma(words[-1]) not in _ONE_WORD_KINDS:
            out.add(ident.value.strip(_NUMBER_PUNCTUATION))
    return out
