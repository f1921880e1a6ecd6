"""``finagent demo``: ingest the bundled data and answer questions covering S1-S5 offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from finagent.config import Settings
from finagent.graph.agent import Agent

DEMO_USER = "demo"
LARGE_DOCUMENT = "dogovor_postavki.md"
SMALL_DOCUMENT = "akt_vypolnennyh_rabot.md"
QUESTIONS: list[tuple[str, str | None]] = [
    ("Какие ставки НДС действуют и когда применяется 0 %?", None),
    ("Какие пени предусмотрены в моём договоре аренды?", None),
    ("На какую сумму выполнены работы и какой НДС?", SMALL_DOCUMENT),
    ("Какие сроки поставки и ответственность поставщика за просрочку?", LARGE_DOCUMENT),
    ("а сколько?", None),
    ("Какая ключевая ставка сейчас?", None),
    ("Привет! Что ты умеешь?", None),
]


async def run_demo(
    settings: Settings, data_root: Path, echo: bool = True, live: bool = False
) -> dict[str, Any]:
    """Offline unless ``live``: the Bank of Russia tools are then left unregistered."""
    if not live:
        settings = settings.model_copy(update={"cbr_enabled": False})
    kb_csv = data_root / "knowledge_base" / "train_data.csv"
    docs_dir = data_root / "sample_docs"
    if not kb_csv.is_file() or not docs_dir.is_dir():
        raise typer.BadParameter(
            f"{data_root} has no knowledge_base/train_data.csv or sample_docs/"
        )
    agent = await Agent.create(settings)
    try:
        ingestor = agent.services.ingestor()
        kb = await ingestor.ingest_kb([kb_csv])
        docs = await ingestor.ingest_documents(DEMO_USER, sorted(docs_dir.iterdir()))
        ids = {Path(r.path).name: r.document_id or "" for r in docs.ok}
        if echo:
            typer.echo(
                f"Knowledge base: {len(kb.ok)} articles; documents: "
                f"{len(docs.ok)} ({len(docs.errors)} errors)\n"
            )
        answers = []
        for question, document in QUESTIONS:
            selected = [ids[document]] if document and document in ids else None
            result = await agent.run(
                user_id=DEMO_USER, query=question, selected_document_ids=selected
            )
            answers.append(
                {
                    "question": question,
                    "scenario": result.scenario,
                    "selected": selected,
                    "answer": result.answer,
                }
            )
            if echo:
                typer.echo(f"### S{result.scenario}: {question}\n\n{result.answer}\n")
        return {"kb_articles": len(kb.ok), "documents": ids, "answers": answers}
    finally:
        await agent.aclose()
