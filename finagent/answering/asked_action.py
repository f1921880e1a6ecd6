"""The action a deadline question asks: a report filed or a tax paid.

A knowledge-base list or a Code point often sets both deadlines in one sentence
(«организации — не позднее 25 марта, налог уплачивается до 28 марта»), and a question
asks one of them («когда сдавать декларацию», «до какого числа перечислить налог»). The
actions are lemma sets (:mod:`finagent.question.acts`). Of a date or period question asking
one action, the values of the sentence's segments (split at «;» and «,») that name only
the other action (or, naming none, listed after a lead-in naming it: «Отчёт подаётся:
организации — до …») are not the asked ones: :func:`of_asked_action` leaves them out,
when some value remains. A question naming both actions, or several parts, is left alone.

:func:`prefer_asked_action`: when every value of the asked type the best Code or
knowledge-base sentence states is another action's («Авансы уплачиваются не позднее
28-го …» for «до какого числа подать уведомление»), a near one (within :data:`MARGIN`
logit units, not a worked example) naming the asked action (with its list's lead-in)
and stating a value of the asked type in a segment of that action comes first.

*The asked predicate* (:func:`prefer_asked_predicate`): any other act the asking clause
names by its verb («сколько может длиться проверка», «с какой стоимости ОС
амортизируется», «сколько вернёт АСВ», «когда разблокируют счёт») is the question's
predicate. A rule whose sentence does not name it states a value of something else that
shares the topic: «может быть проверен период, не превышающий трех календарных лет» is
the span an inspection covers, not how long it lasts; «210 000 руб. — необлагаемый
лимит» is no sum returned. When the best Code or knowledge-base sentence names none of
the asked predicates, a near one (within :data:`MARGIN`, as for the asked action) that
names one (itself, a word of its root, a synonym of :mod:`finagent.language.synonyms` or
of ``data/asked_predicates.yaml``: «продолжаться» for «длиться», «возмещение» for
«вернуть», «блокировка снимается» for «разблокировать»), states a value of the asked
type (for «когда», a term counted from an event: «не позднее одного рабочего дня после
…»), is no special case the question leaves unasked and names at least as many of the
question's other words comes first; of several, the one naming most of them («по налогу
на добавленную стоимость» for «по НДС»). Not for a rate: it is asked by the verb of
taxing, whatever the rule. The verbs of value, modality, linking and of every rule of a
value («облагается», «исчисляется»: ``data/generic_predicates.yaml``) are no predicate.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from finagent.answering.asked_coverage import names_groups
from finagent.answering.asked_values import asked_values
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, first_near, promoted
from finagent.answering.extractive import clean_sentence
from finagent.answering.general_rule import special_case, tax_named
from finagent.answering.ranker import asked_conditions, type_match
from finagent.answering.sentence_profile import profile
from finagent.language.cues import cue_lemmas
from finagent.language.glossary import glossary_terms
from finagent.language.lemmas import part_of_speech, past_verb
from finagent.language.periods import periods_in
from finagent.language.synonyms import names_lemma
from finagent.language.text import analyse
from finagent.question.acts import (
    action_words,
    actions_named,
    actions_stated,
    asked_action,
    only_action,
)
from finagent.question.build import asked_clause_span
from finagent.question.conditions import condition_spans
from finagent.question.content import content_lemmas
from finagent.question.model import Question
from finagent.question.tables import SANCTIONS, STOP_LEMMAS
from finagent.yaml_data import load_yaml

__all__ = [
    "actions_named",
    "asked_action",
    "asked_predicates",
    "breach_action",
    "of_asked_action",
    "prefer_asked_action",
    "prefer_asked_predicate",
    "prefer_breach_action",
]

_SEGMENTS = re.compile(r"[;,]")
MARGIN = 2.0  # logit units of the learned ranker


def _kept(action: str, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """The values not stated in a segment naming only another action than ``action``."""
    # a list after a lead-in («Отчёт подаётся: организации — до …, налог уплачивается до
    # …») speaks of the lead-in's action where a segment names none
    lead_in, colon, listed = quote.partition(":")
    inherited = actions_stated(lead_in) if colon else frozenset()
    segments = [lead_in, *_SEGMENTS.split(listed)] if colon else _SEGMENTS.split(quote)
    other = [
        segment
        for segment in segments
        if (named := actions_stated(segment) or inherited) and action not in named
    ]
    # a value read across a comma («15-го числа месяца, следующего за кварталом») stands
    # where its first words do
    return tuple(
        v for v in values if not any(v.split(",")[0].strip() in segment for segment in other)
    )


def of_asked_action(question: Question, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """Of a sentence's values, those not stated in a segment naming only another action
    than the asked one; all of them when none would remain or no one action is asked."""
    action = asked_action(question)
    if action is None or len(values) < 2:
        return values
    return _kept(action, quote, values) or values


def prefer_asked_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sentence naming the asked action first, when every value of
    the asked type the best states is another action's (above)."""
    action = asked_action(question)
    if action is None or not ranked or ranked[0].chunk.source == "user_docs":
        return ranked
    top = ranked[0]
    values = asked_values(profile(top.sentence), question)
    # a list item's action is its lead-in's («Авансы уплачиваются …: - за полугодие — …»)
    if not values or _kept(action, top.ranked_text, values):
        return ranked

    def names_asked(candidate: Candidate) -> bool:
        if action not in actions_stated(candidate.ranked_text):
            return False
        found = asked_values(profile(candidate.sentence), question)
        return bool(found and _kept(action, candidate.sentence, found))

    best = first_near(ranked, MARGIN, names_asked)
    return promoted(ranked, best) if best is not None else ranked


