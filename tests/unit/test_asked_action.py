"""The asked action of a deadline question (a report filed, a tax paid) and the breach a
sanction is charged for.

Probe questions and sentences written for these mechanisms (a made-up levy and register,
made-up dates), about no evaluation item.
"""

from __future__ import annotations

import pytest

from finagent.answering.asked_action import (
    actions_named,
    asked_action,
    breach_action,
    prefer_asked_action,
    prefer_breach_action,
    prefer_procedure_action,
)
from finagent.answering.direct import ValueLine, lead_of
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk

BOTH = (
    "Отчёт по сбору представляется один раз в год: организации — не позднее 20 февраля, "
    "сбор уплачивается до 1 марта; физические лица — не позднее 20 мая, сбор уплачивается "
    "до 1 июня."
)
PAID = "Сбор уплачивается не позднее 15-го числа месяца, следующего за кварталом."
FILED = "Отчёт по сбору представляется не позднее 10-го числа месяца, следующего за кварталом."


def _candidate(text: str, number: int = 1, score: float = 1.0) -> Candidate:
    chunk = Chunk(id=f"kb#{number}", text="", source="kb", metadata={}, title="Сбор")
    return Candidate(chunk, number, text, 0, number, score=score, learned=True)


def _values(question: str, text: str) -> tuple[str, ...]:
    lead = lead_of(build_question(question), _candidate(text))
    assert isinstance(lead, ValueLine)
    return lead.values


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Когда сдают отчёт по сбору?", "file"),
        ("К какому числу перечислить сбор?", "pay"),
        ("До какого числа сдать отчёт по сбору и заплатить сбор?", None),
        ("Какая ставка сбора?", None),
    ],
)
def test_the_asked_action(question: str, expected: str | None) -> None:
    assert asked_action(build_question(question)) == expected


def test_the_dates_of_the_asked_action_lead() -> None:
    assert _values("Когда сдают отчёт по сбору?", BOTH) == ("20 февраля", "20 мая")
    assert _values("К какому числу организации перечислить сбор?", BOTH) == ("1 марта", "1 июня")


def test_a_sentence_of_the_asked_action_comes_first() -> None:
    question = build_question("До какого числа подать отчёт по сбору?")
    ranked = prefer_asked_action(question, [_candidate(PAID, 1, 2.0), _candidate(FILED, 2, 1.0)])
    assert ranked[0].sentence == FILED
    # a best sentence naming the asked action keeps its place
    kept = prefer_asked_action(question, [_candidate(FILED, 2, 2.0), _candidate(PAID, 1, 1.0)])
    assert kept[0].sentence == FILED


@pytest.mark.parametrize(
    "question",
    [
        "Штраф организации за неперечисление сбора в срок?",
        "Какой штраф за непредставление реестра в установленный срок?",
        "Какие пени за неуплату сбора в срок?",
        # a participial phrase after a comma goes on naming the breach
        "Какой штраф грозит агенту за каждый реестр, не представленный в срок по запросу?",
        "Какой штраф за отчёт, поданный позже срока?",
    ],
)
def test_the_breach_of_a_sanction_asks_no_term(question: str) -> None:
    assert build_question(question).answer_type != "period"


def test_a_term_asked_beside_a_sanction_is_still_asked() -> None:
    question = build_question("Какой штраф за опоздание с отчётом и какой срок его подачи?")
    assert "period" in question.answer_types
    # the same cue later, outside the breach, is asked
    later = build_question("Какой штраф за справку, не поданную в срок, и в какой срок её подать?")
    assert "period" in later.answer_types


def test_a_list_item_stating_the_asked_date_keeps_its_place() -> None:
    # the item names only the payment, but its first date is the report's (the lead-in's)
    item = "организации — не позднее 20 февраля, сбор уплачивается до 1 марта;"
    question = build_question("До какого числа организация сдаёт отчёт по сбору?")
    ranked = prefer_asked_action(question, [_candidate(item, 1, 2.0), _candidate(FILED, 2, 1.0)])
    assert ranked[0].sentence == item
    assert _values("До какого числа организация сдаёт отчёт по сбору?", item) == ("20 февраля",)


def test_a_sanction_and_a_bound_asked_together_keep_both() -> None:
    question = build_question("Какая неустойка за просрочку оплаты по договору и ограничение?")
    assert "limit" in question.answer_types


