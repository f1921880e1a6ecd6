"""A long sentence cut for quotation ends its clause when the clause states a figure."""

from __future__ import annotations

from finagent.answering.evidence import CLAUSE_RUN_CHARS, MAX_SENTENCE_CHARS, units_of

_OPENING = (
    "Освобождаются от сбора следующие выплаты работникам: при возмещении работодателем "
    "расходов на переезд к новому месту работы в другую местность не учитываются "
    "подъёмные и компенсации, выплачиваемые в соответствии с трудовым законодательством "
    "Российской Федерации и коллективным договором организации, "
)
TWO_CAPS = (
    _OPENING + "но не более 1 200 рублей за каждый член семьи работника при переезде в пределах "
    "одного и того же субъекта Российской Федерации и не более 3 400 рублей "
    "за каждый член семьи работника при переезде "
    "в другой субъект, а также фактически произведённые и документально подтверждённые "
    "расходы на провоз имущества, на наём жилья на новом месте, на оформление документов, "
    "на оплату услуг связи и на иные нужды переезда, перечисленные в локальном акте."
)


def _first(text: str) -> str:
    return units_of(text)[0].sentence


def test_a_cut_clause_runs_on_to_its_second_figure() -> None:
    first = _first(TWO_CAPS)
    assert len(TWO_CAPS) > MAX_SENTENCE_CHARS
    assert "1 200 рублей" in first and "3 400 рублей" in first
    assert first.endswith("в другой субъект…")


def test_a_cut_clause_without_a_figure_is_cut_as_before() -> None:
    text = _OPENING + "но не более " + "установленного коллективным договором размера " * 8 + "."
    first = _first(text)
    assert len(first) <= MAX_SENTENCE_CHARS + 1
    assert first.endswith("…")


def test_a_clause_too_long_to_run_on_is_cut_as_before() -> None:
    far = "для каждого работника " * (CLAUSE_RUN_CHARS // 10)
    text = (
        _OPENING + "но не более 1 200 рублей за каждый член семьи " + far + "и 3 400 рублей, иначе."
    )
    first = _first(text)
    assert len(first) <= MAX_SENTENCE_CHARS + 1
    assert "3 400" not in first
