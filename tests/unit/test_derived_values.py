"""The lead names the value a sentence derives, and the tax in the genitive."""

from __future__ import annotations

import pytest

from finagent.answering.derived_values import derived_values
from finagent.answering.direct import stated_values, subject_of
from finagent.language.lemmas import in_genitive
from finagent.question.build import build_question


def test_the_lead_states_the_derived_threshold_not_its_input() -> None:
    q = build_question(
        "С какой суммы выплат в месяц в 2025 году взносы МСП считают по пониженному тарифу?"
    )
    sentence = "МРОТ в 2025 году — 22 440 руб., значит 1,5 МРОТ = 33 660 руб."
    assert stated_values(q, sentence) == ("33 660 руб",)


@pytest.mark.parametrize(
    ("sentence", "values", "kept"),
    [
        ("Цена 1 000 руб., НДС 20 %, т. е. 200 руб.", ("1 000 руб", "200 руб"), ("200 руб",)),
        (
            "Лимит 60 млн руб., следовательно с 61 млн руб. платят НДС.",
            ("60 млн руб", "61 млн руб"),
            ("61 млн руб",),
        ),
        # a total is another quantity, not a conclusion
        (
            "Платёж 10 000 руб. в месяц, итого 120 000 руб. в год.",
            ("10 000 руб", "120 000 руб"),
            ("10 000 руб", "120 000 руб"),
        ),
        # only values before the connective: nothing is derived
        ("Ставка 20 % и 10 %, то есть две ставки.", ("20 %", "10 %"), ("20 %", "10 %")),
    ],
)
def test_values_after_a_connective_of_inference(
    sentence: str, values: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    assert derived_values(sentence, values) == kept


@pytest.mark.parametrize(
    ("name", "genitive"),
    [
        ("страховые взносы", "страховых взносов"),
        ("налог на прибыль", "налога на прибыль"),
        ("госпошлина", "госпошлины"),
        ("транспортный налог", "транспортного налога"),
        ("НДФЛ", "НДФЛ"),
    ],
)
def test_a_tax_name_in_the_genitive(name: str, genitive: str) -> None:
    assert in_genitive(name) == genitive


def test_the_subject_names_the_tax_in_the_genitive() -> None:
    q = build_question("Какая ставка налога на прибыль для организаций?")
    assert subject_of(q) == "Ставка налога на прибыль"


def test_a_derived_value_stays_in_its_own_sentence() -> None:
    quote = (
        "МРОТ в 2025 году — 22 440 руб., значит 1,5 МРОТ = 33 660 руб. "
        "В 2024 году порогом был один МРОТ (19 242 руб.)."
    )
    values = ("22 440 руб", "33 660 руб", "19 242 руб")
    assert derived_values(quote, values) == ("33 660 руб",)


def test_a_question_naming_the_input_asks_the_input() -> None:
    q = build_question("МРОТ в 2025 году сколько?")
    sentence = "МРОТ в 2025 году — 22 440 руб., значит 1,5 МРОТ = 33 660 руб."
    assert stated_values(q, sentence) == ("22 440 руб",)
