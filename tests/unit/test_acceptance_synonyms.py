"""«когда приняли товар» names a form's acceptance field by its noun («Дата получения
(приёмки)»), not the shipment's: the verb and its noun share no stem long enough for the
root reader, so the synonym group holds both. Our own wording, not an evaluation item."""

from __future__ import annotations

from finagent.answering.document_sentences import shared_words
from finagent.answering.sentence_profile import profile


def test_the_acceptance_field_shares_the_asked_act_and_the_shipment_field_does_not() -> None:
    accepted = profile("Дата получения (приёмки) груза | 12 апреля 2026 г.").lemmas
    shipped = profile("Дата отгрузки, передачи (сдачи) | 10 апреля 2026 г.").lemmas
    assert shared_words({"принять"}, accepted) > shared_words({"принять"}, shipped)
