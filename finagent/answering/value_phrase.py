"""The value the question names, not the base or the neighbour it comes from.

A knowledge-base article or a Code point states several figures of one type near each
other, each the value of its own phrase: «Фиксированная часть: … за 2025 год — 53 658 руб.»
beside «Его максимальный размер: … за 2025 год — 300 888 руб.», «имущественным вычетом
1 млн руб.» beside «доход принимается равным 70 % кадастровой стоимости». The learned
ranker scores the sentences by the question as a whole, and the list item with the asked
year often wins. What tells them apart is the phrase the value belongs to: the words the
question names («максимальный взнос», «доход … дешевле кадастровой стоимости») are in the
sentence (and the lead-in of its list) that states the asked value, not in the one that
states the base.

:func:`prefer_named_phrase`, for a sum or a limit asked by «какой …»: the asked phrase is
the noun phrase of «какой» up to its head noun (:func:`asked_phrase`: «какой максимальный
взнос» → максимальный, взнос; «какой доход» → доход), less the nouns that only name the
kind of value («сумма», «лимит», «ставка»); a bound's words name each other («максимальный»,
«предельный», «потолок», «не более»). Of the Code and knowledge-base candidates near the
best (within :data:`MARGIN` logit units, not worked examples) that state a value of the
asked type, the one whose text (with its list's lead-in, or the sentence a pronoun opening
it refers to: «Его максимальный размер» after «Дополнительный взнос — 1 % …») names more of
the asked phrase than the best does comes first; of equals, the one naming more of the
question's other content words. A sum may be stated as a share of a quantity the
question names («доход принимается равным 70 % кадастровой стоимости» for «какой доход
берут … дешевле кадастровой стоимости»): such a share counts as a value of the asked type.
Rate questions are left alone: their phrase («какая ставка») names the kind only.

A bound's adjective or adverb anywhere in the question (:func:`asked_bounds`: «сколько
максимум можно вернуть», «минимальный и максимальный размер») joins the asked phrase, and
only a candidate naming every asked bound is promoted; a question whose parts ask the two
bounds of one value is read here too (one sentence states both).

A question of several parts has each part's value chosen by :mod:`further_parts`; a
question about the user's documents is answered from them; both are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from razdel import tokenize

from finagent.answering.asked_values import states_asked, value_type
from finagent.answering.evidence import Candidate, promoted, sentences_of
from finagent.answering.sentence_profile import PERCENT, profile
from finagent.language.lemmas import lemma, part_of_speech
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.question.which_head import MODIFIERS, which_head

SUMS = frozenset({"amount", "limit"})
MARGIN = 2.0  # logit units of the learned ranker
SHARE_WORDS = 3  # words after a percentage that may name the quantity it is a share of
# nouns that name the kind of a value, not what it is of («какую сумму», «какой лимит»,
# «какая ставка»): every candidate of the asked type is one of them
GENERIC = frozenset(
    "сумма размер величина значение число цифра лимит порог потолок предел ограничение "
    "максимум минимум ставка процент тариф коэффициент срок дата период".split()
)
# the words of an upper or a lower bound: «максимальный взнос» is named by «его
# максимальный размер», «потолок — не более 0,8 %» and «не может превышать» alike
UPPER = "<upper>"
LOWER = "<lower>"
_BOUNDS = {
    **dict.fromkeys(
        "максимальный предельный наибольший максимум предел потолок лимит".split(), UPPER
    ),
    **dict.fromkeys("минимальный наименьший минимум".split(), LOWER),
}
_BOUND_PHRASES = (
    (re.compile(r"\bне\s+(?:более|выше|свыше|может\s+превыша\w*)\b", re.I), UPPER),
    (re.compile(r"\bне\s+(?:менее|ниже)\b", re.I), LOWER),
)
# a sentence opening with one of these speaks of the previous sentence's subject
PRONOUNS = frozenset({"он", "она", "оно", "они", "его", "её", "ее", "их"})


def _content(lemmas: Iterable[str]) -> set[str]:
    """Content lemmas: words with letters, not function words, not figures."""
    return {w for w in lemmas if w.isalpha() and w not in STOP_LEMMAS and len(w) > 1}


# the adjectives and adverbs that ask a bound wherever the question names them («сколько
# максимум можно вернуть», «штраф — минимальный и максимальный размер»); the nouns «лимит»,
# «предел», «потолок» name the kind of value the question asks, not which bound
_ASKED_BOUNDS = frozenset(
    "максимальный предельный наибольший максимум минимальный наименьший минимум".split()
)


def asked_bounds(question: Question) -> frozenset[str]:
    """The bounds the question asks (:data:`UPPER`, :data:`LOWER`), anywhere in it."""
    return frozenset(_BOUNDS[w] for w in question.lemmas if w in _ASKED_BOUNDS)


def _asked_words(question: Question) -> list[str]:
    """The lemmas of the noun phrase «какой» asks, up to its head noun (the last); empty
    when no «какой» asks a noun."""
    words = [t.text for t in tokenize(question.text) if any(ch.isalpha() for ch in t.text)]
    at = next((i for i, w in enumerate(words) if lemma(w.lower()) == "какой"), -1)
    if at < 0:
        return []
    head, noun = which_head(words, at)
    return [lemma(w.lower()) for w in words[at + 1 : head + 1]] if noun else []


def asked_phrase(question: Question) -> frozenset[str]:
    """The content lemmas of the noun phrase «какой» asks («какой максимальный взнос» →
    максимальный, взнос; «какой доход тогда берут» → доход), less the nouns naming only a
    kind of value, with a bound's words as :data:`UPPER` or :data:`LOWER`."""
    found = _asked_words(question)
    return frozenset(_BOUNDS.get(w, w) for w in _content(found) - GENERIC)


