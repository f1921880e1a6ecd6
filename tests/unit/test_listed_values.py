"""A question asking several values of one kind («какие ставки …») outside the user's
documents: the direct lead lists the values the source's other sentences state for the
asked head, not only the best sentence's one. Texts are our own wording (an article on an
imaginary levy), not items of any evaluation set."""

from __future__ import annotations

from datetime import date

from finagent.answering.context import build_context
from finagent.answering.direct import _restates, compose_direct, stated_values
from finagent.answering.evidence import Candidate
from finagent.answering.listed_values import listed_values
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)

SENTENCES = [
    "Основная ставка туристического сбора в 2025 году — 3 %, она действует во всех городах.",
    "Пониженная ставка 1 % установлена для санаториев, а ставка 2 % — для загородных баз.",
    "Выгоднее, если загрузка больше 70–75 % номерного фонда (при базовых ставках).",
    "Повышенные ставки 5 % и 6 %, применявшиеся в курортных зонах, отменены.",
]


def _ranked(source: str = "kb") -> list[Candidate]:
    text = " ".join(SENTENCES)
    chunk = Chunk(id="k1", text=text, source=source, title="Туристический сбор", document_id="k1")
    return [Candidate(chunk, 1, s, 0, i, score=1.0 - i / 10) for i, s in enumerate(SENTENCES)]


def _listed(question: str, source: str = "kb") -> list[str]:
    ranked = _ranked(source)
    asked = build_question(question, today=TODAY)
    named = stated_values(asked, ranked[0].sentence)
    found = listed_values(asked, ranked[0], ranked, named, stated_values)
    return [v for values, _ in found for v in values]


def test_the_other_sentences_values_of_the_asked_head_are_listed() -> None:
    assert _listed("Какие ставки туристического сбора бывают?") == ["1 %", "2 %"]


def test_a_share_before_the_head_and_repealed_values_are_not_listed() -> None:
    listed = _listed("Какие ставки туристического сбора бывают?")
    assert "70–75 %" not in listed and "75 %" not in listed
    assert "5 %" not in listed and "6 %" not in listed


def test_a_question_of_one_value_lists_nothing() -> None:
    assert _listed("Какая основная ставка туристического сбора?") == []


def test_a_users_document_is_left_to_its_card() -> None:
    assert _listed("Какие ставки туристического сбора бывают?", source="user_docs") == []


def test_the_lead_names_every_listed_value_and_quotes_its_sentence() -> None:
    ranked = _ranked()
    asked = build_question("Какие ставки туристического сбора бывают?", today=TODAY)
    ctx = build_context([ranked[0].chunk], [], 20_000, today=TODAY)
    answer = compose_direct(asked, ctx, ranked, [])
    summary = answer.split("## Подробный анализ")[0]
    first = summary.splitlines()[1]
    assert "3 %" in first and "1 %" in first and "2 %" in first
    assert SENTENCES[1] in summary


def test_a_further_part_naming_only_listed_values_restates_them() -> None:
    # «…, и когда применяется пониженная?»: the part's «ставка — 1 % [1]» says nothing new
    assert _restates("ставка туристического сбора — 1 % [1]", ("3 %", "1 %", "2 %"))
    assert not _restates("срок — 10 дней [2]", ("3 %", "1 %", "2 %"))
