"""Unified form codes name a kind of document, never a document's number."""

from __future__ import annotations

import pytest

from finagent.language.form_codes import is_form_code


@pytest.mark.parametrize(
    "word", ["ОС-1", "ос-1а", "ТОРГ-12", "КС-2", "Т-1", "ИНВ-3", "ОС-15", "2-НДФЛ", "М-15"]
)
def test_codes_of_unified_forms(word: str) -> None:
    assert is_form_code(word)


@pytest.mark.parametrize("word", ["А-17/2025", "ТС-08", "ПСК-45", "45-ТД", "318", "ТПА-380S"])
def test_document_numbers_are_no_form_codes(word: str) -> None:
    assert not is_form_code(word)