def asked_noun(question: Question) -> str | None:
    """The head noun «какой» asks («какой доход тогда берут» → доход), unless it names only
    a kind of value («какую сумму»)."""
    found = _asked_words(question)
    return found[-1] if found and found[-1] not in GENERIC else None


def _share_spans(question: Question, sentence: str) -> list[tuple[int, int]]:
    """Each percentage of a quantity the question names, with the words naming it: «70 %
    кадастровой стоимости» (start, end) for a question naming «кадастровой стоимости»."""
    topic = _content(question.topic)
    spans: list[tuple[int, int]] = []
    for match in PERCENT.finditer(sentence):
        rest = sentence[match.end() :]
        # the noun phrase after the share («кадастровой стоимости», «от всех доходов»),
        # up to its last noun
        phrase = []
        tokens = list(tokenize(rest))
        tokens = tokens[1:] if tokens and tokens[0].text.lower() == "от" else tokens
        for token in tokens[:SHARE_WORDS]:
            if part_of_speech(token.text) not in {*MODIFIERS, "NOUN"}:
                break
            phrase.append(token)
        nouns = [t for t in phrase if part_of_speech(t.text) == "NOUN"]
        if nouns and any(lemma(t.text.lower()) in topic for t in phrase):
            spans.append((match.start(), match.end() + nouns[-1].stop))
    return spans


def share_of_named(question: Question, sentence: str) -> bool:
    """The sentence states a percentage of a quantity the question names: «равным 70 %
    кадастровой стоимости» for a question naming «кадастровой стоимости»."""
    return bool(_share_spans(question, sentence))


def named_shares(question: Question, sentence: str) -> tuple[str, ...]:
    """For a sum asked by its noun («какой доход»), the shares of a named quantity the
    sentence states after that noun («доход принимается равным 70 % кадастровой
    стоимости» → «70 % кадастровой стоимости»), not those of a condition before it («если
    цена ниже 70 % …»); empty without the noun in the sentence."""
    noun = asked_noun(question)
    if noun is None or value_type(question) not in SUMS:
        return ()
    tokens = list(tokenize(sentence))
    at = next((t.start for t in tokens if lemma(t.text.lower()) == noun), -1)
    if at < 0:
        return ()
    found = (sentence[a:b] for a, b in _share_spans(question, sentence) if a > at)
    return tuple(dict.fromkeys(" ".join(v.split()) for v in found))


def _states(question: Question, candidate: Candidate) -> bool:
    if states_asked(profile(candidate.sentence), question):
        return True
    return share_of_named(question, candidate.sentence)


def _antecedent(candidate: Candidate) -> str:
    """The sentence before one that opens with a pronoun («Его максимальный размер: …»
    after «Дополнительный взнос — 1 % …»): the pronoun's noun is named there."""
    words = [t.text for t in tokenize(candidate.sentence)][:1]
    if not words or lemma(words[0].lower()) not in PRONOUNS:
        return ""
    found = sentences_of(candidate.chunk.text)
    at = next((i for i, s in enumerate(found) if s.startswith(candidate.sentence[:60])), 0)
    return found[at - 1] if at > 0 else ""


def _named_in(text: str) -> frozenset[str]:
    """The lemmas of ``text`` with the bounds it names (:data:`UPPER`, :data:`LOWER`)."""
    lemmas = profile(text).lemmas
    bounds = {_BOUNDS[w] for w in lemmas if w in _BOUNDS}
    bounds |= {bound for pattern, bound in _BOUND_PHRASES if pattern.search(text)}
    return lemmas | bounds


def _named_by(candidate: Candidate) -> frozenset[str]:
    """The lemmas and bounds of the candidate's text (with the lead-in of its list, or the
    sentence a pronoun opening it refers to)."""
    return _named_in(f"{_antecedent(candidate)} {candidate.ranked_text}")


def named(phrase: frozenset[str], candidate: Candidate) -> int:
    """How many lemmas of the asked phrase the candidate's text names."""
    return len(phrase & _named_by(candidate))


def prefer_named_phrase(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the near candidate naming the asked phrase best first (above)."""
    bounds = asked_bounds(question)
    both = bounds == {UPPER, LOWER}  # parts asking the two bounds of one value
    if value_type(question) not in SUMS or (len(question.parts) > 1 and not both) or not ranked:
        return ranked
    top = ranked[0]
    phrase = asked_phrase(question) | bounds
    if not phrase or top.chunk.source == "user_docs" or question.documents:
        return ranked
    floor = 0 if top.example else named(phrase, top)
    topic = frozenset(_content(question.topic))
    best: Candidate | None = None
    most = (floor, 0)
    for c in ranked[1:]:
        near = c.score >= top.score - MARGIN and c.chunk.source != "user_docs"
        if not near or c.example or not _states(question, c):
            continue
        if not bounds <= _named_by(c):
            continue  # a question asking a bound is answered by a sentence naming it
        # more of the asked phrase than the best names; of equals, more of the question
        count = (named(phrase, c), named(topic, c))
        if count[0] > floor and count > most:
            best, most = c, count
    return promoted(ranked, best) if best is not None else ranked
