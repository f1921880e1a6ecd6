"""The general rule of a legal point before its exceptions and special cases.

A point of the Code states a rule and, beside it, its extensions, exceptions and special
cases: «…проводится в течение двух месяцев…», «Срок … может быть продлен до трех
месяцев…», «Камеральная налоговая проверка на основе заявления, указанного в пункте 2
статьи 221.1…, проводится в течение 30 календарных дней…». A plain question asks the rule
of its own subject. So when the best candidate is a sentence of the Code, the candidates of
the same point that state a value of the asked type are ordered by structure before the
learned score:

1. a sentence that states no condition the question leaves unasked comes first — an
   extension, suspension, exception, repeat or intent, or a special regime of the Code
   (:data:`ranker.EXCEPTIONS`), a tax the question does not name («… по налогу на
   добавленную стоимость …» for «сколько длится камеральная проверка декларации?»), or,
   when the question states no condition of its own, a sentence that opens with one
   («В случае, если …», «Если …», «При условии …», «За исключением …»);
2. then the sentence naming more of the question's subject (its words beyond the
   article's title, which every sentence of the point shares, and the asked tax by name):
   «декларации по налогу на добавленную стоимость» for a question on the VAT return;
3. then the learned score.

Only candidates within :data:`MARGIN` of the best are reordered: a sentence the ranker
finds far weaker is not the rule asked about.

*The general case across articles* (:func:`prefer_general_case`): when the best sentence
is one of the Code and a special case the question leaves unasked, its asides in
parentheses left out («Неуплата … контролирующим лицом … контролируемой иностранной
компании …», ст. 129.5, for «какой штраф за неуплату налога, если докажут умысел?»), the
best sentence of the Code or the knowledge base within :data:`CASE_MARGIN` that states a
value of the asked type and no such special case comes first, one naming a condition the
question asks («умышленно») before the others. A best sentence naming an asked condition
is the question's case, whatever else it names. A knowledge-base sentence is such a
special case when it names the condition before its first value of the asked type («По
требованию в рамках встречной проверки … штрафом 10 000 руб.»); one naming it after its
value («штраф 5 000 руб., за повторное нарушение — 20 000 руб.») states the rule first.
"""

from __future__ import annotations

import re

from finagent.answering.asked_values import asked_values, states_asked
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, promoted
from finagent.answering.ranker import EXCEPTIONS, asked_conditions, type_match
from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.language.cues import cue_lemmas, has_any
from finagent.language.glossary import glossary_terms
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS, TAXES

MARGIN = 4.0  # logit units of the learned ranker
CASE_MARGIN = 3.0  # across points and articles: the ranker's order weighs more there
# an aside in parentheses names the special cases beside the rule the sentence states
# («…в течение 10 дней (20 дней - при налоговой проверке консолидированной группы …)»)
_ASIDE = re.compile(r"\([^()]*\)")
# taxes a sentence names in passing as what a rule also covers («налога (сбора, страховых
# взносов)»), or as the account it is paid through: no special case of their own
_PASSING_TAXES = frozenset({"insurance", "ens", "duty"})
# a sentence that opens with its condition states a special case («В случае, если …»)
CONDITION_OPENERS = ("в случае", "если", "при условии", "за исключением")
# the question states a condition of its own: conditional sentences may be its answer
QUESTION_CONDITIONS = ("если", "в случае", "при условии")


def _opens_with_condition(p: SentenceProfile) -> bool:
    head = p.sequence[:3]
    return any(head[: len(c)] == c for c in (cue_lemmas(o) for o in CONDITION_OPENERS))


def _unasked_tax(p: SentenceProfile, question: Question) -> bool:
    """The sentence names a tax by a whole name and none the question names: a rule of that
    tax, not of the question's subject."""
    named = {t.key for t in TAXES if t.key not in _PASSING_TAXES and has_any(p.sequence, t.cues)}
    return bool(named) and not named & set(question.taxes)


def _conditions(p: SentenceProfile) -> set[str]:
    return {EXCEPTIONS[lm] for lm in p.lemmas if lm in EXCEPTIONS}


