"""Commands that parsed a document leave nothing in the temp dir: neither after a normal
exit nor after SIGTERM or Ctrl+C (multiprocessing's ``pymp-*`` folder holds the forkserver
socket), and multiprocessing's resource tracker reports no leaked semaphore."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import httpx
import pytest

from tests.conftest import REPO_ROOT, run_finagent
from tests.e2e.conftest import cli_env
from tests.fakes.net import free_port
from tests.file_zoo import pdf_bytes

STARTUP_DEADLINE_S = 120
TOKEN = "alice-token-0001"


def env_with_temp_dir(tmp_path: Path) -> tuple[dict[str, str], Path]:
    temp = tmp_path / "tmp"
    temp.mkdir()
    return {**cli_env(tmp_path / "data"), "TMPDIR": str(temp)}, temp


def test_ingesting_a_pdf_leaves_no_temp_files(tmp_path: Path):
    env, temp = env_with_temp_dir(tmp_path)
    pdf = tmp_path / "act.pdf"
    pdf.write_bytes(pdf_bytes("Act 15: services for 90000 RUB"))
    done = run_finagent(env, "ingest", "docs", "--user", "alice", str(pdf))
    assert done.returncode == 0, done.stderr
    assert "ingested" in done.stdout
    assert list(temp.iterdir()) == []


def wait_until_serving(proc: subprocess.Popen[bytes], url: str, output: list[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    while True:  # readiness: poll the health endpoint until it answers or the process dies
        assert proc.poll() is None, b"".join(output)[-3000:]
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "finagent serve did not start in time"
        time.sleep(0.2)


def read_until_every_holder_closes(stream: IO[bytes], into: list[bytes]) -> threading.Thread:
    """Collect ``stream`` in a thread that ends at EOF: when the server and every process
    that inherited its stderr (forkserver, resource tracker) have exited."""
    thread = threading.Thread(target=lambda: into.extend(iter(stream.readline, b"")))
    thread.start()
    return thread


@pytest.mark.parametrize(
    ("sig", "whole_group", "codes"),
    [
        (signal.SIGTERM, False, {128 + signal.SIGTERM}),  # a service manager's stop
        (signal.SIGINT, True, {0, 130}),  # Ctrl+C in a terminal: the whole process group
    ],
    ids=["sigterm", "ctrl-c"],
)
def test_serve_stop_leaves_no_temp_files_and_no_leaked_semaphores(
    tmp_path: Path, sig: signal.Signals, whole_group: bool, codes: set[int]
):
    env, temp = env_with_temp_dir(tmp_path)
    env["FINAGENT_API_TOKENS"] = f"{TOKEN}:alice"
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "finagent.cli", "serve", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=whole_group,
    )
    assert proc.stdout is not None
    lines: list[bytes] = []
    reader = read_until_every_holder_closes(proc.stdout, lines)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(proc, url, lines)
        upload = ("act.pdf", pdf_bytes("Act 15"), "application/pdf")
        response = httpx.post(
            f"{url}/v1/documents",
            files=[("files", upload)],
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=120,
        )
        assert response.json()["results"][0]["status"] == "ingested"
        # the parse pool's forkserver listens on a socket in this temp dir
        assert [p.name[:5] for p in temp.iterdir()] == ["pymp-"]
        if whole_group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        assert proc.wait(timeout=30) in codes, b"".join(lines)[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    reader.join(timeout=60)
    assert not reader.is_alive(), "a child of finagent serve outlived it"
    output = b"".join(lines).decode(errors="replace")
    assert list(temp.iterdir()) == []
    # multiprocessing's resource tracker, the last to exit, found every semaphore released
    assert "leaked" not in output and "resource_tracker" not in output, output[-3000:]
