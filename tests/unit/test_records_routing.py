"""Questions reach the user's documents without a document word: a question of the user's
records that a confident classifier sends there, a party's name shortened to its first
word, a subject the document's heading names by its adjective, a form named only by a line
in capitals, and a deadline the user's document states instead of one the calculators
would ask the event date for. Documents and questions are written here; nobody tuned on
them."""

from __future__ import annotations

import numpy as np
import pytest

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.cards.sentence_vectors import pack
from finagent.question.build import build_question
from finagent.routing.classifier import Prediction
from finagent.routing.decide import EVENT_DATE, calc_lacks, named_beyond_roles
from finagent.routing.held_sentences import (
    NEAR_MARGIN,
    SENTENCE_MARGIN,
    best_held_sentence,
    held_sentence_decision,
    shared_words,
)
from finagent.routing.inventory import Inventory, describe
from finagent.routing.named_documents import named_documents
from finagent.routing.router import (
    CONFIDENT_RECORD,
    _absent_only,
    _checked_against,
    own_act_decision,
    word_only,
)
from finagent.routing.subject import subject_words
from finagent.state import Decision, Scenario

SERVICES = """# Договор № ТК-9/2026 возмездного оказания транспортных услуг

г. Пермь, 12 января 2026 г.

ООО «Камский Берег», именуемое «Заказчик», и ООО «Ветлуга Транзит Сервис», именуемое
«Исполнитель», заключили настоящий договор.

3.1. Стоимость услуг составляет 84 000 рублей в месяц.
"""
STOCKTAKE = """# Инвентаризационная опись товаров № 7

ООО «Камский Берег», склад № 2, г. Пермь.

Недостача: масло подсолнечное, 12 бутылок, на сумму 2 160 руб.
"""
DEMAND = """Требование о представлении пояснений № 41-02/118

ИФНС России по Мотовилихинскому району г. Перми, ООО «Камский Берег».

Пояснения представить в течение пяти рабочих дней, то есть не позднее 19 марта 2026 года.
"""
RECEIPT = """                                          Унифицированная форма № КО-4
                                    Утверждена постановлением Госкомстата России
ООО «Камский Берег»                                 по ОКПО   | 11223344 |

                                      +------------------+-------------------+
                                      | Номер документа  | Дата составления  |
        КВИТАНЦИЯ К ПЛАТЁЖНОЙ ВЕДОМОСТИ  +------------------+-------------------+
                                      |       15         |    02.02.2026     |

Принято от: Шилова Олега Петровича
Сумма: 4 500 руб. 00 коп.
"""
RETURN = """ИНН 5903001122   КПП 590301001   Стр. 001   Форма по КНД 1151111
НАЛОГОВАЯ ДЕКЛАРАЦИЯ
по налогу на имущество организаций
Отчётный год 2025
"""


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    texts = {"services": SERVICES, "stocktake": STOCKTAKE, "demand": DEMAND}
    return [build_card(name, name, text) for name, text in texts.items()]


@pytest.mark.parametrize(
    ("question", "of_record"),
    [
        ("Кому и на какую сумму мы отгрузили товар 3 марта?", True),
        ("Под какой процент банк начислил проценты за май?", True),
        ("Кто ведёт нашу проверку — кому звонить?", True),
        # what a question states before its asking clause is context
        ("Инспекция затребовала у нас документы — сколько дней на ответ?", False),
        ("Какой штраф за непредставление декларации?", False),
        ("Какая ставка указана в статье 224?", False),
    ],
)
def test_a_question_of_the_users_records_is_typed(question: str, of_record: bool) -> None:
    assert build_question(question).of_record is of_record


def _prediction(s1: float) -> Prediction:
    rest = 1.0 - s1
    return Prediction("S1", s1, {"S1": s1, "kb": rest, "S5": 0.0})


