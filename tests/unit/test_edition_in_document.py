"""A question asking the original terms passes over a sentence stating them as changed."""

from __future__ import annotations

import pytest

from finagent.answering.amendments import states_changed_terms
from finagent.answering.document_sentences import rerank_document_sentences
from finagent.answering.evidence import Candidate
from finagent.cards.build import build_card
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.state import Chunk

POLICY = """# Положение о нормах расхода топлива № 2
г. Пермь — 9 января 2026 г.
1. После внесения изменений с 01.06.2026 норма расхода топлива ГАЗ-3309 — 31 литр на 100 км.
2. Норма расхода топлива для автомобиля ГАЗ-3309 установлена в размере 27 литров на 100 км.
"""


def _first(question: str) -> str:
    card = build_card("d1", "policy", POLICY)
    chunk = Chunk(id="c", text=POLICY, source="user_docs", title=card.title, document_id="d1")
    lines = [line for line in POLICY.splitlines()[2:] if line.strip()]
    found = [Candidate(chunk, 1, s, 0, i, score=float(len(lines) - i)) for i, s in enumerate(lines)]
    return rerank_document_sentences(build_question(question, cards=[card]), found)[0].sentence


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("Какая норма расхода топлива была установлена при утверждении положения № 2?", "2."),
        ("Какая норма расхода топлива по положению № 2 была изначально?", "2."),
        # no edition asked: the order of the passage stands
        ("Какая норма расхода топлива по положению № 2?", "1."),
    ],
)
def test_the_original_terms_pass_over_a_changed_statement(question: str, opening: str) -> None:
    assert _first(question).startswith(opening)


def test_the_approval_asks_the_original_edition() -> None:
    assert build_question("Какой фонд был при утверждении штатного расписания?").revision == (
        "original"
    )
    assert build_question("Какой аванс платится при заключении договора?").revision is None


def test_a_changed_statement_is_recognised() -> None:
    def lemmas(text: str) -> list[str]:
        return [t.lemma for s in analyse(text).sentences for t in s.tokens]

    assert states_changed_terms(lemmas(POLICY.splitlines()[2]))
    assert not states_changed_terms(lemmas(POLICY.splitlines()[3]))
