"""Uploads bounded by unpacked size, compression ratio, parse time and text length.

A zip bomb .docx is refused from its central directory, before any parser opens it; a
file that passes the cheap checks but parses too long is stopped by killing its worker
process. Every refusal is a per-file error in Russian.
"""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import docx
import httpx

from finagent.bootstrap import Deps
from finagent.retrieval.archive_checks import check_zip
from finagent.retrieval.loaders import DocumentLoadError
from finagent.server.app import create_app

TOKENS = "alice-token-0001:alice"
ALICE = {"Authorization": "Bearer alice-token-0001"}
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def docx_bytes(paragraphs: list[str]) -> bytes:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def with_document_xml(chunks: Iterable[bytes]) -> bytes:
    """A real .docx whose word/document.xml is streamed from ``chunks`` (cheap to make)."""
    source = zipfile.ZipFile(io.BytesIO(docx_bytes(["x"])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != "word/document.xml":
                target.writestr(info, source.read(info))
                continue
            with target.open("word/document.xml", "w", force_zip64=True) as member:
                member.write(f"<?xml version='1.0'?><w:document {_W}><w:body>".encode())
                for chunk in chunks:
                    member.write(chunk)
                member.write(b"</w:body></w:document>")
    return out.getvalue()


def zip_bomb_docx(unpacked_mib: int) -> bytes:
    """``unpacked_mib`` MiB of empty paragraphs: a few dozen KiB on disk."""
    chunk = b"<w:p/>" * (1 << 17)
    return with_document_xml(chunk for _ in range(unpacked_mib * (1 << 20) // len(chunk)))


def long_docx(paragraphs: int) -> bytes:
    """A plausible, poorly compressible document of many paragraphs."""
    rng = random.Random(7)
    words = ["налог", "ставка", "договор", "аренда", "вычет", "декларация", "сумма", "НДС"]

    def paragraph() -> bytes:
        text = " ".join(rng.choice(words) + str(rng.randint(0, 999)) for _ in range(12))
        return f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>".encode()

    return with_document_xml(paragraph() for _ in range(paragraphs))


@asynccontextmanager
async def api(services: Deps) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            yield http


async def upload(http: httpx.AsyncClient, name: str, data: bytes) -> dict[str, Any]:
    response = await http.post(
        "/v1/documents", files=[("files", (name, data, DOCX))], headers=ALICE
    )
    assert response.status_code == 200, response.text
    [result] = response.json()["results"]
    return dict(result)


def rss_bytes() -> int:
    """Resident memory of this process (Linux /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096


async def test_zip_bomb_docx_is_refused_unopened_in_russian(make_services) -> None:  # type: ignore[no-untyped-def]
    bomb = zip_bomb_docx(unpacked_mib=30)  # under the unpacked-size limit, not the ratio
    assert len(bomb) < 200 * 1024
    services: Deps = await make_services(api_tokens=TOKENS)
    async with api(services) as http:
        result = await upload(http, "bomb.docx", bomb)
    assert result["status"] == "error"
    assert "похоже на zip-бомбу, файл не открывался" in result["error"]
    assert result["error"].startswith("bomb.docx: ")


def test_archive_checks_read_only_the_central_directory(tmp_path: Path) -> None:
    path = tmp_path / "many.docx"
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(30):
            archive.writestr(f"part{i}.xml", "<a/>")
    check_zip(path, max_unpacked_bytes=10_000, max_members=30)
    try:
        check_zip(path, max_unpacked_bytes=10_000, max_members=29)
    except DocumentLoadError as exc:
        assert "слишком много частей" in str(exc)
    else:
        raise AssertionError("too many members passed")
    try:
        check_zip(path, max_unpacked_bytes=100)
    except DocumentLoadError as exc:
        assert "после распаковки файл слишком большой" in str(exc)
    else:
        raise AssertionError("too large unpacked size passed")


async def test_a_slow_parse_is_stopped_and_memory_stays_with_the_worker(make_services) -> None:  # type: ignore[no-untyped-def]
    heavy = long_docx(paragraphs=20_000)  # passes the cheap checks, parses for a while
    services: Deps = await make_services(api_tokens=TOKENS, parse_timeout_s=0.2)
    async with api(services) as http:
        await upload(http, "warm-up.docx", heavy)  # first request: imports, pools, caches
        before = rss_bytes()
        result = await upload(http, "heavy.docx", heavy)
        after = rss_bytes()
        assert result["status"] == "error"
        assert "разбирался слишком долго" in result["error"]
        # the next file parses normally: the killed worker was replaced
        ok = await upload(http, "short.docx", docx_bytes(["Договор аренды № 7", "Арендная плата"]))
    assert ok["status"] == "ingested", ok
    # the parser's memory lived and died in the worker process, never in the service
    assert after - before < 50 * 1024 * 1024


async def test_text_length_is_a_limit(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS, max_document_chars=500)
    async with api(services) as http:
        result = await upload(http, "long.docx", long_docx(paragraphs=200))
    assert result["status"] == "error" and "текст слишком длинный" in result["error"]
