"""The direct answer through the compiled graph: the demo lease's landlord and monthly rent
in the first line, from the document's card, and the turn saved once."""

from __future__ import annotations

from pathlib import Path

from finagent.graph.agent import Agent

LEASE = Path(__file__).resolve().parents[2] / "sample_docs" / "dogovor_arendy.md"


async def test_the_lease_question_gets_both_values_in_the_first_line(make_services):  # type: ignore[no-untyped-def]
    deps = await make_services()
    report = await deps.ingestor().ingest_documents("demo", [LEASE])
    lease_id = report.results[0].document_id
    agent = Agent(deps)
    # the lease selected (S3: read whole); routing the bare question to the documents (S1)
    # is the routing's part
    result = await agent.run(
        user_id="demo",
        query="кто арендодатель и сколько платим в месяц?",
        chat_id="c1",
        selected_document_ids=[lease_id],
    )
    summary = result.answer.split("## Краткий вывод\n", 1)[1]
    first_line = summary.splitlines()[0]
    assert "СеверСтройИнвест" in first_line and "297 200" in first_line
    assert "[1]" in first_line and result.debug["answer_mode"] == "direct"
    assert result.debug["card_fields"] == ["landlord", "rent"]
    assert "«3.1. Постоянная часть арендной платы составляет 297 200" in summary
    assert result.debug["figures"]["unsupported"] == 0
    saved = await deps.history.last("demo", "c1", 10)
    assert [t.role for t in saved] == ["user", "assistant"]
    assert saved[1].content == result.answer


async def test_the_extractive_composer_stays_selectable(make_services):  # type: ignore[no-untyped-def]
    deps = await make_services(answer_composer="extractive")
    report = await deps.ingestor().ingest_documents("demo", [LEASE])
    result = await Agent(deps).run(
        user_id="demo",
        query="кто арендодатель?",
        selected_document_ids=[report.results[0].document_id],
    )
    assert result.debug["answer_mode"] == "extractive" and "card_fields" not in result.debug
