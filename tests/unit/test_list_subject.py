"""The list item whose subject the question names comes first (own wording)."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.list_subject import item_subject, prefer_asked_item
from finagent.question.build import build_question
from tests.unit.ranked import kb_passage, ranked

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
