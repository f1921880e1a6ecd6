"""The provider echoing the key in every form (tests/e2e/test_secret_forms.py) with the
PostgreSQL store and checkpointer: no 16-character run of the key, in any case, is in any
row of any table, any log event or any API response (LangServe's included)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from finagent.bootstrap import Deps
from finagent.config import Settings
from finagent.server.app import create_app
from tests.e2e.test_secret_forms import KEY, leaked_runs
from tests.fakes.openai_api import run_fake_chat

_HEX = re.compile(r"\\x((?:[0-9a-f]{2})+)")
# every table a turn writes to: the scan must have read rows from each
WRITTEN_TABLES = {"store", "checkpoints", "checkpoint_blobs", "checkpoint_writes"}


def _postgres_leaks(postgres_url: str) -> dict[str, list[str]]:
    """Needles in any row of any table (bytea columns are searched hex-encoded too)."""
    import psycopg

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
            # bytea columns come out hex-encoded: decode them to scan them too
            decoded = [bytes.fromhex(h).decode("utf-8", "replace") for h in _HEX.findall(text)]
            hits = leaked_runs(text) + leaked_runs("\n".join(decoded))
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

    with run_fake_chat([], mode="echo_key_forms_401") as chat:
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
                    auth = {"Authorization": "Bearer tok-alice-0001"}
                    responses = [
                        await http.post(path, headers=auth, json=body)
                        for path, body in (
                            (
                                "/v1/ask",
                                {"query": "Какая ставка НДС при экспорте?", "chat_id": "c1"},
                            ),
                            ("/v1/ask", {"query": "А при импорте?", "chat_id": "c1"}),
                            ("/langserve/agent/stream_log", {"input": {"query": "А пени?"}}),
                        )
                    ]
    assert chat.requests, "the LLM was never called: the test proves nothing"
    assert [r.status_code for r in responses] == [200, 200, 200]
    assert [leaked_runs(r.content) for r in responses] == [[], [], []]
    assert leaked_runs(repr(logs)) == []
    assert _postgres_leaks(postgres_url) == {}
