"""Words of a question that only the user's documents use: evidence that the question is
about them even when it names no kind of document («Почём место в Тайга.Смете?», «с
какого объёма агенту положен бонус?»).

A word counts when one of the user's documents uses it (its card's vocabulary, by lemma)
and it is specific to that document:

- a *name*: written as a name (capitalised inside the question, capitals inside the word,
  or unknown to the dictionary) and never used as a name by the Tax Code and the
  knowledge base («на Промышленной», «Ладоги», «Мигалово»; not «в Москве», «России»);
- a *rare word*: a noun or adjective the Tax Code and the knowledge base use in at most
  ``RARE_UNITS`` articles («бонус», «паллета») and only one of the user's documents uses
  («неустойка» of every contract names none of them).

Either way the word must not be in most of the user's documents (the user's own city or
company is everywhere and names none of them). Such a name is kept apart
(``Distinctive.everywhere``): it names no one document, but the user's own affairs («какая
кадастровая стоимость здания на Промышленной, 12?» of a user whose every document has
that address).

Beside them, the question's *vocabulary hits* (``vocabulary_hits``): the words a user's
document holds that the Tax Code and the knowledge base seldom use (in at most
``VOCABULARY_UNITS`` units, a lemma's IDF against those corpora), counted per document.
A question that names a document only by what the document speaks of («задаток по
станку на торгах», «по гранту»), not by its kind, title or party, hits one document with
several of them, or with one the law all but never uses (``RARE_UNITS``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from finagent.cards.model import DocumentCard
from finagent.language.glossary import kind_abbreviations
from finagent.language.lemmas import content_word, lemma, name_like, noun, verb_like, word_parts
from finagent.language.short_forms import short_forms
from finagent.language.text import analyse
from finagent.routing.corpus_lemmas import corpus_lemmas

RARE_UNITS = 2  # of about 400 articles
VOCABULARY_UNITS = 15  # a word of at most this many units of about 400 (IDF >= 3.2)
_STATED_BY = 2  # a word the value sentences of more of the user's documents use names none
_MIN_LETTERS = 4


@dataclass(frozen=True)
class Distinctive:
    names: list[str] = field(default_factory=list)
    rare: list[str] = field(default_factory=list)
    document_ids: list[str] = field(default_factory=list)
    # names the law never uses as names and most of the user's documents use
    everywhere: list[str] = field(default_factory=list)
    # names one user document holds that the law does not use at all, as a name or a word
    # («штабелёр» of an asset card): that document, however sure the classifier is
    unheard: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class VocabularyHits:
    """Per user document, the question's words it holds that the law seldom uses."""

    by_document: dict[str, list[str]] = field(default_factory=dict)
    # the hits that are nouns or words of a document's title: what a document is about
    nouns: frozenset[str] = frozenset()
    # the hits the law uses in at most ``RARE_UNITS`` units, held by one document
    rarest: list[str] = field(default_factory=list)

    def ranking(self) -> list[tuple[str, list[str]]]:
        """The documents by hits, most first, a hit the law all but never uses (``rarest``)
        breaking a tie: the one ranking :meth:`best` and :meth:`strong` both read."""
        rarest = set(self.rarest)
        return sorted(self.by_document.items(), key=lambda kv: _rank_key(kv[1], rarest))

    def best(self) -> list[str]:
        """The one document first in :meth:`ranking` (none on a tie or without a hit)."""
        ranked = self.ranking()
        if not ranked:
            return []
        rarest = set(self.rarest)
        if len(ranked) > 1 and _rank_key(ranked[1][1], rarest) == _rank_key(ranked[0][1], rarest):
            return []
        return [ranked[0][0]]

    def strong(self, asks_value: bool, of_law: bool) -> bool:
        """Whether :meth:`best` is strongly named: two hits in it, one of them a noun or a
        title word; or, in a question that asks a value («сколько», «до какого числа»,
        «кто») and is not the law's (``of_law``: it names a tax, or gives a sum or period of
        its own to reckon from: «долг просрочен на 60 дней — …»), one of its hits the law
        all but never uses. Never strong without a best document."""
        best = self.best()
        if not best:
            return False
        terms = self.by_document[best[0]]
        if len(terms) >= 2 and self.nouns & set(terms):
            return True
        return asks_value and not of_law and bool(set(self.rarest) & set(terms))


def _rank_key(terms: list[str], rarest: set[str]) -> tuple[int, int]:
    """Sort key of a document's hits: more hits first, then more of the rarest."""
    return (-len(terms), -len(rarest & set(terms)))


