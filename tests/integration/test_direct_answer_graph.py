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


GUARANTEE = Path(__file__).resolve().parents[1] / "data" / "cards" / "garantiya_vozvrata_avansa.txt"


async def test_a_new_kind_of_document_answers_its_roles_and_clauses(make_services):  # type: ignore[no-untyped-def]
    """A bank guarantee nobody tuned on: the beneficiary from its card (a role of its own),
    the fee from its clause (no card field): a figure spelled out in words is still stated."""
    deps = await make_services()
    report = await deps.ingestor().ingest_documents("u1", [GUARANTEE])
    assert report.results[0].title.startswith("Независимая гарантия № НГ-2026/91")
    agent = Agent(deps)
    who = await agent.run(user_id="u1", query="кто бенефициар по гарантии НГ-2026/91?")
    first = who.answer.split("## Краткий вывод\n", 1)[1].splitlines()[0]
    assert "Рязаньэнергомаш" in first and who.debug["card_fields"] == ["beneficiary"]
    fee = await agent.run(
        user_id="u1", query="какой процент вознаграждения банку по гарантии НГ-2026/91?"
    )
    first = fee.answer.split("## Краткий вывод\n", 1)[1].splitlines()[0]
    assert "1,8 %" in first and "[1]" in first
    term = await agent.run(
        user_id="u1", query="в какой срок гарант рассматривает требование по гарантии НГ-2026/91?"
    )
    first = term.answer.split("## Краткий вывод\n", 1)[1].splitlines()[0]
    assert "5 рабочих дней" in first


async def test_a_request_to_make_data_up_is_declined_on_the_documents_route(make_services):  # type: ignore[no-untyped-def]
    """«Придумай …» asks for data no source holds: declined even with the lease selected,
    and none of the lease's figures is offered instead."""
    deps = await make_services()
    report = await deps.ingestor().ingest_documents("demo", [LEASE])
    result = await Agent(deps).run(
        user_id="demo",
        query="Придумай номер для следующего акта по аренде, чтобы выглядел как настоящий.",
        selected_document_ids=[report.results[0].document_id],
    )
    summary = result.answer.split("## Краткий вывод\n", 1)[1]
    assert summary.startswith("В загруженных источниках нет оснований")
    assert "придумать" in summary.splitlines()[0]
    assert "297 200" not in result.answer  # nothing of the lease is offered instead


SAMPLE = Path(__file__).resolve().parents[2] / "sample_docs"


async def test_a_selected_document_answers_alone_though_another_card_fits_better(make_services):  # type: ignore[no-untyped-def]
    # a supply contract with large totals and a services act: the act is selected, so its
    # own totals answer; the contract's card, which the words alone might choose, does not
    deps = await make_services()
    files = [SAMPLE / "dogovor_postavki.md", SAMPLE / "akt_vypolnennyh_rabot.md"]
    report = await deps.ingestor().ingest_documents("demo", files)
    act_id = next(r.document_id for r in report.results if "akt" in str(r.path))
    result = await Agent(deps).run(
        user_id="demo",
        query="На какую сумму выполнены работы и какой НДС?",
        selected_document_ids=[act_id],
    )
    summary = result.answer.split("## Подробный анализ")[0]
    assert "174 000" in summary and "29 000" in summary
    assert "ПСК-45" not in result.answer
    sources = result.answer.split("## Источники", 1)[1]
    assert all(line.split("] ", 1)[1].strip() for line in sources.strip().splitlines())
