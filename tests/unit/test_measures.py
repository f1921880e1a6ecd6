"""Counts in a unit of measure: read in sources, asked by questions, led by the rule."""

from __future__ import annotations

from finagent.answering.asked_values import asked_values
from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile
from finagent.answering.stated_value import prefer_stated_value
from finagent.language.measures import quantities_in
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.state import Chunk

KB = Chunk(id="kb-9:1", text="", source="kb", title="Образцовый налог на сараи")


def test_quantities_are_read_by_symbol_or_word() -> None:
    text = (
        "Сарай — минус 15 кв. м, навес — 4 м², склад — двенадцати тонн, двор 30 квадратных метров."
    )
    found = [(q.text, q.unit) for q in quantities_in(analyse(text), words=True)]
    assert found == [
        ("15 кв. м", "метр"),
        ("4 м²", "метр"),
        ("двенадцати тонн", "тонна"),
        ("30 квадратных метров", "метр"),
    ]


def test_a_question_asks_a_count_in_the_unit_after_skolko() -> None:
    q = build_question("На сколько квадратных метров уменьшают площадь сарая?")
    assert q.unit == "метр"
    assert build_question("Сколько стоит сарай площадью 20 кв. м?").unit is None
    sentence = "Для сарая — минус 15 кв. м, ставка 0,2 %, свыше 1 млн руб. — 1 %."
    assert asked_values(profile(sentence), q) == ("15 кв. м",)


def test_the_rule_stating_the_count_leads_over_an_example_and_a_sentence_without_one() -> None:
    q = build_question("На сколько квадратных метров уменьшают площадь сарая при расчёте налога?")
    ranked = [
        Candidate(
            KB, 1, "Пример: сарай 40 кв. м стоит 900 000 руб.", 0, 0, score=2.0, example=True
        ),
        Candidate(KB, 1, "Ставки для сараев — до 0,2 % от стоимости.", 0, 1, score=1.9),
        Candidate(KB, 1, "Площадь сарая уменьшают на 15 кв. м.", 0, 2, score=0.6),
        Candidate(KB, 1, "Площадь навеса уменьшают на 5 кв. м.", 0, 3, score=-1.0),
    ]
    for c in ranked:
        c.learned = True
    first = prefer_stated_value(q, ranked)[0]
    assert first.sentence == "Площадь сарая уменьшают на 15 кв. м."
    assert sentence_lead(q, first)[0].startswith("Величина — 15 кв. м")
    # another kind of question is left to the ranker
    plain = build_question("Какая ставка налога на сараи?")
    assert prefer_stated_value(plain, ranked)[0] is ranked[0]
