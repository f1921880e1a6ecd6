"""Questions about the user's documents that no card field answers: the clause that states
a value of the asked type and shares the question's words is quoted, not a letterhead line;
role words that act in a question are not asked for; a figure spelled out is still a value."""

from __future__ import annotations

import pytest

from finagent.answering.card_evidence import asked_fields, card_answers
from finagent.answering.context import build_context
from finagent.answering.document_sentences import (
    document_order_keys,
    document_sentences,
    form_label,
    requisites,
    rerank_document_sentences,
    section_headings,
    whole_document_candidates,
    with_whole_documents,
)
from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile, values_of
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk

AGENCY = """**ООО «Балтик-Тара»** · упаковка и тара · тел. +7 (812) 555-10-20
# Агентский договор № БТ-3/2026
г. Калининград — 12 января 2026 г.
ООО «Янтарь-Пак», именуемое в дальнейшем «Принципал», и ООО «Балтик-Тара», именуемое в
дальнейшем «Агент», заключили настоящий договор.
4.1. Вознаграждение Агента составляет 4 (четыре) процента от выручки по заключённым сделкам.
4.2. Расходы Агента возмещаются в пределах 20 000 рублей в месяц.
5.1. Отчёт Агента утверждается Принципалом в течение 7 (семи) рабочих дней.
"""


def _candidates(chunk: Chunk, sentences: list[str]) -> list[Candidate]:
    # the learned ranker's order: the letterhead first, as it may rank a contract's lines
    return [
        Candidate(chunk, 1, s, 0, i, score=float(len(sentences) - i))
        for i, s in enumerate(sentences)
    ]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("какой процент вознаграждения агента по договору БТ-3/2026?", "4.1."),
        ("за сколько дней принципал утверждает отчёт по договору БТ-3/2026?", "5.1."),
        ("до какой суммы возмещаются расходы по договору БТ-3/2026?", "4.2."),
    ],
)
def test_the_clause_that_states_the_asked_value_is_quoted_first(
    question: str, expected: str
) -> None:
    card = build_card("d1", "agency", AGENCY)
    chunk = Chunk(id="c", text=AGENCY, source="user_docs", title=card.title, document_id="d1")
    lines = [line for line in AGENCY.splitlines() if line.strip()]
    ranked = rerank_document_sentences(
        build_question(question, cards=[card]), _candidates(chunk, lines)
    )
    assert ranked[0].sentence.startswith(expected)


def test_without_user_documents_the_order_is_kept() -> None:
    law = Chunk(id="nk", text="Статья 164. Ставка 20 процентов.", source="law", title="ст. 164")
    ranked = _candidates(law, ["Статья 164.", "Ставка 20 процентов."])
    question = build_question("какая ставка НДС?")
    assert rerank_document_sentences(question, ranked) == ranked
    assert document_order_keys(question, ranked) is None


def test_the_cascade_keys_order_the_document_sentences() -> None:
    """The keys the learned-order study records are the ones the order sorts by: the
    clause with the asked value has the greatest, the heading is no clause."""
    card = build_card("d1", "agency", AGENCY)
    chunk = Chunk(id="c", text=AGENCY, source="user_docs", title=card.title, document_id="d1")
    lines = [line for line in AGENCY.splitlines() if line.strip()]
    question = build_question(
        "какой процент вознаграждения агента по договору БТ-3/2026?", cards=[card]
    )
    keyed = document_order_keys(question, _candidates(chunk, lines), [card])
    assert keyed is not None
    own, keys = keyed
    best = max(range(len(own)), key=lambda i: keys[i])
    assert own[best].sentence.startswith("4.1.")
    assert keys[best][2] >= 1  # states a value of the asked type
    assert not keys[1][0]  # the heading «# Агентский договор № БТ-3/2026» is no clause


@pytest.mark.parametrize(
    ("question", "fields"),
    [
        ("счёт-фактура № 87: сумма и покупатель?", ["buyer"]),
        ("Какой гарантийный срок подрядчик дал на кровлю?", []),
        ("В какой срок заказчик должен рассчитаться с исполнителем?", []),
        ("Какой гарантийный срок в договоре поставки?", []),
        ("кто бенефициар по гарантии?", ["beneficiary"]),
    ],
)
def test_a_role_that_acts_and_a_word_naming_the_document_are_not_asked(
    question: str, fields: list[str]
) -> None:
    assert build_question(question).fields == fields


@pytest.mark.parametrize(
    ("sentence", "answer_type", "values"),
    [
        ("Вознаграждение составляет 7 (семь) процентов от цены.", "rate", ("7 процентов",)),
        ("в течение 10 (десяти) банковских дней", "period", ("10 банковских дней",)),
        (
            "составляет 76 140 (семьдесят шесть тысяч сто сорок) рублей 00 копеек",
            "amount",
            ("76 140 рублей",),
        ),
    ],
)
def test_a_figure_spelled_out_in_words_is_one_value(
    sentence: str, answer_type: str, values: tuple[str, ...]
) -> None:
    assert values_of(profile(sentence), answer_type) == values


