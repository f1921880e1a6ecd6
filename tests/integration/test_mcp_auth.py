"""Bearer-token authentication of finagent's MCP HTTP server, on loopback: tokens from
FINAGENT_API_TOKENS decide the user, missing and wrong tokens get 401, tokens never reach
the logs, and an unauthenticated server refuses a non-loopback address."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from structlog.testing import capture_logs

from finagent.agents_config import MCPServerConfig
from finagent.config import Settings
from finagent.mcp.client import load_mcp_tools
from finagent.mcp.server import access_policy, build_server, http_app, serve
from finagent.server.identity import INVALID_TOKEN, SEND_BEARER
from finagent.tools.base import Tool, ToolContext
from tests.fakes.net import free_port
from tests.integration.test_mcp import INITIALIZE, make_registry

REPO = Path(__file__).resolve().parents[2]
ALICE_TOKEN = "alice-mcp-token-0001"
BOB_TOKEN = "bob-mcp-token-00002"
WRONG_TOKEN = "mallory-guess-00003"
TOKENS = f"{ALICE_TOKEN}:alice,{BOB_TOKEN}:bob"
CTX = ToolContext(user_id="local-user")
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def settings(**overrides: Any) -> Settings:
    return Settings(_env_file=None, **overrides)  # type: ignore[call-arg]


@asynccontextmanager
async def serving_here(app: Any) -> AsyncIterator[str]:
    """uvicorn (with lifespan) in this event loop; yields the MCP URL.

    The socket listens before uvicorn starts, so clients may connect at once: the kernel
    queues them until the server accepts, and no readiness wait is needed. Serving in the
    test's loop lets the server use services started by the test.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    finally:
        server.should_exit = True
        await task
        sock.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def fin(url: str, token: str | None) -> MCPServerConfig:
    headers = bearer(token) if token else {}
    return MCPServerConfig(name="fin", transport="streamable_http", url=url, headers=headers)


async def tools_of(url: str, token: str) -> dict[str, Tool[Any]]:
    result = await load_mcp_tools([fin(url, token)])
    assert result.errors == []
    return {t.name: t for t in result.tools}


async def test_tokens_decide_the_user_of_document_tools(make_loaded) -> None:  # type: ignore[no-untyped-def]
    loaded = await make_loaded(api_tokens=TOKENS)  # Alice owns the lease and the invoice
    services = loaded["services"]
    lease_id = loaded["doc_ids"]["lease"]
    server = build_server(services.registry, None)  # no fixed user: tokens only
    async with serving_here(http_app(server, auth=services.settings)) as url:
        alice = await tools_of(url, ALICE_TOKEN)
        bob = await tools_of(url, BOB_TOKEN)

        own = await alice["fin_load_documents_full"].invoke({"document_ids": [lease_id]}, CTX)
        assert "Договор аренды" in own and "0,1 %" in own
        stolen = await bob["fin_load_documents_full"].invoke({"document_ids": [lease_id]}, CTX)
        assert stolen.startswith("Error:") and "no such documents for this user" in stolen
        assert "0,1 %" not in stolen

        query = {"query": "пени за просрочку оплаты аренды"}
        found = json.loads(await alice["fin_search_user_documents"].invoke(query, CTX))
        assert lease_id in {r["document_id"] for r in found["results"]}
        nothing = json.loads(await bob["fin_search_user_documents"].invoke(query, CTX))
        assert nothing["count"] == 0 and nothing["results"] == []


async def test_token_user_wins_over_the_fixed_user_and_callers_cannot_pick_one() -> None:
    server = build_server(make_registry(), "mallory")
    async with serving_here(http_app(server, auth=settings(api_tokens=TOKENS))) as url:
        for token, user in ((ALICE_TOKEN, "alice"), (BOB_TOKEN, "bob")):
            async with (
                streamablehttp_client(url, headers=bearer(token)) as (read, write, _),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                ok = await session.call_tool("whoami", {"note": "x"})
                assert ok.content[0].text == f"user={user} note=x"  # type: ignore[union-attr]
                picked = await session.call_tool("whoami", {"note": "x", "user_id": "alice"})
                assert picked.isError


async def test_missing_and_wrong_tokens_get_401_and_tokens_stay_out_of_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    server = build_server(make_registry(), "mallory")
    app = http_app(server, auth=settings(api_tokens=TOKENS))
    with capture_logs() as logs:
        async with serving_here(app) as url, httpx.AsyncClient(follow_redirects=True) as http:
            cases = {
                "missing": ({}, SEND_BEARER),
                "not bearer": ({"Authorization": f"Basic {ALICE_TOKEN}"}, SEND_BEARER),
                "no token": ({"Authorization": "Bearer"}, SEND_BEARER),
                "wrong": (bearer(WRONG_TOKEN), INVALID_TOKEN),
            }
            for case, (headers, message) in cases.items():
                response = await http.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **headers})
                assert response.status_code == 401, case
                assert response.json() == {"error": "invalid_token", "error_description": message}
                assert response.headers["www-authenticate"].startswith("Bearer ")
            wrong = await load_mcp_tools([fin(url, WRONG_TOKEN)])
            assert wrong.tools == [] and "'fin' is unavailable" in wrong.errors[0]
            ok = await http.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **bearer(BOB_TOKEN)})
            assert ok.status_code == 200
            whoami = (await tools_of(url, ALICE_TOKEN))["fin_whoami"]
            assert await whoami.invoke({"note": "n"}, CTX) == "user=alice note=n"

    rejected = [e for e in logs if e["event"] == "mcp_auth_rejected"]
    reasons = [e["reason"] for e in rejected]
    send_bearer = "send 'Authorization: Bearer <token>'"  # logs keep the English reason
    assert reasons[:4] == [send_bearer] * 3 + ["invalid API token"]
    assert set(reasons[4:]) == {"invalid API token"}  # our client with the wrong token
    assert rejected[0]["client"] == "127.0.0.1"
    for token in (ALICE_TOKEN, BOB_TOKEN, WRONG_TOKEN):
        assert token not in repr(logs) and token not in caplog.text


