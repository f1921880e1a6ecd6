"""A document the question names by a subject or counterparty none of the user's
documents of that kind has is not held (and is not answered from another document)."""

from __future__ import annotations

from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.routing.named_documents import named_documents

CONTRACT = """\
# Договор № Р-5/2026 на оказание услуг по уборке

ООО «Чистый Дом», ИНН 7702000011, именуемое в дальнейшем «Исполнитель», и ООО «Кедр»,
ИНН 7702000022, именуемое в дальнейшем «Заказчик», заключили настоящий договор.
1. Стоимость уборки — 40 000 руб. в месяц.
"""

STATEMENT = """\
Выписка по расчётному счёту
Клиент: ООО «Кедр», ИНН 7702000022
1; 03.03.2026; ООО «Глянец», ИНН 7702000033; Оплата по счёту № 12 за рекламу; 18 000,00
"""


def _missing(question: str) -> str | None:
    cards = [build_card("c", "c.md", CONTRACT), build_card("s", "s.txt", STATEMENT)]
    return named_documents(build_question(question, cards=cards), cards).missing


def test_a_contract_with_a_party_only_paid_is_not_held() -> None:
    assert _missing("Что в нашем договоре с Глянцем сказано про сроки?") == "договор с Глянцем"


def test_a_contract_of_a_subject_no_contract_speaks_of_is_not_held() -> None:
    assert _missing("Какой платёж по нашему договору франшизы?") == "договор франшизы"


def test_the_held_contract_named_by_its_party_or_subject_is_held() -> None:
    assert _missing("Что в нашем договоре с Чистым Домом про оплату?") is None
    assert _missing("Сколько стоит уборка по договору уборки?") is None
