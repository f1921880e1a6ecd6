"""Values a question's words ask for beyond the figures of its answer type.

- a count of the thing asked: «сколько мест», «минимальный объём паллето-мест» are answered
  by a number with that noun («не менее 300 паллето-мест»), not a sum of money; «сколько
  раз» by a count of times («8 раз в год»), not the rate or sum the sentence is about;
- a limit: «сколько максимум», «не более», «потолок» are answered by a clause that bounds
  its value («но не более 60 000 руб.»), not by any figure;
- a price of one unit: «почём», «сколько стоит одно место» are answered by the sum stated
  for one («4 200 рублей за одно рабочее место»), not a total;
- a moment by a condition: «когда переходит право», «в какой момент» may be answered by
  the event it waits for («с момента полной оплаты», «после подписания акта») when the
  question does not ask for a calendar day («какого числа», «какая дата»).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from finagent.answering.sentence_profile import SentenceProfile
from finagent.language.cues import find_cue, has_any
from finagent.language.lemmas import part_of_speech
from finagent.language.synonyms import same_root
from finagent.language.text import Token, analyse
from finagent.question.model import Question

# nouns of money, time and shares: a number before them is no count of things
_MEASURES = frozenset(
    "рубль руб копейка коп доллар евро процент день месяц год неделя час минута квартал "
    "число раз".split()
)
# «сколько раз в год»: a count of times is asked as a count of things («8 раз в год»),
# though «раз» after a number is no thing counted otherwise («в 2 раза больше»)
_TIMES_KEPT = frozenset({"раз"})
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
# «за 1 чел.», «за 1 кв. м»: the one unit written as a digit, as price lists and tables do
_PER_UNIT = ("за один", "за 1", "за единица", "за каждый", "за штука")


def asks_unit_price(question: Question) -> bool:
    """«Почём одно рабочее место?»: the sum for one unit, not a total."""
    return question.answer_type == "amount" and has_any(question.lemmas, _UNIT_QUESTION)


def states_unit_price(sentence: str) -> bool:
    """The sentence prices one unit: «… рублей за одно рабочее место»."""
    lemmas = _condition_lemmas(sentence)
    return any(find_cue(lemmas, cue) >= 0 for cue in _PER_UNIT)


def _digits(word: str) -> bool:
    return any(ch.isdigit() for ch in word) and all(ch.isdigit() or ch in ".," for ch in word)


_SPELLED_REACH = 5  # words of a number written out in brackets: «(двадцати двух)»
_ADJECTIVE_REACH = 2  # adjectives between a count and its noun: «2 аварийных выездов»
_NOUN_MODIFIERS = frozenset({"ADJF", "PRTF"})
_HOW_MANY = "сколько"
_COUNT_BOUNDS = frozenset({"более", "менее"})  # «не более 2 выездов»


@lru_cache(maxsize=20_000)
def counted_nouns(sentence: str, times: bool = False) -> frozenset[str]:
    """Lemmas of the nouns a number counts in the sentence («300 паллето-мест» —
    «паллето-место»); not money, time, shares, nor, unless ``times``, times («8 раз»)."""
    if not any(ch.isdigit() for ch in sentence):
        return frozenset()  # no count in digits: not tokenised
    out: set[str] = set()
    keep = _TIMES_KEPT if times else frozenset()
    for s in analyse(sentence).sentences:
        tokens = s.tokens
        for i, token in enumerate(tokens[:-1]):
            if _digits(token.text) and (noun := _counted_noun(tokens, i + 1, keep)) is not None:
                out.add(tokens[noun].lemma)
    return frozenset(out)


def _counted_noun(
    tokens: Sequence[Token], at: int, keep: frozenset[str] = frozenset()
) -> int | None:
    """The position of the noun a number before ``at`` counts: right after it, or after
    the number in words in brackets and the adjectives of the noun («22 (двадцати двух)
    рабочих смен», «2 аварийных выездов»); None for a measure of money or time (but those
    of ``keep``)."""
    if at < len(tokens) and tokens[at].text == "(":
        close = next((j for j in range(at, len(tokens)) if tokens[j].text == ")"), None)
        if close is None or close - at > _SPELLED_REACH:
            return None
        at = close + 1
    for j in range(at, min(len(tokens), at + _ADJECTIVE_REACH + 1)):
        kind = part_of_speech(tokens[j].text)
        if kind == "NOUN":
            return j if tokens[j].lemma not in _MEASURES or tokens[j].lemma in keep else None
        if kind not in _NOUN_MODIFIERS:
            return None
    return None


def asked_count_phrases(question: Question, sentence: str) -> tuple[str, ...]:
    """The counts of the noun the question's first part asks, as the sentence words them,
    with a bound right before («не более 2 аварийных выездов»): the value a count question's
    lead states."""
    asked = asked_count(question)
    if asked is None:
        return ()
    out: list[str] = []
    for s in analyse(sentence).sentences:
        tokens = s.tokens
        for i, token in enumerate(tokens[:-1]):
            if not _digits(token.text):
                continue
            noun = _counted_noun(tokens, i + 1, frozenset({asked}) & _TIMES_KEPT)
            if noun is None or not same_root(tokens[noun].lemma, asked):
                continue
            first = i
            if i >= 2 and tokens[i - 2].lemma == "не" and tokens[i - 1].lemma in _COUNT_BOUNDS:
                first = i - 2
            out.append(" ".join(sentence[tokens[first].start : tokens[noun].end].split()))
    return tuple(dict.fromkeys(out))


def _counted_asked(question: Question) -> set[str]:
    return {lm for a in question.attributes for lm in a.lemmas}


def states_count(question: Question, sentence: str) -> bool:
    """The sentence counts a thing the question asks about («сколько мест» — «30 мест»)."""
    asked = _counted_asked(question)
    if not asked:
        return False
    nouns = counted_nouns(sentence)
    return any(same_root(n, a) for n in nouns for a in asked)


def asked_count(question: Question) -> str | None:
    """The noun the first asked part counts by «сколько» («сколько аварийных выездов
    входит …» — «выезд»); None when it asks money, time or no count («сколько стоит»)."""
    lemmas = question.parts[0].own if question.parts else question.lemmas
    for i, word in enumerate(lemmas):
        if word != _HOW_MANY:
            continue
        for after in lemmas[i + 1 : i + 2 + _ADJECTIVE_REACH]:
            kind = part_of_speech(after)
            if kind == "NOUN":
                return after if after not in _MEASURES or after in _TIMES_KEPT else None
            if kind not in _NOUN_MODIFIERS:
                break
    return None


def states_asked_count(question: Question, sentence: str) -> bool:
    """The sentence counts the noun the question's first part asks the number of: «не более
    2 (двух) аварийных выездов» for «сколько выездов входит …»."""
    asked = asked_count(question)
    if asked is None:
        return False
    return any(same_root(n, asked) for n in counted_nouns(sentence, asked in _TIMES_KEPT))


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
