"""What a deadline or пени question asks the calculators, as one typed request.

The rule extractor (:func:`finagent.legal.calc_extract.extract_calc_request`) fills it
from the question; an LLM with structured output can fill the same model (the field
descriptions are written for it). The calc node reads it once and computes from it.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

from finagent.legal.deadlines import Unit

DateRole = Literal["asked_event", "other_event", "due", "payment"]
AmountRole = Literal["arrears", "other"]
Payer = Literal["organization", "individual"]
Missing = Literal["event_date", "procedure", "amount", "due_date", "payment_date", "payer"]


class RoledDate(BaseModel):
    """A date of the question and what it is to the calculation."""

    day: date = Field(description="The calendar day, ISO 8601 (YYYY-MM-DD).")
    role: DateRole = Field(
        description=(
            "asked_event: the event the asked period runs from (for a deadline); "
            "other_event: any other dated step of the story; due: the day a tax was due "
            "(for пени); payment: the day the arrears were paid (for пени)."
        )
    )
    text: str = Field(default="", description="The date exactly as the question writes it.")
    year_assumed: bool = Field(
        default=False, description="True when the question wrote the date without a year."
    )


class RoledAmount(BaseModel):
    """An amount of money in the question."""

    value: Decimal = Field(description="The amount in roubles, e.g. 1200000 for «1,2 млн».")
    role: AmountRole = Field(
        description="arrears: the unpaid tax the пени are charged on; other: any other sum."
    )
    text: str = Field(default="", description="The amount exactly as the question writes it.")


class StatedPeriod(BaseModel):
    """A period the question states itself («в течение 20 дней», «продлили до 4 месяцев»)."""

    count: int = Field(ge=1, description="The number of units.")
    unit: Unit = Field(
        description="days (calendar days), working_days (plain «дней» of the Tax Code), "
        "months or years."
    )
    how: Literal["stated", "extended_to", "extended_by"] = Field(
        default="stated",
        description="stated: the question gives the period; extended_to: the period was "
        "extended to this length; extended_by: it was extended by this length.",
    )


class CalcRequest(BaseModel):
    """One deadline (art. 6.1) or пени (art. 75) question, read for the calculators."""

    kind: Literal["deadline", "penalty"] | None = Field(
        description="deadline: the question asks for a last day; penalty: for an amount of "
        "пени; null: it asks for neither."
    )
    row_id: str | None = Field(
        default=None,
        description="The id of the procedural period (period table row) the asked "
        "deadline is, or null when none fits.",
    )
    variants: list[str] = Field(
        default_factory=list,
        description="Other row ids the question fits equally, with other periods: the "
        "answer shows each reading and asks which applies.",
    )
    cited_rows: list[str] = Field(
        default_factory=list,
        description="When the question cites an article (or a document under it) that has "
        "no period for the asked action («Решение по ст. 101 …, когда уплатить налог?»): "
        "that article's row ids; row_id is null then and the answer names them and asks "
        "which period is meant.",
    )
    chain_from: str | None = Field(
        default=None,
        description="A row whose period ends where the asked row's period starts, when "
        "the question dates that row's event instead («акт получен …, когда решение?»).",
    )
    period: StatedPeriod | None = Field(
        default=None,
        description="A period the question states itself, or an extension it states.",
    )
    dates: list[RoledDate] = Field(default_factory=list, description="Every date, with its role.")
    amounts: list[RoledAmount] = Field(
        default_factory=list, description="Every amount of money, with its role."
    )
    late_days: int | None = Field(
        default=None, description="Days of delay the question states («уплатили на 40 дней позже»)."
    )
    payer: Payer | None = Field(
        default=None, description="Who owes the пени: organization, or individual (persons and ИП)."
    )
    assumptions: list[str] = Field(
        default_factory=list,
        description="What was assumed, in Russian, e.g. «год не указан: принят 2025 год».",
    )
    confidence: float = Field(
        default=0.0, ge=0.0, le=1.0, description="How sure the reading is, 0 to 1."
    )
    missing: list[Missing] = Field(
        default_factory=list,
        description="What the calculation needs and the question does not give.",
    )
    decline: str | None = Field(
        default=None,
        description="Why the calculators must not answer: a declined row's id, "
        "«jurisdiction:<country>» for another country's rules, «other_law» for a debt or "
        "deadline of another branch of law (a contract, housing, a fine under КоАП, "
        "labour), «period_conflict» when the question names another period than the row's.",
    )

    def dated(self, role: DateRole) -> list[RoledDate]:
        return [d for d in self.dates if d.role == role]

    @property
    def event_date(self) -> date | None:
        found = self.dated("asked_event")
        return found[0].day if found else None

    @property
    def arrears(self) -> Decimal | None:
        found = [a.value for a in self.amounts if a.role == "arrears"]
        return found[0] if found else None
