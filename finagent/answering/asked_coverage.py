"""The near candidate that names all the top one does of the question's words, and more.

The learned ranker weighs a sentence's wording and position; a sentence of the same
article about a neighbouring subject can win by a small margin: «В рамках выездной
налоговой проверки может быть проверен период, не превышающий трех календарных лет…»
over «Выездная налоговая проверка не может продолжаться более двух месяцев» for «сколько
может длиться выездная проверка?», or a restored tax's ten years over «Налоговые вычеты …
могут быть заявлены … в пределах трех лет» for «сколько лет можно переносить вычет?».
The question's content words tell them apart: the first names none the second lacks, and
the second names one more (the asked subject «вычет», the asked predicate «длиться» in the
Code's word «продолжаться», by the synonym groups of ``data/asked_predicates.yaml``).

So when the best candidate is of the Code or the knowledge base, a near one (within
:data:`MARGIN` logit units, of the Code or the knowledge base, not a worked example) that
states a value of the asked type and whose covered question words are a strict superset of
the best one's comes first, when what it adds is the asked predicate by a synonym, or,
both being sentences of the Code, when the best one names none of the question's words.
A plain extra word is no evidence otherwise: «число» of «до какого числа», «ставка»,
«вклад» are named by neighbouring rules as well. Questions of several values and of the
user's documents are left alone.
"""

from __future__ import annotations

from collections.abc import Set
from functools import cache
from importlib import resources

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, first_near, promoted
from finagent.answering.sentence_profile import profile
from finagent.language.cues import cue_lemmas
from finagent.question.content import content_lemmas
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

ANSWER_TYPES = frozenset({"limit", "amount", "rate", "period", "date"})
MARGIN = 1.0  # logit units of the learned ranker
_FILE = "asked_predicates.yaml"


@cache
def predicate_groups() -> tuple[tuple[frozenset[str], ...], ...]:
    """The synonym groups of ``data/asked_predicates.yaml``, each a tuple of its entries'
    lemma sets (a word, or a phrase: «снять блокировку»)."""
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    return tuple(
        tuple(frozenset(cue_lemmas(str(entry))) for entry in entries)
        for entries in (load_yaml(text) or {}).values()
    )


def covered(words: frozenset[str], sentence: str) -> frozenset[str]:
    """The ``words`` the sentence names, itself or by a synonym of its group."""
    lemmas = profile(sentence).lemmas
    return frozenset(words & lemmas) | by_predicate(words, sentence)


def by_predicate(words: frozenset[str], sentence: str) -> frozenset[str]:
    """The ``words`` that are one-word entries of a predicate's synonym group the sentence
    names an entry of (a phrase's every lemma: «блокировка снимается»)."""
    return names_groups(words, profile(sentence).lemmas)


def names_groups(words: Set[str], lemmas: Set[str]) -> frozenset[str]:
    """The ``words`` that are one-word entries of a group ``lemmas`` name an entry of."""
    out: set[str] = set()
    for group in predicate_groups():
        if any(entry <= lemmas for entry in group):
            out |= {w for w in words if frozenset({w}) in group}
    return frozenset(out)


def _decides(words: frozenset[str], top: Candidate, candidate: Candidate) -> bool:
    """Whether ``candidate`` names the asked subject the top one misses: a predicate of
    the question by a synonym group, or, between two sentences of the Code, any question
    word when the top one names none."""
    base = covered(words, top.ranked_text)
    more = covered(words, candidate.ranked_text)
    if not base < more:
        return False
    if (more - base) & by_predicate(words, candidate.ranked_text):
        return True
    return not base and top.chunk.source == candidate.chunk.source == "law"


def prefer_covering(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the near candidate covering more of the question first (above)."""
    if question.answer_type not in ANSWER_TYPES or question.several or len(ranked) < 2:
        return ranked
    top = ranked[0]
    if top.chunk.source not in LEGAL_SOURCES:
        return ranked
    words = content_lemmas(question)
    if not words:
        return ranked
    best = first_near(
        ranked,
        MARGIN,
        lambda c: (
            c.chunk.source in LEGAL_SOURCES
            and _decides(words, top, c)
            and states_asked(profile(c.sentence), question)
        ),
    )
    return promoted(ranked, best) if best is not None else ranked
