"""Stop 45, routing lane: a held document's own phrase reaches it, a tax's rate asked with
a word a statement uses only in a payee's name stays with the law, an unsupported share of
S1 asks nothing, a contract named by its kind adjective is held only as its heading says,
a charter named by its kind is the evidence, a table whose header line and rows run
together states its sums, and a named document that lacks the value abstains. Documents
and questions invented here."""

from __future__ import annotations

from finagent.answering.document_choice import decided_documents
from finagent.answering.evidence import Candidate
from finagent.answering.named_lacks import named_document_lacks
from finagent.cards.build import build_card
from finagent.cards.header_units import unit_cells
from finagent.cards.model import DocumentCard
from finagent.language.compounds import compound_of
from finagent.question.build import build_question
from finagent.routing.classifier import Prediction
from finagent.routing.distinctive import distinctive_terms, vocabulary_hits
from finagent.routing.inventory import Inventory, describe
from finagent.routing.named_documents import NamedDocuments, named_documents
from finagent.routing.router import _checked_against, cards_decision
from finagent.state import Chunk, Scenario

HEAT = """\
# Договор электроснабжения № ЭЛ-7/2027

АО «СеверЭнергоСеть» (Поставщик) и ООО «Ока-Трейд» (Потребитель) заключили договор.
3.1. Плановый объём отпуска электрической энергии на апрель 2027 г. — 41 200 кВт·ч на
сумму 282 220 руб.
3.2. Оплата производится до 15-го числа месяца, следующего за расчётным.
"""
STATEMENT = (
    "Выписка по расчётному счёту\n"
    "Клиент: ООО «Ока-Трейд», ИНН 7702000022\n"
    "№: 1; Дата: 03.03.2027; Контрагент: ООО «Телеком-Линия», ИНН 7702000033; "
    "Назначение платежа: Оплата услуг связи за март; Сумма: 9 000,00\n"
    "№: 2; Дата: 05.03.2027; Контрагент: ООО «Афиша», ИНН 7702000044; "
    "Назначение платежа: Оплата рекламных услуг за март; Сумма: 15 000,00\n"
)
LEASE = """\
# Договор аренды склада № СК-3/2027

ООО «Берег» (Арендодатель) и ООО «Ока-Трейд» (Арендатор) заключили договор.
4.1. Арендная плата составляет 80 000 руб. в месяц.
"""
SUPPLY = """\
# Договор поставки № П-12/2027

ООО «Ока-Трейд» (Покупатель) и АО «Металлист» (Поставщик) заключили договор.
5.1. Оплата производится в течение 30 дней. Отсрочка платежа не является коммерческим
кредитом, проценты на сумму отсрочки не начисляются.
"""
CREDIT = """\
# Кредитный договор № КД-4/2027

АО «Банк Заря» (Кредитор) и ООО «Ока-Трейд» (Заёмщик) заключили договор.
2.1. Процентная ставка составляет 14 % годовых.
"""
ADS = """\
# Договор на оказание рекламных услуг № Р-2/2027

ООО «Афиша» (Исполнитель) и ООО «Ока-Трейд» (Заказчик) заключили договор.
3.1. Стоимость размещения — 15 000 руб. в месяц.
"""
CHARTER = """\
# УСТАВ
## Общества с ограниченной ответственностью «Ока-Трейд»

4.1. Уставный капитал Общества составляет 500 000 рублей и состоит из номинальной стоимости
долей участников.
4.2. Участник вправе продать свою долю другим участникам Общества без согласия других
участников.
5.1. Общество формирует резервный фонд в размере 10 % уставного капитала.
"""
SHARED_BUILD = """\
# Договор № ДУ-8/2027 участия в долевом строительстве

ООО «Стройка» (Застройщик) и ООО «Ока-Трейд» (Участник) заключили договор.
2.1. Цена договора составляет 9 000 000 рублей.
"""


# the titles an upload gives its documents when their heading names no numbered kind
_TITLES = {"charter": "Устав"}


def _cards(**texts: str) -> list[DocumentCard]:
    return [build_card(name, _TITLES.get(name, f"{name}.md"), text) for name, text in texts.items()]


def test_a_compound_joined_by_a_linking_vowel_shortens_its_phrase() -> None:
    assert compound_of("электроэнергией", "электрическая энергия")
    assert compound_of("сельхозналог", "сельскохозяйственный налог")
    assert not compound_of("электроэнергия", "тепловая энергия")


