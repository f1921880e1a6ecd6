"""Questions about the user's documents that no card field answers: the clause that states
a value of the asked type and shares the question's words is quoted, not a letterhead line;
role words that act in a question are not asked for; a figure spelled out is still a value."""

from __future__ import annotations

import pytest

from finagent.answering.card_evidence import card_answers
from finagent.answering.context import build_context
from finagent.answering.document_sentences import rerank_document_sentences
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
    assert rerank_document_sentences(build_question("какая ставка НДС?"), ranked) == ranked


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
