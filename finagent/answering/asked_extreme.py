"""The sentence and the value of the bound a question asks: the most, the least, a condition.

«Какой максимальный срок выездной проверки с учётом всех продлений?»: the Code states the
general rule («не может продолжаться более двух месяцев») in one sentence and the
extensions in the next («может быть продлен до четырех месяцев, а в исключительных
случаях - до шести месяцев»). The general rule answers «сколько длится», not the question
that names a condition (:data:`ranker.EXCEPTIONS`: an extension, an exception, a repeat…)
or asks the extreme. Two steps, both on the Code's and the knowledge base's sentences only:

* :func:`prefer_asked_condition`: when the best sentence names none of the conditions the
  question asks, a near candidate (within :data:`MARGIN` logit units, not a worked
  example, stating a value of the asked type) that names one comes first.
* :func:`of_asked_extreme`: of a sentence's values of one kind (spans of time, sums or
  shares), the greatest when the question asks a maximum («максимальный», «максимум»)
  under a condition it names («с учётом всех продлений», «в исключительных случаях»), the
  least when it asks a minimum so. Without a condition the word names a term of its own
  («минимальный срок владения», «максимальный процент в день»), and a sentence's values
  may be of other roles («90 дней до продажи», «292 % годовых»): they are kept.

*The possible length* (:func:`extension_after`): «сколько может длиться выездная
проверка?» asks how long the term can run, and the Code states it in two sentences of one
point: the rule («не может продолжаться более двух месяцев») and, next, its extension
(«Указанный срок может быть продлен до четырех месяцев, а в исключительных случаях - до
шести месяцев»). A period question asking a possible or greatest length (a modal
«может», «можно», or «максимум») and naming no condition is answered by the rule with the
extension: when the best sentence is the Code's rule, naming no extension itself, and
the next sentence of its point names an extension and states a period, the lead quotes
that sentence after the rule's.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import Candidate, first_near, promoted
from finagent.answering.ranker import EXCEPTIONS, asked_conditions, excluded_conditions
from finagent.answering.sentence_profile import profile, values_of
from finagent.language.money import money_in
from finagent.language.percents import percents_in
from finagent.language.periods import periods_in
from finagent.language.text import analyse
from finagent.question.model import Question

# logit units of the learned ranker: its ``unasked_exception`` weight holds back a sentence
# naming an asked condition beside one it does not ask («продлен до четырех месяцев, а в
# исключительных случаях - до шести»), about 1.4 units below the general rule
MARGIN = 2.0
# the lemmas asking the greatest or the least value of a rule
_MOST = frozenset({"максимальный", "максимум", "наибольший"})
_LEAST = frozenset({"минимальный", "минимум", "наименьший"})
# the modal words a question asks a term's possible length by («сколько может длиться»)
_POSSIBLE = frozenset({"мочь", "можно"})
_PROLONG = "prolong"  # the extension among the conditions of ranker.EXCEPTIONS
# a span of time in days, to compare «четырех месяцев» with «90 дней»
_DAYS = {
    "hour": Decimal(1) / 24,
    "day": Decimal(1),
    "week": Decimal(7),
    "month": Decimal(30),
    "quarter": Decimal(91),
    "year": Decimal(365),
}


def asked_extreme(question: Question) -> str | None:
    """ "max", "min" or None: the extreme the question asks, when it asks exactly one."""
    lemmas = set(question.lemmas)
    most, least = bool(lemmas & _MOST), bool(lemmas & _LEAST)
    if most == least:
        return None
    return "max" if most else "min"


def _period(value: str) -> tuple[str, Decimal] | None:
    found = periods_in(analyse(value))
    if len(found) != 1:
        return None
    return "period", found[0].count * _DAYS[found[0].unit]


def _money(value: str) -> tuple[str, Decimal] | None:
    found = money_in(analyse(value), scale_alone=True)
    return ("money", found[0].amount) if len(found) == 1 else None


def _share(value: str) -> tuple[str, Decimal] | None:
    """A value that is one percentage and nothing else («0,8 %», «3 процента»)."""
    text = value.strip()
    found = percents_in(analyse(text))
    if len(found) != 1 or found[0].start != 0 or found[0].end != len(text):
        return None
    return "share", found[0].value


_READERS: tuple[Callable[[str], tuple[str, Decimal] | None], ...] = (_share, _period, _money)


def _measure(value: str) -> tuple[str, Decimal] | None:
    """The kind and size of a value («шести месяцев» → period, 180 days)."""
    for read in _READERS:
        if (found := read(value)) is not None:
            return found
    return None


def of_asked_extreme(question: Question, values: tuple[str, ...]) -> tuple[str, ...]:
    """Of a sentence's values, the greatest (or least) one when the question asks a
    maximum (or minimum) and every value is of one measurable kind; else all of them.
    A question of several parts asks each part's value, not one extreme."""
    extreme = asked_extreme(question)
    if extreme is None or len(values) < 2 or len(question.parts) > 1:
        return values
    if not asked_conditions(list(question.lemmas)):
        return values  # «минимальный срок владения», «максимальный процент» name a term
    measured = [_measure(v) for v in values]
    if any(m is None for m in measured) or len({m[0] for m in measured if m}) != 1:
        return values
    sizes = [m[1] for m in measured if m]
    pick = max(sizes) if extreme == "max" else min(sizes)
    if sizes.count(pick) != 1:
        return values
    return (values[sizes.index(pick)],)


def _names(candidate: Candidate, asked: set[str]) -> bool:
    lemmas = profile(candidate.sentence).lemmas
    return bool({EXCEPTIONS[lm] for lm in lemmas if lm in EXCEPTIONS} & asked)


def prefer_asked_condition(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the near Code or knowledge-base candidate naming a condition the
    question asks first, when the best names none of them."""
    if not ranked or ranked[0].chunk.source == "user_docs" or len(question.parts) > 1:
        return ranked
    asked = asked_conditions(list(question.lemmas))
    top = ranked[0]
    if not asked or _names(top, asked):
        return ranked
    best = first_near(
        ranked,
        MARGIN,
        lambda c: _names(c, asked) and states_asked(profile(c.sentence), question),
    )
    return promoted(ranked, best) if best is not None else ranked


def _prolongs(sentence: str) -> bool:
    return any(EXCEPTIONS.get(lm) == _PROLONG for lm in profile(sentence).lemmas)


def asks_possible_length(question: Question) -> bool:
    """A period question of one part asking how long a term can run («сколько может
    длиться», «максимум»), naming no condition («если продлят») and setting none aside."""
    if question.answer_type != "period" or question.several or len(question.parts) > 1:
        return False
    if not (_POSSIBLE | _MOST) & set(question.lemmas):
        return False
    return not asked_conditions(question.lemmas) and not excluded_conditions(question.lemmas)


def extension_after(
    question: Question, top: Candidate, ranked: list[Candidate]
) -> Candidate | None:
    """The next sentence of the best one's Code point when it extends the best one's term
    and the question asks the term's possible length (see the module's docstring)."""
    if not asks_possible_length(question) or top.chunk.source != "law":
        return None
    if _prolongs(top.sentence):
        return None
    after = next(
        (c for c in ranked if c.chunk.id == top.chunk.id and c.position == top.position + 1),
        None,
    )
    if after is None or not _prolongs(after.sentence):
        return None
    return after if values_of(profile(after.sentence), "period") else None
