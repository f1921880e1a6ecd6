"""The list item of the asked subject: «1) организации — не позднее 25 марта …;
2) индивидуальные предприниматели — не позднее 25 апреля …» asked «… для ИП».

A list of the Code or the knowledge base often states one value per subject, each item
opening with its subject before a dash («взнос 1 % — не позднее 1 июля», «фиксированная
часть — не позднее 28 декабря»). When the best candidate is such a list and the question
names the subject of exactly one item — by its words, or by a short name the table
``data/list_subjects.yaml`` gives («ИП» for «индивидуальный предприниматель») — that item
comes first. Only the subject before the dash counts: words of an item's condition or
value do not pick (see :mod:`finagent.answering.list_items`).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from razdel import tokenize

from finagent.answering.evidence import Candidate
from finagent.answering.list_items import list_of, promote_list_item
from finagent.language.cues import has_any
from finagent.language.lemmas import lemma
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.yaml_data import load_yaml

# «2) индивидуальные предприниматели - …», «- взнос 1 % — …»: the subject before a dash
_SUBJECT = re.compile(r"^\s*(?:\d{1,2}[).]|[-–—•*])?\s*([^\-–—:;]{2,60}?)\s+[-–—]\s+\S")
_BULLET = re.compile(r"^\s*(?:[-–—•*]|\d{1,2}[).])\s")
MAX_WORDS = 5  # a subject is a short phrase, not a clause
REACH = 3  # a bulleted list's items are the sentences next to each other


def _items(top: Candidate, ranked: list[Candidate]) -> list[Candidate]:
    """The items of the list ``top`` belongs to: those of its lead-in, or (a bulleted list
    of the knowledge base with no lead-in kept) the bullets of its passage next to it."""
    if items := list_of(top, ranked):
        return items
    if not _BULLET.match(top.sentence):
        return []
    return [
        c
        for c in ranked
        if c.chunk is top.chunk
        and abs(c.position - top.position) <= REACH
        and _BULLET.match(c.sentence)
    ]


@cache
def short_names() -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """The (cues, subject lemmas) pairs of the shipped table."""
    data = resources.files("finagent.answering").joinpath("data/list_subjects.yaml")
    rows = load_yaml(data.read_text("utf-8")) or []
    return tuple((tuple(str(c) for c in row["cues"]), _lemmas(str(row["subject"]))) for row in rows)


def _lemmas(text: str) -> frozenset[str]:
    words = (lemma(t.text) for t in tokenize(text))
    return frozenset(w for w in words if w not in STOP_LEMMAS)


def item_subject(text: str) -> frozenset[str]:
    """The lemmas of the subject an item opens with before its dash (empty if none)."""
    found = _SUBJECT.match(text)
    if found is None or len(found.group(1).split()) > MAX_WORDS:
        return frozenset()
    return _lemmas(found.group(1))


def asked_lemmas(question: Question) -> frozenset[str]:
    """The question's lemmas and those of the subjects its short names stand for."""
    own = frozenset(question.lemmas)
    named = (subject for cues, subject in short_names() if has_any(question.lemmas, cues))
    return own.union(*named)


def prefer_asked_item(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the list item whose subject the question names first, when the best
    candidate is a list of the Code or the knowledge base and exactly one item matches."""
    asked = asked_lemmas(question)

    def naming_subject(items: list[Candidate]) -> Candidate | None:
        subjects = {id(c): item_subject(c.sentence.removeprefix(c.context)) for c in items}
        if sum(1 for s in subjects.values() if s) < 2:
            return None  # not a list of subjects
        matching = [c for c in items if subjects[id(c)] and subjects[id(c)] <= asked]
        return matching[0] if len(matching) == 1 else None

    return promote_list_item(ranked, _items, naming_subject)
