"""What a question says of the document it names that none of the user's documents of that
kind is: «по договору лизинга» when the user's contracts never speak of «лизинг», «в
нашем договоре с ЛогистикПро» when no contract of theirs has that party (the name may
still occur in a bank statement's payment line: a payment is no contract)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.cards.doc_types import BY_KEY, GENERIC, DocType
from finagent.cards.model import DocumentCard
from finagent.language.lemmas import (
    animate,
    fold,
    genitive,
    normal_forms,
    part_of_speech,
    role_in_nominative,
)
from finagent.language.text import analyse
from finagent.yaml_data import load_yaml

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


# endings of a kind adjective after its stem, longest first: «кредит|ный», «лиценз|ионный»
_ADJECTIVE_ENDINGS = (
    *("ионный", "онный", "овский", "овый", "евый", "овой", "ский", "ской"),
    *("ный", "ной", "ый", "ий", "ой"),
)
_MIN_STEM = 4  # letters of a stem compared with a heading's word


@cache
def kind_adjectives() -> frozenset[str]:
    """The adjectives that name a kind of contract (``data/unheld.yaml``)."""
    text = resources.files("finagent.routing").joinpath("data/unheld.yaml").read_text("utf-8")
    return frozenset(str(w) for w in load_yaml(text)["kind_adjectives"])


def _stem(adjective: str) -> str:
    for ending in _ADJECTIVE_ENDINGS:
        if adjective.endswith(ending) and len(adjective) - len(ending) >= _MIN_STEM:
            return adjective[: -len(ending)]
    return adjective


def _heading_lemmas(card: DocumentCard) -> set[str]:
    """The lemmas of what a held document calls itself: its title, its kind's name and the
    words its kind is known by («кредит» of a loan)."""
    kind = BY_KEY.get(card.doc_type or "")
    words = [card.title, card.doc_type_name or "", *card.kind_cues, *(kind.cues if kind else ())]
    return {token.lemma for text in words for s in analyse(text).sentences for token in s.tokens}


def _shares_stem(stem: str, word: str) -> bool:
    """«кредит» of «кредитной», «ипотеч» of «ипотека»: the word opens with the stem, or
    with all of it but its last letter (a consonant alternating before the suffix)."""
    common = len(stem) if word.startswith(stem) else 0
    if not common:
        common = next((n for n in range(len(stem), 0, -1) if word[:n] == stem[:n]), 0)
    return common >= max(_MIN_STEM, len(stem) - 1)


def unheld_kind_adjective(
    text: str, kind: DocType, start: int, held: Sequence[DocumentCard]
) -> str | None:
    """«кредитный договор» (Russian, in the nominative) when the word right before the
    generic kind word (token ``start``) is an adjective naming a kind of contract
    (``kind_adjectives``) that no heading of the ``held`` contracts names: «по нашему
    кредитному договору» of a user holding a lease and a supply contract (one of which
    mentions a «коммерческий кредит» in its text), «по рекламному договору» held as
    «Договор на оказание рекламных услуг» is held. None otherwise."""
    tokens = [t for s in analyse(text).sentences for t in s.tokens]
    if kind.key != GENERIC or not 0 < start < len(tokens):
        return None
    before = tokens[start - 1]
    if before.lemma not in kind_adjectives():
        return None
    stem = _stem(before.lemma)
    if any(_shares_stem(stem, word) for card in held for word in _heading_lemmas(card)):
        return None
    return role_in_nominative([before.text.lower(), tokens[start].text.lower()])
