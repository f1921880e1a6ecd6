"""A table row's bare figure of the asked kind, by the unit its column header names.

«Сколько часов отработал …» is answered by a timesheet's «Отработано, ч: 178», «какой
лимит на одну выдачу» by «Лимит одной выдачи, руб.: 15 000», «сколько тонн …» by «Вес,
т: 25»: the header says what the figure is (:mod:`finagent.cards.header_units`), the
figure itself carries no unit, so a sentence profile reads no value in it. A cell fits the
question when its unit is the one «сколько» counts («сколько часов», «сколько тонн», or
the unit the question asks its quantity in), else when its kind is the answer type's (a
span of time for a period, a percent for a rate, money for an amount, money or a percent
for a limit).
"""

from __future__ import annotations

from finagent.cards.header_units import UnitCell, unit_cells, unit_named
from finagent.language.lemmas import part_of_speech
from finagent.question.model import Question

_HOW_MANY = "сколько"
_REACH = 3  # «сколько календарных дней»: adjectives between «сколько» and the unit
_MODIFIERS = frozenset({"ADJF", "PRTF", "NUMR"})
_KINDS = {
    "period": frozenset({"time"}),
    "rate": frozenset({"percent"}),
    "amount": frozenset({"money"}),
    "limit": frozenset({"money", "percent"}),
}


def counted_unit(question: Question) -> str | None:
    """The unit «сколько» counts in the question («сколько часов» — «час», «сколько
    календарных дней» — «день»), else the unit it asks a quantity in; None for neither."""
    lemmas = question.lemmas
    for i, word in enumerate(lemmas):
        if word != _HOW_MANY:
            continue
        for after in lemmas[i + 1 : i + 1 + _REACH]:
            unit = unit_named(after)
            if unit is not None:
                return unit
            if part_of_speech(after) not in _MODIFIERS:
                break
    return question.unit


def fitting_cells(question: Question, sentence: str) -> list[UnitCell]:
    """The cells of a table row (or a form line) whose header's unit fits the question."""
    cells = unit_cells(sentence)
    if not cells:
        return []
    counted = counted_unit(question)
    if counted is not None:
        return [c for c in cells if c.unit == counted]
    kinds = _KINDS.get(question.answer_type, frozenset())
    return [c for c in cells if c.kind in kinds]
