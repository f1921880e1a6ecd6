"""Commands that parsed a document leave nothing in the temp dir: neither after a normal
exit nor after SIGTERM (multiprocessing's ``pymp-*`` folder holds the forkserver socket)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

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


def wait_until_serving(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    while True:  # readiness: poll the health endpoint until it answers or the process dies
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "finagent serve did not start in time"
        time.sleep(0.2)


def test_serve_stopped_by_sigterm_leaves_no_temp_files(tmp_path: Path):
    env, temp = env_with_temp_dir(tmp_path)
    env["FINAGENT_API_TOKENS"] = f"{TOKEN}:alice"
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "finagent.cli", "serve", "--port", str(port)],
            cwd=REPO_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(proc, url, log)
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
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM, log.read_text()[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert list(temp.iterdir()) == []
    assert "leaked" not in log.read_text()  # multiprocessing's resource tracker was satisfied
