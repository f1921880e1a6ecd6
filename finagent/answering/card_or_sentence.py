"""A card field's value or a clause of the same document: which one leads the answer.

A card answers a field question from the sentence its fact came from. When the field is of
a kind that cannot state the value the question asks first — a role the question mentions
while it asks a term («какой гарантийный срок даёт поставщик?») — a clause of the same
document that states a value of the asked type and names clearly more of the question's
words answers instead. A field of the asked kind keeps the lead: its facts are typed and
told apart by the question's qualifiers, which a clause's word overlap is not, unless the
clause names what the question measures, or the act the question asks («когда банк вернёт
депозит» — «Дата возврата депозита — …») while none of the field's sentences does
(«Депозит вносится не позднее …»): the act tells the clause apart, as a qualifier would.
A question asking a day of the month («до какого числа платим аренду?») is answered by
the clause stating one («не позднее 5-го числа оплачиваемого месяца») when no value of the
field is a day of the month (a card's dates are calendar dates, its terms spans of days).
"""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering.answer_kinds import states_asked_count
from finagent.answering.asked_acts import asked_acts
from finagent.answering.asked_values import asks_day
from finagent.answering.card_evidence import QUALIFIED, CardAnswer
from finagent.answering.document_sentences import (
    asked_lemmas,
    shared_words,
    value_level,
)
from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.labelled_value import labels_a_value
from finagent.answering.sentence_profile import profile
from finagent.cards.fields import BY_KEY as FIELD_BY_KEY
from finagent.cards.model import DocumentCard
from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import nominative, part_of_speech
from finagent.language.text import analyse
from finagent.question.model import Question

MARGIN = 1.0  # shared question words a clause needs beyond the card's sentence
# the answer types a field of each kind states (a penalty's field states its rate or sum)
_STATES = {
    "party": {"party"},
    "amount": {"amount", "limit", "rate"},
    "rate": {"rate", "limit", "amount"},
    "date": {"date", "period"},
    "term": {"period", "date"},
}


def _flat(text: str) -> str:
    return " ".join(text.split())


def clause_answers_instead(
    question: Question,
    answers: Sequence[CardAnswer],
    ranked: Sequence[Candidate],
    cards: Sequence[DocumentCard],
) -> bool:
    """Whether the best-ranked clause, not the card's one field, should lead."""
    if len(answers) != 1:
        return False  # several fields asked: the card states each
    answer = answers[0]
    # a key no list holds is the qualified amount («amount») or a party: a role in the
    # document's own words («кредитор») or the user's counterparty
    if answer.key in FIELD_BY_KEY:
        kind = FIELD_BY_KEY[answer.key].kind
    else:
        kind = "amount" if answer.key == QUALIFIED else "party"
    of_kind = question.answer_type in _STATES.get(kind, {question.answer_type})
    top = next((c for c in ranked if clean_sentence(c.sentence)), None)
    if top is None or top.chunk.source != "user_docs":
        return False
    if top.chunk.document_id != answer.document_id:
        return False
    text = _flat(top.sentence)
    if _states_asked_day(question, text) and not any(_day_of_month(v.value) for v in answer.values):
        return True  # «до какого числа» — «не позднее 5-го числа», which no card value states
    # a qualified amount («сумма») is asked by a generic word: only the asked act outweighs it
    by_name = of_kind and _field_asked_by_name(question, answer.key)
    if by_name and answer.key != QUALIFIED:
        return False
    if kind in ("amount", "rate") and states_asked_count(question, text):
        return True  # «сколько нормо-часов входит …»: a count, which no sum of the card states
    titled = profile(answer.title).lemmas
    if value_level(question, profile(text), text) < 1 and not labels_a_value(
        question, text, titled
    ):
        return False
    quoted = [_flat(v.sentence) for v in answer.values]
    if any(text in q or q in text for q in quoted):
        return False
    cues = FIELD_BY_KEY[answer.key].cues if answer.key in FIELD_BY_KEY else ()
    naming = {lm for cue in cues for lm in cue_lemmas(cue)}
    own = asked_lemmas(question, cards)
    asked = own - naming - titled
    # the act may be the field's own cue («вернуть» of a payment term) that its sentence
    # does not state («Депозит вносится …»)
    if of_kind and _names_the_asked_act(question, own - titled, text, answer):
        return True
    if not asked or by_name:
        return False
    if of_kind:
        return _names_the_thing_measured(question, asked, text, answer)
    clause = shared_words(asked, profile(text).lemmas)
    card = max(shared_words(asked, profile(q).lemmas) for q in quoted)
    return clause >= card + MARGIN


