"""A scripted LLM extractor for the calc evaluation (no network, no key).

``agree`` replies with the rule extractor's own reading of each question, so the figures
must equal the offline run; ``perturb`` changes that reading on purpose (another row with
another period, another event date, another amount or payment date) to show that a
disagreeing LLM never turns into a confident wrong answer: the referee computes both
readings or asks back.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable

from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.calc_llm import SCHEMA_NAME
from finagent.legal.calc_request import CalcRequest
from finagent.legal.periods import period_by_id, procedural_periods

ReaderMode = Literal["agree", "perturb"]
READING_FIELDS = (
    "kind",
    "row_id",
    "chain_from",
    "period",
    "dates",
    "amounts",
    "late_days",
    "payer",
    "missing",
)


def reading_args(req: CalcRequest) -> dict[str, Any]:
    """The rule extractor's request as the LLM schema's arguments."""
    return req.model_dump(mode="json", include=set(READING_FIELDS))


def _other_row(row_id: str, seed: int) -> str:
    row = period_by_id()[row_id]
    others = [
        r.id
        for r in procedural_periods()
        if not r.decline and r.period > 0 and (r.period, r.unit) != (row.period, row.unit)
    ]
    return others[seed % len(others)]


def _shift(args: dict[str, Any], role: str) -> bool:
    shifted = False
    for dated in args["dates"]:
        if dated["role"] == role:
            dated["day"] = (date.fromisoformat(dated["day"]) + timedelta(days=1)).isoformat()
            shifted = True
    return shifted


def perturbed(args: dict[str, Any], seed: int) -> dict[str, Any]:
    """``args`` with one thing the calculation uses changed (which one by ``seed``)."""
    if args["kind"] == "deadline":
        if seed % 2 == 0 and args["row_id"]:
            args["row_id"] = _other_row(args["row_id"], seed // 2)
        elif not _shift(args, "asked_event") and args["row_id"]:
            args["row_id"] = _other_row(args["row_id"], seed // 2)
    elif args["kind"] == "penalty":
        arrears = [a for a in args["amounts"] if a["role"] == "arrears"]
        if seed % 2 == 0 and arrears:
            arrears[0]["value"] = str(2 * float(arrears[0]["value"]))
        elif not _shift(args, "payment") and arrears:
            arrears[0]["value"] = str(2 * float(arrears[0]["value"]))
    return args


class ScriptedCalcReader(BaseChatModel):
    """Answers the calc extraction call with a reading computed from the question."""

    mode: ReaderMode = "agree"
    today: date

    @property
    def _llm_type(self) -> str:
        return "scripted-calc-reader"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        question = str(messages[-1].content)
        args = reading_args(extract_calc_request(question, self.today))
        if self.mode == "perturb":
            args = perturbed(args, zlib.crc32(question.encode("utf-8")))
        call = {"name": SCHEMA_NAME, "args": args, "id": "call_calc"}
        return ChatResult(generations=[ChatGeneration(message=AIMessage("", tool_calls=[call]))])

    def bind_tools(  # type: ignore[override]
        self, tools: Sequence[Any], **kwargs: Any
    ) -> Runnable[Any, BaseMessage]:
        return self

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        for key in ("method", "strict", "tool_choice"):
            kwargs.pop(key, None)
        return super().with_structured_output(schema, **kwargs)
