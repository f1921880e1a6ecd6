"""Document cards on the bundled samples and on documents of other kinds (tests/data/cards)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard

SAMPLES = Path(__file__).resolve().parents[2] / "sample_docs"
OWN = Path(__file__).resolve().parents[1] / "data" / "cards"


@pytest.fixture(scope="module")
def card() -> dict[str, DocumentCard]:
    paths = sorted(SAMPLES.iterdir()) + sorted(OWN.iterdir())
    return {p.stem: build_card(p.stem, p.stem, p.read_text(encoding="utf-8")) for p in paths}


def values(card: DocumentCard, field: str) -> list[str]:
    return [fact.value for fact in card.values(field)]


def parties(card: DocumentCard) -> dict[str, tuple[str, str | None, str | None]]:
    return {p.role: (p.name, p.inn, p.kpp) for p in card.parties}


def test_lease(card: dict[str, DocumentCard]) -> None:
    lease = card["dogovor_arendy"]
    assert (lease.doc_type, lease.title) == (
        "lease",
        "Договор аренды нежилого помещения № А-17/2025",
    )
    assert (lease.number, lease.date) == ("А-17/2025", "2025-01-15")
    assert parties(lease) == {
        "landlord": ("АО «СеверСтройИнвест»", "7814556023", "781401001"),
        "tenant": ("ООО «Ромашка-Трейд»", "7716889042", "771601001"),
    }
    assert lease.parties_with("landlord")[0].representative == "Лаврентьева Игоря Семёновича"
    [rent] = lease.values("rent")
    assert (rent.value, rent.per) == ("297 200 руб.", "month")
    assert rent.sentence.text.startswith("3.1. Постоянная часть арендной платы составляет")
    text = (SAMPLES / "dogovor_arendy.md").read_text(encoding="utf-8")
    assert text[rent.start : rent.end] == rent.text
    assert text[rent.sentence.start : rent.sentence.end] == rent.sentence.text
    assert values(lease, "deposit") == ["297 200 руб."]
    assert values(lease, "total") == ["3 269 200 руб."]
    assert "49 533,33 руб." in values(lease, "vat")
    assert values(lease, "penalty")[0] == "0,1 %"
    assert "30 календарных дн." in values(lease, "notice_period")
    assert "10 рабочих дн." in values(lease, "payment_term")


def test_two_candidates_for_one_field_are_both_kept(card: dict[str, DocumentCard]) -> None:
    # the lease runs «с 1 февраля 2025 г. по 31 декабря 2025 г.»: both dates stay candidates
    assert {"2025-02-01", "2025-12-31"} <= set(values(card["dogovor_arendy"], "valid_until"))
    # the act states its total in its table's totals row (without and with VAT), in the
    # summary and in its closing sentence
    assert values(card["akt_vypolnennyh_rabot"], "total") == [
        "145 000 руб.",
        "174 000 руб.",
        "174 000 руб.",
        "174 000 руб.",
    ]


def test_invoice(card: dict[str, DocumentCard]) -> None:
    invoice = card["schet_faktura"]
    assert (invoice.doc_type, invoice.number, invoice.date) == ("invoice", "87", "2025-03-13")
    assert invoice.title == "Счёт-фактура № 87 от 13 марта 2025 г."
    assert parties(invoice) == {
        "seller": ("ООО «Ромашка-Трейд»", "7716889042", "771601001"),
        "buyer": ("АО «Вектор-Логистик»", "7729450318", "504101001"),
    }
    # the table's «Всего к оплате» row without and with VAT, then the summary line
    assert values(invoice, "total") == ["880 000 руб.", "1 056 000 руб.", "1 056 000 руб."]
    assert "176 000 руб." in values(invoice, "vat") and "20 %" in values(invoice, "vat")
    assert "880 000 руб." in values(invoice, "contract_amount")


def test_supply_contract(card: dict[str, DocumentCard]) -> None:
    supply = card["dogovor_postavki"]
    assert (supply.doc_type, supply.number, supply.date) == ("supply", "ПСК-45/2025", "2025-01-20")
    assert parties(supply) == {
        "supplier": ("АО «ПромСнабКомплект»", "5032298174", "503201001"),
        "buyer": ("ООО «Ромашка-Трейд»", "7716889042", "771601001"),
    }


def test_act(card: dict[str, DocumentCard]) -> None:
    act = card["akt_vypolnennyh_rabot"]
    assert (act.doc_type, act.number, act.date) == ("act", "52", "2025-02-28")
    assert parties(act) == {
        "contractor": ("ООО «ТехСервис-Плюс»", "7734612905", "773401001"),
        "customer": ("ООО «Ромашка-Трейд»", "7716889042", "771601001"),
    }
    assert values(act, "contract_amount") == ["145 000 руб."]
    assert values(act, "penalty") == ["0,05 %"]


def test_bank_statement(card: dict[str, DocumentCard]) -> None:
    statement = card["bankovskaya_vypiska"]
    assert (statement.doc_type, statement.date) == ("bank_statement", "2025-04-01")
    assert parties(statement)["client"] == ("ООО «Ромашка-Трейд»", "7716889042", "771601001")
    assert values(statement, "account") == ["40702810500000067890"]
    assert values(statement, "bik") == ["044525777"]
    assert values(statement, "balance")[0] == "1 846 315,2 руб."


def test_tax_demand(card: dict[str, DocumentCard]) -> None:
    demand = card["uvedomlenie_fns"]
    assert demand.doc_type == "tax_demand"
    assert demand.title == "Требование о представлении пояснений № 18-07/4412"
    assert (demand.number, demand.date) == ("18-07/4412", "2025-08-05")
    assert parties(demand)["addressee"] == ("ООО «Ромашка-Трейд»", "7716889042", "771601001")
    assert values(demand, "response_term")[:1] == ["5 рабочих дн."]
    assert "5 000 руб." in values(demand, "penalty")


def test_loan_titled_by_its_heading_not_its_letterhead(card: dict[str, DocumentCard]) -> None:
    loan = card["dogovor_zajma"]
    assert loan.title == "Договор займа № З-3/2025"  # not «**ООО «Берёзка-Инвест»**»
    assert (loan.doc_type, loan.number, loan.date) == ("loan", "З-3/2025", "2025-03-10")
    assert parties(loan) == {
        "lender": ("ООО «Берёзка-Инвест»", "7723456781", "772301001"),
        "borrower": ("ООО «Уралтехснаб»", "6671234567", "667101001"),
    }
    assert loan.parties_with("borrower")[0].representative == "Седова Андрея Викторовича"
    assert values(loan, "principal") == ["2 500 000 руб."]
    assert values(loan, "interest_rate") == ["14 %"]
    assert values(loan, "penalty") == ["0,2 %"]
    assert values(loan, "payment_term") == ["2026-03-10"]


def test_services_contract(card: dict[str, DocumentCard]) -> None:
    services = card["dogovor_uslug"]
    assert services.title == "Договор возмездного оказания услуг № 41-У"
    assert (services.doc_type, services.number, services.date) == (
        "services",
        "41-У",
        "2025-04-03",
    )
    assert parties(services) == {
        "customer": ("ООО «Волга-Логистик»", "1655012345", "165501001"),
        "contractor": ("ИП Соколова Анна Петровна", "165512345678", None),
    }
    [price] = services.values("contract_amount")
    assert (price.value, price.per) == ("45 000 руб.", "month")
    assert values(services, "payment_term") == ["7 рабочих дн."]
    assert values(services, "valid_until") == ["2025-12-31"]
    assert values(services, "notice_period") == ["30 календарных дн."]


def test_employment_contract(card: dict[str, DocumentCard]) -> None:
    employment = card["trudovoj_dogovor"]
    assert (employment.doc_type, employment.number, employment.date) == (
        "employment",
        "17-ТД",
        "2025-07-01",
    )
    assert parties(employment) == {
        "employer": ("АО «СибПромАвтоматика»", "5406123456", "540601001"),
        "employee": ("Белова Екатерина Андреевна", None, None),
    }
    [salary] = employment.values("salary")
    assert (salary.value, salary.per) == ("120 000 руб.", "month")
    assert values(employment, "probation") == ["3 мес."]


def test_markdown_letterhead_is_never_the_title() -> None:
    text = (
        "**ООО «Уралтехснаб»**\n"
        "620014, г. Екатеринбург, ул. Малышева, д. 5, ИНН 6671234567\n\n"
        "Генеральному директору ООО «Ромашка-Трейд»\n\n"
        "## ПРЕТЕНЗИЯ № 12 от 14 апреля 2025 г.\n\n"
        "Просим оплатить задолженность 356 000 рублей в течение 10 календарных дней.\n"
    )
    claim = build_card("doc_1", "**ООО «Уралтехснаб»**", text)
    assert (claim.doc_type, claim.title) == ("claim", "Претензия № 12 от 14 апреля 2025 г.")
    assert values(claim, "debt") == ["356 000 руб."]
    assert "ООО «Уралтехснаб»" in claim.organisations


def test_a_document_without_a_known_type_keeps_its_clean_title() -> None:
    card = build_card("doc_2", "# **Заметки**", "Просто текст без реквизитов.")
    assert (card.doc_type, card.title, card.parties, card.facts) == (None, "Заметки", [], [])


def test_a_card_round_trips_through_json(card: dict[str, DocumentCard]) -> None:
    lease = card["dogovor_arendy"]
    assert DocumentCard.model_validate_json(lease.model_dump_json()) == lease


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.text(max_size=40),
            st.sampled_from(
                [
                    "№",
                    "ИНН",
                    "«",
                    "»",
                    "ООО «",
                    "именуемое в дальнейшем «Арендодатель»",
                    "Продавец:",
                    "в течение",
                    "10 рабочих дней",
                    "297 200",
                    "руб.",
                    "(",
                    "31.02.2025",
                    "15 января 2025 г.",
                    "\n",
                    "# ",
                    "**",
                    "|",
                ]
            ),
        ),
        max_size=30,
    ).map(" ".join)
)
@example("AAAA\U00017000")  # a letter Unicode names by rule only (Tangut) broke pymorphy3
def test_any_text_gets_a_card(text: str) -> None:
    card = build_card("doc_x", text[:50], text)
    for fact in card.facts:
        assert text[fact.start : fact.end] == fact.text
        assert text[fact.sentence.start : fact.sentence.end] == fact.sentence.text


def test_number_and_date_come_from_the_heading_not_the_letterhead(
    card: dict[str, DocumentCard],
) -> None:
    storage = card["dogovor_hraneniya_letterhead"]
    assert (storage.doc_type, storage.title) == ("storage", "Договор хранения № ПС-9/2026")
    # «Исх. № 905 от 02.02.2026» above the heading is the covering letter's
    assert (storage.number, storage.date) == ("ПС-9/2026", "2026-02-03")


def test_a_heading_that_names_another_document_keeps_its_number_as_a_reference(
    card: dict[str, DocumentCard],
) -> None:
    amendment = card["dopsoglashenie_2"]
    assert amendment.doc_type == "amendment"
    assert amendment.title == (
        "Дополнительное соглашение № 2 к договору поставки пиломатериалов "
        "№ СЛ-77/2025 от 14.05.2025"
    )
    # the amended contract's date is not the amendment's
    assert (amendment.number, amendment.date) == ("2", "2026-03-12")
    assert amendment.references == ["СЛ-77/2025"]


def test_a_bank_guarantee_is_not_titled_by_the_banks_licence(
    card: dict[str, DocumentCard],
) -> None:
    guarantee = card["garantiya_bank"]
    assert guarantee.doc_type == "guarantee"
    assert guarantee.title.startswith("Независимая гарантия № НГ-2026/88")
    assert (guarantee.number, guarantee.date) == ("НГ-2026/88", "2026-05-20")