def test_an_amount_question_is_not_answered_with_a_rate() -> None:
    text = "# Договор оказания услуг № У-5/2026\n\n1. Стоимость услуг составляет 5 % от выручки."
    card = build_card("d1", "services", text)
    assert [f.kind for f in card.values("contract_amount")] == ["rate"]
    chunk = Chunk(id="c", text=text, source="user_docs", title=card.title, document_id="d1")
    ctx = build_context([chunk], [], 10_000)
    amount = build_question("на какую сумму договор У-5/2026?", cards=[card])
    assert amount.answer_type == "amount" and "contract_amount" in amount.fields
    assert card_answers(amount, [card], ctx) == []


LOAN = """ООО «Северный Кредит» · тел. +7 (812) 100-20-30 · info@sev-credit.example
ДОГОВОР ЗАЙМА № СК-9/2026
г. Мурманск                                      3 февраля 2026 г.
Общество с ограниченной ответственностью «Северный Кредит» (ООО «Северный Кредит»),
     ИНН 5190000001, КПП 519001001, именуемое в дальнейшем «Займодавец», и
     ООО «Полярный Лес», именуемое в дальнейшем «Заёмщик», заключили договор.
2.1. За пользование займом Заёмщик уплачивает проценты по ставке 11 (одиннадцать)
     процентов годовых.
4.1. Исполнение обязательств Заёмщика обеспечивается поручительством
     Орловского П. С. по договору поручительства № СК-9П/2026.
5.1. Заёмщик не вправе уступать права по договору без письменного согласия Займодавца.
"""


def _whole(question: str) -> list[Candidate]:
    card = build_card("d1", "loan.txt", LOAN)
    q = build_question(question, cards=[card])
    chunk = Chunk(id="c", text=LOAN, source="user_docs", title=card.title, document_id="d1")
    ctx = build_context([chunk], [], 10_000)
    whole = whole_document_candidates(q, {"d1": LOAN}, ctx)
    return rerank_document_sentences(q, with_whole_documents([], whole), [card])


def test_a_wrapped_clause_is_one_sentence_and_the_party_name_is_no_evidence() -> None:
    ranked = _whole("Под какой процент Северный Кредит дал нам заём?")
    assert "11 (одиннадцать) процентов годовых" in ranked[0].sentence


def test_a_party_question_reads_the_clause_naming_the_party() -> None:
    ranked = _whole("Кто поручитель по займу у Северного Кредита?")
    assert "Орловского" in ranked[0].sentence


def test_a_yes_no_question_quotes_the_clause_that_states_it() -> None:
    ranked = _whole("Может ли заёмщик уступить права по договору Северного Кредита?")
    assert ranked[0].sentence.startswith("Заёмщик не вправе уступать")


def test_requisites_are_not_a_clause_for_a_value_question() -> None:
    p = profile("ИНН 5190000001, КПП 519001001, именуемое в дальнейшем «Займодавец»")
    assert requisites(p, "")
    assert "Кредит» ·" not in _whole("какой процент по займу у Северного Кредита?")[0].sentence


@pytest.mark.parametrize(
    ("question", "fields"),
    [
        ("Кто подписал акт № 12 от имени исполнителя?", []),
        ("Надо ли начислять НДС на вознаграждение по договору № 4?", []),
        ("счёт № 5 — сумма без НДС?", []),
        ("Какой потолок неустойки, если сорвут сроки поставки?", ["penalty"]),
    ],
)
def test_a_card_field_answers_only_what_is_asked(question: str, fields: list[str]) -> None:
    assert asked_fields(build_question(question)) == fields


SALE = """# Договор купли-продажи оборудования № 12/26
г. Омск — 3 февраля 2026 г.
ООО «Сибмаш», именуемое в дальнейшем «Продавец», и ООО «Иртыш-Агро», именуемое в
дальнейшем «Покупатель», заключили настоящий договор.
3.4. Срок ответа Продавца на претензию — 10 (десять) календарных дней.
4.2. Продавец передаёт Оборудование в течение 7 (семи) рабочих дней с даты полной оплаты.
"""


def test_the_word_for_a_kind_of_value_tells_no_clause_apart() -> None:
    """«В какой срок …»: every clause with a term may say «срок»; the clause of the asked
    action («передать … после оплаты») states it."""
    card = build_card("d2", "sale", SALE)
    chunk = Chunk(id="c2", text=SALE, source="user_docs", title=card.title, document_id="d2")
    lines = [line for line in SALE.splitlines() if line.strip()]
    question = "В какой срок продавец обязан передать оборудование после того, как мы оплатили?"
    ranked = rerank_document_sentences(
        build_question(question, cards=[card]), _candidates(chunk, lines), [card]
    )
    assert ranked[0].sentence.startswith("4.2.")


