"""A person the question names must be the one the quoted value belongs to.

«оклад у <фамилия> какой?» asks a value of one person. A document answer whose quoted
sentences never name that person, from documents that name them only as a representative
or a signatory («в лице генерального директора …», «П. А. …» under the text) or not at
all, quotes another person's value (the employee's salary of a contract the director
signed). The documents lack the fact for the person asked: the answer declines, saying so
and naming the documents searched. A document the person is a party of (a card's party,
or a mention of them that is neither a representative's nor a signature) lends its
values to them even when the value's sentence does not repeat their name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache

from razdel import sentenize, tokenize

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.answering.coverage import searched_titles
from finagent.cards.model import DocumentCard
from finagent.language.dates import MONTHS
from finagent.language.lemmas import (
    compound_forms,
    lemma,
    normal_forms,
    person_name,
    place_name,
    surname,
)
from finagent.language.measures import SYMBOLS
from finagent.language.money import CURRENCIES, MULTIPLIERS
from finagent.language.percents import PERCENT_WORDS
from finagent.language.periods import UNITS
from finagent.question.model import Question
from finagent.state import Chunk

_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)?")
# a representative's mention: «в лице генерального директора Зуева П. А.»
_REPRESENTED = re.compile(r"\bв\s+лице\b[^.;:]{0,80}$", re.IGNORECASE)
# a signature: initials right before the surname («П. А. Зуев», «П.А. Зуев»)
_INITIALS = re.compile(r"(?:\b[А-ЯЁ]\.\s?){2}$")
# a house number has at most three digits; a year has four, a sum or a count often more
# («Лебедеву 40000»). A bound on a number's size, not on a word's form: razdel reads the
# token, pymorphy3 the word after it (:func:`_counted`); no kept library reads a house
# number (natasha's address extractor needs its pymorphy2 vocabulary, which does not load
# here)
_HOUSE_DIGITS = 3


def _words(text: str) -> list[tuple[str, bool]]:
    """The text's tokens (razdel), each with whether it opens its sentence."""
    tokens: list[tuple[str, bool]] = []
    for sentence in sentenize(text):
        tokens += [(t.text, i == 0) for i, t in enumerate(tokenize(sentence.text))]
    return tokens


@cache
def _counted() -> frozenset[str]:
    """Lemmas that make a number before them a day of a month or a count (a month, a unit
    of time, measure or money, a scale, a percent), never a house's number."""
    return frozenset({*MONTHS, *UNITS, *SYMBOLS, *CURRENCIES, *MULTIPLIERS, *PERCENT_WORDS})


def _house_number(token: str, following: str | None = None) -> bool:
    """A house's number («48», «12а», «7/2»), not a year («2024») and not a number the
    next word counts («15 мая», «3 дня», «20 тысяч»)."""
    digits = re.match(r"\d+", token)
    if digits is None or len(digits.group()) > _HOUSE_DIGITS:
        return False
    return following is None or lemma(following) not in _counted()


def _named_after(words: list[tuple[str, bool]], at: int) -> bool:
    """The name at ``at`` names a street or an institution after a person: a house number
    follows it («на Кирова, 48»), or a capitalised word that is no part of a person's name
    and does not open the sentence precedes it («на Героя Смирнова»)."""
    after = [w for w, _ in words[at + 1 : at + 4] if w != ","][:2]
    if after and _house_number(after[0], after[1] if len(after) > 1 else None):
        return True
    if at == 0:
        return False
    before, opens = words[at - 1]
    return not opens and before[:1].isupper() and not before.isupper() and not person_name(before)


def asked_persons(question: Question) -> list[str]:
    """The surnames the question names as persons: not part of an organisation's name,
    not a place («в Дзержинске») and not a street with its house («на Кирова, 48»). Names
    are whole tokens: «Лев» is not in «Левченко»."""
    words = _words(question.text)
    in_organisations = {
        t.text for organisation in question.organisations for t in tokenize(organisation.name)
    }
    found = []
    for name in question.names:
        if not surname(name) or place_name(name) or name in in_organisations:
            continue
        places = [i for i, (word, _) in enumerate(words) if word == name]
        if places and all(_named_after(words, i) for i in places):
            continue
        found.append(name)
    return list(dict.fromkeys(found))


def names_person(person: str, text: str) -> bool:
    """The text names the person (by any form of the surname, capitalised)."""
    forms = compound_forms(person)
    return any(forms & normal_forms(word) for word in _WORD.findall(text) if word[:1].isupper())


def party_mention(person: str, text: str) -> bool:
    """The text names the person other than as a representative or a signatory."""
    forms = compound_forms(person)
    for found in _WORD.finditer(text):
        word = found.group()
        if not word[:1].isupper() or not forms & normal_forms(word):
            continue
        before = text[max(0, found.start() - 120) : found.start()]
        if _REPRESENTED.search(before) or _INITIALS.search(before):
            continue
        return True
    return False


def _of_document(
    person: str,
    document_id: str,
    cards: Sequence[DocumentCard],
    texts: Mapping[str, str],
    chunks: Sequence[Chunk],
) -> bool:
    """The document lends its values to the person: a party of its card, or named in it
    as neither a representative nor a signatory. A document whose text is not at hand
    lends them (no decline on what was not read)."""
    forms = compound_forms(person)
    for card in cards:
        if card.document_id != document_id:
            continue
        for party in card.parties:
            if any(forms & normal_forms(word) for word in _WORD.findall(party.name)):
                return True
    text = texts.get(document_id) or "\n".join(
        c.text for c in chunks if c.document_id == document_id
    )
    if not text:
        return True
    return party_mention(person, text)


def person_abstention(
    question: Question,
    quoted: Sequence[tuple[str, str]],
    cards: Sequence[DocumentCard],
    texts: Mapping[str, str],
    chunks: Sequence[Chunk],
) -> Abstention | None:
    """The abstention for a named person no quoted sentence (``(sentence, document id)``)
    and no quoted document is about; None when each named person is covered."""
    if not quoted:
        return None
    for person in asked_persons(question):
        if any(names_person(person, sentence) for sentence, _ in quoted):
            continue
        documents = dict.fromkeys(doc_id for _, doc_id in quoted if doc_id)
        if any(_of_document(person, d, cards, texts, chunks) for d in documents):
            continue
        searched = searched_titles(chunks)
        return Abstention(
            "person",
            messages.ABSTAIN_PERSON.format(person=person),
            messages.ABSTAIN_PERSON_MISSING.format(person=person, titles=searched),
        )
    return None
