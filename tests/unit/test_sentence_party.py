"""A sentence names a party: a legal form before a quoted name, or a person's full name in
any case («возлагается на кассира Белову Ирину Олеговну»)."""

from __future__ import annotations

import pytest

from finagent.answering.sentence_profile import computed_profile


@pytest.mark.parametrize(
    "text",
    [
        "Договор подписал директор Сомов Игорь Павлович.",
        "Обязанность возлагается на кассира Белову Ирину Олеговну.",
        "Доверенность выдана Сомову Игорю Павловичу.",
        "Акт согласован с Кузьминой Анной Ильиничной.",
        "Поставщик — ООО «Ромашка».",
    ],
)
def test_a_party_named_in_full_in_any_case(text: str) -> None:
    assert computed_profile(text).party


def test_a_role_alone_names_no_party() -> None:
    assert not computed_profile("Отчёт сдаёт главный бухгалтер организации.").party