def _field_asked_by_name(question: Question, key: str) -> bool:
    """Whether a noun phrase the question asks holds a whole cue of the field («какой
    остаток», «дата заключения договора»): the field is then what is asked. «На какую
    сумму недостача», «какие транспортные расходы включили в стоимость» name the field
    only by a generic word of amount or by a complement; what they measure is another
    thing."""
    field = FIELD_BY_KEY.get(key)
    if field is None:
        return True
    for attribute in question.attributes:
        named = set(attribute.lemmas)
        if any(set(cue_lemmas(cue)) <= named for cue in field.cues):
            return True
    return False


def _subject_nouns(question: Question) -> set[str]:
    """The lemmas of what the question measures: the heads of its asked attributes and
    the nouns that may stand as its grammatical subject (in the nominative, not after a
    preposition: «на какую сумму недостача», not «на конец марта»)."""
    nouns = {a.head for a in question.attributes}
    analysed = analyse(question.text)
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            if part_of_speech(token.text) != "NOUN" or not nominative(token.text):
                continue
            if i and part_of_speech(tokens[i - 1].text) == "PREP":
                continue
            nouns.add(token.lemma)
    return nouns


def _names_the_thing_measured(
    question: Question, asked: set[str], text: str, answer: CardAnswer
) -> bool:
    """For a field of the asked kind the question does not name as what it asks: whether
    the clause names what the question measures (:func:`_subject_nouns`) while none of the
    field's sentences, nor their table labels, names any asked word («Выявлена недостача:
    … на сумму 15 840,00 руб.» over a stock list's «Итого» row for «на какую сумму
    недостача»)."""
    measured = asked & _subject_nouns(question)
    if not measured or not measured & profile(text).lemmas:
        return False
    return not _field_names_any(asked, answer)


def _field_names_any(words: set[str], answer: CardAnswer) -> bool:
    """Whether a sentence of the field's values, or its table label, names any of
    ``words`` (itself, a synonym or a word of its root)."""
    for value in answer.values:
        lemmas = profile(value.sentence).lemmas
        if value.label:
            lemmas |= profile(value.label).lemmas
        if shared_words(words, lemmas) > 0:
            return True
    return False


def _names_the_asked_act(
    question: Question, asked: set[str], text: str, answer: CardAnswer
) -> bool:
    """Whether the clause names an act the question asks (itself, by a synonym or a word of
    its root: «страховать» — «на страховую сумму», «вернуть» — «возврат») while none of the
    field's sentences, nor their table labels, names any."""
    acts = asked & asked_acts(question)
    if not acts or shared_words(acts, profile(text).lemmas) < 1:
        return False
    return not _field_names_any(acts, answer)


def _states_asked_day(question: Question, text: str) -> bool:
    """Whether the question asks a day of the month («до какого числа платим») and the
    clause states one («не позднее 5-го числа оплачиваемого месяца»)."""
    return question.answer_type == "date" and asks_day(question) and bool(profile(text).days)


def _day_of_month(value: str) -> bool:
    """Whether a card's value is a day of the month («10-го числа»), not a calendar date or
    a span of days."""
    return bool(profile(value).days)