def test_access_policy() -> None:
    none, tokens = settings(), settings(api_tokens=TOKENS)
    assert access_policy(none, transport="http", host="127.0.0.1", user="a") == ("a", None)
    assert access_policy(none, transport="http", host="localhost", user="a") == ("a", None)
    assert access_policy(none, transport="stdio", host="0.0.0.0", user="a") == ("a", None)
    for host in ("0.0.0.0", "::", "192.168.1.10", "example.org"):
        with pytest.raises(ValueError, match="non-loopback") as info:
            access_policy(none, transport="http", host=host, user="a")
        assert "FINAGENT_API_TOKENS" in str(info.value) and "--insecure-no-auth" in str(info.value)
    insecure = access_policy(
        none, transport="http", host="0.0.0.0", user="a", insecure_no_auth=True
    )
    assert insecure == ("a", None)
    # tokens: HTTP needs no --user and ignores it; stdio keeps the fixed user
    assert access_policy(tokens, transport="http", host="0.0.0.0", user=None) == (None, tokens)
    assert access_policy(tokens, transport="http", host="::1", user="a") == (None, tokens)
    assert access_policy(tokens, transport="stdio", host="::1", user="a") == ("a", None)
    with pytest.raises(ValueError, match="needs a user"):
        access_policy(tokens, transport="stdio", host="127.0.0.1", user=None)
    with pytest.raises(ValueError, match="token:user"):
        access_policy(settings(api_tokens="short:a"), transport="http", host="::1", user="a")


async def test_serve_refuses_before_binding() -> None:
    port = free_port()
    with pytest.raises(ValueError, match="non-loopback"):
        await serve(
            transport="http",
            host="0.0.0.0",
            port=port,
            user="a",
            registry=make_registry(),
            settings=settings(),
        )


def server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FINAGENT_")}
    return {**env, **extra}


def test_cli_refuses_non_loopback_without_tokens() -> None:
    args = ["mcp", "--transport", "http", "--host", "0.0.0.0", "--port", str(free_port())]
    done = subprocess.run(
        [sys.executable, "-m", "finagent.cli", *args, "--user", "a"],
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 2
    assert "refusing to serve MCP over HTTP on non-loopback host '0.0.0.0'" in done.stderr


async def _wait_until_listening(proc: asyncio.subprocess.Process, port: int) -> None:
    """Readiness polling of the subprocess's port, not synchronisation by delay."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.returncode is None:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        await writer.wait_closed()
        return
    raise RuntimeError(f"MCP server did not start (exit code {proc.returncode})")


async def test_server_process_uses_tokens_and_keeps_them_out_of_its_output() -> None:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "finagent.mcp.server",
        "--transport",
        "http",
        "--port",
        str(port),
        "--user",
        "mallory",
        "--registry",
        "tests.integration.test_mcp:make_registry",
    ]
    proc = await asyncio.create_subprocess_exec(
        *command,
        env=server_env(FINAGENT_API_TOKENS=TOKENS),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await _wait_until_listening(proc, port)
        url = f"http://127.0.0.1:{port}/mcp"
        for token, user in ((ALICE_TOKEN, "alice"), (BOB_TOKEN, "bob")):
            whoami = (await tools_of(url, token))["fin_whoami"]
            assert await whoami.invoke({"note": "p"}, CTX) == f"user={user} note=p"
        async with httpx.AsyncClient(follow_redirects=True) as http:
            for headers in ({}, bearer(WRONG_TOKEN)):
                response = await http.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **headers})
                assert response.status_code == 401
    finally:
        if proc.returncode is None:
            proc.terminate()
        out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    output = (out + err).decode()
    assert "mcp_user_ignored" in output and "auth=bearer" in output
    assert output.count("mcp_auth_rejected") == 2
    for token in (ALICE_TOKEN, BOB_TOKEN, WRONG_TOKEN):
        assert token not in output