def test_a_confident_documents_decision_stands_for_a_question_of_records(
    cards: list[DocumentCard],
) -> None:
    inventory = Inventory(describe(card.title) for card in cards)
    question = "Под какой процент банк начислил проценты за май?"
    named = named_documents(build_question(question, cards=cards), cards)
    assert named.of_record
    confident = _checked_against(_prediction(CONFIDENT_RECORD), question, inventory, named)
    assert confident.label == "S1"
    # less sure, or a question of rules: the best other label decides
    unsure = _checked_against(_prediction(CONFIDENT_RECORD - 0.1), question, inventory, named)
    assert unsure.label == "kb"
    rule = "Какой штраф грозит свидетелю за неявку на допрос?"
    named_rule = named_documents(build_question(rule, cards=cards), cards)
    assert _checked_against(_prediction(0.95), rule, inventory, named_rule).label == "kb"


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Сколько в месяц платим Ветлуге?", True),
        ("Когда Ветлуга выставляет счёт?", True),
        ("Сколько стоит перевозка по ветлуге?", False),  # written in lower case
    ],
)
def test_a_party_is_named_by_the_first_word_of_its_name(
    cards: list[DocumentCard], question: str, named: bool
) -> None:
    asked = build_question(question, cards=cards)
    found = [m for m in asked.documents if "контрагент" in m.reasons]
    assert bool(found) is named
    if named:
        assert found[0].document_id == "services"


def test_a_subject_the_heading_names_by_its_adjective(cards: list[DocumentCard]) -> None:
    question = "На какую сумму недостача по инвентаризации склада?"
    assert subject_words(question, cards) == ["инвентаризация"]
    assert named_documents(build_question(question, cards=cards), cards).subject


@pytest.mark.parametrize(
    ("text", "title", "cue"),
    [
        (RECEIPT, "Квитанция к платёжной ведомости", "квитанция"),
        (RETURN, "Налоговая декларация по налогу на имущество организаций", "декларация"),
    ],
)
def test_a_form_named_by_a_line_in_capitals(text: str, title: str, cue: str) -> None:
    card = build_card("form", "form.txt", text)
    assert card.title == title
    assert cue in card.kind_cues


def test_a_held_document_states_the_deadline_the_calculators_would_ask_for(
    cards: list[DocumentCard],
) -> None:
    question = "До какого числа ответить на требование о пояснениях?"
    assert EVENT_DATE in calc_lacks(question)
    assert named_beyond_roles(build_question(question, cards=cards)) == ["demand"]
    # a date to count from: the calculators answer
    assert EVENT_DATE not in calc_lacks(
        "Требование о пояснениях получили 3 марта 2026, до какого числа ответить?"
    )
    # a party role alone names no document of the question's
    role_only = build_question("До какого числа исполнитель должен сдать отчёт?", cards=cards)
    assert named_beyond_roles(role_only) == []


@pytest.mark.parametrize(
    ("question", "own_act"),
    [
        ("Сколько мы заплатили единым налоговым платежом в мае?", True),
        ("Какой налог у нас вышел за 2025 год?", True),
        ("Под какой процент банк начислил проценты за май?", False),  # not the user's act
        ("Сколько нам нужно заплатить налога с продажи квартиры?", False),  # not done yet
    ],
)
def test_an_act_of_the_users_own_is_typed(question: str, own_act: bool) -> None:
    assert build_question(question).own_act is own_act


def _classified(intents: list[str], scenario: Scenario = Scenario.ROUTED) -> Decision:
    return Decision(
        scenario=scenario,
        intents=intents,
        confidence=0.95,
        reason="classifier: kb (0.95)",
        source="classifier",
    )


