"""A Code point of the asked subject found by the Code's own search comes first."""

from __future__ import annotations

from dataclasses import replace

from finagent.answering.norm_subject import prefer_norm_subject, prefer_norm_year
from finagent.question.build import build_question
from finagent.retrieval.retriever import NORM_ONLY
from finagent.state import Chunk
from tests.unit.ranked import scored

LAW = Chunk(id="nk.x#1", text="", source="law", title="ст. 999 НК РФ")
NORM = Chunk(
    id="nk.y#2", text="", source="law", title="ст. 998 НК РФ", metadata={NORM_ONLY: "dense"}
)
KB = Chunk(id="kb-7:1", text="", source="kb", title="НДФЛ у работодателя")
LEXICAL = NORM.model_copy(update={"metadata": {NORM_ONLY: "sparse"}})
OTHER = "взносы работодателя на образцовый счёт, но не более 9 000 рублей в год на работника;"
SUBJECT = "стоимость сувениров, полученных работником от работодателя, не превышающая 3 000 рублей;"


def test_the_code_point_naming_the_unmatched_subject_comes_first() -> None:
    question = build_question("Какая сумма сувениров работнику в год не облагается НДФЛ?")
    ranked, norms = prefer_norm_subject(
        question, [scored(LAW, OTHER, 3.0)], [scored(NORM, SUBJECT, 0.1)]
    )
    assert ranked[0].sentence == SUBJECT and not norms


def test_a_subject_the_retrieved_values_name_keeps_them() -> None:
    question = build_question("Какая сумма взносов работодателя в год не облагается НДФЛ?")
    ranked, norms = prefer_norm_subject(
        question, [scored(LAW, OTHER, 3.0)], [scored(NORM, SUBJECT, 0.1)]
    )
    assert ranked[0].sentence == OTHER and len(norms) == 1


def test_a_lexical_hit_naming_the_subject_is_no_evidence() -> None:
    # the Code's BM25 search finds the point because it names the rare word
    question = build_question("Какая сумма сувениров работнику в год не облагается НДФЛ?")
    ranked, norms = prefer_norm_subject(
        question, [scored(LAW, OTHER, 3.0)], [scored(LEXICAL, SUBJECT, 0.1)]
    )
    assert ranked[0].sentence == OTHER and len(norms) == 1


def test_a_fine_of_another_party_found_by_words_stays_a_norm() -> None:
    question = build_question(
        "Какой штраф за неподачу расчёта по торговому сбору, и если повторно?"
    )
    repeated = (
        "Те же деяния, совершенные повторно, влекут взыскание штрафа в размере 15 000 рублей."
    )
    party = (
        "Неподача расчёта по торговому сбору оператором рынка влечет взыскание штрафа"
        " в размере 70 тысяч рублей."
    )
    kept, norms = prefer_norm_subject(
        question, [scored(LAW, repeated, 3.0)], [scored(LEXICAL, party, 0.1)]
    )
    assert kept[0].sentence == repeated and len(norms) == 1
    promoted, _ = prefer_norm_subject(
        question, [scored(LAW, repeated, 3.0)], [scored(NORM, party, 0.1)]
    )
    assert promoted[0].sentence == party  # the dense search's point is looked at as before


def test_a_worked_example_naming_the_questions_words_covers_no_subject() -> None:
    # the example's computed figures share «удерживается», «НДФЛ» with the question; the
    # Code point of the asked subject («сувениров») is the rule
    question = build_question("Сувениры клиентам — до какой суммы НДФЛ не удерживается?")
    example = replace(
        scored(KB, "Пример: с премии удерживается НДФЛ (80 000 − 2 000) × 13 % = 10 140 руб.", 2.0),
        example=True,
    )
    ranked, norms = prefer_norm_subject(question, [example], [scored(NORM, SUBJECT, 0.1)])
    assert ranked[0].sentence == SUBJECT and not norms
    kept, _ = prefer_norm_subject(
        question, [replace(example, example=False)], [scored(NORM, SUBJECT, 0.1)]
    )
    assert kept[0].sentence == example.sentence  # a rule naming those words keeps its place


YEARS = Chunk(
    id="nk.z#1",
    text="Плательщики уплачивают взносы на страхование лошадей в фиксированном размере.",
    source="law",
    title="ст. 997 НК РФ: Размер взносов на страхование лошадей",
    metadata={NORM_ONLY: "sparse"},
)
KB_YEARS = Chunk(id="kb-9:1", text="", source="kb", title="Взносы на страхование лошадей")
FOR_YEARS = (
    "…2 100 рублей за расчетный период 2025 года, 2 300 рублей за расчетный период 2026 года;"
)
KB_VALUE = "Фиксированная часть: за 2024 год — 1 900 руб.; за 2025 год — 2 100 руб."


def test_the_code_point_stating_the_asked_years_figure_comes_first() -> None:
    """The knowledge base stops a year earlier; the Code's point lists the asked year."""
    question = build_question("сколько взносов на страхование лошадей за 2026 год?")
    ranked, norms = prefer_norm_year(
        question, [scored(KB_YEARS, KB_VALUE, 3.0)], [scored(YEARS, FOR_YEARS, 0.1)]
    )
    assert ranked[0].sentence == FOR_YEARS and not norms


def test_a_retrieved_value_of_the_asked_year_keeps_its_place() -> None:
    question = build_question("сколько взносов на страхование лошадей за 2025 год?")
    ranked, norms = prefer_norm_year(
        question, [scored(KB_YEARS, KB_VALUE, 3.0)], [scored(YEARS, FOR_YEARS, 0.1)]
    )
    assert ranked[0].sentence == KB_VALUE and len(norms) == 1
    # a year in a condition is the case, and no year named asks no year's figure
    for text in (
        "сколько взносов на страхование лошадей, если ИП зарегистрирован в 2026 году?",
        "сколько взносов на страхование лошадей?",
    ):
        kept, _ = prefer_norm_year(
            build_question(text), [scored(KB_YEARS, KB_VALUE, 3.0)], [scored(YEARS, FOR_YEARS, 0.1)]
        )
        assert kept[0].sentence == KB_VALUE


def test_a_word_of_the_subjects_root_covers_it() -> None:
    # «повторное нарушение» in the retrieved rule covers «повторно»: the Code point naming
    # «повторно» is no subject the retrieved values miss
    question = build_question("Сувенир повторно не оформлен — какой штраф?")
    rule = "- повторное нарушение — 100 % от суммы расчёта."
    other = "Те же деяния, совершенные повторно, влекут взыскание штрафа в размере 9 000 рублей."
    ranked, norms = prefer_norm_subject(
        question, [scored(KB, rule, 2.0)], [scored(NORM, other, 0.1)]
    )
    assert ranked[0].sentence == rule and len(norms) == 1
