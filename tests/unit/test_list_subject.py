"""The list item whose subject the question names comes first (own wording)."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.list_subject import item_subject, prefer_asked_item
from finagent.answering.pipeline import prefer_in_order
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import kb_passage, ranked, scored

KB = kb_passage(3, "Образцовый сбор")
LEAD = "Образцовый сбор уплачивается в следующие сроки:"
FIRMS = "1) организации - не позднее 10 мая года, следующего за отчетным;"
SOLE = "2) индивидуальные предприниматели - не позднее 20 июня года, следующего за отчетным."
BASE = "- основная часть — не позднее 5 марта следующего года;"
EXTRA = "- доплата 3 % — не позднее 9 сентября следующего года."


def _numbered() -> list[Candidate]:
    found = ranked(KB, FIRMS, SOLE, top=3.0, gap=0.5)
    for c in found:
        c.context = LEAD
    return found


def _first(question: str, found: list[Candidate]) -> str:
    return prefer_asked_item(build_question(question), found)[0].sentence


def test_a_short_name_picks_its_item() -> None:
    assert _first("когда ИП платит образцовый сбор", _numbered()) == SOLE
    assert _first("до какого числа ООО платит образцовый сбор", _numbered()) == FIRMS


def test_the_items_own_words_pick_it() -> None:
    assert _first("срок образцового сбора для предпринимателей", _numbered()) == SOLE


def test_a_bulleted_list_without_a_lead_in() -> None:
    found = ranked(KB, BASE, EXTRA, top=3.0, gap=0.5)
    assert _first("до какого числа платится доплата 3 % образцового сбора", found) == EXTRA
    assert _first("до какого числа платится образцовый сбор", found) == BASE


def test_no_subject_named_or_both_named_keeps_the_order() -> None:
    assert _first("срок уплаты образцового сбора", _numbered()) == FIRMS
    assert _first("образцовый сбор для ООО и ИП: сроки", _numbered()) == FIRMS


def test_a_document_is_left_alone() -> None:
    found = _numbered()
    for c in found:
        c.chunk = c.chunk.model_copy(update={"source": "user_docs"})
    assert _first("когда ИП платит образцовый сбор", found) == FIRMS


def test_item_subject_is_the_short_phrase_before_the_dash() -> None:
    assert item_subject("2) индивидуальные предприниматели - не позднее 20 июня") == {
        "индивидуальный",
        "предприниматель",
    }
    assert item_subject("Сбор уплачивается не позднее 20 июня") == frozenset()


def _law(unit: str) -> Chunk:
    meta = {"unit_id": unit, "citation": f"п. 1 ст. {unit}", "article_title": "Образцовый сбор"}
    return Chunk(id=f"{unit}#0", text="", source="law", metadata=meta)


def test_the_named_item_outlasts_the_general_case_that_holds_the_whole_list() -> None:
    # a special case first, then the list's lead-in with its items inline: the general-case
    # preference promotes the lead-in, and the item the question names still comes first
    quarter = (
        "Плательщик представляет образцовый расчет не позднее 25-го числа месяца, "
        "следующего за кварталом, в котором прекращена деятельность."
    )
    lead = "По итогам года плательщики представляют образцовый расчет в следующие сроки:"
    firms = "1) организации - не позднее 25 марта года, следующего за истекшим годом;"
    sole = (
        "2) индивидуальные предприниматели - не позднее 25 апреля года, "
        "следующего за истекшим годом."
    )
    code = _law("901")
    found = [
        scored(_law("902"), quarter, 5.0),
        scored(code, f"{lead} {firms} {sole}", 4.9),
        scored(code, firms, 4.8, lead),
        scored(code, sole, 4.7, lead),
    ]
    question = build_question("ИП образцовый расчет до какого числа сдает?")
    assert prefer_in_order(question, list(found))[0].sentence == sole
    firm = build_question("ООО образцовый расчет до какого числа сдает?")
    assert prefer_in_order(firm, list(found))[0].sentence == firms