def test_a_short_form_of_a_held_documents_phrase_hits_that_document() -> None:
    cards = _cards(heat=HEAT, lease=LEASE, statement=STATEMENT)
    hits = vocabulary_hits("какой плановый объём электроэнергии на апрель стоит?", cards)
    assert "электроэнергия" in hits.by_document.get("heat", [])
    named = named_documents(build_question("плановый объём электроэнергии на апрель?"), cards)
    assert named.vocabulary_ids == ["heat"]


def test_a_common_word_a_document_uses_only_in_a_payees_name_is_no_hit() -> None:
    cards = _cards(statement=STATEMENT, lease=LEASE, supply=SUPPLY)
    question = "Выиграл телек в рекламной акции, по какой ставке НДФЛ?"
    assert "телек" not in distinctive_terms(question, cards).rare
    assert all(
        "телек" not in words for words in vocabulary_hits(question, cards).by_document.values()
    )
    # written as a name, it is still the payee's
    assert "телеком-линия" in distinctive_terms("Сколько заплатили Телеком-Линии?", cards).names


def test_a_tax_rate_asked_with_a_held_word_alone_stays_with_the_law() -> None:
    impersonal = NamedDocuments(vocabulary=["рекламный"], vocabulary_ids=["s"], tax_rate=True)
    text = "по какой ставке НДФЛ облагается приз рекламной акции?"
    assert cards_decision(text, impersonal, None, None) is None
    own = NamedDocuments(vocabulary=["рекламный"], vocabulary_ids=["s"], tax_rate=True, own=True)
    decided = cards_decision(text, own, None, None)
    assert decided is not None and decided.scenario == Scenario.ALL_DOCUMENTS


def test_an_unsupported_share_of_s1_does_not_make_the_classifier_unsure() -> None:
    cards = _cards(lease=LEASE, supply=SUPPLY)
    inventory = Inventory(describe(card.title) for card in cards)
    text = "с какой суммы выплат в месяц действует пониженный тариф взносов в 2025 году?"
    named = named_documents(build_question(text, cards=cards), cards)
    unsure = Prediction("kb", 0.46, {"kb": 0.46, "S1": 0.4, "news": 0.14})
    checked = _checked_against(unsure, text, inventory, named, 0.5)
    assert checked.label == "kb" and checked.probability > 0.5
    # a question of the user's own affairs keeps its doubt
    own = "с какой суммы мы платим пониженный тариф взносов?"
    named_own = named_documents(build_question(own, cards=cards), cards)
    assert _checked_against(unsure, own, inventory, named_own, 0.5) == unsure


def _missing(question: str, *cards_texts: tuple[str, str]) -> str | None:
    cards = [build_card(name, f"{name}.md", text) for name, text in cards_texts]
    return named_documents(build_question(question, cards=cards), cards).missing


def test_a_contract_named_by_a_kind_adjective_no_heading_names_is_not_held() -> None:
    held = (("lease", LEASE), ("supply", SUPPLY))
    assert _missing("Под какой процент наш кредитный договор с Зарёй?", *held) == (
        "кредитный договор"
    )
    assert (
        _missing("Какая ставка по нашему кредитному договору?", *held, ("credit", CREDIT)) is None
    )
    # a word that only describes a contract names no kind the user may lack
    assert _missing("Какая ставка по нашему новому договору?", *held) is None
    # «рекламных услуг» of a heading holds the «рекламный договор»
    assert _missing("Сколько мы платим по нашему рекламному договору?", ("ads", ADS)) is None


def test_a_charter_named_by_its_kind_is_named_before_a_contract_with_that_role() -> None:
    cards = _cards(charter=CHARTER, build=SHARED_BUILD)
    question = build_question("Какие доли у участников Ока-Трейда по уставу?", cards=cards)
    assert question.documents[0].document_id == "charter"
    assert "тип" in question.documents[0].reasons
    assert decided_documents(question, cards, ["build", "charter"]) == ["charter"]


