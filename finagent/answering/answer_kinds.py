"""Values a question's words ask for beyond the figures of its answer type.

- a count of the thing asked: «сколько мест», «минимальный объём паллето-мест» are answered
  by a number with that noun («не менее 300 паллето-мест»), not a sum of money;
- a limit: «сколько максимум», «не более», «потолок» are answered by a clause that bounds
  its value («но не более 60 000 руб.»), not by any figure;
- a price of one unit: «почём», «сколько стоит одно место» are answered by the sum stated
  for one («4 200 рублей за одно рабочее место»), not a total;
- a moment by a condition: «когда переходит право», «в какой момент» may be answered by
  the event it waits for («с момента полной оплаты», «после подписания акта») when the
  question does not ask for a calendar day («какого числа», «какая дата»).
"""

from __future__ import annotations

from functools import lru_cache

from finagent.answering.sentence_profile import SentenceProfile
from finagent.language.cues import find_cue, has_any
from finagent.language.lemmas import part_of_speech
from finagent.language.text import analyse
from finagent.question.model import Question

_ROOT = 6  # «паллето-место» — «паллето-мест»; «рабочее место» — «места»
# nouns of money, time and shares: a number before them is no count of things
_MEASURES = frozenset(
    "рубль руб копейка коп доллар евро процент день месяц год неделя час минута квартал "
    "число раз".split()
)
_LIMIT_MARKERS = frozenset(
    "более менее свыше превышать предел предельный максимальный минимальный максимум "
    "минимум ограничиваться ограничение лимит".split()
)
_MOMENT_QUESTION = ("когда", "в какой момент", "с какого момента")
# a date question asking a calendar day, not a moment
_CALENDAR = ("число", "дата", "срок", "до какого", "по какое", "день")
_CONDITIONS = (
    "с момент",
    "в момент",
    "после",
    "по истечение",
    "со день",
    "с дата",
    "при условие",
    "по мера",
)


# «почём», «за одно место», «за единицу»: the price of one unit
_UNIT_QUESTION = ("почём", "один", "одна", "единица", "каждый")
_PER_UNIT = ("за один", "за единица", "за каждый", "за штука")


def asks_unit_price(question: Question) -> bool:
    """«Почём одно рабочее место?»: the sum for one unit, not a total."""
    return question.answer_type == "amount" and has_any(question.lemmas, _UNIT_QUESTION)


def states_unit_price(sentence: str) -> bool:
    """The sentence prices one unit: «… рублей за одно рабочее место»."""
    lemmas = _condition_lemmas(sentence)
    return any(find_cue(lemmas, cue) >= 0 for cue in _PER_UNIT)


def _digits(word: str) -> bool:
    return any(ch.isdigit() for ch in word) and all(ch.isdigit() or ch in ".," for ch in word)


@lru_cache(maxsize=20_000)
def counted_nouns(sentence: str) -> frozenset[str]:
    """Lemmas of the nouns a number counts in the sentence («300 паллето-мест» —
    «паллето-место»); not money, time, shares."""
    out: set[str] = set()
    for s in analyse(sentence).sentences:
        tokens = s.tokens
        for i, token in enumerate(tokens[:-1]):
            if not _digits(token.text):
                continue
            after = tokens[i + 1]
            if part_of_speech(after.text) == "NOUN" and after.lemma not in _MEASURES:
                out.add(after.lemma)
    return frozenset(out)


def _counted_asked(question: Question) -> set[str]:
    return {lm for a in question.attributes for lm in a.lemmas}


def states_count(question: Question, sentence: str) -> bool:
    """The sentence counts a thing the question asks about («сколько мест» — «30 мест»)."""
    asked = _counted_asked(question)
    if not asked:
        return False
    nouns = counted_nouns(sentence)
    return any(
        n == a or (len(n) >= _ROOT and len(a) >= _ROOT and n[:_ROOT] == a[:_ROOT])
        for n in nouns
        for a in asked
    )


def bounds_value(p: SentenceProfile) -> bool:
    """The sentence bounds a value: «не более», «свыше», «предельный», «максимальный»."""
    return bool(p.lemmas & _LIMIT_MARKERS)


def asks_moment(question: Question) -> bool:
    """«Когда переходит право?»: a moment, which an event may state, not a calendar day."""
    lemmas = question.lemmas
    return has_any(lemmas, _MOMENT_QUESTION) and not has_any(lemmas, _CALENDAR)


@lru_cache(maxsize=20_000)
def _condition_lemmas(sentence: str) -> tuple[str, ...]:
    return tuple(t.lemma for s in analyse(sentence).sentences for t in s.tokens)


def states_condition(sentence: str) -> bool:
    """The sentence ties its event to another: «с момента оплаты», «после подписания»."""
    lemmas = _condition_lemmas(sentence)
    return any(find_cue(lemmas, cue) >= 0 for cue in _CONDITIONS)
