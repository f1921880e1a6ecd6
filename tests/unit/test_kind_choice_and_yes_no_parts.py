"""Document values, stop 37 round 2 (the `docs2` lane): a kind several documents share is
told apart by the question's other words, and a yes/no part after a sum neither leads nor
lends the sum its field or tax.

The documents and questions are the lane's own wording (a cleaning contract, a supply
contract, leases of an office and a warehouse, a licence, a subscription), not items of any
evaluation set."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.acted_party import acted_roles
from finagent.answering.card_evidence import _of_bound_head, _values
from finagent.answering.document_choice import decided_documents
from finagent.cards.build import build_card
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)

CLEANING = """# Договор на оказание клининговых услуг № КУ-5/2026
г. Казань, 2 марта 2026 г.
1.1. Исполнитель обязуется выполнять ежедневную уборку офисных помещений Заказчика.
5.2. Заказчик вправе расторгнуть договор, уведомив Исполнителя за 14 календарных дней.
"""
SUPPLY = """# Договор поставки № П-88/2026
г. Казань, 5 марта 2026 г.
1.1. Поставщик передаёт Покупателю офисную мебель.
9.1. Любая сторона вправе расторгнуть договор, уведомив другую сторону за 45 календарных дней.
"""
LEASE = """# Договор аренды нежилого помещения № А-3/2026
г. Казань, 1 марта 2026 г.
1.1. Арендодатель передаёт Арендатору помещение площадью 80 кв. м.
6.1. Арендатор вправе расторгнуть договор, уведомив Арендодателя за 60 календарных дней.
"""


def _cards() -> list:
    return [
        build_card("cleaning", "cleaning.md", CLEANING),
        build_card("supply", "supply.md", SUPPLY),
        build_card("lease", "lease.md", LEASE),
    ]


@pytest.mark.parametrize(
    ("question", "chosen"),
    [
        (
            "За сколько дней надо уведомить о расторжении договора на поставку мебели?",
            ["supply"],
        ),
        (
            "За сколько дней предупредить исполнителя, если расторгаем договор на уборку офиса?",
            ["cleaning"],
        ),
        ("Какой срок уведомления о расторжении в договоре аренды помещения?", ["lease"]),
    ],
)
def test_a_kind_several_documents_share_is_told_apart_by_the_other_words(
    question: str, chosen: list[str]
) -> None:
    cards = _cards()
    asked = build_question(question, today=TODAY, cards=cards)
    # retrieval put another contract first: the question's words decide, not the order
    retrieved = ["lease", "cleaning", "supply"] if chosen != ["lease"] else ["supply", "lease"]
    assert decided_documents(asked, cards, retrieved) == chosen


@pytest.mark.parametrize(
    "question",
    [
        "Сколько стоит аренда склада и облагается ли она НДС?",
        "Какая цена лицензии и нужно ли начислять на неё НДС?",
        "Сколько стоит годовая подписка и входит ли в цену НДС?",
        "Сколько стоит НИОКР по договору с «Альфой» и нужно ли начислять на неё НДС?",
    ],
)
def test_a_yes_no_part_after_a_sum_neither_leads_nor_lends_its_tax(question: str) -> None:
    asked = build_question(question, today=TODAY)
    assert [p.answer_type for p in asked.parts] == ["amount", "yes_no"]
    assert asked.answer_types[:2] == ["amount", "yes_no"]
    assert "vat" not in asked.taxes and "vat" not in asked.fields


@pytest.mark.parametrize(
    ("question", "types"),
    [
        # the yes/no asked first leads; one ask with «ли» and no «и» before it is no part
        ("Облагается ли аренда НДС и сколько она стоит?", ["yes_no", "amount"]),
        ("Сколько платим за охрану и до какого числа?", ["amount", "date"]),
    ],
)
def test_other_orders_keep_their_lead(question: str, types: list[str]) -> None:
    assert build_question(question, today=TODAY).answer_types[:2] == types


LEASE_NOTICES = "\n".join(
    [
        "# Договор аренды склада № С-12/2026",
        "г. Тверь, 10 января 2026 г.",
        "2.4. Арендатор вправе продлить договор при условии письменного уведомления "
        "Арендодателя не позднее чем за 20 календарных дней до окончания срока.",
        "4.3. Арендатор допускает представителей Арендодателя на склад с уведомлением не "
        "менее чем за 48 часов.",
        "7.2. Арендодатель вправе отказаться от договора, письменно уведомив Арендатора не "
        "менее чем за 30 календарных дней.",
        "7.3. Арендатор вправе досрочно расторгнуть договор, письменно уведомив Арендодателя "
        "не менее чем за 90 календарных дней.",
    ]
)


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        ("За сколько надо предупредить арендодателя, если мы съезжаем?", {"landlord"}),
        ("Арендатор вправе отказаться, письменно уведомив Арендодателя за 90 дней.", {"landlord"}),
        ("Сколько мы платим исполнителю в месяц?", {"contractor"}),
        # a noun of notice, not a verb: the party is not acted on by it
        ("при условии письменного уведомления Арендодателя за 20 дней", set()),
        ("Какой срок уведомления у арендодателя?", set()),
    ],
)
def test_the_party_a_verb_acts_on(text: str, roles: set[str]) -> None:
    assert acted_roles(text) == roles


@pytest.mark.parametrize(
    ("question", "values"),
    [
        (
            "Если захотим съехать со склада раньше срока, за сколько надо предупредить "
            "арендодателя?",
            ["90 календарных дн."],
        ),
        ("За сколько дней арендодатель должен уведомить арендатора об отказе?", None),
    ],
)
def test_of_several_notice_periods_the_one_notifying_the_asked_party(
    question: str, values: list[str] | None
) -> None:
    card = build_card("lease", "lease.md", LEASE_NOTICES)
    asked = build_question(question, today=TODAY, cards=[card])
    shown = [v.value for v in _values(card, "notice_period", asked)]
    if values is None:
        # «уведомить арендатора»: the landlord's clause
        assert "30 календарных дн." in shown and "90 календарных дн." not in shown
    else:
        assert shown == values


CASH_REPORT = "\n".join(
    [
        "# Отчёт кассира № 12",
        "г. Тверь, 30 июня 2026 г.",
        "Остаток наличных в кассе на конец дня составил 95 300 руб.",
    ]
)
CASH_ORDER = "\n".join(
    [
        "# Приказ № 4-ф об установлении лимита остатка кассы",
        "г. Тверь, 12 января 2026 г.",
        "1. Установить лимит остатка наличных денежных средств в кассе в размере 80 000 руб.",
    ]
)


@pytest.mark.parametrize(
    "question",
    ["Какой у нас лимит остатка наличных в кассе?", "Какой лимит остатка кассы установлен?"],
)
def test_a_limit_of_a_field_is_read_where_the_limit_is_named(question: str) -> None:
    report = build_card("report", "report.md", CASH_REPORT)
    order = build_card("order", "order.md", CASH_ORDER)
    asked = build_question(question, today=TODAY, cards=[report, order])
    key = next(k for k in asked.fields if _values(report, k, asked))
    first = _values(report, key, asked)
    # the report's balance yields to the order stating the limit
    assert _of_bound_head(asked, key, [report, order], report, first) is None
    shown = _of_bound_head(asked, key, [report, order], order, _values(order, key, asked))
    assert shown is not None and [v.value for v in shown] == ["80 000 руб."]


def test_a_balance_asked_is_read_as_before() -> None:
    report = build_card("report", "report.md", CASH_REPORT)
    order = build_card("order", "order.md", CASH_ORDER)
    asked = build_question("Какой остаток в кассе на конец дня?", today=TODAY, cards=[report])
    for key in asked.fields:
        values = _values(report, key, asked)
        assert _of_bound_head(asked, key, [report, order], report, values) == values
