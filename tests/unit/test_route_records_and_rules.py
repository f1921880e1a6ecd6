"""Documents or the law, both ways: an act of the user's records told impersonally (a held
party named by its role, a day a held document dates a line by) reaches the documents,
and a rule question that names a kind of the user's documents only as its topic reaches
the law. Documents and questions are written here in our own words; nobody tuned on
them."""

from __future__ import annotations

import pytest

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.routing.classifier import Prediction
from finagent.routing.held_time import names_held_time
from finagent.routing.named_documents import named_documents
from finagent.routing.router import _sure_otherwise, own_act_decision
from finagent.state import Decision, Scenario

STATEMENT = """# Выписка по расчётному счёту № 40702810900000012345

Банк: ПАО «Банк Северный Путь»
Клиент: ООО «Озёрный Край»
Период: с 01.04.2026 по 30.04.2026

| Дата | Контрагент | Назначение | Сумма |
|---|---|---|---|
| 09.04.2026 | ООО «Лесная Тара» | Оплата по счёту 41 за ящики | 86 400,00 |
| 14.04.2026 | УФК по Псковской области | Единый налоговый платёж | 212 750,00 |
| 30.04.2026 | ПАО «Банк Северный Путь» | Проценты на остаток по ставке 6,5 % годовых | 3 180,44 |
"""
LOAN = """# Договор займа № З-5/2026

г. Псков, 2 февраля 2026 г.

ООО «Липовая Роща», именуемое в дальнейшем «Займодавец», и ООО «Озёрный Край», именуемое в
дальнейшем «Заёмщик», заключили настоящий договор.

1.1. Займодавец передаёт Заёмщику 1 500 000 рублей.
2.1. Проценты за пользование займом составляют 9 % годовых.
"""
INVOICE = """# Счёт-фактура № 214 от 17 апреля 2026 г.

Продавец: ООО «Озёрный Край». Покупатель: ООО «Лесная Тара».

Всего к оплате: 58 800,00 руб., в том числе НДС 9 800,00 руб.
"""


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    texts = {"statement": STATEMENT, "loan": LOAN, "invoice": INVOICE}
    return [build_card(name, name, text) for name, text in texts.items()]


def _classified(intents: list[str]) -> Decision:
    return Decision(
        scenario=Scenario.ROUTED,
        intents=intents,
        confidence=0.95,
        reason=f"classifier: {intents[0]} (0.95)",
        source="classifier",
    )


@pytest.mark.parametrize(
    ("question", "label"),
    [
        # a held party named by its role, an act told impersonally
        ("Сколько банк удержал комиссии за ведение счёта в апреле?", "kb"),
        ("Под какой процент банк начислил проценты на остаток за апрель?", "rates"),
        ("Какую сумму займодавец перечислил по займу?", "kb"),
        # a day or a month a held document dates a line by
        ("На какую сумму прошла оплата за ящики 9 апреля?", "kb"),
        ("Сколько ушло единым налоговым платежом 14.04.2026?", "kb"),
        ("Сколько было списано налогов в апреле 2026 года?", "news"),
    ],
)
def test_an_act_of_the_users_records_reaches_the_documents(
    cards: list[DocumentCard], question: str, label: str
) -> None:
    named = named_documents(build_question(question, cards=cards), cards)
    decided = own_act_decision(question, _classified([label]), named)
    assert decided.scenario == Scenario.ALL_DOCUMENTS, named
    assert decided.rule == "cards_record"


@pytest.mark.parametrize(
    ("question", "label"),
    [
        # the regulator is no party of the user's statement, though «банк» is a role
        ("До какого уровня Банк России снизил ключевую ставку в апреле 2026 года?", "rates"),
        ("Какую ставку Банк России установил в апреле 2026 года?", "kb"),
        # a month no held document dates a line by
        ("Сколько налогов ушло единым налоговым платежом в августе 2026?", "kb"),
        # an institution's act in a month the statement covers is no line of it
        ("Какую ставку ЦБ установил в апреле 2026 года?", "kb"),
        ("Сколько Минфин разрешил списать в апреле 2026 года?", "kb"),
        # an act of a role but live rates without a held party
        ("Какой курс доллара установили на 9 апреля?", "rates"),
    ],
)
def test_the_law_and_live_sources_keep_what_is_not_the_users(
    cards: list[DocumentCard], question: str, label: str
) -> None:
    named = named_documents(build_question(question, cards=cards), cards)
    decision = _classified([label])
    assert own_act_decision(question, decision, named) is decision


def test_held_days_match_by_day_month_and_year(cards: list[DocumentCard]) -> None:
    assert names_held_time("Что списали 30 апреля?", cards)
    assert names_held_time("Что пришло 09.04.2026?", cards)
    assert names_held_time("Сколько заплатили в апреле 2026 г.?", cards)
    assert not names_held_time("Что списали 30 апреля 2024 года?", cards)
    assert not names_held_time("Сколько заплатили в июле?", cards)
    assert not names_held_time("Сколько заплатили 5 апреля?", cards)
    # a month's year in two digits, and a range's first month with the year at its end
    assert names_held_time("Сколько ушло на налоги в апреле 26-го?", cards)
    assert not names_held_time("Сколько ушло на налоги в апреле 24-го?", cards)
    assert names_held_time("Что списали с апреля по июнь 2026 года?", cards)


def _kb(probability: float) -> Prediction:
    return Prediction(
        label="kb",
        probability=probability,
        scores={"kb": probability, "S1": 1.0 - probability},
    )


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        # the kind is what the rule is about: the law's question
        ("Сколько дней даётся на выставление счёта-фактуры после получения аванса?", True),
        ("Кто подписывает счёт-фактуру, если руководителя нет?", True),
        ("С какой суммы договор займа между юрлицом и гражданином заключают письменно?", True),
        # the kind as the source of what is asked: the user's document
        ("Какая сумма НДС в счёте-фактуре?", False),
        ("Какой процент по договору займа?", False),
        ("Счёт-фактура № 214: кто покупатель?", False),
        ("Сколько стоит товар из счёта-фактуры?", False),
    ],
)
def test_a_kind_named_as_the_topic_yields_to_a_sure_classifier(
    cards: list[DocumentCard], question: str, topic: bool
) -> None:
    named = named_documents(build_question(question, cards=cards), cards)
    assert named.typed
    assert named.kind_as_topic is topic
    # a classifier sure of the law at 0.8 outweighs a kind named as the topic only
    assert _sure_otherwise(_kb(0.8), named) is (topic and not named.common_kind)
