"""A rate question answered by a rate, not by some other percent."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.rate_clause import no_rate, prefer_rate_clause, states_rate
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import scored

KB = Chunk(id="kb3#0", text="", source="kb", title="Патент: стоимость и ставки")
LAW = Chunk(
    id="art346.50#0",
    text="",
    source="law",
    metadata={"unit_id": "nk2.art346.50.p1", "article": "346.50"},
)
QUESTION = build_question("Какая ставка налога на ПСН?")


def _candidate(sentence: str, score: float, chunk: Chunk = KB, context: str = "") -> Candidate:
    return scored(chunk, sentence, score, context)


def test_a_share_of_something_is_no_rate_a_rate_word_makes_one() -> None:
    share = _candidate("Патент выгоднее, если выручка превышает 40 % от норматива.", 3.0)
    hedged = _candidate(
        "Патент выгоднее, если затраты больше 70 % дохода (при базовых ставках).", 3
    )
    rate = _candidate("Налог по патенту исчисляется по ставке 6 % от потенциального дохода.", 2)
    assert no_rate(share, QUESTION) and no_rate(hedged, QUESTION)
    assert not no_rate(rate, QUESTION) and states_rate(rate, QUESTION)


def test_a_bare_list_item_is_a_rate_of_its_list() -> None:
    item = _candidate("- 3 марта 2031 года — **12,5 %**.", 3.0)
    question = build_question("Какая ключевая ставка действовала в марте 2031 года?")
    assert not no_rate(item, question)


def test_another_taxs_rate_is_no_rate_of_the_asked_tax() -> None:
    other = _candidate("Покупатель платит общие ставки (22 %, 11 %) с вычетом входного НДС.", 3.0)
    own = _candidate("Для ПСН налоговая ставка — 6 %.", 1.0)
    assert no_rate(other, QUESTION)
    assert states_rate(own, QUESTION)


def test_the_near_rate_leads_a_far_one_or_an_example_does_not() -> None:
    share = _candidate("Патент выгоднее, если выручка превышает 40 % от норматива.", 3.0)
    rate = _candidate("Налоговая ставка устанавливается в размере 6 процентов.", 1.5, LAW)
    ranked = prefer_rate_clause(QUESTION, [share, rate])
    assert ranked[0].sentence == rate.sentence and ranked[0].score == share.score
    far = _candidate("Налоговая ставка устанавливается в размере 6 процентов.", -1.0, LAW)
    assert prefer_rate_clause(QUESTION, [share, far])[0] is share
    example = _candidate("Пример: налог по ставке 6 % составит 36 000 руб.", 2.5)
    example.example = True
    assert prefer_rate_clause(QUESTION, [share, example])[0] is share


def test_a_top_stating_a_rate_or_a_question_of_another_type_is_left_alone() -> None:
    rate = _candidate("Налог по патенту исчисляется по ставке 6 %.", 3.0)
    other = _candidate("Налоговая ставка устанавливается в размере 4 процентов.", 2.0, LAW)
    assert prefer_rate_clause(QUESTION, [rate, other])[0] is rate
    share = _candidate("Патент выгоднее, если выручка превышает 40 % от норматива.", 3.0)
    term = build_question("На какой срок выдаётся патент?")
    assert prefer_rate_clause(term, [share, other])[0] is share
