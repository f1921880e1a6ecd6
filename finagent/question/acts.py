"""The actions a deadline is set for: a report filed, a tax paid, a notice given.

The actions are lemma sets (``data/asked_actions.yaml``). They are read by the answer's
choice among a sentence's dates (:mod:`finagent.answering.asked_action`) and by the Code
search of the point stating the asked time limit (:mod:`finagent.retrieval.tax_focus`).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from razdel import tokenize

from finagent.language.cues import cue_lemmas
from finagent.language.dates import MONTHS
from finagent.language.lemmas import breach_act, done
from finagent.language.periods import UNITS
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

_FILE = "data/asked_actions.yaml"
_TIME_NOUNS = "data/time_nouns.yaml"
_NOTICE_PAPERS = "data/notice_papers.yaml"
NOTIFY = "notify"
FILE = "file"
DEADLINE_TYPES = frozenset({"date", "period"})


@cache
def action_words() -> dict[str, frozenset[str]]:
    """Each action's lemmas (``file``, ``pay``, ``notify``)."""
    text = resources.files("finagent.question").joinpath(_FILE).read_text("utf-8")
    return {key: frozenset(str(w) for w in words) for key, words in load_yaml(text).items()}


@cache
def time_nouns() -> frozenset[str]:
    """Nouns naming a time itself (a period's unit, a month, «число», «срок»), not an
    action's object."""
    path = resources.files("finagent.question").joinpath(_TIME_NOUNS)
    listed = {str(w) for w in load_yaml(path.read_text("utf-8"))}
    return frozenset(listed | set(UNITS) | set(MONTHS))


def actions_named(text: str) -> frozenset[str]:
    """The actions (``file``, ``pay``, ``notify``) whose words the text names; a breach's
    negated noun names its action too («неперечисление», «непредставление», «несдача»)."""
    lemmas = set(cue_lemmas(text))
    lemmas |= {act for lm in lemmas if (act := breach_act(lm))}
    return frozenset(key for key, words in action_words().items() if words & lemmas)


@cache
def _notice_papers() -> frozenset[str]:
    path = resources.files("finagent.question").joinpath(_NOTICE_PAPERS)
    return frozenset(str(w) for w in load_yaml(path.read_text("utf-8")))


def actions_stated(text: str) -> frozenset[str]:
    """The actions a rule's text states: those it names (:func:`actions_named`), and
    notifying where it files a notice («Уведомление подаётся в течение одного месяца со дня
    открытия счёта» is the term of «в какой срок уведомить налоговую»; the paper filed is
    the notice itself, ``data/notice_papers.yaml``)."""
    named = actions_named(text)
    if FILE in named and _notice_papers() & set(cue_lemmas(text)):
        return named | {NOTIFY}
    return named


def actions_pending(text: str) -> frozenset[str]:
    """The actions the text names by words other than a done act's (a past-tense verb or
    participle: «подала декларацию», «уплаченный налог» tell what has happened, not what is
    asked)."""
    return actions_named(" ".join(t.text for t in tokenize(text) if not done(t.text)))


def only_action(named: frozenset[str]) -> str | None:
    """The action when ``named`` holds exactly one; None otherwise."""
    return next(iter(named)) if len(named) == 1 else None


def asked_action(question: Question) -> str | None:
    """The one action a deadline question of one part asks; None otherwise. A question
    naming several keeps the ones not yet done («Подала декларацию, когда оплатить
    налог?»: paying)."""
    if question.answer_type not in DEADLINE_TYPES or len(question.parts) > 1:
        return None
    named = actions_named(question.text)
    if len(named) > 1:
        named = actions_pending(question.text) or named
    return only_action(named)
