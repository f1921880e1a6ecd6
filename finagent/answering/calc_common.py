"""What every calc answer shares: the outcome type, tool names and number formats."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

DEADLINE_TOOL = "Req_Calculate_Deadline_For_Events"
PENALTY_TOOL = "Req_Calculate_Penalty_For_Payments"
CALC_TOOL = "calc"

# answer: one computed value; variants: every reading computed, none claimed; clarify: a
# question back naming what is missing; decline: not computed, said why; not_calc:
# nothing to compute here (the knowledge base answers instead)
Mode = Literal["answer", "variants", "clarify", "decline", "not_calc"]


@dataclass
class CalcOutcome:
    markdown: str
    ok: bool
    debug: dict[str, Any] = field(default_factory=dict)
    mode: Mode = "answer"

    @property
    def parsed(self) -> bool:
        """Whether the calculators had something to do (else the knowledge base answers)."""
        return self.mode != "not_calc"


def ru_day(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%d.%m.%Y")


def money(text: str) -> str:
    whole, _, frac = text.partition(".")
    grouped = f"{int(whole):,}".replace(",", " ")
    return f"{grouped},{frac or '00'} руб."


def assumption_lines(items: list[str]) -> str:
    return "\n".join(f"> Допущение: {a}." for a in items)
