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
    corpus = corpus_lemmas()
    found = set()
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
            found.add(term)
    return found


@lru_cache(maxsize=4096)
def _title_subject(title: str) -> frozenset[str]:
    """A heading's subject lemmas, once per heading (the user's cards are read every turn)."""
    return frozenset(_subject_lemmas(title))


def subject_words(question: str, cards: Sequence[DocumentCard]) -> list[str]:
    """The question's subject words that a held document's title or kind names, itself or
    by its adjective («недостача по инвентаризации» of «Инвентаризационная опись …»)."""
    asked = _subject_lemmas(question)
    if not asked:
        return []
    named: set[str] = set()
    for card in cards:
        title = _title_subject(" ".join(filter(None, (card.title, card.doc_type_name))))
        named |= asked & title
        named |= nouns_by_adjective(asked - title, title)
    return sorted(named)
