"""The values a question asks for, as the typed question says, for every answer stage.

Two things the answer type alone does not say:
- *Which kind of value a limit is.* A limit is a sum or a share. A limit question that
  asks a sum («предельная база», «до какой суммы», «ограничение по кадастровой
  стоимости»: an amount among its answer types) wants a sum, and so does one that states
  a percentage of its own («максимум у взноса 1 %»): it asks the sum the percentage is
  bounded by. Else either kind answers («лимит вычета по процентам по ипотеке»: the
  «процент» there is interest, not the rate asked).
- *A count in a unit.* «На сколько квадратных метров уменьшают…» asks a quantity in
  that unit («20 кв. м»), whatever else its words ask.
- *A day of the month.* «До какого числа …» asks a day («не позднее 25-го числа
  месяца»): for such a question a day of the month states the asked date
  (:func:`asks_day`); for other date questions only a calendar date does.
- *A figure the question states is given, not asked.* «Упрощенец перешёл на НДС по ставке
  5 %. Сколько он обязан её применять?» is not answered by «5 %»: a sentence's value whose
  number the question itself states is no value of the asked type. A date is no figure:
  «до какого числа заплатить 1 % с дохода» is answered by «не позднее 1 июля».
"""

from __future__ import annotations

import re
from itertools import pairwise

from finagent.answering.sentence_profile import SentenceProfile, values_of
from finagent.question.model import Question

_SPACE = re.compile(r"[\s\u00a0\u202f\u2009]")
_NUMBER = re.compile(r"\d+(?:[ \u00a0\u202f\u2009]\d{3})*(?:[.,]\d+)?")


def value_type(question: Question) -> str:
    """The answer type whose values answer the question (see the module's docstring)."""
    kind = question.answer_type
    if kind != "limit":
        return kind
    others = question.answer_types[1:]
    return "amount" if "amount" in others or question.percents else kind


def number_of(text: str) -> str | None:
    """The first number of a value, as compared: «1,5 %» -> «1.5», «300 000 руб» -> «300000»."""
    match = _NUMBER.search(text)
    return _SPACE.sub("", match.group(0)).replace(",", ".") if match else None


def own_numbers(question: Question) -> frozenset[str]:
    """The numbers of the figures the question states (sums, percentages, periods), as
    compared: «1,5» -> «1.5», «300 000» -> «300000»; years and dates are not figures."""
    spans = [*question.money, *question.percents, *question.periods]
    return frozenset(n for s in spans if (n := number_of(s.text)) is not None)


def asked_values(
    p: SentenceProfile, question: Question, answer_type: str | None = None, days: bool = True
) -> tuple[str, ...]:
    """The values of the asked type (``answer_type``, else :func:`value_type`) a sentence
    states, without those the question states itself (``days``: as in ``values_of``)."""
    kind = answer_type or value_type(question)
    # a date is no figure: «1 июля» is not the «1 %» the question states
    own = own_numbers(question) if kind != "date" else frozenset()
    if question.unit and answer_type is None:
        found = tuple(text for unit, text in p.measures if unit == question.unit)
    else:
        found = values_of(p, kind, days)
    return tuple(v for v in found if number_of(v) not in own) if own else found


def states_asked(
    p: SentenceProfile, question: Question, answer_type: str | None = None, days: bool = False
) -> bool:
    """Whether the sentence states a value the question asks (party: a named party); a day
    of the month counts as a date only with ``days``, as in ``states_type``."""
    kind = answer_type or value_type(question)
    if kind == "party":
        return p.party
    days = days or (kind == "date" and asks_day(question))
    return bool(asked_values(p, question, answer_type, days))


def asks_day(question: Question) -> bool:
    """Whether the question asks a day of the month («до какого числа подаётся
    декларация»): a recurring day («не позднее 25-го числа месяца») is then a date of the
    asked type, not only a calendar date of some year."""
    lemmas = question.lemmas
    return any(a == "какой" and b == "число" for a, b in pairwise(lemmas))
