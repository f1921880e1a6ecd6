"""The typed ``Question`` built once per turn and read by routing, calculators and answers."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from finagent.language.dates import AsOfSource
from finagent.language.spans import (
    DateMention,
    Identifier,
    Money,
    MonthMention,
    Organisation,
    Percent,
    Period,
    YearMention,
)
from finagent.question.asked import AskedAttribute
from finagent.question.parts import AskedPart
from finagent.question.tables import AnswerType


class DocumentMatch(BaseModel):
    """A user document the question names, and by what («тип», «номер», «контрагент» …)."""

    document_id: str
    title: str
    reasons: list[str]


class Question(BaseModel):
    text: str
    answer_type: AnswerType
    answer_types: list[AnswerType]  # every type asked, in the order asked
    taxes: list[str]  # keys of finagent.question.tables.TAXES, in the order named
    fields: list[str]  # document fields and roles (finagent.cards.fields), in the order named
    as_of: date
    as_of_source: AsOfSource
    # the turn's own date (the ``today`` given to ``build_question``); None for a question
    # built elsewhere, which then means today in Moscow
    asked_on: date | None = None
    lemmas: list[str]
    topic: list[str]  # content lemmas (no question words)
    money: list[Money] = Field(default_factory=list)
    percents: list[Percent] = Field(default_factory=list)
    periods: list[Period] = Field(default_factory=list)
    dates: list[DateMention] = Field(default_factory=list)
    years: list[YearMention] = Field(default_factory=list)
    months: list[MonthMention] = Field(default_factory=list)
    identifiers: list[Identifier] = Field(default_factory=list)
    organisations: list[Organisation] = Field(default_factory=list)
    documents: list[DocumentMatch] = Field(default_factory=list)
    attributes: list[AskedAttribute] = Field(default_factory=list)  # «какой ОГРН» → ОГРН
    names: list[str] = Field(default_factory=list)  # capitalised names, as written
    several: bool = False  # «какие ставки», «каковы сроки»: several values are asked
    # «какой налоговый бонус», «какие суточные»: the noun phrase of the value asked, in the
    # nominative, when its head noun names the asked type (finagent.question.tables.HEAD_VALUES)
    head: str | None = None
    # «какая гарантия», «какая франшиза»: the noun phrase after «какой», in the nominative,
    # when it names no value type (the question is typed procedure or unknown); the
    # direct lead names it when the quoted sentence states one kind of value for it
    open_head: str | None = None
    # «сколько длится … и до скольких месяцев продлевают?»: each asked part, when several
    parts: list[AskedPart] = Field(default_factory=list)
    # the edition of a contract asked: «теперь» — as amended, «до допсоглашения» — original
    revision: Literal["amended", "original"] | None = None
    # «сколько квадратных метров»: the unit of measure a count is asked in (its lemma)
    unit: str | None = None
    # the asking clause speaks of the speaker's own affairs or of an act already done
    # («кому мы отгрузили», «банк начислил»): a fact of the user's records, not a rule
    of_record: bool = False
    # both: an act of the speaker's own («сколько мы заплатили», «какой налог у нас вышел»)
    own_act: bool = False
    # the asking clause is in the first person («какой налог у нас вышел», not «продаю
    # квартиру … Какой доход посчитают?»)
    own_asked: bool = False
    # the asking clause asks of an act already done (a finite verb in the past)
    done: bool = False
    # … and asks its outcome as it turned out («какой штраф в итоге начислила ИФНС»,
    # «сколько фактически перечислили»): a realised fact, which a rule does not state
    realised: bool = False
    # … or asks, with no such cue, the date or the sum of an act done («когда Роспатент
    # зарегистрировал переход», «сколько мы заплатили по счёту-фактуре 77»): in the
    # user's documents, a record states it, a term or a warning does not
    event: bool = False
    # the question asks yes or no («НДС по договору есть?», «капают ли проценты?»,
    # «… начислять или нет?»): finagent.question.polar; the lead then states the verdict a
    # document's clause settles (finagent.answering.polar_answer)
    polar: bool = False

    @property
    def tax(self) -> str | None:
        return self.taxes[0] if self.taxes else None

    @property
    def subject(self) -> str | None:
        """What the question is about: the tax it names, else the first document field."""
        return self.tax or (self.fields[0] if self.fields else None)