def breach_action(question: Question) -> str | None:
    """The one action whose breach a sanction question of one part names («налоговый
    агент не перечислил НДФЛ — какой штраф?»: paying); None otherwise."""
    if len(question.parts) > 1 or not SANCTIONS & set(question.lemmas):
        return None
    return only_action(actions_named(question.text))


def procedure_action(question: Question) -> str | None:
    """The one action a «how» question of one part asks («как уплачивается сбор за
    квартал?»: paying; «как сдают отчёт?»: filing); None otherwise, and for a sanction."""
    if question.answer_type != "procedure" or len(question.parts) > 1:
        return None
    if SANCTIONS & set(question.lemmas):
        return None
    return only_action(actions_named(question.text))


def prefer_breach_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sanction of the asked breach first: when the best Code or
    knowledge-base sentence names only another action's breach («Непредставление …
    расчета …» for «не перечислил налог — какой штраф?»), the first within :data:`MARGIN`
    that names the asked action and states a value of the asked type comes first. A best
    sentence naming no action, or the asked one, stays."""
    return _asked_named_first(question, ranked, breach_action(question))


def prefer_procedure_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sentence of the asked action first for a «how» question: the
    return's term («Декларация подаётся … не позднее 25-го числа …») does not tell how the
    tax is paid («как уплачивается налог за квартал?»), the sentence naming the payment
    does («Налог уплачивается равными долями …»). As :func:`prefer_breach_action`, but a
    «how» asks no value type: the near sentence naming the asked action needs none. A best
    sentence naming no action, or the asked one, stays."""
    return _asked_named_first(question, ranked, procedure_action(question), typed=False)


def _asked_named_first(
    question: Question, ranked: list[Candidate], action: str | None, *, typed: bool = True
) -> list[Candidate]:
    """The first near Code or knowledge-base sentence naming ``action`` (and, ``typed``,
    stating a value of the asked type), when the best sentence names only another action."""
    if action is None or not ranked or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    named = actions_stated(ranked[0].ranked_text)
    if not named or action in named:
        return ranked

    def names_asked(candidate: Candidate) -> bool:
        return (
            candidate.chunk.source in LEGAL_SOURCES
            and action in actions_stated(candidate.ranked_text)
            and (not typed or type_match(profile(candidate.sentence), question))
        )

    best = first_near(ranked, MARGIN, names_asked)
    return promoted(ranked, best) if best is not None else ranked


# the verbs of value, modality and linking («стоит», «может», «составляет»): they ask for
# a value, they name no act a rule can be told apart by; nor do the verbs every rule of a
# value uses («облагается», «исчисляется», «применяется»)
_LIGHT_VERB_FILES = (
    "data/value_verbs.yaml",
    "data/linking_verbs.yaml",
    "data/generic_predicates.yaml",
)
_PREDICATE_FORMS = frozenset({"VERB", "INFN"})
# a rate is asked by the verb of taxing whatever the rule: its predicate tells nothing
PREDICATE_TYPES = frozenset({"amount", "limit", "period", "date"})


def _rows(data: object) -> list[list[str]]:
    """A YAML list of words, or a list of such lists, as rows."""
    items = data if isinstance(data, list) else []
    if items and all(isinstance(item, list) for item in items):
        return [[str(w) for w in item] for item in items]
    return [[str(w) for w in items]]


