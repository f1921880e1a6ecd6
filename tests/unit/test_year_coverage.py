"""A question that names a year past every source gets no figure for that year."""

from __future__ import annotations

from datetime import date

from finagent.answering.year_coverage import uncovered_year
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)
KB_2025 = Chunk(
    id="kb-1",
    text="Прожиточный минимум в 2025 году — 17 733 руб. на душу населения.",
    source="kb",
    title="Прожиточный минимум",
    metadata={"applies_from": "2025-01-01"},
)
NK_2025 = Chunk(
    id="nk-1",
    text="Ставка налога устанавливается в размере 6 процентов.",
    source="law",
    metadata={"code": "nk", "edition": "2025-10-27"},
)


def test_a_later_year_than_every_source_is_declined() -> None:
    question = build_question("Какой прожиточный минимум на 2027 год?", TODAY)
    found = uncovered_year(question, [KB_2025, NK_2025])
    assert found is not None and found.kind == "year"
    assert "2027" in found.reason and "17 733" not in found.missing


def test_a_source_that_speaks_of_that_year_and_subject_answers() -> None:
    later = KB_2025.model_copy(
        update={"id": "kb-2", "text": "С 2027 года прожиточный минимум составит 18 900 руб."}
    )
    question = build_question("Какой прожиточный минимум на 2027 год?", TODAY)
    assert uncovered_year(question, [KB_2025, later]) is None


def test_a_subject_no_source_dates_keeps_the_warning_instead() -> None:
    # a rule the sources state without a year is not a year's figure
    rule = KB_2025.model_copy(
        update={"id": "kb-3", "text": "Прожиточный минимум устанавливается субъектом РФ."}
    )
    question = build_question("Какой прожиточный минимум на 2027 год?", TODAY)
    assert uncovered_year(question, [rule, NK_2025]) is None


def test_a_mention_of_the_year_on_another_subject_is_no_answer() -> None:
    other = NK_2025.model_copy(
        update={"id": "nk-2", "text": "Лимит доходов на 2027 год индексируется."}
    )
    question = build_question("Какой прожиточный минимум на 2027 год?", TODAY)
    assert uncovered_year(question, [KB_2025, other]) is not None


def test_the_sources_year_now_and_undated_sources_are_not_declined() -> None:
    covered = build_question("Какой прожиточный минимум на 2025 год?", TODAY)
    implicit = build_question("Какой прожиточный минимум?", TODAY)
    later = build_question("Какой прожиточный минимум на 2027 год?", TODAY)
    user_doc = Chunk(id="d", text="Сумма 2027 руб.", source="user_docs", title="Договор")
    assert uncovered_year(covered, [KB_2025]) is None
    assert uncovered_year(implicit, [KB_2025]) is None  # the dating warning says it instead
    assert uncovered_year(later, [user_doc]) is None
    assert uncovered_year(later, []) is None


def test_a_day_of_a_later_year_is_declined_with_the_years_the_sources_cover() -> None:
    question = build_question("Каким будет прожиточный минимум с 1 января 2028 года?", TODAY)
    found = uncovered_year(question, [KB_2025, NK_2025])
    assert found is not None and "2028" in found.reason
    assert "2025" in found.missing and "17 733" not in found.missing
    # a day of the sources' own year is theirs
    covered = build_question("Каким был прожиточный минимум на 1 марта 2025 года?", TODAY)
    assert uncovered_year(covered, [KB_2025, NK_2025]) is None


def test_a_later_year_in_a_condition_is_the_case_not_the_period_asked() -> None:
    question = build_question(
        "Если прожиточный минимум в 2028 году не изменят, какой он будет?", TODAY
    )
    assert uncovered_year(question, [KB_2025, NK_2025]) is None


def test_a_deadline_or_a_term_of_a_later_year_is_the_editions_rule() -> None:
    """A deadline or a term asked for a year past the sources is answered by the rule of
    their edition (with its warning), not declined: the rule does not change each year."""
    kb = KB_2025.model_copy(
        update={
            "id": "kb-4",
            "text": "Налог на прожиточный минимум за 2025 год уплачивается до 1 марта 2026 года.",
        }
    )
    deadline = build_question("До какого числа платить налог на прожиточный минимум за 2027 год?")
    assert uncovered_year(deadline, [kb, NK_2025]) is None
    # a figure set per year is still the year's own
    figure = build_question("Какой прожиточный минимум на 2027 год?", TODAY)
    assert uncovered_year(figure, [KB_2025, NK_2025]) is not None
