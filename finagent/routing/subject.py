"""Does a question ask about the subject of one of the user's documents?

A document's title names its subject beyond its kind: «Договор финансовой аренды
(лизинга)», «Кредитный договор об открытии кредитной линии», «Договор перевозки грузов».
Those words are common in the law too, so the rare-word rule of
``finagent.routing.distinctive`` does not see them; but a question that asks a concrete
value («какой аванс по лизингу?», «сколько банк берёт за открытие кредитной линии?») with
the words of a held document's title is about that document.

Only the title's subject words count: a document word («договор», «акт», «счёт») is shared
by the law's documents («акт налоговой проверки» is not the user's «акт сдачи-приёмки»),
and so are the words that most of the law's articles use («налоговый», «сумма»). A
party («покупатель», «работник») is no subject: the cards match it by its role.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from finagent.cards.doc_types import DOC_TYPES
from finagent.cards.model import DocumentCard
from finagent.language.cues import cue_lemmas
from finagent.language.dates import MONTHS
from finagent.language.lemmas import animate, content_word, nouns_by_adjective
from finagent.language.short_forms import short_forms
from finagent.language.text import analyse
from finagent.routing.corpus_lemmas import corpus_lemmas

# a word used by this share of the law's articles names nothing of the user's own
COMMON_IN_LAW = 0.15
_MIN_LETTERS = 4
# the words of the generic kinds: every contract, act or invoice is one
_GENERIC_KINDS = frozenset({"contract", "act", "invoice", "upd", "letter", "statement"})
_DOCUMENT_WORDS = frozenset(
    {"документ", "номер"}
    | {
        word
        for kind in DOC_TYPES
        if kind.key in _GENERIC_KINDS
        for cue in kind.cues
        for word in cue_lemmas(cue)
    }
)


def _subject_lemmas(text: str) -> set[str]:
    """The content lemmas of ``text`` that may name a subject: not document words, not
    words most of the law uses."""
    return set(_subject_words(text).values())


def _subject_words(text: str) -> dict[str, str]:
    """:func:`_subject_lemmas` with each word as written."""
    corpus = corpus_lemmas()
    found: dict[str, str] = {}
    for sentence in analyse(text).sentences:
        for token in sentence.tokens:
            word, term = token.text, token.lemma
            if len(term) < _MIN_LETTERS or not word.isalpha() or not content_word(word):
                continue
            # a party («покупатель») is matched by its role; a month names no subject
            if animate(word) or term in MONTHS or term in _DOCUMENT_WORDS:
                continue
            if corpus.df(term) >= COMMON_IN_LAW * corpus.units:
                continue
            found[word] = term
    return found


@lru_cache(maxsize=4096)
def _title_subject(title: str) -> frozenset[str]:
    """A heading's subject lemmas, once per heading (the user's cards are read every turn)."""
    return frozenset(_subject_lemmas(title))


def subject_words(question: str, cards: Sequence[DocumentCard]) -> list[str]:
    """The question's subject words that a held document's title or kind names, itself or
    by its adjective («недостача по инвентаризации» of «Инвентаризационная опись …») or
    as the short form of its phrase (:mod:`finagent.language.short_forms`: «по
    техприсоединению» of «Договор … технологического присоединения»)."""
    words = _subject_words(question)
    asked = set(words.values())
    if not asked:
        return []
    named: set[str] = set()
    for card in cards:
        heading = " ".join(filter(None, (card.title, card.doc_type_name)))
        title = _title_subject(heading)
        named |= asked & title
        named |= nouns_by_adjective(asked - title, title)
        rest = [word for word, term in words.items() if term not in named]
        named |= {words[word] for word in short_forms(rest, heading, _DOCUMENT_WORDS)}
    return sorted(named)
