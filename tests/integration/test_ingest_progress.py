"""Ingestion progress is counted in chunks, with throughput and an ETA."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from finagent.bootstrap import Deps
from finagent.retrieval.progress import chunk_progress


async def test_kb_progress_counts_chunks_with_rate_and_eta(
    services: Deps, kb_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with chunk_progress("knowledge base", show=True) as bar:
        report = await services.ingestor().ingest_kb([kb_csv])
    chunks = sum(r.chunks for r in report.ok)
    assert chunks > 0 and bar.done == bar.total == chunks
    drawn = capsys.readouterr().err
    final = re.findall(r"knowledge base: 100%.*", drawn.replace("\r", "\n"))
    assert final, drawn
    # done/total [elapsed<remaining, throughput] (tqdm shows s/chunk below 1 chunk/s)
    rate = r"[\d.]+(?:chunk/s|s/chunk)"
    assert re.search(rf"{chunks}/{chunks} \[\d\d:\d\d<\d\d:\d\d, *{rate}\]", final[-1])


async def test_nested_ingestions_share_one_bar(
    services: Deps, kb_csv: Path, doc_files: dict[str, Path]
) -> None:
    with chunk_progress("demo data", show=False) as bar:
        kb = await services.ingestor().ingest_kb([kb_csv])
        docs = await services.ingestor().ingest_documents("alice", list(doc_files.values()))
    assert bar.total == sum(r.chunks for r in kb.ok) + sum(r.chunks for r in docs.ok)
    assert bar.done == bar.total
