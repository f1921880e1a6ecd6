"""Redaction cost: every form of a secret, side by side with the old verbatim-only redaction.

The same texts are redacted by ``finagent.redaction`` (whole, prefixless, any case, any
16-character run) and by a model of the previous ``redact`` (registered values verbatim
plus the echoed-key patterns), with the settings' usual number of secrets. Reported:
microseconds per call and the ratio new/old for a 12 000-character tool output, a short
log event, and a LangServe ``stream_log`` patch through the redacting serializer against
plain ``orjson.dumps``. No timing asserts: the figures are for docs/security.md.

    python benchmarks/bench_redaction.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from typing import Any

import orjson
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult

from finagent.redaction import Redactor, register
from finagent.server.langserve_routes import graph_objects, make_serializer

SECRETS = [
    "sk-proj-Bench7Key4b7e1c0d8aZxQvLm2",
    "tvly-dev-0a9b8c7d6e5f4a3b2c1d",
    "qdrant-key-9f8e7d6c5b4a",
    "tok-alice-0001",
    "tok-bob-00002",
    "postgresql://finagent:Pg7secretPass42x@db.local:5432/finagent",
]
_OLD_ECHOED = re.compile(
    r"\b(?:sk|tvly|rk|pk)-[A-Za-z0-9_\-*]{6,}"
    r"|(?i:bearer)\s+[A-Za-z0-9._~+/=\-*]{6,}"
    r"|(?<=(?i:api key provided: ))\S+"
    r"|(?<=(?i:api_key=))[^\s&\"']+"
)


def old_redact(text: str) -> str:
    for secret in SECRETS:
        if secret in text:
            text = text.replace(secret, "***")
    return _OLD_ECHOED.sub("***", text)


def per_call_us(fn: Callable[[], Any], repeat: int) -> float:
    fn()
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) / repeat * 1e6


def main(repeat: int) -> None:
    new = Redactor(SECRETS)
    register(SECRETS)
    sentence = "Ставка НДС при экспорте 0 % (пп. 1 п. 1 ст. 164 НК РФ), подтверждение 180 дней. "
    tool_output = (sentence * (12_000 // len(sentence) + 1))[:12_000]
    with_key = tool_output[:6_000] + SECRETS[0][8:].upper() + tool_output[6_000:]
    log_event = "orchestrator_llm_failed error_kind=AuthenticationError request_id=req_1"
    generation = ChatGeneration(message=AIMessage(tool_output[:2_000]))
    patch = {
        "ops": [
            {
                "op": "add",
                "path": "/logs/ChatOpenAI/final_output",
                "value": LLMResult(generations=[[generation]]),
            }
        ]
    }
    serializer = make_serializer()
    rows = [
        (
            "12 000-char tool output",
            lambda: new.redact(tool_output),
            lambda: old_redact(tool_output),
        ),
        (
            "12 000-char output with a key run",
            lambda: new.redact(with_key),
            lambda: old_redact(with_key),
        ),
        ("short log event", lambda: new.redact(log_event), lambda: old_redact(log_event)),
        (
            "stream_log patch (2 000 chars)",
            lambda: serializer.dumps(patch),
            lambda: orjson.dumps(patch, default=graph_objects),
        ),
    ]
    print(f"{'case':36} {'new µs':>10} {'old µs':>10} {'new/old':>8}")
    for name, fresh, old in rows:
        a, b = per_call_us(fresh, repeat), per_call_us(old, repeat)
        print(f"{name:36} {a:10.1f} {b:10.1f} {a / b:8.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    main(parser.parse_args().repeat)
