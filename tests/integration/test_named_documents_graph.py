"""Through the agent graph: a question reaches the documents it names, a document the user
does not hold is said so, and stored titles are the documents' own headings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finagent.bootstrap import Deps
from finagent.graph.agent import Agent
from finagent.question.model import Question
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import DOCS, ChunkRecord
from finagent.storage.documents import document_id_for
from tests.unit.test_named_documents import EMPLOYMENT, LOAN, UPD

CLAIM = """**ООО «Уралтехснаб»**
620014, г. Екатеринбург, ул. Малышева, д. 51, ИНН 6671234567

ПРЕТЕНЗИЯ № 4

ООО «Берёзка» нарушило срок оплаты по договору поставки. Сумма долга 340 000 рублей.
Просим погасить задолженность в течение 10 календарных дней.
"""
USER = "erin"


async def _ingest(services: Deps, tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "erin_docs"
    folder.mkdir()
    files = {"loan": LOAN, "upd": UPD, "employment": EMPLOYMENT, "claim": CLAIM}
    paths = []
    for name, text in files.items():
        path = folder / f"{name}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    report = await services.ingestor().ingest_documents(USER, paths)
    return {name: r.document_id or "" for name, r in zip(files, report.results, strict=True)}


async def test_a_question_naming_a_document_searches_that_document(
    make_services: Any, tmp_path: Path
) -> None:
    services: Deps = await make_services()
    ids = await _ingest(services, tmp_path)
    result = await Agent(services).run(user_id=USER, query="сколько НДС в УПД № 318?")
    assert result.scenario == 1
    assert result.debug["decision"]["document_ids"] == [ids["upd"]]
    assert result.used_chunks
    assert {chunk.document_id for chunk in result.used_chunks} == {ids["upd"]}
    assert "20 000" in result.answer


async def test_orchestrate_writes_the_turns_question_with_the_documents_it_names(
    make_services: Any, tmp_path: Path
) -> None:
    services: Deps = await make_services()
    ids = await _ingest(services, tmp_path)
    agent = Agent(services)
    prepared = agent.prepare(user_id=USER, query="какой испытательный срок у Орловой?")
    graph = await agent.graph()
    updates = [
        update
        async for update in graph.astream(
            prepared.input,
            prepared.config,
            context=agent.context_of(prepared),
            stream_mode="updates",
        )
    ]
    # written once, by orchestrate, for every later node to read
    written = [
        node for update in updates for node, out in update.items() if "question" in (out or {})
    ]
    assert written == ["orchestrate"]
    question = next(u["orchestrate"]["question"] for u in updates if "orchestrate" in u)
    assert isinstance(question, Question)
    assert [m.document_id for m in question.documents] == [ids["employment"]]


async def test_a_document_the_user_does_not_hold_is_named_with_what_they_hold(
    make_services: Any, tmp_path: Path
) -> None:
    services: Deps = await make_services()
    await _ingest(services, tmp_path)
    result = await Agent(services).run(
        user_id=USER, query="какая ставка по договору аренды с ООО «Ромашка»?", chat_id="c1"
    )
    assert result.scenario == 1
    assert result.used_chunks == []
    assert result.debug["document_not_held"] == "договор аренды"
    assert "нет оснований для ответа" in result.answer
    for title in ("Договор займа № З-12/2025", "Трудовой договор № 15", "Претензия № 4"):
        assert title in result.answer
    assert "Уралтехснаб" not in result.answer  # the claim's letterhead is not its title
    turns = await services.history.last(USER, "c1", 10)
    assert [t.role for t in turns] == ["user", "assistant"]


async def test_titles_are_headings_and_reingestion_retitles_stale_documents(
    make_services: Any, tmp_path: Path
) -> None:
    services: Deps = await make_services()
    # as an older version stored it: the letterhead as title, in the store and the chunks
    stale = "**ООО «Уралтехснаб»**"
    doc = await services.documents.put(USER, stale, "claim.md", CLAIM.strip())
    assert doc.id == document_id_for(USER, CLAIM.strip())
    record = ChunkRecord(
        f"{doc.id}:0",
        CLAIM,
        {"source": "user_docs", "user_id": USER, "document_id": doc.id, "title": stale},
    )
    await services.retriever.add(DOCS, [record])
    ids = await _ingest(services, tmp_path)
    assert ids["claim"] == doc.id
    titles = {info.id: info.title for info in await services.documents.inventory(USER)}
    assert titles[doc.id] == "Претензия № 4"
    assert titles[ids["loan"]] == "Договор займа № З-12/2025"
    assert titles[ids["employment"]] == "Трудовой договор № 15"
    flt = SearchFilter(user_id=USER, document_ids=[doc.id])
    chunks, _ = await services.retriever.search_many(DOCS, ["долг по претензии"], flt=flt)
    assert chunks and {chunk.title for chunk in chunks} == {"Претензия № 4"}


async def test_a_question_naming_one_selected_document_reads_only_that_one(
    make_services: Any, tmp_path: Path
) -> None:
    services: Deps = await make_services()
    ids = await _ingest(services, tmp_path)
    selected = [ids["loan"], ids["upd"], ids["employment"]]
    result = await Agent(services).run(
        user_id=USER, query="сколько НДС в УПД № 318?", selected_document_ids=selected
    )
    assert result.scenario == 3
    assert result.debug["decision"]["document_ids"] == [ids["upd"]]
    assert result.debug["load_full_documents"] == [ids["upd"]]
    assert result.debug["selected_total_chars"] == len(UPD.strip())


DEMAND = """# Требование о представлении пояснений № 41-02/118

ИФНС России по Мотовилихинскому району г. Перми направляет ООО «Берёзка» настоящее требование.

Пояснения представить в течение пяти рабочих дней, то есть не позднее 19 марта 2026 года.
"""


async def test_a_held_demand_states_the_deadline_the_calculators_would_ask_the_date_for(
    make_services: Any, tmp_path: Path
) -> None:
    services: Deps = await make_services()
    path = tmp_path / "demand.md"
    path.write_text(DEMAND, encoding="utf-8")
    report = await services.ingestor().ingest_documents(USER, [path])
    demand = report.results[0].document_id
    asked = "До какого числа ответить на требование о пояснениях?"
    result = await Agent(services).run(user_id=USER, query=asked)
    decision = result.debug["decision"]
    assert result.scenario == 1
    # named by its kind and heading (inventory) or found by its held sentence (held_term)
    assert decision["rule"] in {"inventory", "held_term"}
    assert set(decision["document_ids"]) <= {demand}  # [] is all of the user's: this one
    assert "19 марта 2026" in result.answer
    # a user without the document is asked the day the period runs from
    other = await Agent(services).run(user_id="frank", query=asked)
    assert other.debug["decision"]["rule"] == "calc"
