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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from finagent.cards.model import DocumentCard
from finagent.language.lemmas import content_word, lemma, name_like, word_parts
from finagent.language.text import analyse
from finagent.routing.corpus_lemmas import corpus_lemmas

RARE_UNITS = 2  # of about 400 articles
_MIN_LETTERS = 4


@dataclass(frozen=True)
class Distinctive:
    names: list[str] = field(default_factory=list)
    rare: list[str] = field(default_factory=list)
    document_ids: list[str] = field(default_factory=list)
    # names the law never uses as names and most of the user's documents use
    everywhere: list[str] = field(default_factory=list)


def _held_by(term: str, cards: Sequence[DocumentCard]) -> list[str]:
    return [card.document_id for card in cards if term in card.vocabulary]


def distinctive_terms(text: str, cards: Sequence[DocumentCard]) -> Distinctive:
    """The question's names and rare words that the user's documents use."""
    corpus = corpus_lemmas()
    most = max(1, len(cards) // 2)
    names: list[str] = []
    rare: list[str] = []
    ids: list[str] = []
    everywhere: list[str] = []
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
                held = _held_by(term, cards)
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
                ids += [doc_id for doc_id in held if doc_id not in ids]
    return Distinctive(names, rare, ids, everywhere)
