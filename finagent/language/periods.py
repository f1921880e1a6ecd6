"""Periods and terms: «3 месяца», «10 рабочих дней», «в течение 30 календарных дней с даты …»."""

from __future__ import annotations

from decimal import Decimal

from finagent.language.cues import find_cue, has_any
from finagent.language.dates import dates_in, days_in, days_of_month_in
from finagent.language.numbers import NUMBER_WORDS, is_digits, read_number, skip_parenthetical
from finagent.language.spans import DayKind, Period, PeriodUnit
from finagent.language.text import Analysed, AnalysedSentence

UNITS: dict[str, PeriodUnit] = {
    "час": "hour",
    "день": "day",
    "сутки": "day",
    "неделя": "week",
    "месяц": "month",
    "квартал": "quarter",
    "год": "year",
}
DAY_KINDS: dict[str, DayKind] = {
    "рабочий": "working",
    "календарный": "calendar",
    "банковский": "banking",
}
# what a period is to its anchor, longest first; read as lemmas before the number
RELATIONS = (
    "не позднее чем через",
    "не позднее чем за",
    "не позднее",
    "не ранее чем за",
    "в течение",
    "в срок",
    "через",
    "за",
    "до",
    "на",
)
_ANCHOR_STARTS = {"с", "со", "после", "от", "до", "момент"}
_ANCHOR_STOPS = {",", ";", ".", ":", "(", ")"}
_MAX_ANCHOR = 12


def _count_at(sentence: AnalysedSentence, i: int) -> tuple[Decimal, int] | None:
    token = sentence.tokens[i]
    if token.lemma in NUMBER_WORDS:
        return Decimal(NUMBER_WORDS[token.lemma]), i + 1
    return read_number(sentence, i)


def _relation(sentence: AnalysedSentence, i: int) -> tuple[str, int] | None:
    for phrase in RELATIONS:
        size = len(phrase.split())
        at = find_cue(sentence.lemmas, phrase, max(0, i - size), i)
        if at >= 0 and at == i - size:
            return sentence.words(at, i - 1), at
    return None


def _anchor(sentence: AnalysedSentence, j: int) -> tuple[str, int] | None:
    tokens = sentence.tokens
    if j >= len(tokens) or tokens[j].lemma not in _ANCHOR_STARTS:
        return None
    end = j
    while end + 1 < len(tokens) and end + 1 - j < _MAX_ANCHOR:
        if tokens[end + 1].text in _ANCHOR_STOPS:
            break
        end += 1
    if end == j:
        return None
    return sentence.words(j, end), end + 1


def periods_in(analysed: Analysed) -> list[Period]:
    found: list[Period] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        i = 0
        while i < len(tokens):
            count = _count_at(sentence, i)
            if count is None:
                i += 1
                continue
            value, j = count
            j = skip_parenthetical(sentence, j)
            day_kind = None
            if j < len(tokens) and tokens[j].lemma in DAY_KINDS:
                day_kind = DAY_KINDS[tokens[j].lemma]
                j += 1
            unit = UNITS.get(tokens[j].lemma) if j < len(tokens) else None
            # «2025 года» is a year, not 2025 years; «5 числа» and dates are not periods
            if (
                unit is None
                or value > 1000
                or (unit == "year" and is_digits(tokens[i].text) and len(tokens[i].text) == 4)
            ):
                i += 1
                continue
            relation = _relation(sentence, i)
            start_token = relation[1] if relation else i
            anchor = _anchor(sentence, j + 1)
            last = (anchor[1] if anchor else j + 1) - 1
            found.append(
                Period(
                    **sentence.located(start_token, last),
                    count=value,
                    unit=unit,
                    day_kind=day_kind,
                    relation=relation[0] if relation else None,
                    anchor=anchor[0] if anchor else None,
                )
            )
            i = last + 1
    return found


# the relations of a period that make it a time limit: «в течение трех месяцев», «не позднее
# чем через 10 дней», «в срок 5 рабочих дней»; «через», «за», «на» only place or size it
TIME_LIMIT_RELATIONS = ("в течение", "не позднее", "в срок")
# a day written after «до» is a time limit: «до 28-го числа», «в срок до 1 декабря»
_UNTIL = "до"


def _until_day(analysed: Analysed) -> bool:
    """A day of a month or a calendar day written right after «до»."""
    days = [*days_of_month_in(analysed), *days_in(analysed), *dates_in(analysed)]
    starts = {span.start for span in days}
    return any(
        token.lemma == _UNTIL and following.start in starts
        for sentence in analysed.sentences
        for token, following in zip(sentence.tokens, sentence.tokens[1:], strict=False)
    )


def states_time_limit(analysed: Analysed) -> bool:
    """The text states a time limit in a rule's own words: «не позднее …» (whatever it
    counts from), a period «в течение трех месяцев» / «в срок 5 дней», or a day after «до»
    («до 28-го числа», «до 1 декабря»)."""
    if any(has_any(s.lemmas, ("не позднее",)) for s in analysed.sentences):
        return True
    if any(
        p.relation and p.relation.lower().startswith(TIME_LIMIT_RELATIONS)
        for p in periods_in(analysed)
    ):
        return True
    has_until = any(_UNTIL in s.lemmas for s in analysed.sentences)
    return has_until and _until_day(analysed)
