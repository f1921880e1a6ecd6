"""Document fields and party roles: one table read by cards (labelling facts) and by
questions (what a question asks about). Cues are ordinary words, matched as lemmas."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FieldKind = Literal["party", "amount", "rate", "date", "term"]


@dataclass(frozen=True)
class Field:
    key: str
    name: str  # Russian, as shown to users
    kind: FieldKind
    cues: tuple[str, ...]
    # a cue right after one of these words qualifies a value, it does not name it
    # («всего с НДС: 1 056 000» is the total, not the VAT)
    not_after: tuple[str, ...] = ()


ROLES = (
    Field("landlord", "арендодатель", "party", ("арендодатель",)),
    Field("tenant", "арендатор", "party", ("арендатор",)),
    Field("seller", "продавец", "party", ("продавец",)),
    Field("buyer", "покупатель", "party", ("покупатель",)),
    Field("supplier", "поставщик", "party", ("поставщик",)),
    Field("customer", "заказчик", "party", ("заказчик",)),
    Field("contractor", "исполнитель", "party", ("исполнитель", "подрядчик")),
    Field("borrower", "заёмщик", "party", ("заёмщик",)),
    Field("lender", "займодавец", "party", ("займодавец", "заимодавец")),
    Field("employee", "работник", "party", ("работник",)),
    Field("employer", "работодатель", "party", ("работодатель",)),
    Field("consignee", "грузополучатель", "party", ("грузополучатель",)),
    Field("shipper", "грузоотправитель", "party", ("грузоотправитель",)),
    Field("client", "клиент", "party", ("клиент",)),
    Field("bank", "банк", "party", ("банк",)),
    Field("addressee", "адресат", "party", ("адресат",)),
    Field("claimant", "заявитель", "party", ("заявитель", "отправитель")),
    # the parties of other civil-law contracts, by the names the Civil Code gives them
    Field("sublessor", "субарендодатель", "party", ("субарендодатель",)),
    Field("subtenant", "субарендатор", "party", ("субарендатор",)),
    Field("guarantor", "гарант", "party", ("гарант",)),
    Field("beneficiary", "бенефициар", "party", ("бенефициар",)),
    Field("principal_party", "принципал", "party", ("принципал",)),
    Field("committent", "комитент", "party", ("комитент",)),
    Field("commission_agent", "комиссионер", "party", ("комиссионер",)),
    Field("assignor", "цедент", "party", ("цедент",)),
    Field("assignee", "цессионарий", "party", ("цессионарий",)),
    Field("licensor", "лицензиар", "party", ("лицензиар",)),
    Field("licensee", "лицензиат", "party", ("лицензиат",)),
    Field("depositor", "поклажедатель", "party", ("поклажедатель",)),
    Field("custodian", "хранитель", "party", ("хранитель",)),
)

# order matters: the more specific cue of two at the same distance wins (first listed)
FIELDS = (
    Field(
        "rent",
        "арендная плата",
        "amount",
        ("арендной платы", "арендная плата", "субарендная плата", "плата за пользование"),
    ),
    Field("deposit", "обеспечительный платёж", "amount", ("обеспечительный платёж", "залог")),
    Field("advance", "аванс", "amount", ("аванс", "предоплата", "авансовый платёж")),
    Field("salary", "оклад", "amount", ("оклад", "заработная плата", "зарплата")),
    Field("bonus", "премия", "amount", ("премия",)),
    Field("principal", "сумма займа", "amount", ("сумма займа", "заём")),
    Field(
        "vat",
        "НДС",
        "amount",
        ("НДС", "налог на добавленную стоимость"),
        not_after=("с", "без", "учётом", "включая"),
    ),
    Field(
        "total",
        "итого к оплате",
        "amount",
        ("всего к оплате", "итого", "всего", "общая сумма", "общая стоимость"),
    ),
    Field(
        "contract_amount",
        "сумма договора",
        "amount",
        ("сумма договора", "цена договора", "стоимость услуг", "стоимость работ", "стоимость"),
    ),
    Field("balance", "остаток", "amount", ("остаток", "сальдо")),
    Field("debt", "задолженность", "amount", ("задолженность", "долг", "недоимка")),
    Field("penalty", "неустойка", "rate", ("неустойка", "пени", "пеня", "штраф")),
    Field(
        "interest_rate",
        "процентная ставка",
        "rate",
        ("проценты за пользование", "процентная ставка", "процентов годовых", "годовых"),
    ),
    Field("signed", "дата договора", "date", ("заключён", "подписан", "дата составления")),
    Field(
        "valid_until",
        "срок действия",
        "date",
        ("срок действия", "действует до", "на срок", "срок аренды"),
    ),
    Field(
        "payment_term",
        "срок оплаты",
        "term",
        (
            "срок оплаты",
            "оплата",
            "оплачивается",
            "вносится",
            "перечисляется",
            "оплатить",
            "погасить",
            "возврат займа",
            "вернуть",
            "возвратить",
        ),
    ),
    Field(
        "delivery_term",
        "срок поставки",
        "term",
        ("срок поставки", "поставка", "отгрузка", "передаётся", "передать"),
    ),
    Field(
        "notice_period",
        "срок уведомления",
        "term",
        ("уведомление", "уведомив", "уведомления", "предупредив", "предупредить"),
    ),
    Field("probation", "испытательный срок", "term", ("испытательный срок", "испытание")),
    Field(
        "response_term",
        "срок ответа",
        "term",
        ("ответ", "рассмотрения", "пояснения"),
    ),
)

ALL = ROLES + FIELDS
BY_KEY = {field.key: field for field in ALL}
# which field kinds each extracted span may label
AMOUNT_KINDS: tuple[FieldKind, ...] = ("amount", "rate")
RATE_KINDS: tuple[FieldKind, ...] = ("rate", "amount")
DATE_KINDS: tuple[FieldKind, ...] = ("date", "term")
TERM_KINDS: tuple[FieldKind, ...] = ("term", "date")
