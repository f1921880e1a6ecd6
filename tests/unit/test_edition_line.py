"""A knowledge-base article's line about its own edition is no candidate answer."""

from __future__ import annotations

from finagent.answering.edition_line import edition_line
from finagent.answering.evidence import passage_sentences
from finagent.state import Chunk


def test_an_articles_own_validity_line_is_an_edition_line() -> None:
    assert edition_line("Цифры и правила этой статьи действуют с 1 января 2026 года.")
    assert edition_line("Материал актуален на 2026 год.")


def test_a_rule_or_a_code_articles_date_is_no_edition_line() -> None:
    assert not edition_line("Положения статьи 227 действуют с 1 января 2026 года.")
    assert not edition_line("Ставка 6 % действует с 1 января 2026 года.")
    assert not edition_line("Сбор уплачивается не позднее 15 марта 2026 года.")
    assert not edition_line("Правила статьи действуют с 1 января 2026 года, ставка — 4 %.")


def test_the_edition_line_of_a_knowledge_base_passage_is_no_candidate() -> None:
    text = (
        "Туристический сбор / Сроки\n"
        "Цифры и правила этой статьи действуют с 1 января 2026 года (на 2026 год).\n"
        "Сбор перечисляется не позднее 28-го числа месяца, следующего за кварталом."
    )
    kb = Chunk(id="kb-3:0", text=text, source="kb", title="Туристический сбор")
    sentences = passage_sentences(kb)
    assert sentences == [
        "Сбор перечисляется не позднее 28-го числа месяца, следующего за кварталом."
    ]
    # the Code's own text keeps its every sentence
    law = Chunk(id="nk.1#1", text=text.split("\n", 1)[1], source="law", title="ст. 1")
    assert len(passage_sentences(law)) == 2
