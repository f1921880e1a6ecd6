"""Which other country's taxes a question is about (the agent answers on Russian law only)."""

from __future__ import annotations

import pytest

from finagent.legal.jurisdiction import foreign_country


@pytest.mark.parametrize(
    ("question", "country"),
    [
        ("Какая ставка НДС в Казахстане?", "Казахстан"),
        # the law of a country, in any case of its name
        ("Какой срок подачи возражений на акт по законам Казахстана?", "Казахстан"),
        ("По законодательству Германии до какого числа платить налог?", "Германия"),
        ("Срок уплаты по кодексу Республики Беларусь?", "Беларусь"),
        # a direction of trade or a Russian angle keeps the question Russian
        ("Какая ставка НДС при экспорте в Казахстан?", None),
        ("Резидент РФ получил доход в Германии: какой НДФЛ?", None),
        ("До какого числа подать возражения на акт по законам РФ?", None),
    ],
)
def test_foreign_country(question: str, country: str | None) -> None:
    assert foreign_country(question) == country
