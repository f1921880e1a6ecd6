"""Start ``langgraph dev`` (the LangGraph API server, in-memory runtime) on loopback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import REPO_ROOT
from tests.fakes.net import free_port

STARTUP_DEADLINE_S = 240
API_TOKENS = "alice-token-0001:alice,bob-token-00002:bob"


def offline_api_env(data_dir: Path) -> dict[str, str]:
    """The environment of an offline ``langgraph dev`` for Alice and Bob: no LLM, no Bank
    of Russia, no LangSmith, no analytics."""
    return {
        **os.environ,
        "FINAGENT_DATA_DIR": str(data_dir),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "LANGSMITH_TRACING": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "FINAGENT_API_TOKENS": API_TOKENS,
    }


def langgraph_cli() -> str:
    exe = Path(sys.executable).with_name("langgraph")
    found = str(exe) if exe.exists() else shutil.which("langgraph")
    assert found, "langgraph-cli[inmem] is a dev dependency and must be installed"
    return found


def write_config(workdir: Path) -> Path:
    """The repository's langgraph.json with absolute paths, so the server can run in
    ``workdir`` (where its in-memory runtime keeps its files, ``.langgraph_api/``)."""
    config = json.loads((REPO_ROOT / "langgraph.json").read_text(encoding="utf-8"))
    config["dependencies"] = [str(REPO_ROOT)]
    config["graphs"] = {name: str(REPO_ROOT / spec) for name, spec in config["graphs"].items()}
    config["auth"]["path"] = str(REPO_ROOT / config["auth"]["path"])
    config["http"]["app"] = str(REPO_ROOT / config["http"]["app"])
    config.pop("env", None)  # settings come from the test's environment only
    path = workdir / "langgraph.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


@contextmanager
def langgraph_dev(
    env: Mapping[str, str], log_path: Path, workdir: Path | None = None
) -> Iterator[str]:
    """Run ``langgraph dev`` until the block ends (then stop it gracefully); yields its URL.

    Without ``workdir`` it runs in the repository, with its langgraph.json.
    """
    cwd = REPO_ROOT if workdir is None else workdir
    args = [] if workdir is None else ["--config", str(write_config(workdir))]
    port = free_port()
    log = log_path.open("w")
    proc = subprocess.Popen(
        [
            langgraph_cli(),
            "dev",
            *args,
            "--no-browser",
            "--no-reload",
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
        ],
        cwd=cwd,
        env=dict(env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    try:
        while True:  # readiness: poll the health endpoint until it answers or the process dies
            assert proc.poll() is None, log_path.read_text()[-3000:]
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "langgraph dev did not start in time"
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()  # SIGTERM: the in-memory runtime writes its files on shutdown
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        log.close()
