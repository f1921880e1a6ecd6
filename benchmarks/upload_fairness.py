"""Upload fairness and stopping, for ``bench_reliability.py`` (phase 6).

A ``finagent serve`` subprocess on loopback; a few users ask questions one after another:

- **fairness** - their p95 when the service is idle, then while one user uploads a large
  ``.txt`` or a 5 000-page PDF; the ratio of the two p95s. With the default budgets a
  2 M-character text (3.7 MB, the most characters allowed) is refused by the chunk budget
  (how fast is reported); with raised budgets a 4 MB text is fully ingested;
- **SIGTERM** - the time from SIGTERM to the process's exit, idle and at several points of
  an upload (parsing a PDF, chunking and embedding a text).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.bench_reliability import QUESTIONS, Served, pct

ASKERS = 4
UPLOADER = f"user{ASKERS}"
RAISED = {
    "FINAGENT_MAX_DOCUMENT_CHARS": "3000000",
    "FINAGENT_MAX_DOCUMENT_CHUNKS": "100000",
    "FINAGENT_INGEST_TIMEOUT_S": "3600",
    "FINAGENT_PARSE_TIMEOUT_S": "600",
}
WORDS = (
    "налог вычет декларация ставка организация договор поставка оплата счёт сумма срок "
    "период пени штраф арендатор арендодатель помещение акт работы услуги обязательство"
).split()


def big_text(chars: int, seed: int = 1) -> bytes:
    """Russian paragraphs with a heading every 40 (1.87 bytes of UTF-8 a character)."""
    rng = random.Random(seed)
    parts = ["# Сводный реестр договоров"]
    size = len(parts[0])
    while size < chars:
        n = len(parts)
        part = (
            f"## Раздел {n}"
            if n % 40 == 0
            else " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 80))) + "."
        )
        parts.append(part)
        size += len(part) + 2
    return "\n\n".join(parts)[:chars].encode()


def big_pdf(pages: int = 5000) -> bytes:
    """A PDF of ``pages`` pages, a short Russian paragraph each (DejaVu font)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_font("dejavu", fname="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    pdf.set_font("dejavu", size=10)
    rng = random.Random(2)
    for page in range(pages):
        pdf.add_page()
        words = " ".join(rng.choice(WORDS) for _ in range(30))
        pdf.multi_cell(0, 5, text=f"Страница {page + 1}. {words}.")
    out = io.BytesIO()
    pdf.output(out)
    return out.getvalue()


UPLOAD_SCRIPT = """
import json, sys, httpx
url, token, path, name, mime = sys.argv[1:6]
with open(path, "rb") as data:
    files = [("files", (name, data, mime))]
    response = httpx.post(url, headers={"Authorization": f"Bearer {token}"}, files=files,
                          timeout=7200)
print(json.dumps(response.json()["results"][0]))
"""


async def upload_from_another_process(
    served: Served, path: Path, name: str, mime: str
) -> dict[str, Any]:
    """One upload sent by a separate process (its start-up counts in the upload time):
    sending 4 MB is not the askers' client's work."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        UPLOAD_SCRIPT,
        f"{served.url}/v1/documents",
        served.tokens[UPLOADER],
        str(path),
        name,
        mime,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    result: dict[str, Any] = json.loads(out)
    return result


async def ask(http: httpx.AsyncClient, served: Served, user: str, n: int) -> tuple[float, int]:
    started = time.perf_counter()
    response = await http.post(
        f"{served.url}/v1/ask",
        headers=served.headers(user),
        json={"query": QUESTIONS[n % len(QUESTIONS)], "chat_id": f"fair-{user}-{n}"},
        timeout=600,
    )
    return time.perf_counter() - started, response.status_code


async def idle_p95(served: Served, questions: int) -> float:
    latencies: list[float] = []
    async with httpx.AsyncClient() as http:

        async def asker(user: str) -> None:
            for n in range(questions):
                latencies.append((await ask(http, served, user, n))[0])

        await asyncio.gather(*(asker(f"user{i}") for i in range(ASKERS)))
    return pct(latencies, 0.95)


async def during_upload(
    served: Served, name: str, data: bytes, mime: str, questions: int, min_during: int = 40
) -> dict[str, Any]:
    """Others ask while ``UPLOADER`` uploads (again, until ``min_during`` questions were
    asked during uploads: a refusal takes seconds); those questions count."""
    during: list[float] = []
    statuses: dict[int, int] = {}
    uploads: list[tuple[float, dict[str, Any]]] = []
    path = served.data_dir.parent / name
    path.write_bytes(data)
    async with httpx.AsyncClient() as http:

        async def uploader() -> None:
            while not uploads or len(during) < min_during:
                started = time.perf_counter()
                result = await upload_from_another_process(served, path, name, mime)
                uploads.append((time.perf_counter() - started, result))
                if result["status"] != "error":
                    return  # ingested: uploading again would find it unchanged

        upload = asyncio.create_task(uploader())

        async def asker(user: str) -> None:
            n = 0
            while not upload.done() or n < questions:
                in_flight = not upload.done()
                latency, status = await ask(http, served, user, n)
                statuses[status] = statuses.get(status, 0) + 1
                if in_flight:
                    during.append(latency)
                n += 1

        await asyncio.gather(upload, *(asker(f"user{i}") for i in range(ASKERS)))
    upload_s, result = uploads[0]
    return {
        "upload": name,
        "upload_mb": round(len(data) / 1e6, 2),
        "outcome": result["status"],
        "error": (result.get("error") or "")[:120],
        "upload_s": round(upload_s, 1),
        "uploads": len(uploads),
        "questions_during": len(during),
        "p95_during_s": round(pct(during, 0.95), 2) if during else None,
        "5xx": sum(c for s, c in statuses.items() if s >= 500),
    }


async def fairness(tmp: Path, kb: Path, label: str, env: dict[str, str]) -> list[dict[str, Any]]:
    served = Served(tmp / f"data-{label}", users=ASKERS + 1, extra_env=env)
    served.cli("ingest", "kb", str(kb))
    await served.start()
    rows = []
    try:
        await idle_p95(served, 1)  # warm-up: models loaded, caches filled
        idle = await idle_p95(served, 6)
        # the default budgets allow 2 M characters (3.7 MB); raised ones take 4 MB
        chars = 2_150_000 if label == "raised" else 1_999_000
        uploads = [("big.txt", big_text(chars), "text/plain")]
        uploads.append(("big.pdf", big_pdf(), "application/pdf"))
        for name, data, mime in uploads:
            row = await during_upload(served, name, data, mime, questions=6)
            during = row["p95_during_s"]
            ratio = round(during / idle, 2) if during is not None else None
            rows.append({"budgets": label, "idle_p95_s": round(idle, 2), **row, "ratio": ratio})
            print("upload fairness", rows[-1], flush=True)
    finally:
        served.stop()
    return rows


async def stage_reached(served: Served, wanted: str, min_done: int = 0) -> None:
    async with httpx.AsyncClient() as http, asyncio.timeout(600):
        while True:
            rows = (
                await http.get(
                    f"{served.url}/v1/documents/ingestions", headers=served.headers(UPLOADER)
                )
            ).json()
            if rows and rows[0]["stage"] == wanted and rows[0]["chunks_done"] >= min_done:
                return
            await asyncio.sleep(0.05)


async def sigterm_exit(tmp: Path, kb: Path) -> list[dict[str, Any]]:
    """Seconds from SIGTERM to exit: idle, and at points of an upload (raised budgets)."""
    text, pdf = big_text(2_150_000), big_pdf()
    points: list[tuple[str, tuple[str, bytes, str] | None, str, int]] = [
        ("idle", None, "", 0),
        ("parsing a 5 000-page PDF", ("big.pdf", pdf, "application/pdf"), "parsing", 0),
        ("embedding a 4 MB text", ("big.txt", text, "text/plain"), "embedding", 16),
    ]
    rows = []
    for label, upload, stage, min_done in points:
        served = Served(tmp / f"data-term-{len(rows)}", users=ASKERS + 1, extra_env=RAISED)
        if not rows:
            served.cli("ingest", "kb", str(kb))
        await served.start()
        assert served.proc is not None
        async with httpx.AsyncClient() as http:
            sent = None
            if upload is not None:
                sent = asyncio.create_task(
                    http.post(
                        f"{served.url}/v1/documents",
                        headers=served.headers(UPLOADER),
                        files=[("files", upload)],
                        timeout=7200,
                    )
                )
                await stage_reached(served, stage, min_done)
            started = time.perf_counter()
            served.proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(served.proc.wait, 120)
            exit_s = time.perf_counter() - started
            answered = None
            if sent is not None:
                done = (await asyncio.gather(sent, return_exceptions=True))[0]
                answered = isinstance(done, httpx.Response) and done.status_code == 200
        rows.append(
            {"point": label, "exit_s": round(exit_s, 2), "code": code, "upload_answered": answered}
        )
        print("sigterm", rows[-1], flush=True)
    return rows


async def run_upload_fairness(
    tmp: Path, kb: Path, budgets: tuple[str, ...] = ("default", "raised"), sigterm: bool = True
) -> dict[str, Any]:
    rows = []
    for label in budgets:
        rows.extend(await fairness(tmp, kb, label, RAISED if label == "raised" else {}))
    return {"fairness": rows, "sigterm": await sigterm_exit(tmp, kb) if sigterm else []}


async def main(args: argparse.Namespace) -> None:
    import tempfile

    from tests.conftest import KB_CSV

    with tempfile.TemporaryDirectory(prefix="bench-upload-") as tmp:
        kb = Path(tmp) / "kb.csv"
        kb.write_text(KB_CSV, encoding="utf-8")
        budgets = ("default", "raised") if args.budgets == "both" else (args.budgets,)
        print(json.dumps(await run_upload_fairness(Path(tmp), kb, budgets, args.sigterm)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="phase 6 of bench_reliability.py alone")
    parser.add_argument("--budgets", choices=["default", "raised", "both"], default="both")
    parser.add_argument("--sigterm", action=argparse.BooleanOptionalAction, default=True)
    asyncio.run(main(parser.parse_args()))
