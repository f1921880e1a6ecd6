"""A worked example yields to the rule it illustrates; a question asking two things gets a
sentence for each; the Code's sentences that go on over lines are one candidate."""

from __future__ import annotations

from finagent.answering.evidence import Candidate, units_of
from finagent.answering.further_parts import further_parts
from finagent.answering.sentence_profile import profile, values_of
from finagent.answering.worked_examples import prefer_rule
from finagent.question.build import build_question
from finagent.state import Chunk

ARTICLE = """Сбор за образцовую регистрацию: 3 % — с физических лиц; 5 % — с организаций.

**Пример расчёта**

Фирма «Альфа» заплатила 40 000 руб. Сбор 5 % — 2 000 руб.

## Пример и изменения последних лет

С 2027 года сбор для организаций повысят до 6 %. Пример: ИП заплатил 10 000 руб.
"""


def _kb() -> Chunk:
    return Chunk(id="kb-1:1", text="Сбор\n" + ARTICLE, source="kb", title="Сбор")


def _example(units: list, start: str) -> bool:
    return next(u.example for u in units if u.sentence.startswith(start))


def test_worked_examples_are_marked_by_heading_and_by_their_opening_word() -> None:
    units = units_of(ARTICLE)
    assert _example(units, "Сбор за образцовую регистрацию") is False
    assert _example(units, "Фирма «Альфа» заплатила") is True
    # a section of an example and another topic is no example; a paragraph's «Пример:» is
    assert _example(units, "С 2027 года сбор") is False
    assert _example(units, "Пример: ИП заплатил") is True
    # a passage whose own section is an example
    assert all(u.example for u in units_of("Фирма заплатила 1 000 руб.", example_section=True))


def test_the_rule_comes_before_the_example_that_illustrates_it() -> None:
    chunk = _kb()
    example = Candidate(chunk, 1, "Фирма «Альфа» заплатила 40 000 руб. Сбор 5 % — 2 000 руб.", 0, 2)
    example.example, example.score, example.learned = True, 3.0, True
    rule = Candidate(chunk, 1, "Сбор: 3 % — с физических лиц; 5 % — с организаций.", 0, 0)
    rule.score, rule.learned = 2.0, True
    question = build_question("Какой сбор за образцовую регистрацию платит фирма?")
    assert prefer_rule(question, [example, rule])[0].sentence == rule.sentence
    # a rule of another source is not the one the example illustrates
    other = Candidate(Chunk(id="kb-2:1", text="x", source="kb"), 2, rule.sentence, 1, 0)
    other.score, other.learned = 2.0, True
    assert prefer_rule(question, [example, other])[0] is example
    # far below the example: not close enough to be its rule
    rule.score = -1.0
    assert prefer_rule(question, [example, rule])[0] is example


def test_an_example_stating_two_asked_values_yields_to_the_rule_stating_the_first() -> None:
    # the example states the threshold and the deadline; the rule states the threshold
    # and its deadline stands in another sentence: the rule still comes first
    chunk = _kb()
    example = Candidate(
        chunk, 1, "Пример: доход фирмы — 900 000 руб., отчёт она сдала до 15 мая.", 0, 3
    )
    example.example, example.score, example.learned = True, 3.0, True
    rule = Candidate(chunk, 1, "Льгота действует, пока доход не превышает 1 млн руб.", 0, 0)
    rule.score, rule.learned = 2.0, True
    question = build_question("До какой суммы дохода действует льгота и когда сдать отчёт?")
    assert question.answer_type == "limit" and "date" in question.answer_types
    assert prefer_rule(question, [example, rule])[0].sentence == rule.sentence


def test_a_code_sentence_going_on_over_lines_is_one_candidate() -> None:
    text = (
        "Неподача образцового отчета без уважительных причин,\n"
        "влечет взыскание штрафа в размере 700 рублей.\n"
        "Отчет включает:\n"
        "а) первый раздел отчета;"
    )
    law = [u.sentence for u in units_of(text, law=True)]
    assert law[0] == (
        "Неподача образцового отчета без уважительных причин, "
        "влечет взыскание штрафа в размере 700 рублей."
    )
    assert units_of(text)[0].sentence == "Неподача образцового отчета без уважительных причин,"


