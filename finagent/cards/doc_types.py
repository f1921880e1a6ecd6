"""Kinds of user documents and the words that name them (in a heading or a question)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DocType:
    key: str
    name: str  # Russian, as shown to users
    cues: tuple[str, ...]


# specific before general: an УПД heading may also say «счёт-фактура», any contract «договор»
DOC_TYPES = (
    DocType("upd", "универсальный передаточный документ", ("УПД", "универсальный передаточный")),
    DocType("invoice", "счёт-фактура", ("счёт-фактура",)),
    DocType("payment_invoice", "счёт на оплату", ("счёт на оплату",)),
    DocType("lease", "договор аренды", ("договор аренды", "аренда", "субаренда")),
    DocType("supply", "договор поставки", ("договор поставки", "поставка")),
    DocType("loan", "договор займа", ("договор займа", "заём", "займ", "кредит")),
    DocType("employment", "трудовой договор", ("трудовой договор", "трудового договора")),
    DocType(
        "services",
        "договор оказания услуг",
        ("оказания услуг", "возмездного оказания", "договор услуг", "обслуживание"),
    ),
    DocType("work", "договор подряда", ("подряда", "договор подряда")),
    DocType("act", "акт", ("акт",)),
    DocType("bank_statement", "банковская выписка", ("выписка",)),
    DocType("tax_demand", "требование налогового органа", ("требование",)),
    DocType("tax_notice", "уведомление налогового органа", ("уведомление",)),
    DocType("claim", "претензия", ("претензия",)),
    DocType("power_of_attorney", "доверенность", ("доверенность",)),
    DocType("order", "приказ", ("приказ",)),
    DocType("contract", "договор", ("договор", "контракт", "соглашение")),
)
BY_KEY = {doc_type.key: doc_type for doc_type in DOC_TYPES}
