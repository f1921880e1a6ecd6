"""The evaluation's data dir: the knowledge base, the Tax Code and every user's documents,
ingested once per content digest, so that a re-run finds it ready (warm)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finagent.bootstrap import Deps
from finagent.retrieval.law_ingest import LawIngestor
from finagent.retrieval.retriever import KB

SETUP_VERSION = "8"  # bump when what is ingested, or how, changes
READY = "ready.json"


@dataclass
class Sources:
    """What the data dir holds: the knowledge base, the Tax Code parts, user documents."""

    kb_csv: Path | None
    taxcode: Sequence[tuple[Path, int]] = ()
    chapters: set[str] | None = None
    user_docs: dict[str, list[Path]] = field(default_factory=dict)  # user -> files

    def digest(self, model_id: str) -> str:
        """Changes whenever a file's content, a user's file list or the model changes."""
        sha = hashlib.sha256(f"{SETUP_VERSION}\n{model_id}\n".encode())
        files: list[tuple[str, Path]] = []
        if self.kb_csv is not None:
            files.append(("kb", self.kb_csv))
        files += [(f"nk{part}", path) for path, part in self.taxcode]
        sha.update(json.dumps(sorted(self.chapters or [])).encode())
        for user, paths in sorted(self.user_docs.items()):
            files += [(f"user:{user}:{p.name}", p) for p in sorted(paths)]
        for label, path in files:
            sha.update(label.encode() + b"\0")
            sha.update(hashlib.sha256(path.read_bytes()).digest())
        return sha.hexdigest()


def data_dir_for(root: Path, sources: Sources, model_id: str) -> tuple[Path, bool]:
    """The data dir of these sources under ``root`` and whether it is ready (warm). A dir
    left unfinished by an interrupted run is removed and rebuilt."""
    folder = root / "eval-direct" / sources.digest(model_id)[:16]
    if (folder / READY).is_file():
        return folder, True
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder, False


async def ingest(deps: Deps, sources: Sources) -> dict[str, Any]:
    """Ingest everything into the started ``deps``; a summary of what went in."""
    summary: dict[str, Any] = {"kb_articles": 0, "taxcode_chunks": 0, "documents": {}}
    ingestor = deps.ingestor()
    if sources.kb_csv is not None:
        summary["kb_articles"] = len((await ingestor.ingest_kb([sources.kb_csv])).ok)
    law = LawIngestor(
        deps.index, deps.embedder, deps.bm25, deps.settings, deps.retriever.collection(KB)
    )
    for path, part in sources.taxcode:
        law_report = await law.ingest_file(path, code="nk", part=part, chapters=sources.chapters)
        summary["taxcode_chunks"] += law_report.chunks
    for user, paths in sources.user_docs.items():
        report = await ingestor.ingest_documents(user, sorted(paths))
        summary["documents"][user] = {"ok": len(report.ok), "errors": len(report.errors)}
    return summary


def mark_ready(folder: Path, summary: dict[str, Any]) -> None:
    (folder / READY).write_text(json.dumps(summary, ensure_ascii=False), encoding="utf-8")


def ready_summary(folder: Path) -> dict[str, Any]:
    data = json.loads((folder / READY).read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}
