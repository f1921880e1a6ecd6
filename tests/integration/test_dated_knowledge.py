"""Dated knowledge through the agent graph: a stale rate never reads as current."""

from __future__ import annotations

import csv
import re
from datetime import date
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage

from finagent.bootstrap import Deps
from finagent.graph.agent import Agent
from finagent.moscow_time import pinned_today
from finagent.retrieval.law_ingest import LawIngestor
from finagent.retrieval.retriever import KB
from tests.fakes.llm import ScriptedChatModel
from tests.integration.test_verified_answers import decision

REPO_ROOT = Path(__file__).resolve().parents[2]
BUNDLED_KB = REPO_ROOT / "knowledge_base" / "train_data.csv"
# the general rate point of art. 164 (the 2025 wording) and its amendment note
VAT_RATES = """Глава 21. НАЛОГ НА ДОБАВЛЕННУЮ СТОИМОСТЬ

Статья 164. Налоговые ставки

3. Налогообложение производится по налоговой ставке 20 процентов в случаях, не указанных \
в пунктах 1, 2 и 4 настоящей статьи.
(в ред. Федерального закона от 03.08.2018 N 303-ФЗ)
"""
VAT_QUESTION = "Какая ставка НДС?"
STATES_A_RATE = re.compile(r"20\s*(?:%|процент)")


def bundled_articles(tmp_path: Path, ids: set[str]) -> Path:
    """The bundled KB's articles ``ids`` as they ship, in a CSV of their own."""
    with BUNDLED_KB.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = list(reader.fieldnames or [])
        rows = [row for row in reader if row["id"] in ids]
    path = tmp_path / "bundled_vat.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return path


async def vat_sources(services: Deps, tmp_path: Path) -> Deps:
    """The bundled VAT articles and art. 164 of the Tax Code in the edition of 27.10.2025."""
    report = await services.ingestor().ingest_kb([bundled_articles(tmp_path, {"1", "6"})])
    assert not report.errors
    law = LawIngestor(services.index, services.embedder, services.bm25, services.settings)
    await law.ingest_text(VAT_RATES, code="nk", part=2, progress=False, edition="2025-10-27")
    return services


def summary_lines(answer: str) -> list[str]:
    summary = answer.split("## Краткий вывод", 1)[1].split("## Подробный анализ")[0]
    return [line for line in summary.splitlines() if line.strip()]


async def ask(services: Deps, today: date, query: str = VAT_QUESTION) -> Any:
    with pinned_today(today):
        return await Agent(services).run(user_id="alice", query=query)


async def test_offline_vat_rate_in_a_later_year_is_warned(make_services, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    services = await vat_sources(await make_services(), tmp_path)
    late = await ask(services, date(2026, 11, 27))
    lines = summary_lines(late.answer)
    assert STATES_A_RATE.search(late.answer.split("## Источники")[0])
    assert lines[0].startswith("Внимание: источники действуют на ")
    assert "с 1 января 2026 года" in lines[0]
    assert "27.10.2025" in lines[0] or "01.01.2025" in lines[0]
    # the same question in the sources' own year: the rate without a warning
    current = await ask(services, date(2025, 11, 27))
    assert STATES_A_RATE.search(current.answer.split("## Источники")[0])
    assert "Внимание: источники действуют" not in current.answer


async def test_llm_vat_rate_in_a_later_year_is_warned(make_services, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    def llm() -> ScriptedChatModel:
        reply = AIMessage("## Краткий вывод\nОбщая ставка НДС — 20 % [1].\n\n## Подробный анализ\n")
        return ScriptedChatModel([decision(["kb"]), reply])

    late = await ask(await vat_sources(await make_services(llm()), tmp_path), date(2026, 11, 27))
    assert late.debug["answer_mode"] == "llm"
    lines = summary_lines(late.answer)
    assert lines[0].startswith("Внимание: источники действуют на ") and "2026" in lines[0]
    assert "20 %" in lines[1]
    current = await ask(await vat_sources(await make_services(llm()), tmp_path), date(2025, 6, 2))
    assert summary_lines(current.answer)[0].startswith("Общая ставка НДС — 20 %")


async def test_bundled_articles_expose_their_applicability_date(services: Deps) -> None:
    report = await services.ingestor().ingest_kb([BUNDLED_KB])
    assert not report.errors and len(report.ok) == 50
    hits = await services.retriever.search(KB, "ставки НДС общая ставка", top_k=20)
    assert hits and all(h.metadata["applies_from"] for h in hits)
    by_title = {h.title: h.metadata["applies_from"] for h in hits}
    assert by_title["Ставки НДС и когда применяется 0 %"] == "2025-01-01"
    # every article says in its text which date its figures apply from
    with BUNDLED_KB.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            day = date.fromisoformat(row["applies_from"])
            assert f"{day.day} " in row["text"] and str(day.year) in row["text"], row["id"]