def test_a_list_items_action_is_its_lead_ins() -> None:
    # the item names no action: its lead-in's payment is not the asked report
    item = _candidate("- за полугодие — до 15 июля;", 1, 2.0)
    item.context = "Сбор уплачивается не позднее 15-го числа месяца, следующего за периодом:"
    question = build_question("До какого числа подать отчёт по сбору за полугодие?")
    ranked = prefer_asked_action(question, [item, _candidate(FILED, 2, 1.0)])
    assert ranked[0].sentence == FILED


# sanctions of two breaches of one levy: a return not filed, the levy not paid
NOT_FILED = (
    "Непредставление плательщиком в установленный срок отчёта по сбору влечет взыскание "
    "штрафа в размере 3 000 рублей."
)
NOT_PAID = "Неуплата сбора в установленный срок влечет взыскание штрафа в размере 15 процентов."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Неперечисление сбора в срок", {"pay"}),
        ("Непредставление отчёта по сбору", {"file"}),
        ("за несдачу реестра", {"file"}),
        ("Немедленно прекратить", set()),
    ],
)
def test_a_breachs_negated_noun_names_its_action(text: str, expected: set[str]) -> None:
    assert actions_named(text) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Плательщик не заплатил сбор вовремя — какой штраф?", "pay"),
        ("Какой штраф, если отчёт по сбору не сдали?", "file"),
        ("Опоздали с отчётом по сбору, какие санкции?", None),  # no action named
        ("Когда платить сбор?", None),  # no sanction asked
    ],
)
def test_the_breach_a_sanction_question_names(question: str, expected: str | None) -> None:
    assert breach_action(build_question(question)) == expected


def test_the_sanction_of_the_asked_breach_comes_first() -> None:
    question = build_question("Плательщик не перечислил сбор в срок, какой штраф?")
    ranked = prefer_breach_action(
        question, [_candidate(NOT_FILED, 1, 3.0), _candidate(NOT_PAID, 2, 2.5)]
    )
    assert ranked[0].sentence == NOT_PAID
    filed = build_question("Отчёт по сбору не представили — штраф какой?")
    ranked = prefer_breach_action(
        filed, [_candidate(NOT_PAID, 2, 3.0), _candidate(NOT_FILED, 1, 2.5)]
    )
    assert ranked[0].sentence == NOT_FILED


def test_a_sanction_of_the_asked_breach_or_of_none_keeps_its_place() -> None:
    question = build_question("Плательщик не перечислил сбор в срок, какой штраф?")
    kept = prefer_breach_action(
        question, [_candidate(NOT_PAID, 2, 3.0), _candidate(NOT_FILED, 1, 2.9)]
    )
    assert kept[0].sentence == NOT_PAID
    plain = "Штраф по сбору составляет 2 000 рублей."
    kept = prefer_breach_action(question, [_candidate(plain, 3, 3.0), _candidate(NOT_PAID, 2, 2.9)])
    assert kept[0].sentence == plain
    # a rival far below the best is another rule
    far = prefer_breach_action(
        question, [_candidate(NOT_FILED, 1, 5.0), _candidate(NOT_PAID, 2, 1.0)]
    )
    assert far[0].sentence == NOT_FILED


def test_a_sanction_on_a_named_tax_is_labelled_as_the_sanction() -> None:
    # «Сумма НДФЛ — 3 000 рублей» named the tax, not the fine asked
    question = build_question("Какой штраф, если 2-НДФЛ не представили вовремя?")
    lead = lead_of(question, _candidate(NOT_FILED))
    assert isinstance(lead, ValueLine)
    assert lead.subject == "Штраф" and lead.values == ("3 000 рублей",)


def test_a_how_question_leads_with_the_asked_action() -> None:
    # «как уплачивается …» is not answered by the report's term
    paid = build_question("как уплачивается сбор за квартал?")
    ranked = prefer_procedure_action(paid, [_candidate(FILED, 1, 2.0), _candidate(PAID, 2, 1.0)])
    assert ranked[0].sentence == PAID
    # a «how» of filing keeps the report's sentence first
    filed = build_question("как сдают отчёт по сбору?")
    kept = prefer_procedure_action(filed, [_candidate(FILED, 1, 2.0), _candidate(PAID, 2, 1.0)])
    assert kept[0].sentence == FILED
    # a deadline question is prefer_asked_action's, not this one's
    dated = build_question("до какого числа уплатить сбор?")
    same = prefer_procedure_action(dated, [_candidate(FILED, 1, 2.0), _candidate(PAID, 2, 1.0)])
    assert same[0].sentence == FILED
