"""What a question says of the document it names that none of the user's documents of that
kind is: «по договору лизинга» when the user's contracts never speak of «лизинг», «в
нашем договоре с ЛогистикПро» when no contract of theirs has that party (the name may
still occur in a bank statement's payment line: a payment is no contract)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.cards.doc_types import GENERIC, DocType
from finagent.cards.model import DocumentCard
from finagent.language.lemmas import animate, fold, genitive, normal_forms, part_of_speech
from finagent.language.text import analyse

_WITH = frozenset({"с", "со"})
_NAME_WITHIN = 4  # tokens after «с» where the counterparty's name stands
_MIN_WORD = 4
_STEM = 6  # letters of a subject word compared: «консалтинг» and «Консалт»
_NAME_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _name_parts(word: str) -> list[frozenset[str]]:
    """The normal forms of each part of a (compound) name: «Вектор-Транзитом» ->
    [{вектор, …}, {транзит, …}]."""
    return [frozenset({fold(part), *normal_forms(part)}) for part in word.split("-") if part]


def _same_name(asked: list[frozenset[str]], known: list[frozenset[str]]) -> bool:
    """The asked name is the known one, or its first words («Вектор» of «Вектор-Финанс»);
    every part compared whole, in any normal form: «Вектор-Транзит» is not «Вектор-Финанс»."""
    return len(asked) <= len(known) and all(a & k for a, k in zip(asked, known, strict=False))


def _known_names(cards: Sequence[DocumentCard]) -> list[list[frozenset[str]]]:
    """The parts of every word of the held documents' parties, organisations and titles."""
    return [_name_parts(word) for word in dict.fromkeys(_NAME_WORD.findall(_known_text(cards)))]


def _known_text(cards: Sequence[DocumentCard]) -> str:
    names = [p.name for card in cards for p in card.parties]
    names += [o for card in cards for o in card.organisations]
    names += [card.title for card in cards]
    return fold(" ".join(names))


def _spoken_of(word: str, held: Sequence[DocumentCard]) -> bool:
    """Some held document uses the word, or one of its stem («консалтинг» — «Консалт»),
    in any normal form pymorphy3 offers: «мены» is read «мена» in a question and «мены»
    in a heading («ДОГОВОР МЕНЫ»)."""
    known = _known_text(held)
    for form in normal_forms(word):
        stem = form[:_STEM]
        if stem in known or any(w.startswith(stem) for card in held for w in card.vocabulary):
            return True
    return False


def _holder(word: str) -> bool:
    """A common noun of a person or a party («договор сотрудника», «договор клиента»,
    «договор контрагента»): whose contract it is, in words of the asker's own, not what the
    contract is about, so no held contract need use the word (a labour contract says
    «Работник»). A capitalised name («договор Смирнова») is still checked."""
    return word[:1].islower() and animate(word)


def unheld_detail(text: str, kind: DocType, end: int, held: Sequence[DocumentCard]) -> str | None:
    """«договор лизинга» or «договор с ЛогистикПро» (Russian) when the words right after the
    kind word (token ``end``) name a subject or a counterparty none of the ``held``
    documents of that kind has; None when they do, or say nothing more."""
    tokens = [t for s in analyse(text).sentences for t in s.tokens]
    if not held or end >= len(tokens):
        return None
    after = tokens[end]
    # «договор лизинга»: a generic kind made specific by a genitive noun, spoken of by a
    # held document in its normal form or as written («мены» of «Договор мены»); not a
    # person's or party's noun, which says whose contract it is
    # («договор сотрудника»)
    if (
        kind.key == GENERIC
        and len(after.text) >= _MIN_WORD
        and after.text.isalpha()
        and part_of_speech(after.text) == "NOUN"
        and genitive(after.text)
        and not _holder(after.text)
    ):
        speaking = [card for card in held if _spoken_of(after.text, [card])]
        if not speaking:
            return f"{kind.name} {after.text.lower()}"
        # «договор перевозки с ЛогистикПро»: its party follows the subject, and must be one
        # of the documents that speak of it
        held, end = speaking, end + 1
        if end >= len(tokens):
            return None
        after = tokens[end]
    if after.lemma not in _WITH:
        return None
    for token in tokens[end + 1 : end + 1 + _NAME_WITHIN]:
        word = token.text
        if _name_like(word):
            return unheld_party(word, kind, held)
    return None


def _name_like(word: str) -> bool:
    return len(word) >= _MIN_WORD and word[:1].isupper() and word.replace("-", "").isalpha()


def unheld_party(word: str, kind: DocType, held: Sequence[DocumentCard]) -> str | None:
    """«договор с ЛогистикПро» (Russian) when the name ``word`` is a party of none of the
    ``held`` documents of the kind; None when it is, or the word is no name."""
    if not held or not _name_like(word):
        return None
    # «с Чистым Домом», «с Глянцем»: each part of the name in any normal form pymorphy3
    # offers («глянец»), compared whole with a held name's part
    asked = _name_parts(word)
    forms = {fold(word), *normal_forms(word)}
    # or a word of a held document's text, whole: a name the card did not type (spaced out
    # in a PDF), never a common word sharing its stem («логистика»)
    held_name = any(_same_name(asked, name) for name in _known_names(held)) or any(
        form in card.vocabulary for form in forms for card in held
    )
    return None if held_name else f"{kind.name} с {word}"
