"""``build_card``: read a document once and return its card (runs at ingestion, off the loop)."""

from __future__ import annotations

from finagent.cards import facts as F
from finagent.cards.doc_types import BY_KEY, GENERIC, DocType
from finagent.cards.form_box import boxed_number
from finagent.cards.model import DocumentCard
from finagent.cards.parties import parties_in
from finagent.cards.table_facts import bare_amounts, label_table_facts
from finagent.cards.tables import table_cells
from finagent.cards.title import Heading, doc_type_of, heading_of, strip_markdown
from finagent.cards.unwrap import joined
from finagent.cards.vocabulary import MAX_CODES, vocabulary_of, written_codes
from finagent.language.dates import dates_in
from finagent.language.identifiers import identifiers_in
from finagent.language.lemmas import lemma
from finagent.language.money import money_in
from finagent.language.organisations import organisations_in
from finagent.language.percents import percents_in
from finagent.language.periods import periods_in
from finagent.language.persons import persons_in
from finagent.language.spans import DateMention, Identifier
from finagent.language.text import Sentence, analyse

_FORM_LINES = 3  # a form's own number is stated this many lines under its heading at most
_OPENING_SENTENCES = 8  # the document's own number and date are stated before this
# a card reads this much (about 3 s of one core); facts further into a longer upload are not
# carded, the document itself is still searched in full
MAX_CARD_CHARS = 300_000


def _title(heading_title: str | None, given: str, doc_type: DocType | None) -> str:
    if heading_title:
        return heading_title
    if doc_type is not None:
        return doc_type.name[:1].upper() + doc_type.name[1:]
    return strip_markdown(given) or given


def _form_number(text: str, heading: Heading, numbers: list[Identifier]) -> Identifier | None:
    """A form whose heading line has no number states it on a line of its own below:
    «Счёт-фактура № 318 от 03 марта 2025 г.» under «Универсальный передаточный документ».
    Only a line that starts with a kind of document counts (not «заключён договор № …»)."""
    lines_end = heading.end
    for _ in range(_FORM_LINES):
        start = lines_end + 1
        lines_end = text.find("\n", start)
        if lines_end < 0:
            lines_end = len(text)
        line = text[start:lines_end]
        lemmas = tuple(lemma(t.text) for s in analyse(line).sentences for t in s.tokens)
        if lemmas and doc_type_of(lemmas, 0) is not None:
            return next((i for i in numbers if start <= i.start < lines_end), None)
    return None


def _own_number_and_date(
    heading: Heading, numbers: list[Identifier], dates: list[DateMention], opening_end: int
) -> tuple[Identifier | None, DateMention | None]:
    """The document's own number and date: those of its heading line («Договор № К-07/2025»),
    the date on the line after the heading («г. Тверь — 14 апреля 2025 г.»); a letterhead's
    «Исх. № 77/25 от 15.04.2025» above the heading is the letter's, and a continuation line
    («к договору № 118/П-2025 от 5 июня 2025 г.») names another document."""
    if heading.start >= 0:
        number = next((i for i in numbers if heading.start <= i.start < heading.line_end), None)
        date = next((d for d in dates if heading.start <= d.start < heading.line_end), None)
        # «Дата составления: …», «Дата формирования: …» name the document's date
        date = date or next(
            (
                d
                for d in dates
                if heading.end <= d.start < opening_end and "дата" in d.sentence.text.lower()
            ),
            None,
        )
        date = date or next((d for d in dates if d.start >= heading.end), None)
        if number is not None or date is not None:
            return number, date
    number = next((i for i in numbers if i.start < opening_end), None)
    opening_dates = [d for d in dates if d.start < opening_end]
    # «Дата составления: …», «Дата формирования: …» name the document's date
    date = next(
        (d for d in opening_dates if "дата" in d.sentence.text.lower()),
        opening_dates[0] if opening_dates else None,
    )
    return number, date


def _number_value(number: Identifier | None, heading: Heading, text: str) -> str | None:
    """The number on the heading line, else a form's «Номер документа» box, else the number
    found in the opening (which may be an approval note's «от … № 7»)."""
    if number is not None and heading.start <= number.start < heading.line_end:
        return number.value
    return boxed_number(text) or (number.value if number else None)


def _kind_name(heading: Heading, doc_type: DocType | None) -> str | None:
    """A contract's kind as its heading says it («кредитный договор», «договор перевозки»)."""
    if doc_type is None:
        return None
    if doc_type.key == GENERIC and heading.phrase is not None:
        return heading.phrase.name
    return doc_type.name


def build_card(document_id: str, title: str, text: str) -> DocumentCard:
    text = text[:MAX_CARD_CHARS]
    analysed = analyse(joined(text))
    heading = heading_of(text)
    doc_type = heading.doc_type
    if doc_type is None:
        given = analyse(strip_markdown(title))
        doc_type = doc_type_of(tuple(t.lemma for s in given.sentences for t in s.tokens))
    identifiers = identifiers_in(analysed)
    organisations = organisations_in(analysed)
    persons = persons_in(analysed)
    dates = dates_in(analysed)
    opening_end = (
        analysed.sentences[min(_OPENING_SENTENCES, len(analysed.sentences)) - 1].sentence.end
        if analysed.sentences
        else 0
    )
    numbers = [i for i in identifiers if i.label == "number"]
    # «Унифицированная форма № ОС-1» numbers the form, not the document
    own_numbers = [i for i in numbers if i.of != "форма"]
    number, doc_date = _own_number_and_date(heading, own_numbers, dates, opening_end)
    if number is None and heading.start >= 0:
        number = _form_number(text, heading, numbers)
    cells = table_cells(text)
    money = money_in(analysed)
    money += bare_amounts(analysed, cells, money)
    facts = [
        *F.amount_facts(analysed, money),
        *F.rate_facts(analysed, percents_in(analysed)),
        *F.date_facts(analysed, dates),
        *F.term_facts(analysed, periods_in(analysed)),
        *F.number_facts(identifiers),
    ]
    label_table_facts(facts, cells)
    for fact in facts:  # as written: a value or sentence read across a joined line break
        fact.text = text[fact.start : fact.end]
        start, end = fact.sentence.start, fact.sentence.end
        fact.sentence = Sentence(text=text[start:end], start=start, end=end)
    for fact in facts:
        if doc_date is not None and fact.kind == "date" and fact.start == doc_date.start:
            fact.field = "signed"
    facts.sort(key=lambda fact: fact.start)
    return DocumentCard(
        document_id=document_id,
        title=_title(heading.title, title, doc_type),
        doc_type=doc_type.key if doc_type else None,
        doc_type_name=_kind_name(heading, doc_type),
        kind_cues=list(doc_type.cues) if doc_type and doc_type.key not in BY_KEY else [],
        number=_number_value(number, heading, text),
        references=list(
            dict.fromkeys(
                i.value
                for i in numbers
                if heading.line_end <= i.start < heading.end and i is not number
            )
        ),
        date=doc_date.value.isoformat() if doc_date else None,
        parties=parties_in(analysed, organisations, persons, identifiers),
        facts=facts,
        organisations=list(dict.fromkeys(f"{o.legal_form} «{o.name}»" for o in organisations)),
        persons=list(dict.fromkeys(p.name for p in persons)),
        vocabulary=vocabulary_of(analysed),
        codes=written_codes(text)[:MAX_CODES],
    )