def vocabulary_hits(text: str, cards: Sequence[DocumentCard]) -> VocabularyHits:
    """The question's content lemmas that some (not most) of the user's documents hold and
    the Tax Code and the knowledge base use in at most ``VOCABULARY_UNITS`` units."""
    corpus = corpus_lemmas()
    most = max(1, len(cards) // 2)
    by_document: dict[str, list[str]] = {}
    rarest: list[str] = []
    nouns: set[str] = set()
    seen: set[str] = set()
    for sentence in analyse(text).sentences:
        for index, token in enumerate(sentence.tokens):
            for doc_id, words in _abbreviated_kind(token.text, cards).items():
                by_document.setdefault(doc_id, []).extend(w for w in words if w not in seen)
                nouns.update(words)
                seen.update(words)
            if sum(ch.isalpha() for ch in token.text) < _MIN_LETTERS:
                continue
            for part in word_parts(token.text):
                term = token.lemma if part == token.text else lemma(part)
                if len(term) < _MIN_LETTERS or term in seen:
                    continue
                seen.add(term)
                if corpus.df(term) > VOCABULARY_UNITS or not _meaningful(part):
                    continue
                held = _held_by(term, cards, _common(token.text, part, index))
                # «электроэнергия» of a contract that writes «электрической энергии»: as
                # rare in the law as the phrase's rarest word («камералка» is not:
                # «камеральная проверка» is everywhere in the Code)
                shortened = {} if held else _shortened_in(part, cards)
                held = held or list(shortened)
                df = min(map(corpus.df, shortened.values())) if shortened else corpus.df(term)
                if shortened and df > VOCABULARY_UNITS:
                    continue
                if not held or (len(cards) > 2 and len(held) > most):
                    continue
                stated = [
                    card.document_id
                    for card in cards
                    if card.document_id in held
                    and (term in _value_words(card) or card.document_id in shortened)
                ]
                if not stated or len(stated) > _STATED_BY:
                    continue  # said of by several documents: names none of them
                for doc_id in stated:
                    by_document.setdefault(doc_id, []).append(term)
                if noun(part) or any(term in _sentence_lemmas(card.title) for card in cards):
                    nouns.add(term)
                if df <= RARE_UNITS and len(held) == 1:
                    rarest.append(term)
    return VocabularyHits(by_document, frozenset(nouns), rarest)


def _shortened_in(word: str, cards: Sequence[DocumentCard]) -> dict[str, str]:
    """The documents whose title or value sentences write out in full the phrase ``word``
    shortens (``finagent.language.short_forms``: «электроэнергия» — «электрической
    энергии», «техподдержка» — «технической поддержки»), each with the phrase's rarest
    word in the law (its lemma)."""
    corpus = corpus_lemmas()
    out: dict[str, str] = {}
    for card in cards:
        for text in _value_texts(card):
            found = short_forms([word], text)
            if found:
                words = _sentence_lemmas(next(iter(found.values())))
                out[card.document_id] = min(sorted(words), key=corpus.df)
                break
    return out


def _abbreviated_kind(word: str, cards: Sequence[DocumentCard]) -> dict[str, list[str]]:
    """«КД» of a user holding a collective agreement: the held documents whose title has
    the first kind the abbreviation may stand for (the glossary's ``kinds``) that some
    title has, and that kind's words."""
    kinds = kind_abbreviations().get(word.lower(), ()) if word.isupper() else ()
    for kind in kinds:
        words = [lemma(w) for w in kind.split() if len(w) >= _MIN_LETTERS]
        held = {
            card.document_id: words
            for card in cards
            if set(words) <= {lemma(w) for w in _WORD.findall(card.title)}
        }
        if held:
            return held
    return {}


_WORD = re.compile(r"[\w-]+")


# the kinds of facts a question asks of a document (not its parties' identifiers)
_VALUE_FACTS = frozenset({"amount", "rate", "date", "term"})


def _value_texts(card: DocumentCard) -> tuple[str, ...]:
    """A document's title and the sentences that state its values, each once."""
    texts = [card.title, *(f.sentence.text for f in card.facts if f.kind in _VALUE_FACTS)]
    return tuple(dict.fromkeys(texts))


def _value_words(card: DocumentCard) -> frozenset[str]:
    """The lemmas of a document's title and of the sentences that state its values: what
    it says something about, not every word it uses (a signatory's «директор»)."""
    return _lemmas_of_texts(_value_texts(card))


@lru_cache(maxsize=2_048)
def _lemmas_of_texts(texts: tuple[str, ...]) -> frozenset[str]:
    """The lemmas of the texts together (cached: a user's cards are asked again for every
    word of every question)."""
    return frozenset(term for text in texts for term in _sentence_lemmas(text))


@lru_cache(maxsize=20_000)
def _sentence_lemmas(text: str) -> frozenset[str]:
    return frozenset(
        lemma(part) if part != token.text else token.lemma
        for sentence in analyse(text).sentences
        for token in sentence.tokens
        for part in word_parts(token.text)
    )


def _meaningful(word: str) -> bool:
    """A noun, an adjective or a verb: what a question is about (no pronoun or particle)."""
    return content_word(word) or verb_like(word)


def _held_by(term: str, cards: Sequence[DocumentCard], common: bool = False) -> list[str]:
    """The documents that use ``term``; ``common``: the question writes it as a common
    word, which a document using it only in a name does not hold (``_name_only``)."""
    return [
        card.document_id
        for card in cards
        if term in card.vocabulary and not (common and _name_only(term, card))
    ]


def _common(word: str, part: str, index: int) -> bool:
    """The question writes the word as a common word: in lower case (or opening the
    sentence), not a name the dictionary does not know or written in CamelCase."""
    capitalised = index > 0 and word[:1].isupper()
    return not capitalised and not name_like(part)


def _name_only(term: str, card: DocumentCard) -> bool:
    """The document uses ``term`` in the name of an organisation and nowhere else in its
    title or the sentences stating its values: «телек» of «ООО «Телеком-Сеть»» (pymorphy3
    reads «Телеком» so) is no television set; a payee's name in a statement's row is not
    what the statement speaks of."""
    return term in _name_lemmas(card) and term not in _unnamed_value_words(card)


def _names_of(card: DocumentCard) -> tuple[str, ...]:
    """The organisations' names as the text writes them: the innermost quoted part
    («Телеком-Сеть» of «ООО «Телеком-Сеть»»)."""
    names = [*card.organisations, *(party.name for party in card.parties)]
    cores = (name.rsplit("«", 1)[-1].strip('»" ') for name in names if "«" in name)
    return tuple(dict.fromkeys(core for core in cores if core))


def _name_lemmas(card: DocumentCard) -> frozenset[str]:
    return _lemmas_of_texts(_names_of(card))


def _unnamed_value_words(card: DocumentCard) -> frozenset[str]:
    """The lemmas of the title and the value sentences with the organisations' names cut
    out."""
    return _lemmas_without(_value_texts(card), _names_of(card))


@lru_cache(maxsize=2_048)
def _lemmas_without(texts: tuple[str, ...], names: tuple[str, ...]) -> frozenset[str]:
    kept = []
    for text in texts:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        kept.append(text)
    return _lemmas_of_texts(tuple(kept))


def distinctive_terms(text: str, cards: Sequence[DocumentCard]) -> Distinctive:
    """The question's names and rare words that the user's documents use."""
    corpus = corpus_lemmas()
    most = max(1, len(cards) // 2)
    names: list[str] = []
    rare: list[str] = []
    ids: list[str] = []
    everywhere: list[str] = []
    unheard: list[str] = []
    for sentence in analyse(text).sentences:
        for index, token in enumerate(sentence.tokens):
            word = token.text
            if sum(ch.isalpha() for ch in word) < _MIN_LETTERS:
                continue
            capitalised = index > 0 and word[:1].isupper() and not word.isupper()
            for part in word_parts(word):
                term = token.lemma if part == word else lemma(part)
                if len(term) < _MIN_LETTERS or term in [*names, *rare, *everywhere]:
                    continue
                as_written = capitalised or name_like(part)
                held = _held_by(term, cards, common=not as_written)
                if not held:
                    continue
                as_name = (capitalised or name_like(part)) and corpus.name_df(term) == 0
                if len(cards) > 2 and len(held) > most:
                    if as_name:
                        everywhere.append(term)
                    continue
                if as_name:
                    names.append(term)
                elif len(held) == 1 and corpus.df(term) <= RARE_UNITS and content_word(part):
                    rare.append(term)
                else:
                    continue
                # a word the dictionary does not know either («штабелёр»): an ordinary
                # object the law happens not to name («ноутбук») is no evidence
                if as_name and len(held) == 1 and corpus.df(term) == 0:
                    unheard.append(term)
                ids += [doc_id for doc_id in held if doc_id not in ids]
    return Distinctive(names, rare, ids, everywhere, unheard)
