"""A further part looked for by the words of a long sentence's whole text, and the part a
best sentence answers told by its rare words.

Probe questions and sentences written for this mechanism (a made-up register, made-up
figures), about no evaluation item.
"""

from __future__ import annotations

from finagent.answering.evidence import Candidate, whole_sentence
from finagent.answering.further_parts import further_parts
from finagent.question.build import build_question
from finagent.state import Chunk

BASE = (
    "Неподача лицом реестра складских остатков, который это лицо должно подать в налоговый"
    " орган, в том числе неподача пояснений к реестру в случае его исправления после"
    " установленного срока, при отсутствии признаков налогового правонарушения,"
    " предусмотренного статьей 126 настоящего Кодекса, влечет взыскание штрафа в размере"
    " 3 000 рублей."
)
WINDOW = (
    "…при отсутствии признаков налогового правонарушения, предусмотренного статьей 126"
    " настоящего Кодекса, влечет взыскание штрафа в размере 3 000 рублей."
)
AGAIN = (
    "Те же деяния, совершенные повторно в течение календарного года, влекут взыскание"
    " штрафа в размере 12 000 рублей."
)
OTHER = (
    "Неподача иностранной организацией сообщения в налоговый орган влечет взыскание штрафа"
    " в размере 40 000 рублей."
)


def _one(i: int, sentence: str, score: float, text: str = "") -> Candidate:
    chunk = Chunk(id=f"law#{i}", text=text or sentence, source="law", title=f"п. {i} ст. 1")
    return Candidate(chunk, i + 1, sentence, i, 0, score=score, learned=True)


def test_a_window_is_read_with_its_whole_sentence() -> None:
    window = _one(1, WINDOW, 1.0, text=f"Первое правило. {BASE}")
    whole = whole_sentence(window)
    assert whole.startswith("Неподача лицом реестра") and whole.endswith("3 000 рублей.")
    plain = _one(2, OTHER, 1.0)
    assert whole_sentence(plain) == OTHER


def test_the_base_fine_window_answers_the_first_part_of_a_repeated_ask() -> None:
    question = build_question("Какой штраф за неподачу реестра остатков, и если повторно?")
    ranked = [_one(0, AGAIN, 3.0), _one(1, OTHER, 2.8), _one(2, WINDOW, 2.0, text=BASE)]
    more = further_parts(question, ranked)
    assert [c.sentence for c in more] == [WINDOW]


def test_a_common_value_noun_does_not_make_the_repeated_case_the_first_part() -> None:
    # «штраф» is used by many articles, «повторно» by few: the best sentence answers the
    # repeated case, so the first part's fine is looked for among the others
    question = build_question("Какой штраф за неподачу реестра остатков, а если повторно?")
    ranked = [_one(0, AGAIN, 3.0), _one(1, OTHER, 2.8), _one(2, BASE, 1.5)]
    more = further_parts(question, ranked)
    assert [c.sentence for c in more] == [BASE]
