"""A knowledge-base article's line about its own edition.

An article of the knowledge base may open with the date its rules and figures apply from
(«Правила и цифры статьи действуют с 1 января 2025 года (на 2025 год).»). The line is the
article's metadata: it shares a date question's words («действует», «с какого числа») and
states a date, but says nothing of any rule's term. Such a sentence names the article
itself (a self noun of ``data/edition_lines.yaml`` not followed by a number: «статьи», not
«статьи 145»), a word of validity, a date or a year, and no sum, share or period; it is
no candidate answer (:func:`finagent.answering.evidence.candidates`). The article's
applicability is stated by the answer's edition note instead
(:mod:`finagent.answering.edition`)."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from finagent.answering.sentence_profile import profile
from finagent.language.dates import WRITTEN_YEAR
from finagent.language.lemmas import lemma
from finagent.yaml_data import load_yaml

_FILE = "edition_lines.yaml"
_NUMBER_AFTER = re.compile(r"^\s*\d")
_WORD = re.compile(r"[А-Яа-яЁё]+")


@cache
def _words() -> tuple[frozenset[str], frozenset[str]]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    data = load_yaml(text) or {}
    return (
        frozenset(str(w) for w in data.get("self_nouns", [])),
        frozenset(str(w) for w in data.get("validity", [])),
    )


def _names_itself(sentence: str, nouns: frozenset[str]) -> bool:
    """A self noun not followed by a number («статьи», not «статьи 145»)."""
    return any(
        lemma(m.group(0).lower()) in nouns and not _NUMBER_AFTER.match(sentence[m.end() :])
        for m in _WORD.finditer(sentence)
    )


def edition_line(sentence: str) -> bool:
    """Whether ``sentence`` states its article's own edition (see above)."""
    nouns, validity = _words()
    p = profile(sentence)
    if not (p.lemmas & validity) or not (p.lemmas & nouns):
        return False
    if not (p.dates or WRITTEN_YEAR.search(sentence)):
        return False
    if p.money or p.percents or p.shares or [x for x in p.periods if not WRITTEN_YEAR.match(x)]:
        return False
    return _names_itself(sentence, nouns)
