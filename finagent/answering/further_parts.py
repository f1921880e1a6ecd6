"""A sentence for each further part of a question that asks several things.

«Сколько обычно длится выездная проверка и до скольких месяцев её могут продлить?»: the
best sentence answers the first part («не может продолжаться более двух месяцев»); the
second part is answered by another sentence («может быть продлен до четырех месяцев, а в
исключительных случаях - до шести месяцев»). For each part after the first
(``Question.parts``), among the candidates ranked close to the best, the one sharing most
of the part's own words (those no other part has; a shared six-letter start counts half)
that states a value of the part's type not stated yet comes next (for a part asking no
value, a sentence sharing none of its words is not its answer); ties go to the best
sentence's source (the same point or article), then to the score. A sentence whose values
are of other years than the question names («за 2024 год — …, за 2025 год — …» for 2026)
answers no part. A window of a long Code sentence («…при отсутствии признаков …, влечет
штраф …») shares the words of its whole sentence, which name its subject. A Code or
knowledge-base sentence that names more of a later part's own words than of the first's
(each weighed by how few articles use it) answers that part: then the first part is
looked for instead («…годовой лимит дохода … и какой налоговый бонус дают при
регистрации?» led by the sentence on the bonus; «…какой штраф, и если повторно?» led by
«Те же деяния, совершенные повторно …»).
"""

from __future__ import annotations

from finagent.answering.asked_values import number_of, own_numbers
from finagent.answering.cut_sentences import names_other_years
from finagent.answering.date_bounds import bounded_dates, lemmas_bound
from finagent.answering.evidence import Candidate, whole_sentence
from finagent.answering.sentence_profile import profile, values_of
from finagent.language.corpus_lemmas import corpus_lemmas
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS

LEARNED_MARGIN = 4.0  # logit units below the best sentence
SIMILARITY_MARGIN = 0.05
VALUE_TYPES = frozenset({"rate", "amount", "limit", "date", "period"})
_PREFIX = 6


def _values(candidate: Candidate, answer_type: str, own: frozenset[str] = frozenset()) -> set[str]:
    """The values of ``answer_type`` the candidate states, but those whose number ``own``
    holds (the question's own figures)."""
    p = profile(candidate.sentence)
    found = set(values_of(p, answer_type, days=True))
    if answer_type == "amount":  # a sanction may be a share of the amount it is charged on
        found |= set(values_of(p, "rate"))
    return {v for v in found if number_of(v) not in own}


def _overlap(words: set[str], lemmas: frozenset[str]) -> float:
    prefixes = {lm[:_PREFIX] for lm in lemmas if len(lm) >= _PREFIX}
    exact = words & lemmas
    near = {w for w in words - exact if len(w) >= _PREFIX and w[:_PREFIX] in prefixes}
    return len(exact) + 0.5 * len(near)


def _own_words(question: Question, i: int) -> set[str]:
    """The words of part ``i`` no other part has."""
    others = {lm for j, p in enumerate(question.parts) if j != i for lm in p.own}
    own = question.parts[i].own
    return {lm for lm in own if lm.isalpha() and lm not in STOP_LEMMAS} - others


def _answered_part(top: Candidate, words_of: list[set[str]]) -> int:
    """The part the best sentence answers: the first, unless it names more of a later
    part's own words than of the first's, each weighed by its inverse article frequency
    («Какой годовой лимит дохода у самозанятого и какой налоговый бонус дают при
    регистрации?» — «При регистрации … предоставляется
    налоговый вычет 10 000 руб.» answers the second part; the first is then looked for)."""
    lemmas = profile(top.ranked_text).lemmas
    # a word many articles use («штраф», «срок») tells the parts apart less than a rare one
    # («…какой штраф, и если повторно?» — «Те же деяния, совершенные повторно …»)
    scores = [corpus_lemmas().weight(words & lemmas) for words in words_of]
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return best if scores[best] > scores[0] else 0


def further_parts(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """The sentences answering the question's parts other than the one the best sentence
    answers (the first, or for the Code and the knowledge base a later part it names more
    of, :func:`_answered_part`), in the parts' order; none when the question asks one thing."""
    if len(question.parts) < 2 or not ranked:
        return []
    top = ranked[0]
    margin = LEARNED_MARGIN if top.learned else SIMILARITY_MARGIN
    # a user document's sentences are ordered by the document key, not by their scores:
    # every sentence of the best one's document may answer a further part
    document = top.chunk.source == "user_docs"
    near = [
        c
        for c in ranked
        if c.score >= top.score - margin
        or (document and c.chunk.document_id == top.chunk.document_id)
    ]
    asked = {lm for lm in question.lemmas if lm.isalpha() and lm not in STOP_LEMMAS}
    chosen = [top]
    stated = {v for t in VALUE_TYPES for v in _values(top, t)}
    own = own_numbers(question)
    years = {y.year for y in question.years}
    out: list[Candidate] = []
    words_of = [_own_words(question, i) for i in range(len(question.parts))]
    # a document's best sentence is ordered by the document key: it answers the first part
    answered = 0 if document else _answered_part(top, words_of)
    for i, part in enumerate(question.parts):
        words = words_of[i]
        if i == answered or not words:
            continue
        best: tuple[float, bool, float, bool, float] | None = None
        pick: Candidate | None = None
        # «… и до какой даты?»: a date that ends a term («не позднее 30 октября»), not the
        # date a document was signed or an event happened
        bound = lemmas_bound(part.own) if part.answer_type == "date" else None
        for c in near:
            if any(c.sentence in s.sentence or s.sentence in c.sentence for s in chosen):
                continue
            if part.answer_type in VALUE_TYPES and names_other_years(c.sentence, years):
                continue
            new = _values(c, part.answer_type, own) - stated
            if part.answer_type in VALUE_TYPES and not new:
                continue
            # a window of a long sentence is matched by its whole sentence's words
            lemmas = profile(whole_sentence(c)).lemmas
            overlap = _overlap(words, lemmas)
            if overlap <= 0 and part.answer_type not in VALUE_TYPES:
                continue
            # in a document, the words of the whole question tell its rows apart next
            # («…проценты на остаток … и сколько зачислил?» — the row «Проценты на остаток»)
            named = _overlap(asked, lemmas) if document else 0.0
            bounded = bound is not None and bool(bounded_dates(c.sentence, bound))
            key = (overlap, bounded, named, c.number == top.number, c.score)
            if best is None or key > best:
                best, pick = key, c
        if pick is not None:
            chosen.append(pick)
            out.append(pick)
            stated |= {v for t in VALUE_TYPES for v in _values(pick, t)}
    return out