def _unasked_exception(
    p: SentenceProfile, asked: set[str], plain: bool, question: Question | None = None
) -> bool:
    if _conditions(p) - asked:
        return True
    if question is not None and _unasked_tax(p, question):
        return True
    return plain and _opens_with_condition(p)


def _without_asides(candidate: Candidate) -> SentenceProfile:
    text = candidate.sentence
    while (stripped := _ASIDE.sub(" ", text)) != text:
        text = stripped
    return profile(text)


def special_case(candidate: Candidate, question: Question, asked: set[str]) -> bool:
    """The sentence, its asides in parentheses left out, is a special case the question
    leaves unasked: a condition or special regime (:data:`ranker.EXCEPTIONS`), or, in the
    Code, a tax the question does not name. A knowledge-base sentence names taxes in
    passing («при возмещении НДС, разрывах в цепочке НДС»)."""
    p = _without_asides(candidate)
    if _conditions(p) - asked:
        return True
    return candidate.chunk.source == "law" and _unasked_tax(p, question)


def tax_named(p: SentenceProfile, question: Question) -> bool:
    cues = [cue for t in TAXES if t.key in question.taxes for cue in t.cues]
    return has_any(p.sequence, cues)


def _subject(question: Question, title: str) -> frozenset[str]:
    """The question's content lemmas (with the official terms of its slang) that the
    article's title does not already name."""
    official = {lm for term in glossary_terms(question.text) for lm in cue_lemmas(term)}
    topic = set(question.topic) | official
    return frozenset(topic - STOP_LEMMAS - profile(title).lemmas)


def prefer_general_rule(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the general rule of the best candidate's point first (see above)."""
    if not ranked or ranked[0].chunk.source != "law":
        return ranked
    top = ranked[0]
    unit = top.chunk.metadata.get("unit_id")
    if not unit:
        return ranked
    peers = [
        c
        for c in ranked
        if c.chunk.metadata.get("unit_id") == unit
        and c.score >= top.score - MARGIN
        and states_asked(profile(c.sentence), question)
    ]
    if len(peers) < 2 or top not in peers:
        return ranked
    lemmas = list(question.lemmas)
    asked = asked_conditions(lemmas)  # one the question sets aside is unasked too
    plain = not has_any(lemmas, QUESTION_CONDITIONS)
    subject = _subject(question, str(top.chunk.metadata.get("article_title") or ""))

    def key(c: Candidate) -> tuple[bool, int, float]:
        p = profile(c.sentence)
        words = p.lemmas | profile(c.context).lemmas if c.context else p.lemmas
        named = len(words & subject) + int(tax_named(p, question))
        return (_unasked_exception(p, asked, plain, question), -named, -c.score)

    best = min(peers, key=key)
    if best is top:
        return ranked
    return promoted(ranked, best)


def _case_first(candidate: Candidate, question: Question, asked: set[str]) -> bool:
    """A knowledge-base sentence names an unasked condition before its first value of the
    asked type (its asides in parentheses left out)."""
    text = candidate.sentence
    values = asked_values(profile(text), question)
    at = min((i for v in values if (i := text.find(v)) >= 0), default=-1)
    if at <= 0:
        return False
    head = text[:at]
    while (stripped := _ASIDE.sub(" ", head)) != head:
        head = stripped
    return bool(_conditions(profile(head)) - asked)


def prefer_general_case(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a general rule first when the best sentence is a special case the
    question leaves unasked (see the module's docstring)."""
    if not ranked or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    top = ranked[0]
    asked = asked_conditions(list(question.lemmas))
    # a sentence of a condition the question asks is its case, whatever else it names
    if _conditions(profile(top.sentence)) & asked or not special_case(top, question, asked):
        return ranked
    if top.chunk.source == "kb" and not _case_first(top, question, asked):
        return ranked
    rivals = [
        c
        for c in ranked[1:]
        if c.chunk.source in LEGAL_SOURCES
        and c.score >= top.score - CASE_MARGIN
        and type_match(profile(c.sentence), question)
        and not special_case(c, question, asked)
    ]
    if not rivals:
        return ranked

    def key(c: Candidate) -> tuple[bool, float]:
        return (not _conditions(profile(c.sentence)) & asked, -c.score)

    best = min(rivals, key=key)
    return promoted(ranked, best)
