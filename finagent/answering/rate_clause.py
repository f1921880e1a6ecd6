"""A rate question answered by a rate, not by some other percent.

A knowledge-base sentence states percents that are no rate at all: a share of revenue
(«выгоднее, если расходы составляют больше 60–65 % выручки (при базовых ставках)»), a
ceiling on a deduction. Another states rates, but of another tax («общие ставки (20 %,
10 % или 0 %) с правом на вычет входного НДС» in the article on НДС for УСН payers). The clause
of a percent is a segment of the sentence between «;», read with a list item's lead-in,
its asides in parentheses left out for the words.

- A percent is *no rate* when its sentence names another tax and not the question's, or
  names no rate word (``data/rate_cues.yaml``: ставка, тариф, облагается …) and the
  percent is a share of something: a noun in the genitive or «от» follows it («60–65 %
  выручки»). A bare list item («27 октября 2025 года — 16,5 %») is a rate of its list.
- A clause *states a rate* of the question's when it names a rate word or its sentence a
  tax the question names, and the sentence no other tax unless the question's too.

When every percent of the best candidate is no rate, the first near candidate
(:data:`MARGIN`, not a worked example, no special case the question leaves unasked)
stating a rate leads (:func:`prefer_rate_clause`).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from finagent.answering.asked_values import value_type
from finagent.answering.evidence import Candidate, first_near, promoted
from finagent.answering.general_rule import special_case
from finagent.answering.ranker import asked_conditions
from finagent.answering.sentence_profile import PERCENT
from finagent.language.cues import cue_lemmas, has_any
from finagent.language.lemmas import best_parse
from finagent.question.model import Question
from finagent.question.tables import TAXES
from finagent.yaml_data import load_yaml

_FILE = "rate_cues.yaml"
MARGIN = 3.0  # logit units of the learned ranker, as across articles (general_rule)
_CLAUSES = re.compile(r";")
_NEXT_WORD = re.compile(r"[\s*«»\"]*([А-Яа-яЁё]+)")
_ASIDE = re.compile(r"\([^()]*\)")
# taxes named in passing as what a rule also covers, or the account paid through
_PASSING = frozenset({"insurance", "ens", "duty"})


@cache
def _rate_words() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    return frozenset(str(w) for w in load_yaml(text)["rate"])


def _taxes(lemmas: tuple[str, ...]) -> set[str]:
    return {t.key for t in TAXES if t.key not in _PASSING and has_any(lemmas, t.cues)}


def _share(clause: str) -> bool:
    """Some percent of the clause is a share of something: «60 % выручки», «1 % от …»."""
    for match in PERCENT.finditer(clause):
        word = _NEXT_WORD.match(clause, match.end())
        if word is None:
            continue
        if word.group(1).lower() == "от":
            return True
        tag = best_parse(word.group(1)).tag
        if "NOUN" in tag and "gent" in tag:
            return True
    return False


def _reading(clause: str, candidate: Candidate, question: Question) -> tuple[bool, bool]:
    """Whether the clause's percents are no rate, and whether it states a rate of the
    question's (see the module's docstring); the taxes are the whole sentence's."""
    words = set(cue_lemmas(f"{candidate.context} {_ASIDE.sub(' ', clause)}"))
    named = _taxes(cue_lemmas(candidate.ranked_text))
    asked = set(question.taxes)
    other = bool(named and asked and not named & asked)
    cue = bool(_rate_words() & words)
    no_rate = other or (not cue and _share(clause))
    return no_rate, not other and (cue or bool(named & asked))


def _clauses(candidate: Candidate) -> list[str]:
    return [c for c in _CLAUSES.split(candidate.sentence) if PERCENT.search(c)]


def states_rate(candidate: Candidate, question: Question) -> bool:
    """Some clause of the sentence states a rate of the question's tax."""
    return any(_reading(c, candidate, question)[1] for c in _clauses(candidate))


def no_rate(candidate: Candidate, question: Question) -> bool:
    """The sentence states percents, and each is no rate of the question's."""
    clauses = _clauses(candidate)
    return bool(clauses) and all(_reading(c, candidate, question)[0] for c in clauses)


def prefer_rate_clause(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a sentence stating the asked rate first when the best one states
    only percents of something else (see the module's docstring)."""
    if not ranked or value_type(question) != "rate":
        return ranked
    top = ranked[0]
    if top.chunk.source not in ("kb", "law") or not no_rate(top, question):
        return ranked
    asked = asked_conditions(list(question.lemmas))

    def keep(c: Candidate) -> bool:
        return states_rate(c, question) and not special_case(c, question, asked)

    best = first_near(ranked, MARGIN, keep)
    return promoted(ranked, best) if best is not None else ranked
