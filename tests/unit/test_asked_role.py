"""«Как зовут …» asks a person's name by the role they hold, like «кто …»."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.question.build import build_question

TODAY = date(2026, 11, 27)


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("Как зовут главного бухгалтера ООО «Кедр-Сервис»?", "бухгалтер"),
        ("Как зовут генерального директора подрядчика?", "директор"),
        ("Как звать нашего арендодателя?", "арендодатель"),
        ("Кто главный бухгалтер у ООО «Ольха»?", "бухгалтер"),
    ],
)
def test_a_name_asked_by_its_role_asks_the_role(question: str, head: str) -> None:
    asked = build_question(question, TODAY).attributes
    assert [a.head for a in asked] == [head]
    assert asked[0].role


def test_a_name_alone_is_no_role() -> None:
    assert build_question("Как зовут Соколова?", TODAY).attributes == []


def test_the_role_is_named_in_the_nominative() -> None:
    """An abstention names the role as a reader writes it, not in the question's case."""
    asked = build_question("Как зовут главного бухгалтера подрядчика?", TODAY).attributes
    assert asked[0].text == "главный бухгалтер подрядчика"
    asked = build_question("Как зовут главную кассиршу?", TODAY).attributes
    assert asked[0].text == "главная кассирша"
