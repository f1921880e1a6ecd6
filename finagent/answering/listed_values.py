"""The other values of a question that asks several of one kind («какие ставки НДС»).

A knowledge-base article or a Code article states such values sentence by sentence:
«Базовая ставка … — 20 %, …», «Льготная ставка 10 % …, а ставка 0 % — …». The best
sentence names one or two of them; the lead lists the rest from the sentences of the same
source ranked close to it that name the asked head («ставка») and state a value of the
asked type, each quoted under the lead. A user's document is left to its card, and a
question asking one value is left alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources

from razdel import tokenize

from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.sentence_profile import profile, shown
from finagent.language.lemmas import lemma
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

LISTED_TYPES = frozenset({"rate", "amount", "limit"})
WINDOW = 8  # the ranked sentences looked at, best first
MAX_LISTED = 4  # values in one lead, all sentences together
MAX_PER_SENTENCE = 3  # a sentence stating more is a table or an example, not a list item
HEAD_REACH = 8  # words from the head to its value («ставки: для объекта «доходы» — до 1 %»)
_CLAUSE_END = frozenset({";", ".", "(", ")"})


@cache
def _repealed() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data", "listed_values.yaml")
    return frozenset(str(w) for w in load_yaml(text.read_text("utf-8"))["repealed"])


def _head(question: Question) -> str | None:
    """The lemma naming what is listed («ставка»), when the question names one."""
    for attribute in question.attributes:
        if attribute.head:
            return attribute.head
    return None


def _headed(quote: str, head: str, values: Sequence[str]) -> tuple[str, ...]:
    """The values the head governs: each stated after the head within the same clause
    («по ставке 6 %», «ставки 5 % и 7 %»); a share stated before it is another quantity's
    («расходы больше 60–65 % выручки (при базовых ставках)»)."""
    words = [t.text for t in tokenize(quote)]
    lemmas = [lemma(w) for w in words]
    kept: list[str] = []
    for value in values:
        first = value.split()[0]
        for at, word in enumerate(words):
            if word != first:
                continue
            before = range(max(0, at - HEAD_REACH), at)
            for i in reversed(before):
                if words[i] in _CLAUSE_END:
                    break
                if lemmas[i] == head:
                    kept.append(value)
                    break
            if kept and kept[-1] == value:
                break
    return tuple(kept)


def listed_values(
    question: Question,
    top: Candidate,
    ranked: Sequence[Candidate],
    named: Sequence[str],
    stated: Callable[[Question, str], tuple[str, ...]],
) -> list[tuple[tuple[str, ...], Candidate]]:
    """Each further sentence of ``top``'s source with the new values it states (those
    ``named`` does not hold yet), best first; none for a question of one value."""
    if not question.several or question.answer_type not in LISTED_TYPES:
        return []
    if top.chunk.source == "user_docs":
        return []
    head = _head(question)
    if head is None:
        return []
    seen = {shown(v) for v in named}
    found: list[tuple[tuple[str, ...], Candidate]] = []
    for candidate in ranked[:WINDOW]:
        if candidate is top or candidate.number != top.number:
            continue
        quote = clean_sentence(candidate.sentence)
        lemmas = profile(quote).lemmas
        if not quote or head not in lemmas or lemmas & _repealed():
            continue
        values = _headed(quote, head, stated(question, quote))
        if not values or len(values) > MAX_PER_SENTENCE:
            continue
        new = tuple(dict.fromkeys(v for v in values if shown(v) not in seen))
        if not new or len(seen) + len(new) > MAX_LISTED:
            continue
        seen.update(shown(v) for v in new)
        found.append((new, candidate))
    return found
