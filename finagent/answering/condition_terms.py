"""A measured condition the quoted sentence must speak of.

«какой штраф, если исполнитель не уложится в 6 часов ремонта?» asks what follows from a
condition measured by a number: its measured noun («ремонт», the genitive after the
number and its unit) names the clause the answer must come from. A document answer whose
quoted sentences never name it quotes some other row (a price per hour, a delay of
payment): the documents lack the condition, and the answer declines, saying so and
naming what the documents were searched."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.answering.coverage import searched_titles
from finagent.language.lemmas import genitive, part_of_speech
from finagent.language.synonyms import names_lemma
from finagent.language.text import analyse
from finagent.question.conditions import condition_spans
from finagent.question.tables import GENERIC_HEADS, MEASURE_UNITS
from finagent.state import Chunk

_MIN_NOUN = 4  # shorter nouns are abbreviations of units («мес», «шт»)


def measured_terms(text: str) -> list[str]:
    """Lemmas of the nouns a number measures in the question's conditional clauses: the
    noun in the genitive right after the number and its unit, not a unit or a word for a
    kind of value («в 4 часа простоя» → «простой»; «на 10 дней» → none)."""
    found: list[str] = []
    for start, end in condition_spans(text):
        for sentence in analyse(text[start:end]).sentences:
            tokens = sentence.tokens
            for i, token in enumerate(tokens[:-2]):
                unit, noun = tokens[i + 1], tokens[i + 2]
                if (
                    token.text.isdigit()
                    and unit.lemma in MEASURE_UNITS
                    and part_of_speech(noun.text) == "NOUN"
                    and genitive(noun.text)
                    and len(noun.lemma) >= _MIN_NOUN
                    and noun.lemma not in MEASURE_UNITS | GENERIC_HEADS
                ):
                    found.append(noun.lemma)
    return list(dict.fromkeys(found))


def lacks_condition(text: str, quoted: Sequence[str]) -> list[str]:
    """The measured condition terms (``measured_terms``) none of the ``quoted``
    sentences names (by lemma, synonym or root: «ремонт» of «ремонтных»,
    :func:`finagent.language.synonyms.names_lemma`); empty when one does or there are
    none."""
    terms = measured_terms(text)
    if not terms or not quoted:
        return []
    lemmas = {
        lemma
        for sentence in quoted
        for analysed in analyse(sentence).sentences
        for lemma in analysed.lemmas
    }
    if any(names_lemma(term, lemmas) for term in terms):
        return []
    return terms


def condition_abstention(
    text: str, quoted: Sequence[str], chunks: Sequence[Chunk]
) -> Abstention | None:
    """The abstention for a measured condition no quoted sentence speaks of, naming the
    documents searched; None when there is none or it is spoken of."""
    missing = lacks_condition(text, quoted)
    if not missing:
        return None
    term = missing[0]
    searched = searched_titles(chunks)
    return Abstention(
        "condition",
        messages.ABSTAIN_CONDITION.format(term=term),
        messages.ABSTAIN_CONDITION_MISSING.format(term=term, titles=searched),
    )
