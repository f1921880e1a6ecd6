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
    # documents about another document come first: «Протокол разногласий к договору поставки»
    DocType("disagreements", "протокол разногласий", ("протокол разногласий",)),
    DocType(
        "termination",
        "соглашение о расторжении",
        ("соглашение о расторжении", "расторжение договора"),
    ),
    DocType(
        "amendment",
        "дополнительное соглашение",
        ("дополнительное соглашение", "допсоглашение", "допник"),
    ),
    DocType("guarantee", "банковская гарантия", ("банковская гарантия", "независимая гарантия")),
    DocType("reconciliation", "акт сверки", ("акт сверки", "сверка")),
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
    DocType("commission", "договор комиссии", ("договор комиссии", "комиссионер", "комитент")),
    DocType("agency", "агентский договор", ("агентский договор", "агентский")),
    DocType("storage", "договор хранения", ("договор хранения", "хранение")),
    DocType(
        "assignment",
        "договор цессии",
        ("договор цессии", "цессия", "уступка требования", "уступка права требования"),
    ),
    DocType("licence", "лицензионный договор", ("лицензионный договор", "лицензионное соглашение")),
    DocType("contract", "договор", ("договор", "контракт", "соглашение")),
)
# the kind a heading names before saying which contract it is («Договор № 5 аренды …»)
GENERIC = "contract"
# kinds whose heading goes on to name the document they are about
ABOUT_ANOTHER = frozenset({"disagreements", "termination", "amendment"})
BY_KEY = {doc_type.key: doc_type for doc_type in DOC_TYPES}

# records a user may ask about by kind that the cards do not type: held when a card's
# heading names them
RECORD_KINDS = (
    DocType("declaration", "налоговая декларация", ("декларация",)),
    DocType("advance_report", "авансовый отчёт", ("авансовый отчёт",)),
    DocType("payment_order", "платёжное поручение", ("платёжное поручение", "платёжка")),
    # common records of Russian accounting and corporate law the cards do not type
    # «устава»: pymorphy3 reads a bare «устав» as the gerund of «устать» (so does a heading)
    DocType("charter", "устав", ("устава", "устав")),
    DocType("waybill", "товарная накладная", ("товарная накладная", "накладная")),
    DocType("route_sheet", "путевой лист", ("путевой лист",)),
    DocType(
        "cash_order", "кассовый ордер", ("кассовый ордер", "приходный ордер", "расходный ордер")
    ),
    DocType("balance_sheet", "бухгалтерский баланс", ("бухгалтерский баланс",)),
    DocType("timesheet", "табель учёта рабочего времени", ("табель",)),
    DocType("payroll", "расчётная ведомость", ("расчётная ведомость", "платёжная ведомость")),
)
