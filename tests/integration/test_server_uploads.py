"""Uploads: temporary files are private and under the data dir, cleaned on start-up after a
crash; per-request file count and total size are limits."""

from __future__ import annotations

import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from finagent.bootstrap import Deps
from finagent.server.app import create_app
from finagent.server.uploads import UPLOAD_PREFIX, uploads_dir, write_private
from tests.conftest import INVOICE, LEASE

TOKENS = "alice-token-0001:alice"
ALICE = {"Authorization": "Bearer alice-token-0001"}


@asynccontextmanager
async def serving(services: Deps) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            yield http


def parts(**files: str) -> list[tuple[str, Any]]:
    return [("files", (name, text.encode(), "text/markdown")) for name, text in files.items()]


def test_upload_files_are_written_private(tmp_path: Path):
    path = tmp_path / "uploads" / f"{UPLOAD_PREFIX}x" / "0" / "lease.md"
    write_private(path, b"secret")
    assert path.read_bytes() == b"secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


async def test_leftovers_of_a_crash_are_removed_on_start_up(make_services):  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS)
    root = uploads_dir(services.settings.data_dir)
    stale = root / f"{UPLOAD_PREFIX}crashed" / "0" / "lease.md"
    write_private(stale, LEASE.encode())
    other = root / "keep.txt"  # not ours: left alone
    other.write_text("x")
    async with serving(services) as http:
        assert not stale.parent.parent.exists() and other.exists()
        response = await http.post("/v1/documents", files=parts(**{"a.md": LEASE}), headers=ALICE)
        assert response.status_code == 200
        assert response.json()["results"][0]["status"] == "ingested"
        # the request's own folder was under the data dir and is gone again
        assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]
        assert stat.S_IMODE(root.stat().st_mode) == 0o700


async def test_file_count_and_total_size_are_limits(make_services):  # type: ignore[no-untyped-def]
    services: Deps = await make_services(
        api_tokens=TOKENS, max_upload_files=2, max_upload_bytes=len(LEASE.encode()) + 10
    )
    async with serving(services) as http:
        three = parts(**{"a.md": "а", "b.md": "б", "c.md": "в"})
        response = await http.post("/v1/documents", files=three, headers=ALICE)
        assert response.status_code == 422
        assert response.json()["detail"] == "Отправьте от 1 до 2 файлов в поле files."
        both = parts(**{"lease.md": LEASE, "invoice.md": INVOICE})
        response = await http.post("/v1/documents", files=both, headers=ALICE)
        assert response.status_code == 413 and "в сумме" in response.json()["detail"]
        one = await http.post("/v1/documents", files=parts(**{"l.md": LEASE}), headers=ALICE)
        assert one.status_code == 200
        assert await services.documents.list("alice")  # the one within limits was ingested
