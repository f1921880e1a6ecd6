"""The echoing provider (tests/e2e/test_secret_echo.py) with the PostgreSQL store and
checkpointer: the key is in no row of any table, no log event and no API response."""

from __future__ import annotations

from pathlib import Path

import httpx

from finagent.bootstrap import Deps
from finagent.config import Settings
from finagent.server.app import create_app
from tests.e2e.test_secret_echo import KEY, NEEDLES, _leaks
from tests.fakes.openai_api import run_fake_chat

# every table a turn writes to: the scan must have read rows from each
WRITTEN_TABLES = {"store", "checkpoints", "checkpoint_blobs", "checkpoint_writes"}


def _postgres_leaks(postgres_url: str) -> dict[str, list[str]]:
    """Needles in any row of any table (bytea columns are searched hex-encoded too)."""
    import psycopg

    hex_needles = [n.encode().hex() for n in NEEDLES]
    found: dict[str, list[str]] = {}
    with psycopg.connect(postgres_url) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        ]
        scanned: dict[str, int] = {}
        for table in tables:
            rows = conn.execute(f'SELECT t::text FROM "{table}" t').fetchall()
            scanned[table] = len(rows)
            text = "\n".join(str(r[0]) for r in rows)
            hits = _leaks(text) + [n for n in hex_needles if n in text]
            if hits:
                found[table] = hits
    empty = {t for t in WRITTEN_TABLES if not scanned.get(t)}
    assert not empty, f"nothing written to {empty}: the test proves nothing"
    return found


async def test_echoed_key_in_no_postgresql_row_log_or_response(  # type: ignore[no-untyped-def]
    make_services, kb_csv: Path, postgres_url: str
) -> None:
    from structlog.testing import capture_logs

    from finagent.clients.llm import build_chat_model

    with run_fake_chat([], echo_key_401=True) as chat:
        llm_settings = Settings(
            llm_base_url=chat.url, llm_model="fake-model", llm_api_key=KEY, llm_max_retries=0
        )
        services: Deps = await make_services(
            llm=build_chat_model(llm_settings),
            api_tokens="tok-alice-0001:alice",
            llm_api_key=KEY,
            postgres_url=postgres_url,
        )
        await services.ingestor().ingest_kb([kb_csv])
        app = create_app(services.settings, services)
        with capture_logs() as logs:
            async with app.router.lifespan_context(app):
                transport = httpx.ASGITransport(app=app)
                async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                    responses = [
                        await http.post(
                            "/v1/ask",
                            headers={"Authorization": "Bearer tok-alice-0001"},
                            json={"query": query, "chat_id": "c1"},
                        )
                        for query in ("Какая ставка НДС при экспорте?", "А при импорте?")
                    ]
    assert chat.requests, "the LLM was never called: the test proves nothing"
    assert [r.status_code for r in responses] == [200, 200]
    assert [_leaks(r.text) for r in responses] == [[], []]
    assert _leaks(repr(logs)) == []
    assert _postgres_leaks(postgres_url) == {}
