"""A long sentence cut before its value: the window stating it leads; a year's value."""

from __future__ import annotations

from finagent.answering.cut_sentences import prefer_window, values_of_year
from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate, units_of
from finagent.answering.sentence_profile import profile, values_of
from finagent.question.build import build_question
from finagent.state import Chunk

LAW = Chunk(id="nk:7", text="", source="law", title="Образцовая статья", metadata={})
OTHER = Chunk(id="nk:8", text="", source="law", title="Другая статья", metadata={})
CONDITIONS = ", ".join(f"условие номер {i} о порядке учета образцовых затрат" for i in range(9))
LONG = f"Затраты на опыты, {CONDITIONS}, учитываются с применением коэффициента 3."
YEARS = (
    "Плательщики уплачивают образцовый сбор, если доход не превышает 100 000 рублей, "
    + ", ".join(f"условие {i} о порядке" for i in range(12))
    + ", в размере 10 000 рублей за период 2024 года, 11 000 рублей за период 2025 года, "
    "12 000 рублей за период 2026 года."
)


def _candidates(sentence: str, scores: list[float]) -> list[Candidate]:
    units = units_of(sentence, law=True)
    assert len(units) == len(scores)
    return [
        Candidate(LAW, 1, u.sentence, 0, i, score=s, learned=True)
        for i, (u, s) in enumerate(zip(units, scores, strict=True))
    ]


def test_the_window_with_the_value_leads_when_the_start_has_none() -> None:
    q = build_question("С каким коэффициентом учитываются затраты на опыты?")
    ranked = _candidates(LONG, [2.0, 0.5])
    assert ranked[0].sentence.endswith("…") and not values_of(profile(ranked[0].sentence), "rate")
    first = prefer_window(q, ranked)[0]
    assert first.sentence.startswith("…") and "коэффициента 3" in first.sentence
    assert sentence_lead(q, first)[0].startswith("Ставка — коэффициент 3")


def test_a_start_stating_the_value_or_another_sentence_stays() -> None:
    q = build_question("Сколько сбора уплачивают плательщики?")
    ranked = _candidates(YEARS, [2.0, 1.0])
    assert prefer_window(q, ranked)[0] is ranked[0]  # 100 000 руб. is a sum: no year asked
    alone = [Candidate(OTHER, 2, "Сбор взимается по правилам статьи…", 0, 0, score=3.0)]
    assert prefer_window(q, alone + ranked)[0] is alone[0]


def test_a_year_question_gets_the_window_and_the_value_of_that_year() -> None:
    q = build_question("Сколько составляет образцовый сбор за 2026 год?")
    ranked = _candidates(YEARS, [2.0, 1.0])
    first = prefer_window(q, ranked)[0]
    assert "2026 года" in first.sentence
    values = values_of(profile(first.sentence), "amount")
    assert values_of_year(first.sentence, values, {2026}) == ("12 000 рублей",)
    assert values_of_year(first.sentence, values, {2030}) == values
