"""Offline answer bullets: no leaked Markdown, each title once, no glued sentences."""

from __future__ import annotations

from finagent.answering.context import AnswerContext, _source_for
from finagent.answering.extractive import clean_sentence, compose_extractive, render_details
from finagent.state import Chunk


def test_clean_sentence_drops_markup_and_fragments() -> None:
    assert (
        clean_sentence("- **Пени** составляют 0,1 % за день.") == "Пени составляют 0,1 % за день."
    )
    assert clean_sentence("## Ответственность сторон") == "Ответственность сторон"
    assert clean_sentence("| Товар | 20 % | 1 200 руб. |") == "Товар; 20 %; 1 200 руб."
    assert clean_sentence("|---|---|") == ""
    assert clean_sentence("- ...") == ""
    assert clean_sentence("`5.2`") == ""


def test_each_label_is_bold_once_and_sentences_stay_apart() -> None:
    lines = render_details(
        [
            ("Договор аренды", "Арендная плата 100 000 руб.", 1),
            ("Договор аренды", "Пени 0,1 % за каждый день.", 1),
            ("п. 2 ст. 88 НК РФ", "Проверка длится три месяца.", 2),
            ("Договор аренды", "Пени 0,1 % за каждый день.", 1),
        ]
    )
    assert lines == [
        "- **Договор аренды**:",
        "  - Арендная плата 100 000 руб. [1]",
        "  - Пени 0,1 % за каждый день. [1]",
        "- **п. 2 ст. 88 НК РФ**: Проверка длится три месяца. [2]",
    ]


def test_extractive_answer_has_no_raw_markdown() -> None:
    chunk = Chunk(
        id="doc_1:0",
        text="Договор аренды\n- **Пени**: 0,1 % от суммы долга за каждый день просрочки.\n"
        "| Платёж | Срок |\n|---|---|\n| Аренда | до 5 числа месяца |",
        score=1.0,
        source="user_docs",
        title="Договор аренды",
        document_id="doc_1",
        metadata={"filename": "dogovor_arendy.md"},
    )
    source = _source_for(1, chunk)
    ctx = AnswerContext(text="", sources=[source], chunks=[chunk], chunk_numbers=[1])
    answer = compose_extractive("Какие пени за просрочку?", ctx)
    details = answer.split("## Подробный анализ\n", 1)[1].split("\n\n## Источники")[0]
    assert "**Пени**" not in details and "|" not in details and "\n- -" not in details
    assert details.count("**Договор аренды**") == 1
    assert "[1] Договор аренды — файл dogovor_arendy.md" in answer
