"""Yes/no questions on the user's documents: the polar question and the verdict a
document clause settles (finagent.question.polar, finagent.answering.polar_answer)."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.evidence import Candidate
from finagent.answering.polar_answer import polar_verdict
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)


def _question(text: str):  # type: ignore[no-untyped-def]
    return build_question(text, TODAY)


@pytest.mark.parametrize(
    ("text", "polar"),
    [
        ("Комиссия за обслуживание карты берётся?", True),
        ("начисляются ли пени на аванс по договору подряда?", True),
        ("можно ли передать склад в субаренду без согласия собственника?", True),
        ("страховку по лизингу платить или нет?", True),
        ("какая комиссия за обслуживание карты?", False),
        ("сколько пени по договору подряда?", False),
        ("когда банк вернёт вклад?", False),
        ("ставка по кредиту?", False),  # no predicate: a value asked by its name
        # what no document's clause settles: a future event, a later one, advice
        ("выплатит ли подрядчик премию в следующем году?", False),
        ("продлит ли банк нам кредитную линию?", False),
        ("заключили ли мы позже новый договор с перевозчиком?", False),
        ("стоит ли нам продавать склад?", False),
        ("имеет ли смысл брать кредит под залог оборудования?", False),
        # a condition makes a future event a document's rule; «займу» is a loan
        ("вернёт ли арендодатель депозит, если договор расторгнут досрочно?", True),
        ("облагаются ли НДС проценты по займу между компаниями?", True),
    ],
)
def test_a_question_asking_whether_is_polar(text: str, polar: bool) -> None:
    assert _question(text).polar is polar


TEXT = (
    "3.1. Арендная плата составляет 120 000 рублей в месяц.\n"
    "3.2. Передача Склада в субаренду без письменного согласия Арендодателя не допускается. "
    "Штраф за нарушение составляет 50 000 рублей.\n\n"
    "4.1. Коммунальные услуги оплачиваются Арендатором отдельно."
)


def _passage(*sentences: str, document: str = "lease", title: str = "Договор аренды склада"):
    chunk = Chunk(id=f"{document}:0", text=TEXT, source="user_docs", title=title)
    chunk.document_id = document
    return [Candidate(chunk, 1, s, 0, i, score=1.0 - 0.1 * i) for i, s in enumerate(sentences)]


SENTENCES = (
    "3.1. Арендная плата составляет 120 000 рублей в месяц.",
    "3.2. Передача Склада в субаренду без письменного согласия Арендодателя не допускается.",
    "Штраф за нарушение составляет 50 000 рублей.",
    "4.1. Коммунальные услуги оплачиваются Арендатором отдельно.",
)


def test_a_denying_clause_settles_the_question_as_no_with_its_figure_after_it() -> None:
    question = _question("склад можно сдать в субаренду?")
    verdict = polar_verdict(question, _passage(*SENTENCES))
    assert verdict is not None
    line = verdict.line()
    assert line.startswith("Нет: «3.2. Передача Склада в субаренду")
    # the next sentence of the same point states a figure: quoted after the verdict's
    assert "«Штраф за нарушение составляет 50 000 рублей.» [1]" in line


def test_no_verdict_without_a_denying_clause_nor_for_a_negated_question() -> None:
    assert (
        polar_verdict(_question("коммунальные услуги арендатор оплачивает?"), _passage(*SENTENCES))
        is None
    )
    # the question itself is negated: the clause's «не» would not be its «нет»
    negated = _question("склад нельзя сдать в субаренду без согласия?")
    assert polar_verdict(negated, _passage(*SENTENCES)) is None
    # a value question is no yes/no one
    assert (
        polar_verdict(_question("какой штраф за субаренду склада?"), _passage(*SENTENCES)) is None
    )


def test_a_bound_is_no_denial_and_other_sources_give_no_verdict() -> None:
    bound = "3.2. Субаренда склада допускается на срок не более 11 месяцев."
    assert polar_verdict(_question("склад можно сдать в субаренду?"), _passage(bound)) is None
    law = Chunk(id="nk-1", text="", source="law", title="Статья 1")
    denial = Candidate(law, 1, "Передача склада в субаренду не допускается.", 0, 0, score=1.0)
    assert polar_verdict(_question("склад можно сдать в субаренду?"), [denial]) is None


@pytest.mark.parametrize(
    "text",
    [
        "Ограничена ли неустойка по договору? Если да, назовите предельную сумму.",
        "Итого удержано с Петровой за май?",
        "стоимость станка, который покупаем у Белова?",
        "тариф стоянки в ТЦ Заречье за час?",  # a capitalised name is no predicate
        "Какой штраф за просрочку по договору подряда? Есть ли предел?",
    ],
)
def test_a_question_asking_a_value_is_not_polar(text: str) -> None:
    assert _question(text).polar is False
