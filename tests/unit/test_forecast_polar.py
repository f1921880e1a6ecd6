"""A market quantity's future asked yes or no is a forecast, not a rule's effect: no
document or law states it, so the question is not read as polar («подешевеет ли евро?»),
while a rule's effect asked with a reflexive or indefinite-personal future verb still is
(«спишется ли переплата?»). Invented wording."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.question.build import build_question

TODAY = date(2026, 4, 8)


@pytest.mark.parametrize(
    "text",
    [
        "понизится ли ключевая ставка на июньском заседании?",
        "ослабнет ли юань к осени?",
        "подешевеют ли облигации федерального займа?",
        "ускорится ли инфляция в третьем квартале?",
        "снизят ли ключевую ставку летом?",
        "будет ли дорожать золото?",
        "упадёт ли курс евро к осени?",
        # a condition does not make a forecast a rule
        "укрепится ли рубль, если нефть подорожает?",
    ],
)
def test_a_market_quantitys_future_is_no_yes_no_question(text: str) -> None:
    assert build_question(text, TODAY).polar is False


@pytest.mark.parametrize(
    "text",
    [
        # a rule's effect: a tax, a deduction, a clause
        "спишется ли переплата по налогу в счёт пеней?",
        "увеличится ли социальный вычет по закону со следующего года?",
        "повысится ли цена поставки по договору после индексации?",
        # the market word is no subject: after a preposition, or in the genitive
        "начислят ли неустойку по ключевой ставке за просрочку?",
        "вернут ли комиссию за покупку иностранной валюты?",
        # the price of a deal's thing, in the genitive (review finding, stop 44)
        "повысится ли цена субаренды после пересмотра?",
        "изменится ли цена выставочного места, если оплатим в августе?",
    ],
)
def test_a_rules_effect_asked_in_the_future_stays_yes_no(text: str) -> None:
    assert build_question(text, TODAY).polar is True