@cache
def _light_verbs() -> frozenset[str]:
    """The verbs of value, modality, linking and of every rule of a value, and the asked
    actions' own words (filing, paying, notifying: :func:`prefer_asked_action` reads them
    by their segments)."""
    files = resources.files("finagent.answering")
    light = {
        w
        for name in _LIGHT_VERB_FILES
        for row in _rows(load_yaml(files.joinpath(name).read_text("utf-8")))
        for w in row
    }
    return frozenset(light).union(*action_words().values())


def asked_predicates(question: Question) -> frozenset[str]:
    """The lemmas of the verbs (finite or infinitive) of the asking clause that name an act
    of their own: no light verb (above), no asked action's word, no act done (a verb in the
    past tense tells what happened: «счёт заблокировали»), none in a condition («…, если
    банк лишат лицензии»)."""
    tokens = [t for sentence in analyse(question.text).sentences for t in sentence.tokens]
    span = asked_clause_span([t.lemma for t in tokens])
    if span is None:
        return frozenset()
    conditions = condition_spans(question.text)
    return frozenset(
        t.lemma
        for t in tokens[span[0] : span[1]]
        if part_of_speech(t.text) in _PREDICATE_FORMS
        and t.lemma not in _light_verbs()
        and not past_verb(t.text)
        and not any(start <= t.start < end for start, end in conditions)
    )


def _names_predicate(verbs: frozenset[str], text: str) -> bool:
    """Whether ``text`` names one of ``verbs``: itself, a word of its root or a synonym
    (:func:`finagent.language.synonyms.names_lemma`), or an entry of its predicate group
    (``data/asked_predicates.yaml``)."""
    lemmas = profile(text).lemmas
    return any(names_lemma(v, lemmas) for v in verbs) or bool(names_groups(verbs, lemmas))


def _relative_term(sentence: str) -> bool:
    """A term counted from an event («не позднее одного рабочего дня после устранения
    нарушения», «в течение пяти дней со дня получения»): it tells when, as a date does."""
    return any(p.anchor for p in periods_in(analyse(clean_sentence(sentence))))


def _answers_type(candidate: Candidate, question: Question) -> bool:
    """The sentence states a value of the asked type; a date question («когда
    разблокируют») is answered by a term counted from an event as well."""
    if type_match(profile(candidate.sentence), question):
        return True
    return question.answer_type == "date" and _relative_term(candidate.sentence)


def _subject(question: Question, verbs: frozenset[str]) -> frozenset[str]:
    """The question's other content words, with the official terms of its slang
    («камералка» — «камеральная налоговая проверка»)."""
    official = {lm for term in glossary_terms(question.text) for lm in cue_lemmas(term)}
    words = content_lemmas(question) | (official - STOP_LEMMAS)
    return frozenset(words - verbs - _light_verbs())


def _named(subject: frozenset[str], question: Question, text: str) -> int:
    """How many of the question's other words the text names, its asked tax by a whole
    name counting as one («по НДС» — «по налогу на добавленную стоимость»)."""
    p = profile(text)
    return len(subject & p.lemmas) + int(tax_named(p, question))


def prefer_asked_predicate(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sentence naming the asked predicate first, when the best
    Code or knowledge-base sentence names none (see the module's docstring): of those that
    name it, are no special case the question leaves unasked and name at least as many of
    its other words as the best, the one naming most of them, then the ranker's."""
    if question.answer_type not in PREDICATE_TYPES or question.several or len(ranked) < 2:
        return ranked
    if len(question.parts) > 1 or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    verbs = asked_predicates(question)
    top = ranked[0]
    if not verbs or _names_predicate(verbs, top.ranked_text):
        return ranked
    subject = _subject(question, verbs)
    named = _named(subject, question, top.ranked_text)
    asked = asked_conditions(question.lemmas)
    rivals = [
        c
        for c in ranked[1:]
        if c.score >= top.score - MARGIN
        and c.chunk.source in LEGAL_SOURCES
        and not c.example
        and _names_predicate(verbs, c.ranked_text)
        and _answers_type(c, question)
        and not special_case(c, question, asked)
        and _named(subject, question, c.ranked_text) >= named
    ]
    if not rivals:
        return ranked
    best = max(rivals, key=lambda c: (_named(subject, question, c.ranked_text), c.score))
    return promoted(ranked, best)
