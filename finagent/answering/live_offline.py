"""Where the notice of an unavailable Bank of Russia source stands in an offline answer.

A question about today's or a future rate or exchange rate («какая сейчас ключевая
ставка», «курс юаня на завтра», «какой будет курс в декабре») asks live data: the notice
leads, so that no figure of the knowledge base is taken for the current value. A question
about the past — one that names a date, month or year before its as-of day or speaks of
an act already done («ставка, действовавшая в августе 2025 года», «курс, установленный в
пятницу, — в какие дни он действует?», «до скольких процентов ЦБ поднял ставку») — is
answered by the knowledge base and the Code themselves: their answer leads and the notice
follows it. So is a question about a standing setting of a rule that a live quantity
enters — a share of the key rate, how often the rate is reviewed, a cap or a target
(``data/standing_values.yaml``) — with no word of today or of the future: the knowledge
base states it, whichever live source (the Bank of Russia or the news) failed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.lemmas import done, future_verb, past_participle
from finagent.moscow_time import moscow_today
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

# the source name its notices carry (finagent.tools.cbr; the tool modules load lazily)
CBR_SOURCE = "Банк России"
# today, tomorrow, a coming period or a forecast: live data, whatever else the question says
_NOW_OR_LATER = frozenset(
    "сейчас сегодня сегодняшний текущий нынешний актуальный завтра завтрашний послезавтра "
    "будущий следующий ближайший прогноз спрогнозировать прогнозировать".split()
)
_WORD = re.compile(r"[А-Яа-яЁё]+")
_FILE = "standing_values.yaml"


@cache
def _standing_words() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    return frozenset(str(w) for w in load_yaml(text)["standing"])


def _now_or_later(question: Question) -> bool:
    """A word of today or of the future, or a future verb."""
    words = _WORD.findall(question.text)
    return bool(_NOW_OR_LATER & set(question.lemmas)) or any(future_verb(w) for w in words)


def asks_past(question: Question) -> bool:
    """The question is about a past date or an act already done, with no word of today or
    of the future."""
    words = _WORD.findall(question.text)
    if _now_or_later(question):
        return False
    as_of = question.as_of
    named_past = (
        any(d.value < as_of for d in question.dates)
        or any((m.year, m.month) < (as_of.year, as_of.month) for m in question.months)
        or any(y.year < as_of.year for y in question.years)
    )
    return named_past or any(done(w) or past_participle(w) for w in words)


def asks_standing(question: Question) -> bool:
    """The question asks a standing setting of a rule («какая доля ключевой ставки», «сколько
    раз в год рассматривают ставку», «потолок ПСК», «цель по инфляции»), not a reading of
    today or of a day to come: no word of today or of the future, no date, month or year
    from the turn's own date on."""
    if not _standing_words() & set(question.lemmas) or _now_or_later(question):
        return False
    today = question.asked_on or moscow_today()
    return not (
        any(d.value >= today for d in question.dates)
        or any((m.year, m.month) >= (today.year, today.month) for m in question.months)
        or any(y.year >= today.year for y in question.years)
    )


def notice_follows(question: Question, notices: Sequence[str]) -> bool:
    """Whether the unavailable-source notices go after the answer's lead: only the Bank of
    Russia failed (news are events, always live) and the question is about the past, or
    the question asks a standing setting, which no live source quotes."""
    if not notices:
        return False
    only_cbr = all(f"«{CBR_SOURCE}»" in notice for notice in notices)
    return (only_cbr and asks_past(question)) or asks_standing(question)
