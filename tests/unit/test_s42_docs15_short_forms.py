"""A question names a held document by the colloquial short form of a phrase the document
writes out («техобслуживание», «госпошлина», «наличка»-like «-ка» clippings), or by the
number of one of the user's papers a held sentence states: both route to the documents.
Invented documents and wording."""

from __future__ import annotations

import numpy as np

from finagent.cards.build import build_card
from finagent.cards.sentence_vectors import pack
from finagent.language.short_forms import clipped_of, short_forms
from finagent.question.build import build_question
from finagent.routing.held_sentences import (
    NEAR_MARGIN,
    best_held_sentence,
    held_sentence_decision,
    paper_numbers,
    shared_words,
)
from finagent.routing.subject import subject_words
from finagent.state import Decision, Scenario

MODEL = "test-model"

GRID = """Договор об осуществлении технологического присоединения № 12-ТП/2026

г. Омск, 3 февраля 2026 г.

АО «Омскэнерго» (Сетевая организация) и ООО «Берёзовая роща» (Заявитель) заключили договор.
3.1. Плата за присоединение — 96 000 руб.
"""


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _kb() -> Decision:
    return Decision(
        scenario=Scenario.ROUTED,
        intents=["kb"],
        confidence=0.9,
        reason="classifier: kb (0.90)",
        source="classifier",
    )


def test_compound_short_forms_name_their_phrase() -> None:
    text = "Государственная пошлина уплачивается до подачи иска; медицинский осмотр — ежегодно."
    found = short_forms(["госпошлину", "медосмотр", "пошлину", "иск"], text)
    assert found == {"госпошлину": "Государственная пошлина", "медосмотр": "медицинский осмотр"}


def test_a_clipping_with_ka_names_its_adjective() -> None:
    text = "Кредиторская задолженность перед поставщиками погашается до 25-го числа."
    assert short_forms(["кредиторку", "поставщикам"], text) == {
        "кредиторку": "Кредиторская задолженность"
    }
    assert clipped_of("упрощенки", "упрощённый")


def test_a_dictionary_word_is_no_clipping() -> None:
    # «справка», «поставка» end like a clipping but are words of their own
    text = "Справочная стоимость поставленных товаров указана в приложении."
    assert short_forms(["справку", "поставку"], text) == {}
    assert not clipped_of("поставки", "поставленный")


def test_a_held_sentence_names_the_question_words_by_their_short_forms() -> None:
    sentence = "Для сотрудников отдела технического обслуживания вводится неполная рабочая неделя."
    shared = shared_words("техобслуживанию в неполку отпуск продлят?", sentence)
    assert len(shared) >= 2


def test_a_near_sentence_with_short_forms_takes_the_question_to_the_documents() -> None:
    sentence = "Для сотрудников отдела технического обслуживания вводится неполная рабочая неделя."
    records = [pack("doc-order", MODEL, [sentence], np.stack([_unit(1, 0, 0)]))]
    held = best_held_sentence(records, _unit(1, 0, 0), MODEL, 1.0 - 1.5 * NEAR_MARGIN)
    decided = held_sentence_decision("премию техобслуживанию в неполку урежут?", _kb(), held)
    assert decided.scenario == Scenario.ALL_DOCUMENTS


def test_a_paper_number_the_held_sentence_states_takes_the_question() -> None:
    sentence = "Письмо контрагента № 77-3/1190 от 02.03.2026 получено отделом продаж."
    records = [pack("doc-act", MODEL, [sentence], np.stack([_unit(1, 0, 0)]))]
    # as close as the law, closer by less than the near margin
    held = best_held_sentence(records, _unit(1, 0, 0), MODEL, 1.0 - NEAR_MARGIN / 2)
    decided = held_sentence_decision("когда пришло письмо 77-3/1190?", _kb(), held)
    assert decided.scenario == Scenario.ALL_DOCUMENTS
    # another number keeps the law's route
    kept = _kb()
    assert held_sentence_decision("когда пришло письмо 77-3/1191?", kept, held) is kept


def test_paper_numbers_are_those_with_a_slash() -> None:
    assert paper_numbers("по счёту ЛО-5/2026 и письму 12/7, форма 6-НДФЛ, ст. 429.3") == {
        "ЛО-5/2026",
        "12/7",
    }


def test_a_title_subject_is_named_by_its_short_form() -> None:
    cards = [build_card("s", "", GRID)]
    asked = "сколько платим за техприсоединение?"
    assert "техприсоединение" in subject_words(asked, cards)
    question = build_question(asked, cards=cards)
    assert any("заголовок" in match.reasons for match in question.documents)


def test_a_kind_of_document_by_its_short_form_is_no_subject() -> None:
    # «допсоглашение» shortens the kind «дополнительное соглашение», not a subject
    title = "Дополнительное соглашение № 2 к договору аренды склада"
    assert short_forms(["допсоглашения"], title) == {"допсоглашения": "Дополнительное соглашение"}
    assert short_forms(["допсоглашения"], title, skip={"соглашение"}) == {}
