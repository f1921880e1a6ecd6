"""A value the document labels by a noun the question asks.

A document names its own fields: «с отсрочкой платежа 45 календарных дней», «присоединяемая
мощность — 150 кВт», «отклонение количества в пределах ± 5 %». When the question asks by
that noun («какая отсрочка оплаты», «сколько мощности присоединяют», «какое отклонение
допускается») and its answer type is vague (a procedure, a definition) or a money amount
the clause does not state, the figure the noun labels is the value asked, whatever its kind:
no kind of document or field is listed here, the question's noun and the document's label
are matched by their lemmas.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources

from finagent.answering.sentence_profile import MONEY, PERCENT, PERIOD
from finagent.language.lemmas import best_parse
from finagent.language.measures import quantities_in
from finagent.language.text import Token, analyse
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.yaml_data import load_yaml

# words between the label and its figure: «отсрочкой платежа 45 …» (1), «отклонение
# количества в пределах ± 5 %» (4)
LABEL_REACH = 4
# answer types whose value the labelled figure may be of any kind
VAGUE_TYPES = frozenset({"procedure", "definition"})
# answer types a labelled quantity or percent answers when the clause states no sum
QUANTITY_TYPES = frozenset({"amount", "limit"})
# a sentence stop or a bracket ends the label's phrase («требования (единовременно) НДС 22 %»)
_STOPS = frozenset({".", ";", "!", "?", "(", ")"})
_VERBS = frozenset({"VERB", "INFN", "PRTS", "GRND"})
_YEAR = re.compile(r"(?:19|20)\d\d\s*г")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\w")


@cache
def _linking() -> frozenset[str]:
    """The verbs that link a label to its figure (``data/linking_verbs.yaml``)."""
    text = resources.files("finagent.answering").joinpath("data/linking_verbs.yaml")
    return frozenset(str(w) for row in load_yaml(text.read_text("utf-8")) for w in row)


def asked_nouns(question: Question) -> frozenset[str]:
    """The question's content lemmas that are nouns (the labels it may ask by)."""
    return frozenset(
        lm for lm in question.topic if lm not in STOP_LEMMAS and "NOUN" in best_parse(lm).tag
    )


@lru_cache(maxsize=20_000)
def _value_starts(sentence: str, vague: bool) -> tuple[int, ...]:
    """The offsets where the sentence's figures with a unit begin: percents and quantities
    in units of measure, and for a ``vague`` question also periods and sums."""
    patterns = [PERCENT, *([PERIOD, MONEY] if vague else [])]
    starts = {m.start() for pattern in patterns for m in pattern.finditer(sentence)}
    for quantity in quantities_in(analyse(sentence)):
        if _YEAR.match(quantity.text):
            continue  # «за III квартал 2026 г.»: a year, not grams
        at = sentence.find(quantity.text)
        if at >= 0:
            starts.add(at)
    return tuple(sorted(starts))


def labels_a_value(
    question: Question, sentence: str, asked: set[str] | frozenset[str] | None = None
) -> bool:
    """Whether a noun the question asks labels a figure of the sentence: the figure follows
    it within :data:`LABEL_REACH` words, no sentence stop nor other figure between. For a
    vague answer type any figure with a unit counts; for an amount or a limit only a
    quantity in a unit of measure or a percent (the clause stating no sum; a period is
    not what «сколько стоит доставка» asks). ``asked``: the lemmas that may label (else
    the question's content lemmas); only nouns among them do."""
    kind = question.answer_type
    if kind not in VAGUE_TYPES and kind not in QUANTITY_TYPES:
        return False
    nouns = asked_nouns(question)
    if asked is not None:
        nouns &= asked
    if not nouns:
        return False
    starts = _value_starts(sentence, kind in VAGUE_TYPES)
    if not starts:
        return False
    for analysed in analyse(sentence).sentences:
        tokens = analysed.tokens
        for i, token in enumerate(tokens):
            if token.lemma in nouns and _figure_follows(tokens[i + 1 :], starts):
                return True
    return False


def _figure_follows(tokens: list[Token], starts: tuple[int, ...]) -> bool:
    """Whether a figure with a unit begins within :data:`LABEL_REACH` words of the tokens'
    start (marks such as «—», «±», «**» are no words), before a stop or another figure."""
    words = 0
    for token in tokens:
        if token.start in starts:
            return True
        if token.text in _STOPS or _DIGIT.search(token.text):
            return False
        if _WORD.search(token.text):
            if best_parse(token.text).tag.POS in _VERBS and token.lemma not in _linking():
                return False
            words += 1
            if words > LABEL_REACH:
                return False
    return False
