"""The LangServe fuzz of ``bench_reliability.py``: random and hostile bodies against the
LangServe routes of a running ``finagent serve`` (both graphs, all five endpoints).

Bodies are drawn with a fixed seed: valid questions, over-long questions and chat ids,
wrong types, oversized batches, huge integers, lone surrogates, deep nesting, NaN,
invalid UTF-8 and random bytes. Reported: the count per status, 5xx (must be 0), refusals
whose ``detail`` is not Russian, and p50/p95 latency of refusals and of answers.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import httpx

ENDPOINTS = ("invoke", "batch", "stream", "stream_log", "stream_events")
ROUTES = [f"/langserve/{g}/{e}" for g in ("agent", "research") for e in ENDPOINTS]
CYRILLIC = re.compile("[а-яА-ЯёЁ]")
QUESTIONS = ["какая ставка НДС на продукты питания?", "ставка НДС", "привет"]
KINDS = [
    "valid",
    "long query",
    "long chat id",
    "wrong type",
    "big batch",
    "huge int",
    "surrogate",
    "deep",
    "nan",
    "not utf-8",
    "random bytes",
]


def body_for(rng: random.Random, route: str, kind: str) -> bytes:
    """One request body of ``kind`` for ``route``."""
    ask: dict[str, Any] = {"query": rng.choice(QUESTIONS)}
    if kind == "long query":
        ask["query"] = "я" * rng.choice([4001, 10_000])
    elif kind == "long chat id":
        ask["chat_id"] = "c" * rng.choice([201, 10_000])
    elif kind == "wrong type":
        ask[rng.choice(["query", "chat_id", "selected_document_ids"])] = rng.choice(
            [5, [], {"a": 1}, True]
        )
    batch = route.endswith("/batch")
    size = rng.randint(21, 1000) if kind == "big batch" else rng.randint(1, 2)
    text = json.dumps({"inputs": [ask] * size} if batch else {"input": ask}, ensure_ascii=False)
    if kind == "huge int":
        return (text[:-1] + ', "n": ' + "9" * rng.randint(400, 6000) + "}").encode()
    if kind == "surrogate":
        return (text[:-1] + ', "s": "\\ud800"}').encode()
    if kind == "deep":
        depth = rng.randint(65, 50_000)
        return (text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}").encode()
    if kind == "nan":
        return (text[:-1] + ', "x": NaN}').encode()
    if kind == "not utf-8":
        return text.encode("utf-16")
    if kind == "random bytes":
        return rng.randbytes(rng.randint(0, 200))
    return text.encode()


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 3)


async def run_langserve_fuzz(url: str, headers: dict[str, str], n: int) -> dict[str, Any]:
    """``n`` fuzzed requests, one at a time, against the service at ``url``."""
    rng = random.Random(24)
    statuses: dict[int, int] = {}
    refusals: list[float] = []
    answers: list[float] = []
    not_russian = 0
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        for _ in range(n):
            route = rng.choice(ROUTES)
            body = body_for(rng, route, rng.choice(KINDS))
            started = time.perf_counter()
            response = await http.post(
                route, content=body, headers={**headers, "Content-Type": "application/json"}
            )
            elapsed = time.perf_counter() - started
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code < 400:
                answers.append(elapsed)
                continue
            refusals.append(elapsed)
            try:
                detail = response.json().get("detail")
            except ValueError:
                detail = None
            if not (isinstance(detail, str) and CYRILLIC.search(detail)):
                not_russian += 1
    return {
        "requests": n,
        "statuses": dict(sorted(statuses.items())),
        "5xx": sum(v for k, v in statuses.items() if k >= 500),
        "refusals_not_russian": not_russian,
        "refusal_p50_s": _pct(refusals, 0.5),
        "refusal_p95_s": _pct(refusals, 0.95),
        "answer_p95_s": _pct(answers, 0.95),
    }
