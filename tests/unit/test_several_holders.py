"""A field asked of no document, stated with different values by several of the user's
documents, is asked back with their titles; a word that picks one of them, or one value
everywhere, is answered. Invented documents and wording."""

from __future__ import annotations

from datetime import date

from finagent.answering.vague import clarification, several_holders
from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question

TODAY = date(2026, 5, 12)

STORAGE = """# Договор хранения № Х-8/2026

г. Тула, 3 февраля 2026 г.

ООО «Полюс» (Поклажедатель) и ООО «Амбар» (Хранитель) заключили договор о нижеследующем.

4. Ответственность сторон

4.1. За задержку оплаты хранения Поклажедатель уплачивает Хранителю пени 0,2 % от
неоплаченной суммы за каждый день задержки.
"""

CLEANING = """# Договор возмездного оказания услуг по уборке № У-31/2026

г. Тула, 9 января 2026 г.

ООО «Полюс» (Заказчик) и ООО «Чистый дом» (Исполнитель) заключили договор о нижеследующем.

6. Ответственность сторон

6.1. За задержку оплаты услуг Заказчик уплачивает Исполнителю пени 0,03 % от суммы долга
за каждый день задержки.
"""

SAME_RATE = CLEANING.replace("0,03 %", "0,2 %").replace("У-31/2026", "У-32/2026")


def _cards(*texts: str) -> list[DocumentCard]:
    return [build_card(f"d{i}", f"Документ {i}", text) for i, text in enumerate(texts)]


def _asked(question: str, cards: list[DocumentCard]) -> list[str] | None:
    return clarification(build_question(question, TODAY, cards), True, cards)


def test_a_field_several_documents_state_differently_is_asked_back_with_their_titles() -> None:
    cards = _cards(STORAGE, CLEANING)
    asked = _asked("Какие пени за задержку?", cards)
    assert asked is not None
    assert "Договор хранения № Х-8/2026" in asked[0]
    assert "Договор возмездного оказания услуг по уборке № У-31/2026" in asked[0]


def test_a_word_only_one_document_names_picks_it() -> None:
    cards = _cards(STORAGE, CLEANING)
    assert _asked("Какие пени за задержку оплаты уборки?", cards) is None
    assert _asked("Какие пени за задержку оплаты хранения?", cards) is None


def test_a_party_or_a_number_named_picks_the_document() -> None:
    cards = _cards(STORAGE, CLEANING)
    assert _asked("Какие пени за задержку у ООО «Амбар»?", cards) is None
    assert _asked("Какие пени по договору № Х-8/2026?", cards) is None


def test_one_value_everywhere_is_the_answer() -> None:
    cards = _cards(STORAGE, SAME_RATE)
    question = build_question("Какие пени за задержку?", TODAY, cards)
    assert several_holders(question, cards) is None


def test_outside_the_documents_scenarios_nothing_is_asked_back() -> None:
    cards = _cards(STORAGE, CLEANING)
    question = build_question("Какие пени за задержку оплаты по договору?", TODAY, cards)
    assert clarification(question, False, cards) is None
