"""The LLM extractor: a deadline or пени question read by a chat model into a
:class:`CalcRequest`, with structured output.

The schema the model fills (:func:`reading_schema`) is the part of the request the
calculators use, with the period table's row ids as an enum and bounded lists; the prompt
(``prompts/calc_extract.md``) lists the rows by id and meaning, generated from the table.
The rule extractor stays the referee (finagent/answering/calc_referee.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, create_model

from finagent.clients.structured import invoke_structured
from finagent.legal.calc_request import (
    CalcRequest,
    Missing,
    Payer,
    RoledAmount,
    RoledDate,
    StatedPeriod,
)
from finagent.legal.deadlines import plural
from finagent.legal.periods import ProceduralPeriod, procedural_periods
from finagent.prompts import load_prompt

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.language_models import BaseChatModel

SCHEMA_NAME = "CalcReading"
MAX_DATES = 12
MAX_AMOUNTS = 8


def _row_line(row: ProceduralPeriod) -> str:
    if row.decline:  # the table states why in English: the model reads it as it is
        return f"- {row.id}: не рассчитывается — {row.decline}"
    period = plural(row.period, row.unit)
    after = f"; начинается после срока строки {row.after}" if row.after else ""
    return f"- {row.id}: {row.what} — {period}; от события: {row.event}{after}; {row.norm}"


@cache
def rows_listing() -> str:
    """The period table as the prompt lists it: one line per row, id first."""
    return "\n".join(_row_line(row) for row in procedural_periods())


def extraction_prompt(today: date) -> str:
    return load_prompt("calc_extract").format(today=f"{today:%d.%m.%Y}", rows=rows_listing())


@cache
def reading_schema() -> type[BaseModel]:
    """The model the LLM fills: the request's computed fields, row ids as an enum."""
    row_id: Any = Literal[tuple(r.id for r in procedural_periods())]  # type: ignore[valid-type]
    fields: dict[str, Any] = {
        "kind": (
            Literal["deadline", "penalty"] | None,
            Field(description=CalcRequest.model_fields["kind"].description),
        ),
        "row_id": (
            row_id | None,
            Field(
                default=None,
                description="The id of the table row the asked deadline is; null when none "
                "fits or the question asks for пени.",
            ),
        ),
        "chain_from": (
            row_id | None,
            Field(default=None, description=CalcRequest.model_fields["chain_from"].description),
        ),
        "period": (
            StatedPeriod | None,
            Field(default=None, description=CalcRequest.model_fields["period"].description),
        ),
        "dates": (
            list[RoledDate],
            Field(
                default_factory=list, max_length=MAX_DATES, description="Every date, with its role."
            ),
        ),
        "amounts": (
            list[RoledAmount],
            Field(
                default_factory=list,
                max_length=MAX_AMOUNTS,
                description="Every amount of money, with its role.",
            ),
        ),
        "late_days": (
            int | None,
            Field(
                default=None,
                ge=1,
                le=36500,
                description=CalcRequest.model_fields["late_days"].description,
            ),
        ),
        "payer": (
            Payer | None,
            Field(default=None, description=CalcRequest.model_fields["payer"].description),
        ),
        "missing": (
            list[Missing],
            Field(
                default_factory=list,
                max_length=6,
                description=CalcRequest.model_fields["missing"].description,
            ),
        ),
    }
    model: type[BaseModel] = create_model(  # type: ignore[call-overload]
        SCHEMA_NAME,
        __doc__="A deadline or пени question read for the calculators; unknown fields empty.",
        **fields,
    )
    return model


def request_of(reading: BaseModel) -> CalcRequest:
    """The :class:`CalcRequest` of the LLM's reading (its confidence is not the model's)."""
    data = reading.model_dump()
    assumed = sorted({d["day"].year for d in data["dates"] if d["year_assumed"]})
    return CalcRequest(
        kind=data["kind"],
        row_id=data["row_id"],
        chain_from=data["chain_from"],
        period=data["period"],
        dates=data["dates"],
        amounts=data["amounts"],
        late_days=data["late_days"],
        payer=data["payer"],
        missing=list(dict.fromkeys(data["missing"])),
        assumptions=[f"год не указан: принят {year} год" for year in assumed],
    )


@dataclass(frozen=True)
class LlmReader:
    """A chat model that reads calc questions, and its structured-output method."""

    llm: BaseChatModel
    method: str = "json_schema"
    keep_limits: bool = False  # the provider accepts the schema's length limits


async def llm_calc_request(
    llm: BaseChatModel, question: str, today: date, method: str, keep_limits: bool = False
) -> CalcRequest:
    """The LLM's reading of ``question``; raises ``StructuredOutputError`` (redacted) when
    the call fails or the reply is not a valid reading."""
    messages = [SystemMessage(extraction_prompt(today)), HumanMessage(question)]
    reading, _ = await invoke_structured(
        llm, reading_schema(), messages, method, keep_limits=keep_limits
    )
    return request_of(reading)
