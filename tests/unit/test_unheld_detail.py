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


# stop 36, round 3: a held contract named by a subject as its heading writes it, or by a
# person's name declined; a party after a subject must be one of the contracts of it
BARTER = """\
# ДОГОВОР МЕНЫ № БМ-2/2026

ООО «Кедр», ИНН 7702000022, и ООО «Сосна», ИНН 7702000044, заключили настоящий договор.
1. Стороны обмениваются товарами: печь хлебопекарная на фургон изотермический.
2. Право собственности переходит в момент подписания акта приёма-передачи.
"""

PARTNERSHIP = """\
# Договор простого товарищества № ПТ-9/2026

ООО «Кедр», ИНН 7702000022, и Индивидуальный предприниматель Белова Ирина Олеговна,
ИНН 770200005566, заключили настоящий договор о совместной деятельности.
1. Прибыль распределяется пропорционально вкладам: ООО «Кедр» — 70 %, ИП Белова — 30 %.
2. Перевозка продукции осуществляется силами ООО «Кедр».
"""

CARRIER_STATEMENT = """\
Выписка по расчётному счёту
Клиент: ООО «Кедр», ИНН 7702000022
1; 05.03.2026; ООО «ТрансВолга», ИНН 7702000077; Оплата по счёту № 31 за перевозку; 9 000,00
2; 06.03.2026; ИП Громов Павел Ильич, ИНН 770200008899; Оплата по счёту № 4; 5 000,00
"""


def _missing_of(question: str) -> str | None:
    cards = [
        build_card("b", "b.docx", BARTER),
        build_card("p", "p.docx", PARTNERSHIP),
        build_card("s", "s.txt", CARRIER_STATEMENT),
    ]
    return named_documents(build_question(question, cards=cards), cards).missing


def test_a_subject_named_as_the_heading_writes_it_is_held() -> None:
    # pymorphy3 reads «мены» of a heading as its own word, the question's as «мена»
    assert _missing_of("Когда к нам переходит право собственности по договору мены?") is None


def test_a_party_named_in_another_case_is_held() -> None:
    assert (
        _missing_of("Какая доля прибыли у ИП Беловой по договору о совместной деятельности?")
        is None
    )
    assert _missing_of("Что сказано в договоре с ИП Беловой о распределении прибыли?") is None


def test_a_party_after_a_subject_must_be_one_of_the_contracts_of_it() -> None:
    # a contract speaks of «перевозка», but «ТрансВолга» is only a payee in a statement
    assert (
        _missing_of("Какие сроки оплаты в нашем договоре перевозки с ТрансВолгой?")
        == "договор с ТрансВолгой"
    )
    # a payee's surname declined is no contract of the user's either
    assert _missing_of("Какая цена в договоре с ИП Громовым?") is not None
    assert _missing_of("Что в договоре перевозки с ИП Громовым сказано об оплате?") is not None


def test_an_organisation_named_in_another_case_without_a_kind_is_held() -> None:
    # «заплатили ИП Громову»: the statement's «ИП Громов Павел Ильич»
    assert _missing_of("Сколько мы заплатили ИП Громову?") is None
    assert _missing_of("Сколько мы заплатили ИП Лаптевой?") == "документ с ИП «Лаптевой»"


# stop 37: a compound name is compared part by part in its normal forms, not by its first
# letters: two counterparties sharing a first word are different parties
SUPPLY = """\
# Договор поставки № П-3/2026

ООО «Ольха-Строй», ИНН 7702000066, именуемое в дальнейшем «Поставщик», и ООО «Кедр»,
ИНН 7702000022, именуемое в дальнейшем «Покупатель», заключили настоящий договор.
1. Поставщик поставляет пиломатериалы на сумму 90 000 руб.
"""


def _missing_supply(question: str) -> str | None:
    cards = [build_card("p", "p.md", SUPPLY)]
    return named_documents(build_question(question, cards=cards), cards).missing


def test_a_party_sharing_only_the_first_word_of_a_held_name_is_not_held() -> None:
    assert _missing_supply("Какая сумма в договоре с Ольха-Сервисом?") == (
        "договор с Ольха-Сервисом"
    )


def test_a_held_compound_name_declined_or_shortened_is_held() -> None:
    assert _missing_supply("Какая сумма в договоре с Ольха-Строем?") is None
    assert _missing_supply("Какая сумма в договоре с Ольхой?") is None


def test_a_contract_named_by_whose_it_is_needs_no_word_of_its_own() -> None:
    """«договор сотрудника», «договор клиента»: a person's or party's noun says whose
    contract it is, in the asker's words, not what it is about; a subject no held contract
    speaks of is still not held."""
    assert _missing("Какая стоимость уборки по договору клиента?") is None
    assert _missing("Что в договоре контрагента сказано про оплату?") is None
    assert _missing("Какой платёж по договору франшизы?") == "договор франшизы"