def test_a_question_asking_two_things_has_two_typed_parts() -> None:
    question = build_question(
        "Сколько длится образцовая проверка и до скольких месяцев её продлевают?"
    )
    assert [p.answer_type for p in question.parts] == ["period", "period"]
    assert question.parts[1].own[:2] == ["до", "сколько"]
    elliptic = build_question("Какой штраф за неподачу отчета? А за опоздание с отчетом?")
    assert [p.answer_type for p in elliptic.parts] == ["amount", "amount"]
    assert build_question("Сколько длится образцовая проверка?").parts == []


def test_each_further_part_gets_a_sentence_of_its_own() -> None:
    chunk = Chunk(id="l#0", text="", source="law", metadata={"citation": "п. 1 ст. 901"})
    texts = [
        "Образцовая проверка длится не более трех месяцев.",
        "Сбор за проверку составляет 5 процентов.",
        "Срок проверки может быть продлен до семи месяцев.",
    ]
    ranked = [
        Candidate(chunk, 1, t, 0, i, score=3.0 - i, learned=True) for i, t in enumerate(texts)
    ]
    question = build_question(
        "Сколько длится образцовая проверка и до скольких месяцев её продлевают?"
    )
    assert [c.sentence for c in further_parts(question, ranked)] == [texts[2]]
    assert further_parts(build_question("Сколько длится образцовая проверка?"), ranked) == []


def test_a_fraction_is_a_rate() -> None:
    assert values_of(profile("с 31-го дня — 1/150 ставки рефинансирования"), "rate") == ("1/150",)
    assert values_of(profile("дата 01.02.2025"), "rate") == ()


def test_a_further_part_in_a_document_is_answered_by_the_row_the_question_names() -> None:
    # document sentences are ordered by the document key, not by their scores: the row far
    # below the best sentence answers the second part by the question's words
    chunk = Chunk(id="d:1", text="", source="user_docs", title="Выписка", document_id="d")
    texts = [
        "Комиссия банка за ведение счёта начислена по ставке 0,2 % и списана 31.03.2025.",
        "№: 7; Назначение платежа: Оплата аренды за март; Дебет (списание), руб.: 90 000,00",
        "№: 9; Назначение платежа: Комиссия за ведение счёта за март; Дебет, руб.: 1 250,00",
    ]
    ranked = [
        Candidate(chunk, 1, t, 0, i, score=2.0 if i == 0 else -4.0, learned=True)
        for i, t in enumerate(texts)
    ]
    question = build_question(
        "Под какой процент банк берёт комиссию за ведение счёта и сколько списал?"
    )
    assert [c.sentence for c in further_parts(question, ranked)] == [texts[2]]


def test_a_figure_after_a_currency_label_is_an_amount() -> None:
    row = "Кредит (поступление), руб.: 7 536,45; Остаток, руб.: 1 330 023,89"
    assert values_of(profile(row), "amount") == ("7 536,45", "1 330 023,89")


def test_a_noun_phrase_coordinated_after_the_ask_is_a_part_when_it_asks_a_value() -> None:
    question = build_question("Какой лимит годового дохода у самозанятого и ставки налога?")
    assert [p.answer_type for p in question.parts] == ["limit", "rate"]
    assert question.parts[1].own[:3] == ["и", "ставка", "налог"]
    # a coordinated subject, not a value, and a clause with a verb of its own are no part
    assert build_question("Какой лимит доходов и расходов?").parts == []
    assert build_question("Какие ставки НДС и налога на прибыль?").parts == []
    # a clause with a verb of its own is no coordinated noun phrase; after a comma and «и»
    # it is a further ask of its own (question.parts._further_ask)
    floor = build_question("Какой штраф за опоздание, и есть ли минимум?")
    assert [p.own[:3] for p in floor.parts][1] == ["и", "есть", "ли"]
