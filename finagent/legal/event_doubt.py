"""Doubt about the day a period runs from, when no words of the row's event mark it.

Of several dated days, the reader falls back on the first when none is marked by the
row's event words nearby. That pick is weak, so before it stands:

- a day inside a parenthesis («(проверка шла с 02.06.2025)», «(первичку сдавали 24
  октября)») is an aside: the fallback takes the first day outside one when there is;
- another day whose own clause tells the row's event farther off than the marking reach
  («30 мая — именно тогда удалось наконец получить требование на руки») contests the pick:
  the question is asked back, naming both days and what each would give, never answered
  from one of them silently.
"""

from __future__ import annotations

from finagent.legal.calc_text import CalcText, Word
from finagent.legal.period_cues import event_words
from finagent.legal.periods import ProceduralPeriod
from finagent.legal.question_days import QuestionDay

_BREAKS = frozenset({",", ";", ":", "(", ")", "—", "–"})
_CONTRASTS = frozenset({"а", "но", "и"})


def in_aside(text: CalcText, day: QuestionDay) -> bool:
    """The day stands inside a parenthesis of its sentence."""
    first, _ = text.day_words(day.mention)
    sentence = text.words[first].sentence
    depth = 0
    for w in text.words[:first]:
        if w.sentence != sentence:
            continue
        depth += (w.text == "(") - (w.text == ")")
    return depth > 0


def first_outside(text: CalcText, days: list[QuestionDay]) -> QuestionDay | None:
    """The first day outside a parenthesis, or None when every day is inside one."""
    return next((d for d in days if not in_aside(text, d)), None)


def clause_of(text: CalcText, day: QuestionDay) -> list[Word]:
    """The words of the day's clause: back and forth to a clause break («,», a
    parenthesis, «а», «но», «и»), another day or the sentence's end."""
    words = text.words
    first, last = text.day_words(day.mention)
    sentence = words[first].sentence

    def stop(w: Word) -> bool:
        return w.sentence != sentence or w.day is not None or w.text in _BREAKS

    start = first
    while start > 0 and not stop(words[start - 1]) and words[start - 1].lemma not in _CONTRASTS:
        start -= 1
    end = last
    while end + 1 < len(words) and not stop(words[end + 1]):
        if words[end + 1].lemma in _CONTRASTS:
            break
        end += 1
    return [w for w in words[start : end + 1] if w.day is None]


def tells_event(text: CalcText, day: QuestionDay, row: ProceduralPeriod) -> bool:
    """The day's clause holds a verb of the row's event, not denied and not asked."""
    verbs = {phrase[0] for phrase in event_words(row.id)}
    return any(
        (w.lemma in verbs or w.raw in verbs) and not w.negated and not w.asked
        for w in clause_of(text, day)
    )


def rivals(
    text: CalcText, days: list[QuestionDay], picked: QuestionDay, row: ProceduralPeriod
) -> list[QuestionDay]:
    """The other days, outside a parenthesis, whose clause tells the row's event while
    the picked day's does not: each is as good a start as the pick."""
    if tells_event(text, picked, row):
        return []
    return [
        d
        for d in days
        if d.day != picked.day and not in_aside(text, d) and tells_event(text, d, row)
    ]
