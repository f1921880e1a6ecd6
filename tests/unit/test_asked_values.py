"""The values a question asks: sums in words, a limit's kind, the question's own figures."""

from __future__ import annotations

from decimal import Decimal

from evals.direct.figures import unsupported_figures as eval_unsupported
from finagent.answering.asked_values import asked_values, own_numbers, value_type
from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate
from finagent.answering.figures import check_figures
from finagent.answering.sentence_profile import profile, shown, values_of
from finagent.language.money import digits_of, in_digits, money_in
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.state import Chunk

LAW = Chunk(
    id="nk:1", text="", source="law", title="Образцовая статья", metadata={"citation": "ст. 999"}
)


def test_sums_written_in_words_are_money_in_any_case() -> None:
    text = (
        "Опоздание влечет штраф в размере двухсот пятидесяти рублей, повторное — "
        "одного миллиона рублей, а отказ — в размере тысячи рублей."
    )
    amounts = [m.amount for m in money_in(analyse(text), words=True)]
    assert amounts == [Decimal(250), Decimal(1_000_000), Decimal(1000)]
    assert money_in(analyse(text)) == []  # only when asked for: cards read digits


def test_the_point_after_a_full_currency_word_ends_the_sentence() -> None:
    found = money_in(analyse("Штраф составляет семь тысяч рублей."), words=True)
    assert [m.text for m in found] == ["семь тысяч рублей"]
    assert [m.text for m in money_in(analyse("Штраф 500 руб. за день"))] == ["500 руб."]


def test_a_sentence_profile_states_a_sum_in_words() -> None:
    p = profile("Уклонение влечет взыскание штрафа в размере сорока тысяч рублей.")
    assert values_of(p, "amount") == ("сорока тысяч рублей",)


def test_a_cue_whose_value_the_question_states_asks_nothing() -> None:
    q = build_question("Фермер перешёл на налог по ставке 4 %. Сколько лет он должен платить?")
    assert "rate" not in q.answer_types
    assert own_numbers(q) == {"4"}
    # nothing else clearly asked: the cue still asks («ставка 7 % или 9 %?» asks which)
    assert build_question("Какая ставка 7 % или 9 % на хлеб?").answer_type == "rate"


def test_a_figure_the_question_states_is_not_its_answer() -> None:
    q = build_question("С какой месячной суммы выплат начинается тариф сборов 12 %?")
    p = profile("Выплаты сверх 40 000 руб. в месяц облагаются по тарифу 12 %.")
    assert asked_values(p, q) == ("40 000 руб",)


def test_a_limit_that_asks_a_sum_wants_no_percentage() -> None:
    base = build_question("Какая предельная база по образцовым сборам?")
    assert value_type(base) == "amount"
    own_rate = build_question("Какой максимум у сбора 2 % за год?")
    assert value_type(own_rate) == "amount"
    plain = build_question("Какой лимит вычета по процентам по займу?")
    assert value_type(plain) == "limit"
    sentence = "Сбор 5 % взимается с выплат в пределах предельной базы 1 500 000 руб."
    assert asked_values(profile(sentence), base) == ("1 500 000 руб",)


def test_the_lead_states_a_sum_in_words_in_digits_and_quotes_the_words() -> None:
    q = build_question("Какой штраф за отказ эксперта от заключения?")
    top = Candidate(
        LAW, 1, "Отказ эксперта влечет взыскание штрафа в размере пяти тысяч рублей.", 0, 0
    )
    line, quote = sentence_lead(q, top)
    assert line.startswith("Штраф — 5 000 руб. (ст. 999) [1].")  # a fine asked: named so
    assert "в размере пяти тысяч рублей" in quote


def test_a_sum_in_words_reads_as_digits() -> None:
    assert in_digits("двадцати пяти тысяч рублей") == "25 000 руб."
    assert in_digits("одного миллиона рублей") == "1 000 000 руб."
    assert in_digits("500 рублей") is None  # already in digits
    assert in_digits("пяти месяцев") is None  # no sum
    assert digits_of(Decimal("12345.5")) == "12 345,50"
    assert shown("коэффициента 1,5") == "коэффициент 1,5"
    assert shown("20 %") == "20 %"


def test_the_figure_check_accepts_a_sum_its_source_writes_in_words() -> None:
    source = "Неявка свидетеля влечет взыскание штрафа в размере двадцати пяти тысяч рублей."
    text, report = check_figures("Штраф — 25 000 руб. [1], а не 30 000 руб.", [source])
    assert report.supported == ["25 000 руб"]
    assert report.removed == ["30 000 руб"]
    assert "25 000 руб." in text and "30 000" not in text
    assert eval_unsupported("Штраф — 25 000 руб. [1].", [source], "Какой штраф?") == []


def test_how_long_by_time_asks_a_period() -> None:
    assert build_question("Сколько по времени рассматривают жалобу?").answer_type == "period"


def test_a_range_of_sums_is_one_value_with_both_bounds() -> None:
    sentence = "Неподача уведомления — от 4 000 до 5 000 руб.; нарушение срока — 1 500 руб."
    assert values_of(profile(sentence), "amount") == ("от 4 000 до 5 000 руб", "1 500 руб")
