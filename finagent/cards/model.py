"""The card of one document: what it is, who the parties are, and its labelled facts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from finagent.language.text import Sentence

# 21: a heading under the order that approved it («УТВЕРЖДЁН приказом …») or under its
# issuing body's name («МЕЖРАЙОННАЯ ИНСПЕКЦИЯ … № 17» over «АКТ … № 12-19/47»); the codes
# its text writes («HT-520»);
# 20: a cell's figure with a minus is a (negative) amount; a role of several words
# («Новый должник»);
# 19: a line ending in an abbreviation of what follows («г. Уфа, пр.» / «Октября, д. 3»,
# «ул.», «ст.»; not right after a figure: «2025 г.») goes on into the next; 18: one reader
# of wrapped lines (cards.unwrap): a party's requisites after a comma, a line opening with
# «%» or «№», a form's aligned label going on in lower case are joined;
# a sentence ends at «и т.д.» or a surname's initials before a capital; 17: a line ending
# in a dotted abbreviation («в т.ч.», «т.е.») continues into the next;
# 16: institutions as parties («Муниципальное … учреждение», «МОУ»), a participle as a
# role («именуемое в дальнейшем «Одаряемый»»); 15: a prepositional cue yields to the noun
# before it («испытанием на срок»); 14: a kind of sheet as a heading («ПУТЕВОЙ ЛИСТ
# № 0872»); 13: two-digit years in the POSIX window («18.08.98» is 1998); 12: a form
# named only by a line in capitals («ПРИХОДНЫЙ КАССОВЫЙ ОРДЕР»); 11: a form's heading
# beside its number box; 10: the bonus field; 9: a PDF's row «label figure»; 8: headings
# dated or under an approval note, form number boxes
CARD_VERSION = 21

FactKind = Literal["amount", "rate", "date", "term", "number", "identifier"]


class Fact(BaseModel):
    """One value found in the document, labelled with the field it most likely fills."""

    field: str  # a key of finagent.cards.fields (rent, vat, payment_term …) or "other"
    kind: FactKind
    value: str  # normalised for display: «297 200 руб.», «10 рабочих дней», «2025-01-15»
    text: str  # as written
    start: int
    end: int
    sentence: Sentence
    per: str | None = None  # «month» for «в месяц», «ежемесячно»
    party: str | None = None  # identifiers: the role of the party they belong to
    label: str | None = None  # a table cell's row label and column header


class Party(BaseModel):
    role: str  # a role key of finagent.cards.fields (landlord, buyer …) or "party"
    name: str  # «АО «СеверСтройИнвест»», «Иванов Иван Иванович»
    legal_form: str | None = None
    inn: str | None = None
    kpp: str | None = None
    representative: str | None = None
    sentence: Sentence


class DocumentCard(BaseModel):
    document_id: str
    version: int = CARD_VERSION
    title: str
    doc_type: str | None  # a key of finagent.cards.doc_types, else its heading's lemmas
    doc_type_name: str | None
    # phrases that name its kind when no listed kind does: «платёжное поручение», «поручение»
    kind_cues: list[str] = Field(default_factory=list)
    number: str | None = None
    # numbers its heading gives of other documents: «к договору поставки № 118/П-2025»
    references: list[str] = Field(default_factory=list)
    date: str | None = None  # ISO date of the document
    parties: list[Party] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    organisations: list[str] = Field(default_factory=list)
    persons: list[str] = Field(default_factory=list)
    # lemmas of its words (``finagent.cards.vocabulary``): what the document speaks of
    vocabulary: list[str] = Field(default_factory=list)
    # the codes its text writes without a number sign (``finagent.cards.vocabulary``): a
    # model's or an article's («HT-520», «R750»), as written
    codes: list[str] = Field(default_factory=list)

    def values(self, field: str) -> list[Fact]:
        """Every fact labelled ``field``: two candidates are both returned, never one picked."""
        return [fact for fact in self.facts if fact.field == field]

    def parties_with(self, role: str) -> list[Party]:
        return [party for party in self.parties if party.role == role]
