"""The value of the phrase the question names, not the base or the neighbour beside it."""

from __future__ import annotations

from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate
from finagent.answering.value_phrase import (
    LOWER,
    UPPER,
    asked_bounds,
    asked_noun,
    asked_phrase,
    named_shares,
    prefer_named_phrase,
    share_of_named,
)
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import kb_passage, ranked

LEAD = "Добровольный сбор — 2 % с выручки, превышающей 500 000 руб. за год."
BASE = "за 2030 год — 11 111 руб.;"
MOST = "Его максимальный размер: за 2029 год — 20 000 руб., за 2030 год — 22 222 руб."
FEE = Chunk(
    id="kb-7:0",
    text=f"Базовая часть: {BASE}\n\n{LEAD} {MOST}",
    source="kb",
    title="Образцовый сбор предпринимателя",
)
SALE = kb_passage(8, "Продажа участка: образцовые правила")
DEDUCTION = (
    "Если продаёте раньше, налог считается с разницы между ценой и образцовым вычетом 500 000 руб."
)
SHARE = (
    "Если цена ниже 60 % рыночной стоимости, выручка принимается равной 60 % рыночной стоимости."
)


def _fee(gap: float = 0.5) -> list[Candidate]:
    found = ranked(FEE, BASE, MOST, top=3.0, gap=gap)
    found[0].context = "Базовая часть:"
    return found


def test_a_sentence_opening_with_a_pronoun_names_its_antecedents_noun() -> None:
    question = build_question("Какой максимальный добровольный сбор за 2030 год?")
    assert prefer_named_phrase(question, _fee())[0].sentence == MOST


def test_a_share_of_the_named_quantity_answers_the_asked_sum() -> None:
    question = build_question(
        "Участок продали дешевле рыночной стоимости — какую выручку тогда признают?"
    )
    assert question.answer_type in {"amount", "limit"}
    assert share_of_named(question, SHARE)
    found = prefer_named_phrase(question, ranked(SALE, DEDUCTION, SHARE, top=2.0, gap=1.0))
    assert found[0].sentence == SHARE


def test_a_far_weaker_sentence_a_worked_example_or_a_question_of_parts_is_left_alone() -> None:
    question = build_question("Какой максимальный добровольный сбор за 2030 год?")
    assert prefer_named_phrase(question, _fee(gap=5.0))[0].sentence == BASE
    example = _fee()
    example[1].example = True
    assert prefer_named_phrase(question, example)[0].sentence == BASE
    parts = build_question(
        "Какая базовая часть сбора за 2030 год и какой максимальный добровольный сбор?"
    )
    assert prefer_named_phrase(parts, _fee())[0].sentence == BASE


def test_the_best_naming_as_many_of_the_questions_words_stays_first() -> None:
    question = build_question("Сколько составляет базовая часть сбора за 2030 год?")
    assert prefer_named_phrase(question, _fee())[0].sentence == BASE


def test_the_asked_phrase_is_the_noun_phrase_of_kakoy_without_generic_value_nouns() -> None:
    assert asked_phrase(build_question("Какой максимальный добровольный сбор за 2030 год?")) == {
        UPPER,
        "добровольный",
        "сбор",
    }
    assert asked_phrase(build_question("Какую сумму выручки признают?")) == set()
    assert asked_phrase(build_question("Сколько составляет сбор?")) == set()


def test_a_rate_question_is_left_alone() -> None:
    question = build_question("Какая ставка добровольного сбора за 2030 год?")
    assert prefer_named_phrase(question, _fee())[0].sentence == BASE


def test_a_bound_is_named_by_any_of_its_words() -> None:
    question = build_question("Какой предельный добровольный сбор?")
    capped = "Для добровольного сбора действует потолок — не более 3 % выручки в день."
    other = "Добровольный сбор на предельные значения выручки составляет 5 % в день."
    found = ranked(FEE, capped, other, top=3.0, gap=0.5)
    assert prefer_named_phrase(question, found)[0].sentence == capped


def test_the_lead_states_the_share_of_the_named_quantity_after_the_asked_noun() -> None:
    question = build_question(
        "Участок продали дешевле рыночной стоимости — какую выручку тогда признают?"
    )
    assert asked_noun(question) == "выручка"
    assert named_shares(question, SHARE) == ("60 % рыночной стоимости",)
    top = ranked(SALE, SHARE, top=2.0, gap=1.0)[0]
    lead = sentence_lead(question, top)
    assert lead[0].startswith("Выручка — 60 % рыночной стоимости")
    # a share before the asked noun is the condition's, not the value
    condition = "Если цена ниже 60 % рыночной стоимости, налог не взимается с выручки."
    assert named_shares(question, condition) == ()


LIMITS = kb_passage(9, "Образцовый вычет по процентам")
BASE_ONLY = "Отдельно можно получить образцовый вычет по процентам — до 4 млн руб."
CAP = "Лимит — 4 млн руб. уплаченных процентов, максимальный возврат — 520 000 руб."
FEE_RATE = "Если отчёт не подан, штрафуют на 5 % от налога за каждый месяц просрочки."
FEE_BOUNDS = (
    "За неподачу отчёта — штраф 5 % от налога за месяц, не более 30 % и не менее 1 000 руб."
)
FEE_OTHER = "Штраф за неподачу уведомления — 1 000 руб."
FINES = kb_passage(10, "Образцовые штрафы")


def test_a_bound_asked_outside_kakoy_picks_the_sentence_naming_it() -> None:
    for text in (
        "Сколько максимум можно вернуть по образцовому вычету по процентам?",
        "Какую сумму максимум вернут по образцовому вычету по процентам?",
    ):
        question = build_question(text)
        assert UPPER in asked_bounds(question), text
        found = prefer_named_phrase(question, ranked(LIMITS, BASE_ONLY, CAP, top=3.0, gap=0.5))
        assert found[0].sentence == CAP, text
    # without a bound asked, the best stays
    plain = build_question("Сколько можно получить по образцовому вычету по процентам?")
    assert (
        prefer_named_phrase(plain, ranked(LIMITS, BASE_ONLY, CAP, top=3.0, gap=0.5))[0]
        == (ranked(LIMITS, BASE_ONLY, CAP, top=3.0, gap=0.5)[0])
    )


def test_both_bounds_asked_pick_the_sentence_stating_both() -> None:
    question = build_question("Какой штраф за неподачу отчёта — минимальный и максимальный размер?")
    assert asked_bounds(question) == {UPPER, LOWER}
    found = prefer_named_phrase(
        question, ranked(FINES, FEE_RATE, FEE_OTHER, FEE_BOUNDS, top=3.0, gap=0.5)
    )
    assert found[0].sentence == FEE_BOUNDS
    # a sentence naming the noun but not the asked bounds is not promoted
    found = prefer_named_phrase(question, ranked(FINES, FEE_RATE, FEE_OTHER, top=3.0, gap=0.5))
    assert found[0].sentence == FEE_RATE
