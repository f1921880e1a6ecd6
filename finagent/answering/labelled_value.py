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
_YEAR = re.compile(r"(?:19|20)\d\d\s*г")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\w")


@cache
def _linking() -> frozenset[str]:
    """The verbs that link a label to its figure (``data/linking_verbs.yaml``)."""
    text = resources.files("finagent.answering").joinpath("data/linking_verbs.yaml")
    return frozenset(str(w) for row in load_yaml(text.read_text("utf-8")) for w in row)


@cache
def _words(key: str) -> frozenset[str]:
    """One word list of ``data/labelled_value.yaml``."""
    text = resources.files("finagent.answering").joinpath("data/labelled_value.yaml")
    return frozenset(str(w) for w in load_yaml(text.read_text("utf-8"))[key])


def _noun(lemma: str) -> bool:
    return lemma not in STOP_LEMMAS and "NOUN" in best_parse(lemma).tag


def asked_nouns(question: Question) -> frozenset[str]:
    """The question's content lemmas that are nouns."""
    return frozenset(lm for lm in question.topic if _noun(lm))


def asked_heads(question: Question) -> frozenset[str]:
    """The nouns the question asks the value of, the only labels it asks by: each asked
    attribute's head («какая отсрочка оплаты» → «отсрочка»), with the noun after a measure
    word («размер отсрочки» → «размер», «отсрочка»); with no attribute, the question's
    first content noun («что такое гарантийный срок по договору» → «срок»)."""
    heads: set[str] = set()
    for attribute in question.attributes:
        nouns = [lm for lm in attribute.lemmas if _noun(lm)]
        if not nouns:
            continue
        heads.add(nouns[0])
        if nouns[0] in _words("measure_heads") and len(nouns) > 1:
            heads.add(nouns[1])
    if heads:
        return frozenset(heads)
    first = next((lm for lm in question.topic if _noun(lm)), None)
    return frozenset({first}) if first else frozenset()


def asks_price(question: Question) -> bool:
    """The question asks a price («сколько стоит», «какова стоимость»): only money answers."""
    return bool(_words("price_words") & set(question.topic))


@lru_cache(maxsize=20_000)
def _value_starts(sentence: str, vague: bool, money_only: bool = False) -> tuple[int, ...]:
    """The offsets where the sentence's figures with a unit begin: percents and quantities
    in units of measure, and for a ``vague`` question also periods and sums (only sums,
    ``money_only``)."""
    if money_only:
        return tuple(m.start() for m in MONEY.finditer(sentence))
    patterns = [PERCENT, *([PERIOD, MONEY] if vague else [])]
    starts = {m.start() for pattern in patterns for m in pattern.finditer(sentence)}
    for quantity in quantities_in(analyse(sentence)):
        if _YEAR.match(quantity.text):
            continue  # «за III квартал 2026 г.»: a year, not grams
        at = sentence.find(quantity.text)
        if at >= 0:
            starts.add(at)
    return tuple(sorted(starts))


def labels_a_value(question: Question, sentence: str, titled: frozenset[str]) -> bool:
    """Whether the noun the question asks the value of (:func:`asked_heads`) labels a
    figure of the sentence: the figure follows it within :data:`LABEL_REACH` words, no
    sentence stop nor other figure between. For a vague answer type any figure with a unit
    counts; for an amount or a limit only a quantity in a unit of measure or a percent (the
    clause stating no sum). A price wants money: a quantity or a percent does not answer it,
    and for a vague type only a sum counts. ``titled``: the lemmas of the document's title,
    which label nothing (every clause of the document speaks of them)."""
    kind = question.answer_type
    if kind not in VAGUE_TYPES and kind not in QUANTITY_TYPES:
        return False
    price = asks_price(question)
    if price and kind in QUANTITY_TYPES:
        return False
    nouns = asked_heads(question) - titled
    if not nouns:
        return False
    starts = _value_starts(sentence, kind in VAGUE_TYPES, money_only=price)
    topic = frozenset(question.topic)
    if not starts:
        return False
    for analysed in analyse(sentence).sentences:
        tokens = analysed.tokens
        for i, token in enumerate(tokens):
            if token.lemma in nouns and _figure_follows(tokens[i + 1 :], starts, topic):
                return True
    return False


def _figure_follows(tokens: list[Token], starts: tuple[int, ...], topic: frozenset[str]) -> bool:
    """Whether a figure with a unit begins within :data:`LABEL_REACH` words of the tokens'
    start (marks such as «—», «±», «**» are no words, nor the question's own words, which
    go on with the label's phrase: «допуск по весу партии в пределах ± 3 %»), before a
    stop or another figure."""
    words = 0
    for token in tokens:
        if token.start in starts:
            return True
        if token.text in _words("stops") or _DIGIT.search(token.text):
            return False
        if _WORD.search(token.text):
            if (
                best_parse(token.text).tag.POS in _words("verb_tags")
                and token.lemma not in _linking()
            ):
                return False
            words += token.lemma not in topic
            if words > LABEL_REACH:
                return False
    return False