def test_a_document_the_words_fit_clearly_better_is_decided_without_a_name() -> None:
    cards = _cards(build=SHARED_BUILD, heat=HEAT, lease=LEASE)
    question = build_question("какова цена застройщику за объект?", cards=cards)
    assert not question.documents
    assert decided_documents(question, cards, ["build", "heat"]) == ["build"]
    vague = build_question("что там по условиям?", cards=cards)
    assert decided_documents(vague, cards, ["heat", "build"]) == []


def test_sums_of_a_table_run_together_with_its_header_line_are_roubles() -> None:
    row = (
        "Порядок оплаты: № Срок Сумма, руб. Доля 1 до 1 мая 2027 г. 1 200 000,00 40 % "
        "2 до 1 июля 2027 г. 1 800 000,00 60 %"
    )
    cells = unit_cells(row)
    assert [c.figure for c in cells] == ["1 200 000,00", "1 800 000,00"]
    assert {c.kind for c in cells} == {"money"}
    assert unit_cells("Цена составляет 1 200 000,00 руб., Сумма, руб. указана отдельно") == []


def _candidate(document_id: str, title: str, text: str, sentence: str) -> Candidate:
    chunk = Chunk(
        id=f"{document_id}:1", text=text, source="user_docs", title=title, document_id=document_id
    )
    return Candidate(chunk, 1, sentence, 0, 0)


def test_a_named_document_stating_no_value_of_the_asked_thing_abstains() -> None:
    cards = _cards(charter=CHARTER, build=SHARED_BUILD)
    question = build_question("Какие доли у участников Ока-Трейда по уставу?", cards=cards)
    fund = "5.1. Общество формирует резервный фонд в размере 10 % уставного капитала."
    shares = (
        "4.2. Участник вправе продать свою долю другим участникам Общества без согласия "
        "других участников."
    )
    ranked = [
        _candidate("charter", "Устав", CHARTER, fund),
        _candidate("charter", "Устав", CHARTER, shares),
    ]
    chunks = [c.chunk for c in ranked]
    lacks = named_document_lacks(question, ranked, cards, chunks)
    assert lacks is not None and "«Устав»" in lacks.reason
    # the value of the asked thing itself answers
    capital = build_question("Какой уставный капитал по уставу?", cards=cards)
    stated = (
        "4.1. Уставный капитал Общества составляет 500 000 рублей и состоит из номинальной "
        "стоимости долей участников."
    )
    ranked = [_candidate("charter", "Устав", CHARTER, stated)]
    assert named_document_lacks(capital, ranked, cards, [ranked[0].chunk]) is None


DELIVERY = """\
# Договор поставки № ПТ-6/2027

АО «Металлист» (Поставщик) и ООО «Ока-Трейд» (Покупатель) заключили договор.
7.2. Поставщик в течение 5 рабочих дней представляет пояснения, необходимые для камеральной
проверки декларации по НДС, и возмещает штраф до 50 000 руб.
"""


def test_a_short_form_of_a_phrase_the_law_uses_widely_is_no_hit() -> None:
    cards = _cards(delivery=DELIVERY, lease=LEASE, heat=HEAT)
    hits = vocabulary_hits("сколько длится камералка по НДС?", cards)
    assert all("камералка" not in words for words in hits.by_document.values())


LICENCE = """\
# Лицензионный договор № Л-3/2027

ООО «Софт» (Лицензиар) и ООО «Ока-Трейд» (Лицензиат) заключили договор.
3.1. Дополнительные места сверх указанных в п. 1.2 предоставляются по цене 900 рублей за одно
место в месяц.
3.2. Вознаграждение составляет 700 рублей за одно место в месяц.
"""


def test_a_supplement_beyond_the_agreed_terms_goes_after_the_term_itself() -> None:
    from finagent.answering.document_sentences import rerank_document_sentences

    cards = _cards(licence=LICENCE)
    question = build_question("почём одно место в месяц?", cards=cards)
    extra = (
        "3.1. Дополнительные места сверх указанных в п. 1.2 предоставляются по цене 900 "
        "рублей за одно место в месяц."
    )
    own = "3.2. Вознаграждение составляет 700 рублей за одно место в месяц."
    ranked = [_candidate("licence", "Лицензионный договор", LICENCE, s) for s in (extra, own)]
    assert rerank_document_sentences(question, ranked, cards)[0].sentence == own
    asked = build_question("почём дополнительное место сверх лимита?", cards=cards)
    assert rerank_document_sentences(asked, ranked, cards)[0].sentence == extra
