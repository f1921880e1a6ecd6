"""Context sections and citations are built in code from what was retrieved."""

from __future__ import annotations

from datetime import date

from finagent.answering.context import (
    build_context,
    drop_unknown_citations,
    render_sources,
    strip_sources_section,
)
from finagent.answering.extractive import compose_extractive
from finagent.state import Chunk, ExternalData


def chunk(cid: str, doc: str, source: str = "kb", text: str = "Текст.") -> Chunk:
    return Chunk(id=cid, text=f"{doc}\n{text}", source=source, title=doc, document_id=doc)  # type: ignore[arg-type]


def test_sections_order_and_one_number_per_document() -> None:
    chunks = [chunk("a:0", "A"), chunk("a:1", "A"), chunk("d:0", "Договор", "user_docs")]
    external = [
        ExternalData(tool="fetch_cbr_data", source_note="cbr.ru", content="USD 85.49"),
        ExternalData(
            tool="fetch_finance_news",
            source_note="tavily.com",
            content="Источник не настроен",
            ok=False,
        ),
    ]
    ctx = build_context(chunks, external, 10_000, today=date(2025, 4, 1))
    titles = [line for line in ctx.text.splitlines() if line.startswith("### ")]
    assert titles == [
        "### General Facts",
        "### User Documents",
        "### Knowledge Base",
        "### External Data",
    ]
    assert [(s.number, s.title) for s in ctx.sources] == [(1, "Договор"), (2, "A"), (3, "cbr.ru")]
    assert ctx.chunk_numbers == [1, 2, 2]
    assert "[3] [Источник: cbr.ru]" in ctx.text
    assert ctx.notices == ["Источник не настроен"]


def test_context_respects_the_budget() -> None:
    chunks = [chunk(f"c{i}", f"D{i}", text="слово " * 400) for i in range(20)]
    ctx = build_context(chunks, [], 5_000)
    assert len(ctx.text) <= 5_100
    assert len(ctx.sources) < 20


def test_llm_sources_and_unknown_citations_are_replaced() -> None:
    ctx = build_context([chunk("a:0", "A"), chunk("b:0", "B")], [], 10_000)
    llm = "Вывод [2] и [7].\n\n## Источники\n[1] придуманный источник"
    body = drop_unknown_citations(strip_sources_section(llm), ctx.sources)
    assert body == "Вывод [2] и ."
    assert render_sources(ctx.sources, body) == "## Источники\n[2] B"


def test_extractive_answer_has_the_three_sections() -> None:
    chunks = [chunk("a:0", "НДС", text="Ставка НДС 20 процентов. Экспорт облагается по 0.")]
    ctx = build_context(chunks, [], 10_000)
    answer = compose_extractive("ставка НДС при экспорте", ctx)
    assert answer.index("## Краткий вывод") < answer.index("## Подробный анализ")
    assert "Экспорт облагается по 0. [1]" in answer
    assert answer.rstrip().endswith("[1] НДС")


def test_every_prompt_is_preloaded() -> None:
    from finagent.prompts import load_prompt, preload_prompts

    names = preload_prompts()
    assert {"answer_system", "orchestrator", "research_system", "research_limit"} <= set(names)
    assert load_prompt.cache_info().currsize >= len(names)  # type: ignore[attr-defined]