def test_what_the_user_did_is_read_in_their_documents(cards: list[DocumentCard]) -> None:
    question = "Сколько мы заплатили единым налоговым платежом в мае?"
    named = named_documents(build_question(question, cards=cards), cards)
    decided = own_act_decision(question, _classified(["kb"]), named)
    assert decided.scenario == Scenario.ALL_DOCUMENTS
    assert decided.rule == "cards_record"
    # live rates, a clarification and the law asked in its own words stand
    rates = _classified(["rates"])
    assert own_act_decision(question, rates, named) is rates
    unsure = _classified([], Scenario.CLARIFY)
    assert own_act_decision(question, unsure, named) is unsure
    law = "Сколько мы заплатили сверх нормы по статье 346.21 НК РФ?"
    asked_law = _classified(["kb"])
    law_named = named_documents(build_question(law, cards=cards), cards)
    assert own_act_decision(law, asked_law, law_named) is asked_law


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_a_held_sentence_naming_the_questions_words_needs_a_smaller_lead() -> None:
    sentence = "Выплатить дивиденды участникам не позднее 19 июня 2026 г."
    records = [pack("protocol", "m", [sentence], np.stack([_unit(1, 0, 0)]))]
    near = 1.0 - (NEAR_MARGIN + SENTENCE_MARGIN) / 2  # a lead between the two margins
    held = best_held_sentence(records, _unit(1, 0, 0), "m", near)
    assert held is not None and not held.leads
    asked = "До какого числа по решению участников выплатить дивиденды?"
    assert shared_words(asked, sentence) >= {"дивиденд", "участник", "выплатить"}
    decided = held_sentence_decision(asked, _classified(["kb"]), held)
    assert decided.scenario == Scenario.ALL_DOCUMENTS
    # the same lead without the question's words keeps the law's decision
    other = "Когда уплачивается налог на имущество?"
    kept = _classified(["kb"])
    assert held_sentence_decision(other, kept, held) is kept


INVOICE = """СЧЁТ-ФАКТУРА № 56 от 2 февраля 2026 г.
Продавец: ООО «Камский Берег», ИНН 5903001122
Покупатель: ООО «Ирень», ИНН 5903112233
Всего к оплате 60 000 руб., в том числе НДС 10 000 руб.
"""


@pytest.fixture(scope="module")
def invoice_cards() -> list[DocumentCard]:
    return [build_card("invoice", "invoice.txt", INVOICE)]


def _ruled(inventory: Inventory) -> Decision:
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=0.9,
        reason="names the user's documents: счёт-фактура",
        rule="inventory",
    )


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        ("У нас за год нет первички и счетов-фактур — какой штраф?", True),
        ("Работаем без счёта-фактуры, какой вычет НДС возможен?", True),
        ("Какой НДС в счёте-фактуре?", False),
        ("В счёте-фактуре нет подписи, что делать?", False),  # absence after the kind word
    ],
)
def test_a_kind_the_question_says_is_absent_names_no_source(
    invoice_cards: list[DocumentCard], question: str, absent: bool
) -> None:
    named = named_documents(build_question(question, cards=invoice_cards), invoice_cards)
    assert named.absent_kind is absent
    inventory = Inventory(describe(card.title) for card in invoice_cards)
    assert _absent_only(_ruled(inventory), question, inventory, named) is absent


def test_the_first_person_of_a_questions_context_is_not_its_asking_clause(
    invoice_cards: list[DocumentCard],
) -> None:
    context = "Продаю квартиру по договору дешевле кадастровой. Какой доход посчитают?"
    assert not build_question(context).own_asked
    assert build_question("Какой НДС мы получили по счёту-фактуре?").own_asked
    inventory = Inventory(describe(card.title) for card in invoice_cards)
    question = "Мы получили счёт-фактуру с ошибкой. Какой штраф за это предусмотрен?"
    named = named_documents(build_question(question, cards=invoice_cards), invoice_cards)
    assert named.own and not named.own_asked
    assert word_only(_ruled(inventory), question, inventory, named)


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        ("Какая сумма налога показана в декларации за 2025 год?", True),
        ("Какие сведения указываются в декларации по налогу на имущество?", False),
        ("Какой штраф за декларацию, поданную с опозданием?", False),  # not its source
    ],
)
def test_what_a_held_kind_states_is_asked_of_the_users_document(
    question: str, stated: bool
) -> None:
    cards = [build_card("return", "return.pdf", RETURN)]
    named = named_documents(build_question(question, cards=cards), cards)
    assert named.stated_in_held is stated
    inventory = Inventory(describe(card.title) for card in cards)
    if stated:
        assert not word_only(_ruled(inventory), question, inventory, named)
