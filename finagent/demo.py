"""``finagent demo``: ingest the bundled data (and the Tax Code when it is found), then
answer questions covering S1-S5 offline."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import typer

from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.language.lemmas import counted
from finagent.retrieval.embedding_cache import CachedEmbedder
from finagent.retrieval.law_ingest import LawIngestor
from finagent.retrieval.progress import ChunkProgress, chunk_progress
from finagent.retrieval.taxcode_source import HELP_ANCHOR, try_find_tax_code
from finagent.stage_lines import StageLines

DEMO_USER = "demo"
LOADING = "Загружаю программу, модели и индекс"
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
TAX_CODE_QUESTIONS: list[tuple[str, str | None]] = [
    ("В течение какого срока проводится камеральная налоговая проверка?", None),
    ("В какой срок налоговый агент перечисляет удержанный НДФЛ?", None),
]


def next_steps(settings: Settings) -> list[str]:
    """Commands that work right after the demo, as printed."""
    return [
        f"Данные демо: {settings.data_dir.resolve()} (база знаний, индекс, документы "
        f"пользователя {DEMO_USER}).",
        "Дальше:",
        f'  finagent ask "Какие штрафы за просрочку в договоре аренды?" --user {DEMO_USER}',
        f'  finagent search "пени" --collection docs --user {DEMO_USER}',
        "  finagent ingest docs МОЙ_ФАЙЛ.pdf --user me",
        '  finagent ask "Что в моём договоре про оплату?" --user me',
    ]


async def run_demo(
    settings: Settings,
    data_root: Path,
    echo: bool = True,
    live: bool = False,
    record: dict[str, tuple[str, str]] | None = None,
    stages: StageLines | None = None,
) -> dict[str, Any]:
    """Offline unless ``live``: the Bank of Russia tools are then left unregistered.

    ``stages`` reports each step (models, knowledge base, documents, Tax Code parts) with
    its counts and time; the chunks within a step show as a bar with an ETA on a terminal,
    as a line per quarter otherwise.

    ``record`` (a dict) collects every text embedded during the run (key -> kind, text):
    ``finagent embeddings rebuild`` ships exactly those vectors.
    """
    if not live:
        settings = settings.model_copy(update={"cbr_enabled": False})
    kb_csv = data_root / "knowledge_base" / "train_data.csv"
    docs_dir = data_root / "sample_docs"
    if not kb_csv.is_file() or not docs_dir.is_dir():
        raise typer.BadParameter(
            f"{data_root} has no knowledge_base/train_data.csv or sample_docs/"
        )
    lines = stages or StageLines(enabled=False)
    if not lines.open:  # the command may have begun it before its imports
        lines.begin(LOADING)
    agent = await Agent.create(settings)
    lines.end()
    services = agent.deps
    embedder = services.embedder if isinstance(services.embedder, CachedEmbedder) else None
    if embedder is not None and record is not None:
        embedder.record = record
    try:
        ingestor = services.ingestor()
        law = LawIngestor(services.index, services.embedder, services.bm25, settings)

        def step(name: str) -> AbstractContextManager[ChunkProgress]:
            lines.begin(name)
            plain = lines.stream if lines.enabled else None
            show = None if lines.enabled else False
            # the step's line above names it: the bar under it carries no label of its own
            return chunk_progress("", show=show, plain=plain, unit="фрагм.")

        with step("База знаний") as bar:
            kb = await ingestor.ingest_kb([kb_csv])
        lines.end(f"{counted(len(kb.ok), 'статья')}, {counted(bar.done, 'фрагмент')}")
        with step(f"Документы пользователя {DEMO_USER}") as bar:
            docs = await ingestor.ingest_documents(DEMO_USER, sorted(docs_dir.iterdir()))
        files = counted(len(docs.ok), "файл")
        lines.end(f"{files} (ошибок: {len(docs.errors)}), {counted(bar.done, 'фрагмент')}")
        tax_code = []
        for text in try_find_tax_code(settings.taxcode_dir):
            with step(f"Налоговый кодекс, часть {text.part}"):
                report = await law.ingest_file(text.path, text.code, text.part)
            lines.end(f"{counted(report.articles, 'статья')}, {counted(report.chunks, 'фрагмент')}")
            tax_code.append({"part": text.part, "file": text.path.name, "chunks": report.chunks})
        ids = {Path(r.path).name: r.document_id or "" for r in docs.ok}
        if echo:
            typer.echo(
                f"База знаний: {len(kb.ok)} статей; документы пользователя {DEMO_USER}: "
                f"{len(docs.ok)} (ошибок: {len(docs.errors)})"
            )
            if tax_code:
                parts = ", ".join(f"часть {t['part']} ({t['file']})" for t in tax_code)
                typer.echo(f"Налоговый кодекс: {parts}\n")
            else:
                typer.echo(
                    "Налоговый кодекс не найден, вопросы по нему пропущены "
                    f"(как его добавить: {HELP_ANCHOR})\n"
                )
        answers = []
        questions = QUESTIONS + (TAX_CODE_QUESTIONS if tax_code else [])
        lines.say(f"Данные загружены за {lines.total()}; отвечаю на {len(questions)} вопросов…")
        for question, document in questions:
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
                suffix = f" (документ {document})" if selected else ""
                typer.echo(f"### {question}{suffix}\n\n{result.answer}\n")
        if echo:
            typer.echo("\n".join(next_steps(settings)))
        stats = {
            "computed": embedder.misses if embedder else None,
            "from_cache": embedder.hits if embedder else None,
        }
        return {
            "user": DEMO_USER,
            "kb_articles": len(kb.ok),
            "documents": ids,
            "tax_code": tax_code,
            "embeddings": stats,
            "answers": answers,
        }
    finally:
        await agent.aclose()
