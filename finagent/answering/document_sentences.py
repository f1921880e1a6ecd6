"""Sentences of the user's documents for a question no card field answers.

The learned ranker is trained on Tax Code and knowledge-base sentences; in a contract it
prefers a letterhead line or a heading as readily as a clause. For a question about the
user's documents the sentence to quote is the one of the named document (else any user
document) that states a value of the asked type and shares most content words with the
question; the ranker's score only breaks ties.

The words that name the document (its title, its parties' names, its numbers) tell which
document is meant, not which clause: they are no evidence for a clause, and the
requisites, the preamble's party introductions and the document's own date line are not
clauses at all, except for a question about a party. The retrieved passages of a named
document are often its opening (its name brings them): every sentence of the named
document is a candidate (:func:`whole_document_candidates`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources

from finagent.answering.amendments import states_changed_terms, superseded
from finagent.answering.answer_kinds import (
    asks_moment,
    asks_unit_price,
    bounds_value,
    states_asked_count,
    states_condition,
    states_count,
    states_unit_price,
)
from finagent.answering.asked_acts import asked_acts
from finagent.answering.context import AnswerContext
from finagent.answering.date_bounds import (
    asked_bound,
    asked_bounds,
    asks_lasting,
    asks_recurring_day,
    bounded_dates,
    deadline_dates,
    event_dates,
    states_span,
)
from finagent.answering.document_choice import chosen_documents, decided_documents, retrieved_ids
from finagent.answering.evidence import FULL, Candidate, sentences_of
from finagent.answering.labelled_value import labels_a_value
from finagent.answering.named_person import asked_persons, names_person
from finagent.answering.named_words import (
    asked_rows,
    dated_words,
    ordinal_words,
    row_number,
    spelled_out,
)
from finagent.answering.row_totals import asks_total, total_label
from finagent.answering.row_units import fitting_cells
from finagent.answering.sentence_profile import SentenceProfile, profile, states_type
from finagent.cards.header_units import measure_name
from finagent.cards.model import DocumentCard
from finagent.cards.sentence_vectors import sentence_key
from finagent.cards.tables import row_cells, word_row
from finagent.cards.unwrap import joined
from finagent.language.compounds import compounds_named
from finagent.language.lemmas import nouns_by_adjective
from finagent.language.synonyms import by_root, by_synonym
from finagent.language.text import analyse
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.state import Chunk, Source
from finagent.yaml_data import load_yaml

_MIN_WORDS = 4  # «18-Н · тел. …», «ДОГОВОР № 5»: fragments, not clauses
# the requisites and the preamble's introduction of a party: «ИНН …, КПП …, именуемое в
# дальнейшем «Заёмщик», в лице …», «тел. …», «e-mail: …»
_REQUISITE_LEMMAS = frozenset(
    {"инн", "кпп", "огрн", "огрнип", "бик", "именовать", "именуемый", "тел", "e-mail", "email"}
)
# the words a question names its kind of value by («по какое число», «какая дата», «в
# какой срок»): every clause with a term says «срок» («после установленного срока»), so
# they tell no clause apart
_VALUE_WORDS = {"date": frozenset({"число", "дата"}), "period": frozenset({"срок"})}
# the e5 similarity to the question, in shared content lemmas per SEMANTIC_UNIT of cosine
# below the best sentence («завершить работы» — «Окончание работ — …» share no lemma)
SEMANTIC_WEIGHT = 0.25
SEMANTIC_UNIT = 0.05
# an asked lemma only a clause's section heading names, in shared lemmas of its own
HEADING_WEIGHT = 0.5
# an asked lemma a form's label names («Срок действия аккредитива | по 30 июня …»), counted
# once more: the label says what its value is; a word of the value cell may speak of
# another thing («… | не позднее 25 июня, но в пределах срока действия аккредитива»)
LABEL_WEIGHT = 0.5
# a table row naming the person the question names («…; ФИО: Ильина Н. В.; Оплата, руб.:
# …») and an asked word is that person's record: its value of the asked type outranks a
# clause that names them beside another figure (their salary in a transfer clause), or
# another person's row of the same table, by this much value level
ROW_OF_PERSON = 0.5
_ROW_CELLS = 3  # a table row as «header: value; …» of three cells or more
_HEADER_WORDS = 6  # a column header longer than this, or with a full stop, is prose
# a full stop in a header: a point before a capital («… оплачено. Итого»), not an
# abbreviation's («Продолжительность, кал. дн.», «в т.ч. НДС»)
_SENTENCE_END = re.compile(r"[.!?]\s+[А-ЯЁA-Z]")
# a total row of a table, in shared words: below the rows it sums unless a total is asked
TOTAL_ROW = 0.5
# a clause whose figure an asked noun labels: how far below the best clause's shared words
LABELLED_SLACK = 0.5
# a clause of a supplement beyond the agreed terms the question does not name («сверх
# указанных», ``data/supplement_terms.yaml``), in shared words: after the term itself
SUPPLEMENT = 0.5
# the cascade's key of a document sentence (:func:`document_order_keys`)
OrderKey = tuple[bool, bool, float, float, int, float]
_CELL = " | "  # the cell delimiter of a Word table's row as the loader flattens it

# a section's heading line: «4. ПОРЯДОК РАСЧЁТОВ», «Срок действия договора», «## Оплата»,
# «Раздел 3. Цена договора»; a clause «4.2. …», a table row or a list item is none
_HEADING_MARK = re.compile(r"^(?:#{1,6}\s*|(?:раздел|статья)\s+\d+\.?\s*|\d{1,2}\.?\s+)", re.I)
_HEADING_WORDS = 6


def _heading(line: str) -> str | None:
    """The title of a section heading line, else None: a short line of words (no figure)
    that is numbered by a whole number, marked as a heading, in capitals or ends no
    sentence."""
    mark = _HEADING_MARK.match(line)
    title = line[mark.end() :] if mark else line
    words = title.split()
    if not words or len(words) > _HEADING_WORDS or any(ch.isdigit() for ch in title):
        return None
    if not title[0].isupper() or title.endswith((",", ";", ":")):
        return None
    letters = [ch for ch in title if ch.isalpha()]
    capitals = sum(ch.isupper() for ch in letters) > 0.6 * len(letters)
    return title if mark or capitals or not title.endswith((".", "!", "?")) else None


def section_headings(text: str) -> tuple[list[int], list[str]]:
    """:func:`_section_headings`, remembered by text (lists of the caller's own)."""
    starts, titles = _section_headings(text)
    return list(starts), list(titles)


@lru_cache(maxsize=256)  # by document text, read again for every question on it: bounded
def _section_headings(text: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The start offsets of the lines after each section heading of a document, in its
    text with whitespace collapsed (a wrapped line's reader,
    :func:`finagent.cards.unwrap.joined`, may join an unnumbered heading to the line after
    it), and each heading's title. An unnumbered, uncapitalised heading is followed
    by a line that opens a sentence (not a wrapped line going on in lower case)."""
    lines = [" ".join(raw.split()) for raw in text.splitlines()]
    lines = [line for line in lines if line]
    starts: list[int] = []
    titles: list[str] = []
    offset = 0
    for i, line in enumerate(lines):
        title = _heading(line)
        offset += len(line) + 1
        following = lines[i + 1] if i + 1 < len(lines) else ""
        plain = title is not None and not _HEADING_MARK.match(line) and not line.isupper()
        if title is not None and (not plain or following[:1].isupper() or following[:1].isdigit()):
            starts.append(offset)
            titles.append(title)
    return tuple(starts), tuple(titles)


@lru_cache(maxsize=16_384)  # by sentence text, asked again for every question: bounded
def _clause(sentence: str) -> bool:
    """A sentence of the text, not a fragment or a heading in capitals."""
    words = sum(1 for word in sentence.split() if any(map(str.isalpha, word)))
    letters = "".join(filter(str.isalpha, sentence))
    capitals = sum(map(str.isupper, letters)) > 0.6 * len(letters)
    return words >= _MIN_WORDS and not capitals


def requisites(p: SentenceProfile, sentence: str) -> bool:
    """A requisites or party-introduction line: identifiers, «именуемое», contacts."""
    return bool(p.lemmas & _REQUISITE_LEMMAS) or "@" in sentence


def named_ids(question: Question, cards: Sequence[DocumentCard] = ()) -> list[str]:
    """The documents the question names by the most reasons («доверенность на Зуева»: the
    power of attorney, by type and person, not an act naming him), told apart by the
    question's other words (:mod:`finagent.answering.document_choice`)."""
    if not question.documents:
        return []
    return chosen_documents(question, cards)


def answer_documents(
    question: Question, chunks: Sequence[Chunk], cards: Sequence[DocumentCard] = ()
) -> list[str]:
    """The documents whose every sentence is a candidate: those the question names, else
    the user document retrieval found first (its clause may be in no retrieved passage) or
    one the question's words fit clearly better."""
    return chosen_documents(question, cards, retrieved_ids(chunks))


def _core(name: str) -> str:
    """«АО «КБ «Вектор-Финанс»»» -> «Вектор-Финанс»: the innermost quoted name."""
    return name.rsplit("«", 1)[-1].strip('»" ') if "«" in name else name


def naming_lemmas(question: Question, cards: Sequence[DocumentCard]) -> frozenset[str]:
    """Lemmas by which the question names its documents: the whole name of a party or
    organisation of the card (all its words: «Ладога Финанс»; one word of «Центр экспертизы
    металлоконструкций» is not its name) or a person's surname."""
    named = set(named_ids(question))
    asked = set(question.lemmas)
    out: set[str] = set()
    for card in cards:
        if card.document_id not in named:
            continue
        for name in [*card.organisations, *(party.name for party in card.parties)]:
            core = profile(_core(name)).lemmas
            if core and core <= asked:  # with its legal form: «АО», «ООО»
                out |= profile(name).lemmas & asked
        for person in card.persons:
            words = [w for w in person.replace(".", " ").split() if len(w) > 2]
            surname = profile(words[0]).lemmas if words else frozenset()
            out |= surname & asked
    return frozenset(out)


def _adjectives(asked: set[str], lemmas: frozenset[str]) -> set[str]:
    """Asked nouns the sentence names by their adjective («авансовый платёж» for «аванс»):
    they count as named."""
    return nouns_by_adjective(asked - lemmas, lemmas)


def _similarities(
    own: Sequence[Candidate], sims: Mapping[tuple[str, str], float]
) -> dict[int, float]:
    """Each candidate's e5 similarity in SEMANTIC_UNITs below the best one (0 for the best,
    negative below); a sentence without a vector counts as the least similar."""
    found = {id(c): sims.get((c.chunk.document_id or "", sentence_key(c.sentence))) for c in own}
    known = [v for v in found.values() if v is not None]
    if not known:
        return {}
    best, worst = max(known), min(known)
    return {i: ((worst if v is None else v) - best) / SEMANTIC_UNIT for i, v in found.items()}


def form_label(line: str) -> str | None:
    """The label of a Word form's line of two cells («Срок действия | по 30 июня 2026 г.»),
    None for any other sentence (prose, a table row of three cells or more, a Markdown row)."""
    if line.count(_CELL) != 1 or line.startswith(("|", "+")):
        return None
    label = line.split(_CELL, 1)[0].strip().strip("*").strip()
    return label if any(ch.isalpha() for ch in label) else None


def table_row(line: str) -> bool:
    """A table row of three cells or more: a Word row («a | b | c») or a row rendered as
    «header: value; header: value; …» (:func:`finagent.answering.evidence.sentences_of`)."""
    if word_row(line):
        return True
    cells = row_cells(line)
    headers = [header for header, value in cells if value is not None]
    return (
        len(cells) >= _ROW_CELLS
        and len(headers) == len(cells)
        and all(len(h.split()) <= _HEADER_WORDS and not _SENTENCE_END.search(h) for h in headers)
    )


def document_sentences(text: str) -> list[str]:
    """The candidate sentences of a document's full text (also embedded at ingestion): its
    lines without their indentation, every line that ends no sentence going on in the next
    (:func:`finagent.cards.unwrap.joined`, ``unended_goes_on``: a flattened table's rows
    with its header, a signature with its role)."""
    return list(_document_sentences(text))


@lru_cache(maxsize=256)  # by document text, read again for every question on it: bounded
def _document_sentences(text: str) -> tuple[str, ...]:
    lines = "\n".join(line.strip() for line in text.splitlines())
    return tuple(sentences_of(joined(lines, unended_goes_on=True)))


def whole_document_candidates(
    question: Question,
    texts: Mapping[str, str],
    ctx: AnswerContext,
    cards: Sequence[DocumentCard] = (),
) -> list[Candidate]:
    """Every sentence of the named documents (:func:`answer_documents`) the answer has a
    source number for; the document's full text is their passage (a quoted sentence is
    verbatim in it)."""
    out: list[Candidate] = []
    numbers = dict(zip((c.document_id for c in ctx.chunks), ctx.chunk_numbers, strict=True))
    titles = {c.document_id: c.title for c in ctx.chunks}
    titles |= {d.document_id: d.title for d in question.documents if d.document_id not in titles}
    # a document chosen by its card alone has no passage in the context: its card's title
    titles |= {c.document_id: c.title for c in cards if not titles.get(c.document_id)}
    for document_id in answer_documents(question, ctx.chunks, cards):
        text = texts.get(document_id)
        if not text:
            continue
        number = numbers.get(document_id)
        if number is None:  # named, but no passage of it was retrieved: a source of its own
            number = max((s.number for s in ctx.sources), default=0) + 1
            title = titles.get(document_id) or ""
            ctx.sources.append(Source(number=number, title=title, kind="user_docs"))
            numbers[document_id] = number
        chunk = Chunk(
            id=f"{document_id}:full",
            text=text,
            source="user_docs",
            title=titles.get(document_id) or "",
            document_id=document_id,
            metadata={FULL: True},
        )
        sentences = document_sentences(text)
        out += [Candidate(chunk, number, s, 0, i) for i, s in enumerate(sentences)]
    return out


def with_whole_documents(ranked: list[Candidate], extra: list[Candidate]) -> list[Candidate]:
    """``ranked`` and the sentences of ``extra`` it does not hold already (scored below)."""
    seen = {(c.chunk.document_id, " ".join(c.sentence.split())) for c in ranked}
    floor = min((c.score for c in ranked), default=0.0) - 1.0
    added = []
    for c in extra:
        key = (c.chunk.document_id, " ".join(c.sentence.split()))
        if key not in seen:
            seen.add(key)
            c.score = floor
            added.append(c)
    return ranked + added


def value_level(question: Question, p: SentenceProfile, sentence: str) -> float:
    """How well the sentence states a value of the asked type: a date of the asked end of
    a term («до какого числа» — «действует до …») 2 (2.5 for the end of a span a lasting
    state asks: «до какой даты действует» — «с … по …»; both ends of one span for «с какого
    по какое»), a value of the type 1 (for «в какой срок» also a deadline date, for «когда
    переходит» also the event it waits for, for «сколько мест» a count of places), only the
    date of a document it mentions («№ 3 от …») 0.5, none 0; a limit bounded in the clause
    («не более») and the price of one unit a «почём» question asks half a level more, a
    date beside the act the question asks a quarter more (:data:`ACTED_DATE`); a
    period question asking its end («срок действия — до какого?») wants the end date (2);
    a count in a unit of measure a quantity in that unit (1)."""
    kind = question.answer_type
    if kind == "date":
        bound = asked_bound(question)
        if bound is not None and bounded_dates(sentence, bound):
            lasting = bound == "end" and asks_lasting(question) and states_span(sentence)
            # «до какого числа оплачивать уборку» — «ежемесячно не позднее 10-го числа»
            recurring = bool(p.days) and asks_recurring_day(question)
            return 2.5 if lasting or recurring else 2.0
        if p.days and asks_recurring_day(question):
            return 2.5  # «в какие дни выплачивается зарплата» — «27-го числа»
        if len(asked_bounds(question)) == 2 and states_span(sentence):
            return 2.0
        if event_dates(sentence):
            # «когда застройщик обязан передать помещение» — «Застройщик передаёт объект
            # … не позднее 30 июня 2028 г.» over the obligation's clause with no date
            return 1.0 + ACTED_DATE * _names_asked_act(question, p)
        if asks_moment(question) and states_condition(sentence):
            return 1.0
        return 0.5 if p.dates else 0.0
    if kind == "period" and deadline_dates(sentence):
        # «срок действия гарантии — до какого?»: the end of the term by its date
        return 2.0 if asked_bound(question) == "end" else 1.0
    if kind == "amount" and question.unit:
        # «какая площадь», «сколько квадратных метров»: a quantity in the asked unit; a
        # sum of money states none
        return 1.0 if any(unit == question.unit for unit, _ in p.measures) else 0.0
    if kind in ("amount", "limit") and states_asked_count(question, sentence):
        # «сколько аварийных выездов входит …» — «не более 2 аварийных выездов»: the
        # count asked, over the sums of the same clause's neighbours
        return 2.0
    level = 1.0 if states_type(p, kind) else 0.0
    if kind in ("amount", "limit") and not level and states_count(question, sentence):
        level = 1.0
    if kind == "limit" and level and bounds_value(p):
        level += 0.5
    if level and asks_unit_price(question) and states_unit_price(sentence):
        level += 0.5
    return level


# a date a sentence states beside the act the question asks («передаёт … не позднее 30
# июня 2028 г.» for «когда обязан передать») over a sentence of the act with no date
ACTED_DATE = 0.25


def _names_asked_act(question: Question, p: SentenceProfile) -> bool:
    """Whether the sentence names an act of the question's verbs (itself, a synonym or a
    word of its root: «передать» — «передаёт»)."""
    acts = asked_acts(question)
    return bool(acts) and shared_words(acts, p.lemmas) > 0


def asked_lemmas(question: Question, cards: Sequence[DocumentCard]) -> set[str]:
    """The question's content lemmas that tell a clause apart: not those naming its
    documents, nor the value words of an asked part («по какое число», «в какой срок»: the
    kind of value, not the event; «какой аванс и в какой срок его внести»)."""
    asked = {lm for lm in question.topic if lm not in STOP_LEMMAS} - naming_lemmas(question, cards)
    for kind in {question.answer_type, *(p.answer_type for p in question.parts)}:
        asked -= _VALUE_WORDS.get(kind, frozenset())
    return asked - later_part_words(question)


# an exception: the words after it, up to the clause's end, name what a rule does not
# cover; «кроме того» is a connective, not an exception
_EXCEPTING = (("за", "исключение"), ("кроме",))
_NOT_EXCEPTING = "тот"  # «кроме того»
_EXCEPTION_ENDS = frozenset({",", ";", ")", ".", ":", "—"})
# what the text of a cue's word holds in every form (folded): a sentence holding neither
# states no exception, and is not tokenised for one
_EXCEPTING_STEMS = ("кроме", "исключ")


@lru_cache(maxsize=20_000)
def excepted_only(text: str) -> frozenset[str]:
    """The lemmas the sentence uses only inside an exception («за исключением …», «кроме
    …», up to the clause's end), never outside one."""
    folded = text.lower()
    if not any(stem in folded for stem in _EXCEPTING_STEMS):
        return frozenset()
    inside: set[str] = set()
    outside: set[str] = set()
    for sentence in analyse(text).sentences:
        lemmas = [t.lemma for t in sentence.tokens]
        at = 0
        while at < len(lemmas):
            cue = next((c for c in _EXCEPTING if tuple(lemmas[at : at + len(c)]) == c), None)
            after = at + len(cue) if cue else at
            if cue is None or lemmas[after : after + 1] == [_NOT_EXCEPTING]:
                outside.add(lemmas[at])
                at += 1
                continue
            end = next(
                (j for j in range(after, len(lemmas)) if lemmas[j] in _EXCEPTION_ENDS),
                len(lemmas),
            )
            inside.update(lemmas[after:end])
            at = end
    return frozenset(inside - outside)


def later_part_words(question: Question) -> set[str]:
    """The words only a later part of a two-part question has («сколько поступило … и
    сколько списано?»: «списать»): the first line answers the first part, the further
    parts get sentences of their own (:mod:`finagent.answering.further_parts`)."""
    if len(question.parts) < 2:
        return set()
    return {lm for p in question.parts[1:] for lm in p.own} - set(question.parts[0].own)


def shared_words(asked: set[str], lemmas: frozenset[str], sequence: Sequence[str] = ()) -> float:
    """Asked lemmas the sentence names (itself, by its adjective or by a synonym of
    :mod:`finagent.language.synonyms`: «на юристов» — «услуг представителя»; a clipped
    compound by its words written out in the lemmas in order, ``sequence``: «медосмотр» —
    «медицинский осмотр»), and half of those it names by a word of the same root."""
    hit = asked & lemmas | _adjectives(asked, lemmas) | by_synonym(asked, lemmas)
    if sequence:
        hit |= compounds_named(asked - hit, sequence)
    return len(hit) + 0.5 * len(by_root(asked - hit, lemmas))


def document_order_keys(
    question: Question,
    ranked: list[Candidate],
    cards: Sequence[DocumentCard] = (),
    sims: Mapping[tuple[str, str], float] | None = None,
    retrieved: Sequence[str] = (),
) -> tuple[list[Candidate], list[OrderKey]] | None:
    """The user's document sentences :func:`rerank_document_sentences` orders and each one's
    cascade key (clause, not restated, value level, shared words with e5 similarity, title
    words, ranker score); None when the question is not about the user's documents."""
    named = set(decided_documents(question, cards, retrieved))
    own = [c for c in ranked if c.chunk.source == "user_docs"]
    if not own or (not named and len(own) < len(ranked)):
        return None
    if named and any(c.chunk.document_id in named for c in own):
        own = [c for c in own if c.chunk.document_id in named]
    asked = asked_lemmas(question, cards)
    party = question.answer_type == "party" or bool(set(question.lemmas) & _REQUISITE_LEMMAS)
    # the document's own date line («г. Томск 22 апреля 2025 г.») answers only «когда подписан»
    own_dates = {
        " ".join(f.sentence.text.split())
        for card in cards
        for f in card.facts
        if f.field == "signed" and "signed" not in question.fields
    }

    similarity = _similarities(own, sims or {})
    heading_lemmas = _section_lemmas(own)
    # a contract's clause an amendment restates: its text no longer states the terms
    restated = superseded(own, cards) if question.revision != "original" else set()

    # «второй платёж», «последний платёж по графику»: a numbered row by its number
    rows_asked = asked_rows(question)
    supplements = supplement_lemmas() - set(question.lemmas)
    persons = asked_persons(question)
    total = asks_total(question)
    names_org = naming_lemmas(question, cards) - _person_lemmas(cards) if not persons else _NONE
    last_rows: dict[str | None, int] = {}
    for c in own if rows_asked else []:
        if (number := row_number(c.sentence)) is not None:
            document = c.chunk.document_id
            last_rows[document] = max(number, last_rows.get(document, number))

    def key(candidate: Candidate) -> OrderKey:
        text = candidate.sentence
        p = profile(text)
        # the words that name the document («субаренда», «помещение») tell no clause apart
        titled = profile(candidate.chunk.title or "")
        title = titled.lemmas | compounds_named(asked, titled.sequence)
        valued = value_level(question, p, text)
        units = header_units(question, text, asked - title)
        if valued < 1 and units is not None:
            valued = 1.0  # «Отработано, ч: 178» for «сколько часов отработал»
        # the person's row, when it states the asked thing by its own words (not their
        # share's row for «дивиденды Орлову»)
        if valued >= 1 and persons and table_row(text) and shared_words(asked, p.lemmas):
            valued += ROW_OF_PERSON * any(names_person(person, text) for person in persons)
        # a register's row of the organisation the question names («сальдо по «Альфе»» —
        # «Контрагент: ООО «Альфа»; …»), as a person's row is theirs
        elif valued >= 1 and names_org and table_row(text) and shared_words(asked, p.lemmas):
            valued += ROW_OF_PERSON * bool(names_org & p.lemmas)
        # a statement's or an invoice's row names its counterparty's ИНН beside its sum
        clause = _clause(text) and (party or valued >= 1 or not requisites(p, text))
        clause = clause and " ".join(text.split()) not in own_dates
        # a clause of «4. Порядок расчётов» speaks of the payment its heading names: the
        # words only its section heading shares count half (its own words come first)
        # the words of an exception name what the clause does not cover («…, за исключением
        # инженерного оборудования, составляет 5 лет» is no term of the equipment)
        lexical = shared_words(asked - title, p.lemmas - excepted_only(text), p.sequence)
        # «сколько дней» — «Продолжительность, кал. дн.: 14»: the header names the unit
        lexical += len((asked - title - p.lemmas) & (units or _NONE))
        # a total row whose label names the asked thing sums it with others («Итого
        # денежные средства на счетах и в кассе» for «сколько в кассе»): its own row
        # answers, unless a total is asked («итоговое сальдо»)
        if (label := total_label(text)) is not None:
            if total:
                lexical += TOTAL_ROW
            elif shared_words(asked - title, profile(label).lemmas):
                lexical -= TOTAL_ROW
        inherited = p.lemmas | heading_lemmas.get(id(candidate), _NONE)
        lexical += HEADING_WEIGHT * (shared_words(asked - title, inherited, p.sequence) - lexical)
        # «в марте» — a row dated «28.03.2025»; «ЕНП» — «Единый налоговый платёж»
        unnamed = asked - title - p.lemmas
        lexical += dated_words(question, unnamed, p) + spelled_out(unnamed, p)
        if (label := form_label(text)) is not None:
            lexical += LABEL_WEIGHT * shared_words(asked - title, profile(label).lemmas)
        if rows_asked:
            last = last_rows.get(candidate.chunk.document_id)
            lexical += ordinal_words(row_number(text), rows_asked, p.lemmas, last)
        if supplements & p.lemmas:
            lexical -= SUPPLEMENT
        # «при утверждении», «первоначально»: a sentence stating the terms as changed
        # later in the same document («После внесения изменений … — 1 129 300 руб.»)
        # states no original term
        changed = question.revision == "original" and states_changed_terms(_lemmas_of(text))
        return (
            clause,
            id(candidate) not in restated and not changed,
            valued,
            lexical + SEMANTIC_WEIGHT * similarity.get(id(candidate), 0.0),
            len(asked & title & p.lemmas),
            candidate.score,
        )

    keys = [key(c) for c in own]
    return own, _labelled(question, own, keys, _title_lemmas(own))


@cache
def supplement_lemmas() -> frozenset[str]:
    """The words of a supplement beyond a document's agreed terms
    (``data/supplement_terms.yaml``)."""
    text = resources.files("finagent.answering").joinpath("data/supplement_terms.yaml")
    return frozenset(str(w) for w in load_yaml(text.read_text("utf-8"))["supplement_lemmas"])


def header_units(question: Question, sentence: str, asked: set[str]) -> frozenset[str] | None:
    """The units of a table row's (or a form line's) bare figures of the asked kind whose
    column header names their unit (:mod:`finagent.answering.row_units`) and, its unit
    aside, an asked word or only the measure of the row's thing («Отработано, ч: 178» for
    «сколько часов отработал», «Продолжительность, кал. дн.: 14» for «на сколько дней
    отпуск»; not «Явки, дней: 22» for «сколько дней болел»); None when it has none."""
    units = frozenset(
        cell.unit
        for cell in fitting_cells(question, sentence)
        if measure_name(cell.name) or shared_words(asked, profile(cell.name).lemmas)
    )
    return units or None


def _person_lemmas(cards: Sequence[DocumentCard]) -> frozenset[str]:
    """The lemmas of the persons' names of the cards (a person's row is ROW_OF_PERSON's)."""
    return frozenset(
        lm for card in cards for person in card.persons for lm in profile(person).lemmas
    )


def _title_lemmas(own: Sequence[Candidate]) -> frozenset[str]:
    """The lemmas of the candidates' document titles."""
    return frozenset(lm for c in own for lm in profile(c.chunk.title or "").lemmas)


def _labelled(
    question: Question, own: Sequence[Candidate], keys: list[OrderKey], titled: frozenset[str]
) -> list[OrderKey]:
    """The keys with value level 1 for a clause stating no value of the asked type whose
    figure a noun the question asks labels («какая отсрочка оплаты» — «с отсрочкой платежа
    45 календарных дней»; :mod:`finagent.answering.labelled_value`), when the clause is
    among the document's best by shared words (within ``LABELLED_SLACK``): a label alone
    («компенсацию в размере …» of another breach) does not outrank the clause that names
    the question's other words."""
    clauses = [k[3] for k in keys if k[0]]
    if not clauses:
        return keys
    best = max(clauses)
    out = []
    for candidate, k in zip(own, keys, strict=True):
        if (
            k[0]
            and not k[2]
            and k[3] >= best - LABELLED_SLACK
            and labels_a_value(question, candidate.sentence, titled)
        ):
            k = (k[0], k[1], 1.0, k[3], k[4], k[5])
        out.append(k)
    return out


_NONE: frozenset[str] = frozenset()


def _lemmas_of(text: str) -> list[str]:
    """The sentence's lemmas in order."""
    return [t.lemma for s in analyse(text).sentences for t in s.tokens]


def _section_lemmas(own: Sequence[Candidate]) -> dict[int, frozenset[str]]:
    """Each candidate's section heading lemmas (:func:`section_headings`) by its id: found
    in its document's whole text when a candidate holds it, else in its own passage."""
    whole = {c.chunk.document_id or "": c.chunk.text for c in own if c.chunk.metadata.get(FULL)}
    parsed: dict[str, tuple[str, list[int], list[str]]] = {}
    out: dict[int, frozenset[str]] = {}
    for c in own:
        document = c.chunk.document_id or ""
        text = whole.get(document) or c.chunk.text
        key = f"document:{document}" if document in whole else f"chunk:{c.chunk.id}"
        if key not in parsed:
            parsed[key] = (" ".join(text.split()), *section_headings(text))
        body, starts, titles = parsed[key]
        at = body.find(" ".join(c.sentence.split())[:60])
        if at < 0 or not starts:
            continue
        i = bisect_right(starts, at) - 1
        if i >= 0:
            out[id(c)] = profile(titles[i]).lemmas
    return out


def rerank_document_sentences(
    question: Question,
    ranked: list[Candidate],
    cards: Sequence[DocumentCard] = (),
    sims: Mapping[tuple[str, str], float] | None = None,
    retrieved: Sequence[str] = (),
) -> list[Candidate]:
    """``ranked`` with the user's document sentences that answer the question first, when the
    question names a document or only documents were found; else unchanged. ``sims``: the
    e5 similarity of document sentences to the question, by (document id, sentence key);
    ``retrieved``: the user's documents in retrieval order."""
    keyed = document_order_keys(question, ranked, cards, sims, retrieved)
    if keyed is None:
        return ranked
    own, keys = keyed
    order = sorted(range(len(own)), key=lambda i: keys[i], reverse=True)
    first = [own[i] for i in order]
    chosen = {id(c) for c in first}
    return first + [c for c in ranked if id(c) not in chosen]
