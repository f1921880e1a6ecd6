"""Polarity and actor of a sentence against the question (features of the sentence ranker).

*Polarity*: «При определении налоговой базы не учитываются следующие расходы …» denies what
«в каком размере их можно учесть?» asks; a sentence whose predicate is negated answers a
question that asks in the affirmative less often. A negation that sets a bound («не более»,
«не может превышать», «не позднее») states a value, not a denial.

*Actor*: «Налоговый орган обязан в течение пяти дней … выдать патент» states the
inspection's term; «сколько дней есть на оплату?» asks the taxpayer's. A sentence whose
subject, before its first predicate, is an actor the question does not name (the tax
authority) states another party's duty.

Both read pymorphy3 lemmas and parts of speech of the words as written (a participle is no
predicate, though its lemma is the verb).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from finagent.language.cues import find_cue
from finagent.language.lemmas import grammatical_case, lemma, part_of_speech
from finagent.language.text import Token, analyse

_NEGATION = "не"
_WORDS = re.compile(r"\w+")
_CLAUSE_BREAKS = re.compile(r"[,;:()—]|\s-\s")
# a clause of a condition or an exception states a case, not the rule's polarity
_JOINING = frozenset({"а", "и", "или"})
_CONDITIONS = ("если", "в случай", "при условие", "иной", "за исключение", "кроме")
# parts of speech of a predicate a negation denies («не учитываются», «не вправе»)
_PREDICATES = frozenset({"VERB", "INFN", "PRTS", "ADJS", "PRED"})
# words that make a negation a bound: «не более», «не может превышать», «не позднее»
_BOUNDS = frozenset(
    "более менее больше меньше позднее позже ранее раньше свыше превышать превысить "
    "ниже выше".split()
)
BOUND_REACH = 3  # lemmas after «не» a bound word may stand («не может быть менее»)
# actors other than the taxpayer asking: each a tuple of ordinary phrases
ACTORS: dict[str, tuple[str, ...]] = {
    "authority": ("налоговый орган", "инспекция", "ИФНС", "ФНС"),
}
# a tax agent is left out: the asker is often the agent without saying so («опоздали с
# 6-НДФЛ» — the employer's duty of ст. 126 п. 1.2)
_COLLOQUIAL_AUTHORITY = "налоговый"  # «в налоговую», «у налоговой»
SUBJECT_REACH = 6  # lemmas from the sentence's start its subject may stand within


def denies(words: Sequence[str]) -> bool:
    """Whether the words negate a predicate that is not a bound: «не учитываются», «не
    вправе», not «не более», «не может превышать»; nor a participle («не уплаченной в
    срок» qualifies a noun, it denies nothing; its lemma would be the verb's)."""
    lemmas = [lemma(w) for w in words]
    for i, lm in enumerate(lemmas[:-1]):
        if lm != _NEGATION or part_of_speech(words[i + 1]) not in _PREDICATES:
            continue
        if not _BOUNDS & set(lemmas[i + 1 : i + 1 + BOUND_REACH]):
            return True
    return False


def denies_text(text: str) -> bool:
    """Whether a clause of ``text`` that sets no condition denies: «если иное не
    предусмотрено …», «если компания их не представила» set a case, they deny nothing."""
    conditional = False
    for clause in _CLAUSE_BREAKS.split(text):
        words = _WORDS.findall(clause)
        sequence = [lemma(w) for w in words]
        # «если налоговая запросила документы, а компания их не представила»: a clause
        # joined by a conjunction goes on with the condition before it
        joined = conditional and bool(sequence) and sequence[0] in _JOINING
        conditional = joined or any(find_cue(sequence, cue) >= 0 for cue in _CONDITIONS)
        if not conditional and denies(words):
            return True
    return False


def denial_mismatch(sentence: str, question: str) -> bool:
    """The sentence (its text, with a list item's lead-in) denies where the question asks
    in the affirmative."""
    return denies_text(sentence) and not denies_text(question)


def _actors(lemmas: Sequence[str]) -> set[str]:
    return {
        key for key, phrases in ACTORS.items() if any(find_cue(lemmas, p) >= 0 for p in phrases)
    }


def subject_actors(sequence: Sequence[str]) -> set[str]:
    """The actors named before the sentence's first predicate, near its start: its
    subject («Налоговый орган обязан …»), not an actor it mentions later («… в налоговый
    орган»)."""
    end = next(
        (i for i, lm in enumerate(sequence) if part_of_speech(lm) in _PREDICATES),
        len(sequence),
    )
    return _actors(sequence[: min(end, SUBJECT_REACH)])


# the words before an actor that make it where the asker's act is addressed, not who acts:
# «уведомить налоговую», «сообщить в инспекцию», «подать заявление в ИФНС»
_DESTINATIONS = frozenset({"в", "во", "к", "ко"})
_VERB_FORMS = frozenset({"VERB", "INFN", "GRND"})
_NOMINATIVE = "nomn"


def _addressed(tokens: Sequence[Token], i: int) -> bool:
    """The actor named at token ``i`` is what the asker's act is addressed to: after a
    preposition of direction («в налоговую»), or right after a verb form as its object, not
    in the nominative («уведомить налоговую», «сообщить инспекции»)."""
    if i == 0:
        return False
    before = tokens[i - 1]
    if before.lemma in _DESTINATIONS:
        return True
    return (
        part_of_speech(before.text) in _VERB_FORMS
        and grammatical_case(tokens[i].text) != _NOMINATIVE
    )


@lru_cache(maxsize=1024)  # keyed by the question's text: bounded
def acting_actors(question: str) -> frozenset[str]:
    """The actors the question names as acting or holding a term («налоговая вернёт», «у
    инспекции есть три месяца»), not those the asker's own act is addressed to («в какой
    срок уведомить налоговую?»: the asker acts). The colloquial «налоговая» (the adjective
    standing alone, no noun after it) names the authority."""
    tokens = [t for sentence in analyse(question).sentences for t in sentence.tokens]
    lemmas = [t.lemma for t in tokens]
    named: set[str] = set()
    for key, phrases in ACTORS.items():
        for phrase in phrases:
            at = find_cue(lemmas, phrase)
            while at >= 0:
                if not _addressed(tokens, at):
                    named.add(key)
                at = find_cue(lemmas, phrase, at + 1)
    for i, lm in enumerate(lemmas):
        alone = i + 1 == len(tokens) or part_of_speech(tokens[i + 1].text) != "NOUN"
        if lm == _COLLOQUIAL_AUTHORITY and alone and not _addressed(tokens, i):
            named.add("authority")
    return frozenset(named)


def other_actor(sentence: Sequence[str], question: str) -> bool:
    """The sentence's subject is an actor the question (its text) does not name as acting
    (:func:`acting_actors`)."""
    return bool(subject_actors(sentence) - acting_actors(question))
