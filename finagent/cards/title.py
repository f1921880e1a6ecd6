"""A document's type and clean title from its own heading, never from a letterhead."""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.cards.doc_types import DOC_TYPES, DocType
from finagent.language.cues import find_cue
from finagent.language.lemmas import fold, lemma
from finagent.language.organisations import ABBREVIATIONS, organisations_in
from finagent.language.text import analyse

_HEAD_LINES = 15
_MARKUP = re.compile(r"[*_`#>|]+")
_FORM_MARKERS = re.compile(r"\s*\(\d+[а-я]?\)\s*$")  # «(1)», «(2а)» of statutory forms
_SPACES = re.compile(r"\s+")
_ABBREVIATIONS = ABBREVIATIONS | {"ндс", "ндфл", "упд", "инн", "кпп", "фнс", "ифнс", "рф", "усн"}
_MAX_TITLE = 160
# a type named this far into a line is its heading, not a mention inside a sentence
_TYPE_WITHIN_TOKENS = 4


def strip_markdown(line: str) -> str:
    """«# **Договор**  № 5» -> «Договор № 5»; statutory field markers dropped."""
    text = _MARKUP.sub(" ", line)
    text = _FORM_MARKERS.sub("", text)
    text = _SPACES.sub(" ", text).strip(" -—:=+")
    return _sentence_case(text)


def _sentence_case(text: str) -> str:
    """«СЧЁТ-ФАКТУРА № 87 от …» -> «Счёт-фактура № 87 от …»: a heading in capitals is lowered
    up to its first word that is not capitals; abbreviations (УПД, НДС) are kept."""
    words = text.split()
    for i, word in enumerate(words):
        if not (word.replace("-", "").isalpha() and word.isupper()):
            break
        if fold(word) not in _ABBREVIATIONS:
            words[i] = word.lower()
    joined = " ".join(words)
    return joined[:1].upper() + joined[1:]


def doc_type_of(lemmas: tuple[str, ...], within: int | None = None) -> DocType | None:
    for doc_type in DOC_TYPES:
        for cue in doc_type.cues:
            if find_cue(lemmas, cue, 0, None if within is None else within + len(cue.split())) >= 0:
                return doc_type
    return None


@dataclass
class Heading:
    title: str | None
    doc_type: DocType | None


def _is_letterhead(line: str) -> bool:
    """A line that is only an organisation (with address, ИНН …): the sender, not a title."""
    organisations = organisations_in(analyse(line))
    return bool(organisations) and organisations[0].start <= 2


def heading_of(text: str) -> Heading:
    lines = [strip_markdown(line) for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if line][:_HEAD_LINES]
    for line in lines:
        if _is_letterhead(line):
            continue
        lemmas = tuple(lemma(t.text) for s in analyse(line).sentences for t in s.tokens)
        doc_type = doc_type_of(lemmas, _TYPE_WITHIN_TOKENS)
        if doc_type is not None:
            return Heading(line[:_MAX_TITLE], doc_type)
    return Heading(None, None)
