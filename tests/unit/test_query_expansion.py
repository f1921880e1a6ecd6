"""The rule-based expansion adds the Code's wording of a subject only for a question of
that subject: a dwelling is the property deduction's subject when a deduction, a
purchase or a sale is spoken of (questions written for this test)."""

from __future__ import annotations

from finagent.routing.expansion import expand_query

DWELLING_TERMS = "имущественный налоговый вычет"


def _expanded(question: str) -> str:
    queries = expand_query(question)
    return queries[1] if len(queries) > 1 else ""


def test_a_dwelling_bought_or_deducted_brings_the_property_deduction() -> None:
    for question in (
        "Сколько можно вернуть за купленную в 2024 году квартиру?",
        "Какой лимит вычета за жильё, построенное своими силами?",
        "Сколько вернут с процентов по ипотеке за дом?",
        "Продаём квартиру раньше трёх лет владения: на что можно уменьшить доход?",
    ):
        assert DWELLING_TERMS in _expanded(question), question


def test_a_dwelling_rented_out_or_taxed_as_property_does_not() -> None:
    for question in (
        "Какой налог платить, если сдаю квартиру студентам?",
        "Когда приходит налог на имущество за квартиру?",
        "Квартира досталась от бабушки по наследству — что платить?",
    ):
        assert DWELLING_TERMS not in _expanded(question), question
    # the question itself always comes first
    assert expand_query("Сдаю квартиру — какой налог?")[0] == "Сдаю квартиру — какой налог?"