WORKS = """# Договор подряда № П-7/2026
г. Тверь — 3 февраля 2026 г.
3. ГАРАНТИЙНОЕ УДЕРЖАНИЕ
3.1. Заказчик удерживает 5 (пять) процентов от стоимости каждого этапа.
4. Неустойка
4.1. За каждый день просрочки подрядчик уплачивает 0,1 процента от стоимости этапа.
Срок действия договора
Договор действует до полного исполнения обязательств.
"""


def test_a_clause_inherits_the_words_of_its_section_heading() -> None:
    """«4. Неустойка» names what its clause 4.1 states; the clause before it, with a rate
    too and ranked higher, is of another section."""
    card = build_card("d1", "works", WORKS)
    chunk = Chunk(id="c", text=WORKS, source="user_docs", title=card.title, document_id="d1")
    lines = [line for line in WORKS.splitlines() if line.strip()]
    question = build_question("какой процент неустойки по договору П-7/2026?", cards=[card])
    ranked = rerank_document_sentences(question, _candidates(chunk, lines), [card])
    assert ranked[0].sentence.startswith("4.1.")


def test_section_headings_numbered_capitals_and_plain() -> None:
    starts, titles = section_headings(WORKS)
    assert titles == ["ГАРАНТИЙНОЕ УДЕРЖАНИЕ", "Неустойка", "Срок действия договора"]
    body = " ".join(WORKS.split())
    assert [body[s : s + 4] for s in starts] == ["3.1.", "4.1.", "Дого"]
    # a wrapped line going on in lower case is no heading
    assert section_headings("1.1. Арендатор обязуется\nвносить плату.\n")[1] == []


LETTER_OF_CREDIT = """ЗАЯВЛЕНИЕ № 9 от 2 марта 2026 г. на открытие аккредитива
Поле | Значение
Бенефициар | ООО «Кедр-Мебель», ИНН 7701234567
Сумма | 2 440 000 рублей 00 копеек, в том числе НДС 22 %
Последний день отгрузки | не позднее 20 августа 2026 г., в пределах срока действия аккредитива
Срок действия аккредитива | по 10 сентября 2026 г. включительно
Комиссия за исполнение | 0,2 % от суммы платежа, за счёт бенефициара
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("аккредитив № 9 действует до какой даты?", "Срок действия"),
        ("по аккредитиву № 9 когда последний день отгрузки?", "Последний день"),
    ],
)
def test_a_form_label_says_what_its_value_is(question: str, expected: str) -> None:
    """«Срок действия аккредитива | по 10 сентября»: the label names the asked thing; the
    other line names it only in its value cell («в пределах срока действия …»)."""
    card = build_card("d9", "lc", LETTER_OF_CREDIT)
    chunk = Chunk(
        id="c9", text=LETTER_OF_CREDIT, source="user_docs", title=card.title, document_id="d9"
    )
    lines = [line for line in LETTER_OF_CREDIT.splitlines() if line.strip()]
    ranked = rerank_document_sentences(
        build_question(question, cards=[card]), _candidates(chunk, lines), [card]
    )
    assert ranked[0].sentence.startswith(expected)


def test_form_label_only_of_a_two_cell_line() -> None:
    assert form_label("Срок действия | по 10 сентября 2026 г.") == "Срок действия"
    assert form_label("Этап | Доля | Сумма, руб.") is None  # a table row of three cells
    assert form_label("| Срок | 10 дней |") is None  # a Markdown row
    assert form_label("Оплата производится в течение 5 дней.") is None


BONUS_ORDER = """ПРИКАЗ № 12-п
г. Самара — 5 марта 2026 г.
О премировании работников отдела продаж
1. Выплатить премию по итогам февраля 2026 г. работникам по перечню ниже.
2. Менеджеру Соколову П. Р. помимо премии за февраль с 10 марта 2026 г. установить оклад 61 000 руб.
№ | Работник | Должность | Премия, руб.
1 | Соколов Павел Романович | Менеджер | 18 500,00
2 | Лаптева Ирина Олеговна | Менеджер | 15 200,00
"""


def test_a_row_of_the_person_that_states_another_thing_gives_way() -> None:
    """«оклад Соколова»: his row states his bonus only; the clause naming his salary leads."""
    card = build_card("d12", "order", BONUS_ORDER)
    chunk = Chunk(
        id="c12", text=BONUS_ORDER, source="user_docs", title=card.title, document_id="d12"
    )
    sentences = document_sentences(BONUS_ORDER)
    question = build_question("какой оклад установлен Соколову по приказу 12-п?", cards=[card])
    ranked = rerank_document_sentences(question, _candidates(chunk, sentences), [card])
    assert ranked[0].sentence.startswith("Менеджеру Соколову")
