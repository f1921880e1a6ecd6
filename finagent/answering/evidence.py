"""Candidate sentences of the retrieved passages, ranked as the answer's key fact.

Ranking combines semantic similarity to the question (the same e5 model as the search:
"query:" for the question, "passage:" for the sentences, cached by text), word overlap,
and legal structure: the retrieved point's own text comes before its neighbours, and the
best-ranked passages before the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from finagent.answering.context import AnswerContext
from finagent.answering.edition_line import edition_line
from finagent.cards.tables import WORD_CELL, grid_rows, grid_rule, markdown_rows, rendered_row
from finagent.cards.unwrap import joined
from finagent.language.abbreviations import leaves_open
from finagent.language.lemmas import lemma
from finagent.question.build import build_question
from finagent.question.model import Question
from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.retriever import NORM_ONLY
from finagent.retrieval.tax_focus import tax_focus
from finagent.state import Chunk
from finagent.text_normalize import normalize

_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[А-ЯA-Z0-9«\"(])")
_WORD = re.compile(r"[a-zа-я0-9]+")
_FIGURE = re.compile(
    r"\d|процент|рубл|дн(?:я|ей|ю)\b|месяц|год|срок|не\s+позднее|в\s+течение|размер", re.I
)
_ASKS_FIGURE = re.compile(
    r"сколько|какой\s+(?:срок|размер|лимит|процент)|какая\s+(?:ставка|сумма)|"
    r"до\s+какого|когда|в\s+течение|размер|ставк|лимит|срок|процент|максим|миним|предел",
    re.I,
)
_STOP = frozenset(
    "и в во на по о об с со к ко у за из для от до не ли же а но или что как какой какая какие "
    "это мне я мой есть сколько когда где нужно надо можно ли если".split()
)
MAX_SENTENCE_CHARS = 400
MAX_EMBEDDED = 32  # sentences embedded per answer
PER_CHUNK = 40  # candidate sentences per passage
MAX_WINDOWS = 3  # windows of a too long sentence beyond its start
WINDOW_OVERLAP = 160  # a window may repeat this much of the one before, to open a clause
WINDOW_PROBE = 60  # characters of a window looked up in its passage (whole_sentence)
# a rate question about a named tax: its chapter's «Налоговые ставки» article answers it,
# ahead of the chapter's other passages that speak of the rate (art. 165 beside art. 164)
RATE_ARTICLE_BONUS = 0.03
# the metadata key of a chunk that is a user document's whole text (its every sentence a
# candidate: :func:`finagent.answering.document_sentences.whole_document_candidates`)
FULL = "whole_document"


@dataclass
class Candidate:
    """One sentence of one retrieved passage."""

    chunk: Chunk
    number: int  # its source number in the answer
    sentence: str
    rank: int  # the passage's position among the retrieved ones
    position: int  # the sentence's position in the passage
    lexical: float = 0.0
    semantic: float = 0.0
    score: float = 0.0
    context: str = ""  # a list item's lead-in («… исчисляется следующим образом:»)
    example: bool = False  # a sentence of a worked example («Пример: …»), not a rule
    learned: bool = False  # ``score`` is the learned ranker's (logit units), not a similarity

    @property
    def ranked_text(self) -> str:
        """What the question is compared with: a list item with its lead-in."""
        return f"{self.context} {self.sentence}" if self.context else self.sentence


def whole_sentence(candidate: Candidate) -> str:
    """The sentence a window of a long sentence («…при отсутствии признаков …, влечет
    взыскание штрафа в размере …») was cut from, up to the window's end: the window drops
    the words that name the sentence's subject. Any other candidate's own text."""
    if not candidate.sentence.startswith("…"):
        return candidate.ranked_text
    piece = candidate.sentence.strip("…").strip()
    text = candidate.chunk.text
    at = text.find(piece[:WINDOW_PROBE])
    if at < 0:
        return candidate.ranked_text
    start = text.rfind(". ", 0, at) + 1  # 0 when the sentence opens the passage
    return f"{candidate.context} {text[start : at + len(piece)].strip()}".strip()


def promoted(ranked: list[Candidate], best: Candidate) -> list[Candidate]:
    """``ranked`` with ``best`` first, scored at least as the former first: how a rule that
    prefers a near candidate (an asked condition, a given value, a general rule...) puts it
    ahead of the one the ranker chose. ``best`` itself is not changed (lists of several
    readers share it): the list holds a copy with the raised score."""
    return promoted_at(ranked, best, ranked[0].score)


def promoted_at(ranked: list[Candidate], best: Candidate, floor: float) -> list[Candidate]:
    """``ranked`` with a copy of ``best`` first, scored at least ``floor``."""
    first = replace(best, score=max(best.score, floor))
    return [first, *(c for c in ranked if c is not best)]


#: the sources a preference rule reorders: the Tax Code and the knowledge base
LEGAL_SOURCES = frozenset({"law", "kb"})


def first_near(
    ranked: list[Candidate], margin: float, keep: Callable[[Candidate], bool]
) -> Candidate | None:
    """The first candidate after the top within ``margin`` of its score, from the Code or
    the knowledge base, not a worked example, that ``keep`` accepts: the one a preference
    rule may put first."""
    top = ranked[0]
    return next(
        (
            c
            for c in ranked[1:]
            if c.score >= top.score - margin
            and c.chunk.source != "user_docs"
            and not c.example
            and keep(c)
        ),
        None,
    )


def stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(normalize(text)) if w not in _STOP and len(w) > 2}


def _split_sentences(line: str) -> list[str]:
    """The sentences of one line: cut after «.», «!», «?» or «;» before a capital, a
    figure, a quote or a bracket, but not past an abbreviation that leaves its sentence
    open («г. Москва», «ст. 88», «5 000 руб. (п. 1 …)», «в т.ч. НДС», «И.С. Федотова»;
    :func:`finagent.language.abbreviations.leaves_open`, the one reader of it)."""
    pieces: list[str] = []
    for piece in _SENTENCE.split(line):
        if pieces and leaves_open(pieces[-1], piece, within_line=True):
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces


_WORD_COLUMNS = 3  # a Word line of fewer cells is a form's label and value


def _table_rows(lines: list[str]) -> dict[int, str]:
    """Markdown table rows as «column: value; ...» sentences (the header row is dropped),
    and so the rows of a Word table of three columns or more as the loader flattens them
    («Этап | Доля | Сумма, руб.» / «Второй этап | 70 % | 280 000,00»): rows of as many cells
    as the line before them, whose header stays a line of its own; a Word line of two
    cells is a form's label and value («Дата получения (16) | 05 марта 2025 г.»), no row.
    A grid table's rows (``+---+`` rules) are read by :func:`finagent.cards.tables.grid_rows`."""
    out: dict[int, str] = grid_rows(lines)
    markdown_lines = markdown_rows(lines)
    header: list[str] | None = None
    word_header = False  # the header is a Word row's: its rows split on every «|»
    for i, line in enumerate(lines):
        if i in out:  # a grid table's line, read with its header by column position
            header = None
            continue
        split = line.split("|")
        # a Word row whose first cell is empty opens with «|» too («| Итого | 54 400,00»):
        # it is no Markdown row (:func:`markdown_rows`), or it has its Word header's
        # number of cells
        same = word_header and header is not None and len(split) == len(header)
        markdown = i in markdown_lines and not same
        inner = split[1 : -1 if line.rstrip().endswith("|") else None]
        cells = [c.strip().strip("*").strip() for c in (inner if markdown else split)]
        word = not markdown and WORD_CELL in line and not line.startswith("+")
        if not markdown and not (word and len(cells) >= _WORD_COLUMNS):
            header = None
            continue
        if set(line) <= set("|-: "):
            continue
        if header is None or (word and len(cells) != len(header)):
            header, word_header = cells, word
            if markdown:
                out[i] = ""
            continue
        pairs = [(h, v) for h, v in zip(header, cells, strict=False) if v and h]
        extra = [v for h, v in zip(header, cells, strict=False) if v and not h]
        out[i] = rendered_row(pairs, extra)
    return out


_BULLET = re.compile(r"^[-*•–—]\s+")
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*(?:-\d+)?|[а-я])\)\s+")


def _list_after(lines: list[str], start: int) -> str:
    """The list that a line ending with «:» introduces, compactly: its items from
    ``lines[start]`` on, as many as a quotation holds (the caller cuts it with «…»).

    Items of the Code («1) ...;») stay verbatim, joined by spaces, so a quotation of the
    list is still the source's text; Markdown bullets lose their markers and are joined
    by «; ». The list ends at a heading, a table, or a line that is no item after an item
    that closed its sentence."""
    pieces: list[str] = []
    size = 0
    open_item = False  # the last line, no bullet, ended with «;», «,» or «:»: it goes on
    for line in lines[start:]:
        if line.startswith(("#", "|")) or grid_rule(line):
            break
        marked = bool(_BULLET.match(line) or _NUMBERED.match(line))
        if pieces and not marked and not open_item:
            break
        bullet = bool(_BULLET.match(line))
        open_item = not bullet and line.endswith((";", ",", ":"))
        if bullet:
            line = _BULLET.sub("", line).rstrip(" ;,.") + ";"
        pieces.append(line)
        size += len(line) + 1
        if size > MAX_SENTENCE_CHARS:
            break
    text = " ".join(pieces)
    if text.endswith(";") and size <= MAX_SENTENCE_CHARS:
        text = text[:-1] + "."
    return text


class Unit(NamedTuple):
    """A candidate unit of a passage: a sentence, a list item's lead-in, whether it is
    part of a worked example."""

    sentence: str
    lead: str = ""
    example: bool = False


def sentences_of(text: str) -> list[str]:
    """Sentences, sub-point lines and table rows of a passage (headings skipped)."""
    return [unit.sentence for unit in units_of(text)]


def _opens_example(line: str) -> bool:
    """A paragraph of a worked example: «Пример: …», «**Пример 2.** …»."""
    words = _WORD.findall(normalize(line[:40]))
    return bool(words) and lemma(words[0]) == "пример"


_BOLD_LINE = re.compile(r"^\*\*[^*]{1,80}\*\*[.:]?$")


def example_heading(heading: str) -> bool:
    """A heading of a worked example alone: «Пример для ИП», «Примеры»; not «Пример и
    изменения последних лет», a section of an example and another topic."""
    words = _WORD.findall(normalize(heading))
    return _opens_example(heading) and "и" not in words


def _example_heading(line: str) -> bool | None:
    """Whether a heading line («## Пример для ИП», a bold line «**Пример расчёта**») opens
    a worked example; None when the line is no heading."""
    if line.startswith("#"):
        return example_heading(line.lstrip("#").strip())
    if _BOLD_LINE.match(line):
        return example_heading(line.strip("*:. "))
    return None


_SENTENCE_END = (".", "!", "?", ";", ":", "…")


def _joined_lines(lines: list[str]) -> list[str]:
    """Lines with a sentence's continuation joined: a line that ends no sentence, followed
    by one that opens in lower case and is no list item. The Code sets a sanction's
    consequence on a line of its own («…в качестве свидетеля,» / «влечет взыскание штрафа
    в размере тысячи рублей.»): apart, neither line states the rule."""
    out: list[str] = []
    for line in lines:
        previous = out[-1] if out else ""
        if (
            previous
            and not previous.endswith(_SENTENCE_END)
            and not previous.startswith(("#", "|"))
            and not _BOLD_LINE.match(previous)
            and line[:1].islower()
            and not _NUMBERED.match(line)
        ):
            out[-1] = f"{previous} {line}"
        else:
            out.append(line)
    return out


def units_of(text: str, example_section: bool = False, law: bool = False) -> list[Unit]:
    """Candidate units of a passage (:class:`Unit`): :func:`_units_of`, remembered."""
    return list(_units_of(text, example_section, law))


@lru_cache(maxsize=2048)  # by passage text, read again for every question: bounded
def _units_of(text: str, example_section: bool, law: bool) -> tuple[Unit, ...]:
    """Candidate units of a passage (:class:`Unit`).

    A sentence that introduces a list («Ставка 10 % применяется, в частности, к:») comes
    with the start of its list; one whose list is not in the passage is left out: it
    says nothing by itself. Each item is a unit of its own too, with the introduction as
    its lead-in, whether on lines of their own or inline («…следующим образом: 1) …;
    2) …»): the Code states a value per condition in its items, and the item is the
    sentence that answers a question about one condition.

    A worked example is marked (``Unit.example``): the sentences under a heading that opens
    with «Пример» («## Пример для ИП», «**Пример расчёта**»; ``example_section`` when the
    passage's own section is one) up to the next heading, and those of a paragraph from
    the sentence that opens with «Пример» on. A heading of an example and another topic
    («Пример и изменения последних лет») is not an example's. ``law``: a passage of the
    Code, whose sentences may go on over lines (:func:`_joined_lines`)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = _joined_lines(lines) if law else lines
    rows = _table_rows(lines)
    out: list[Unit] = []
    lead = ""  # the introduction of the list the current lines belong to
    open_item = False
    in_example = example_section
    for i, line in enumerate(lines):
        heading = _example_heading(line)
        if heading is not None:
            in_example = heading
        if line.startswith("#") or set(line) <= set("|-: "):
            lead = ""
            continue
        marked = bool(_BULLET.match(line) or _NUMBERED.match(line))
        if lead and not marked and not open_item:
            lead = ""
        open_item = bool(lead) and not _BULLET.match(line) and line.endswith((";", ",", ":"))
        context = lead if (marked or open_item) else ""
        pieces = [rows[i]] if i in rows else _split_sentences(line)
        with_list = ""  # the introduction with its list's start, not split again
        if i not in rows and pieces and pieces[-1].rstrip().endswith(":"):
            introduction = pieces[-1].strip()
            items = _list_after(lines, i + 1)
            with_list = pieces[-1] = f"{introduction} {items}" if items else ""
            if items and not context:
                lead = introduction
        inline = {} if i in rows else dict(reversed(inline_items(line)))
        example = in_example
        for s in pieces:
            s = s.strip()
            example = example or _opens_example(s)
            if len(s) > 12:
                head = inline.pop(s, "") if s != with_list else ""
                out.extend(Unit(w, context or head, example) for w in _fitted(s))
        out.extend(Unit(w, head, example) for item, head in inline.items() for w in _fitted(item))
    return tuple(out)


_INLINE_ITEM = re.compile(r"(?<=[;:])\s+(?=(?:\d{1,2}(?:\.\d{1,2})?|[а-я])\)\s)")


def inline_items(text: str) -> list[tuple[str, str]]:
    """``(item, lead-in)`` of an enumeration inside one line, «lead: 1) a; 2) b.»; none
    when the line enumerates nothing."""
    parts = _INLINE_ITEM.split(text)
    if len(parts) < 3 or not parts[0].rstrip().endswith(":"):
        return []
    head = _split_sentences(parts[0].strip())[-1]
    return [(item.strip(), head) for item in parts[1:] if len(item.strip()) > 12]


def _fitted(sentence: str) -> list[str]:
    return [sentence] if len(sentence) <= MAX_SENTENCE_CHARS else _windows(sentence)


def _cut(sentence: str) -> str:
    return sentence[:MAX_SENTENCE_CHARS].rsplit(" ", 1)[0] + "…"


def _windows(sentence: str) -> list[str]:
    """A sentence too long to quote: its start, then up to MAX_WINDOWS «…»-marked windows,
    each opening at the last clause boundary («, », «; ») of the text before it. The Code's
    long sentences state the value after their conditions («…, но в совокупности не более
    150 000 рублей»), past where the start is cut."""
    out = [_cut(sentence)]
    end = len(out[0]) - 1
    while end < len(sentence) and len(out) <= MAX_WINDOWS:
        start = max(sentence.rfind(", ", 0, end), sentence.rfind("; ", 0, end)) + 2
        if start < end - WINDOW_OVERLAP or start <= 1:
            start = end
        piece = sentence[start:].strip()
        if len(piece) >= MAX_SENTENCE_CHARS:
            piece = piece[: MAX_SENTENCE_CHARS - 2].rsplit(" ", 1)[0] + "…"
        out.append(f"…{piece}")
        end = start + len(piece.rstrip("…"))
    return out


def main_chunks(chunks: list[Chunk]) -> list[Chunk]:
    """``chunks`` without the Code passages only «Норма НК РФ» may quote."""
    return [c for c in chunks if not c.metadata.get(NORM_ONLY)]


def norm_candidates(ctx: AnswerContext, per_chunk: int = PER_CHUNK) -> list[Candidate]:
    """Sentences of the Code passages only the details' «Норма НК РФ» may quote
    (:meth:`finagent.retrieval.retriever.Retriever.code_extra`), ranked after the others."""
    out: list[Candidate] = []
    pairs = zip(ctx.chunks, ctx.chunk_numbers, strict=True)
    extra = [(c, n) for c, n in pairs if c.metadata.get(NORM_ONLY)]
    for rank, (chunk, number) in enumerate(extra, start=len(ctx.chunks)):
        out.extend(_candidates_of(chunk, number, rank, per_chunk))
    return out


def candidates(
    ctx: AnswerContext, max_chunks: int = 5, per_chunk: int = PER_CHUNK
) -> list[Candidate]:
    """Sentences of the best ``max_chunks`` passages: every retrieved passage of the Code
    and the knowledge base, one per document (source number) of the user's. A point of the
    Code is one text though it is indexed in pieces: every retrieved piece of a point
    among them is a candidate too, wherever the search placed it (the rule of the point
    is often in another piece than the exception retrieved first).

    A knowledge-base article's sections share its source number; the section that states
    the value («## Необлагаемый лимит») is often not the one retrieved first, and which
    one comes first may vary between runs of the same search."""
    out: list[Candidate] = []
    seen_numbers: set[int] = set()
    unit_ranks: dict[str, int] = {}
    rank = 0
    for chunk, number in zip(ctx.chunks, ctx.chunk_numbers, strict=True):
        if chunk.metadata.get(NORM_ONLY):
            continue
        unit = str(chunk.metadata.get("unit_id") or "") if chunk.source == "law" else ""
        if unit in unit_ranks:  # another retrieved piece of a point already in: its text too
            position_base = sum(1 for c in out if c.chunk.metadata.get("unit_id") == unit)
            out.extend(_candidates_of(chunk, number, unit_ranks[unit], per_chunk, position_base))
            continue
        if rank >= max_chunks:
            continue
        if number in seen_numbers and chunk.source == "user_docs":
            continue
        seen_numbers.add(number)
        if unit:
            unit_ranks[unit] = rank
        out.extend(_candidates_of(chunk, number, rank, per_chunk))
        rank += 1
    return out


def passage_sentences(chunk: Chunk) -> list[str]:
    """The texts :func:`rank` may embed for a passage (each candidate's ``ranked_text``):
    what ``finagent embeddings rebuild`` ships for the Code and the knowledge base."""
    return [c.ranked_text for c in _candidates_of(chunk, 0, 0, PER_CHUNK)]


def _candidates_of(
    chunk: Chunk, number: int, rank: int, per_chunk: int, first_position: int = 0
) -> list[Candidate]:
    text = chunk.text
    example_section = False
    if chunk.source != "law" and "\n" in text:  # the chunker's «Title / Section» line
        breadcrumb, text = text.split("\n", 1)
        example_section = " / " in breadcrumb and example_heading(breadcrumb.rsplit(" / ", 1)[1])
    if chunk.source == "user_docs":
        # a hard-wrapped document's passage (a PDF's lines): a clause read whole, as its
        # card and the whole document's sentences read it («… НДС 92 400» / «руб., — не
        # позднее 15 мая 2026 г.; …»)
        text = joined(text)
    units = units_of(text, example_section, law=chunk.source == "law")[:per_chunk]
    if chunk.source == "kb":  # an article's line about its own edition answers nothing
        units = [u for u in units if not edition_line(u.sentence)]
    return [
        Candidate(
            chunk,
            number,
            unit.sentence,
            rank,
            first_position + position,
            context=unit.lead,
            example=unit.example,
        )
        for position, unit in enumerate(units)
    ]


async def rank(
    query: str,
    found: list[Candidate],
    embedder: Embedder | None,
    query_vector: np.ndarray | None = None,
    question: Question | None = None,
) -> tuple[list[Candidate], float | None]:
    """Candidates best first, and the best semantic similarity (None without an embedder);
    ``query_vector``: the question's vector, ``question``: the turn's typed question, when
    the caller has them already."""
    if not found:
        return [], None
    query_stems = stems(query)
    wants_figure = bool(_ASKS_FIGURE.search(query))
    focus = tax_focus(question or build_question(query), query)
    for c in found:
        c.lexical = len(stems(c.ranked_text) & query_stems) / max(1, len(query_stems))
    best_semantic: float | None = None
    if embedder is not None:
        # embedding is the cost (a cold sentence takes the model's time): only the
        # MAX_EMBEDDED sentences with most words of the question, best passages first
        chosen = sorted(found, key=lambda c: (-c.lexical, c.rank, c.position))[:MAX_EMBEDDED]
        q = query_vector if query_vector is not None else await question_vector(query, embedder)
        vectors = await embedder.embed_passages([c.ranked_text for c in chosen])
        sims = _cosine(vectors, q)
        for candidate, sim in zip(chosen, sims, strict=True):
            candidate.semantic = float(sim)
        best_semantic = float(sims.max())
        floor = float(sims.min()) - 0.05  # below every embedded sentence
        embedded = {id(c) for c in chosen}
        for c in found:
            if id(c) not in embedded:
                c.semantic = floor
    for c in found:
        # weights calibrated on the team's answer set (docs/answers.md); the semantic
        # similarity dominates, the rest breaks near-ties
        structure = 0.006 / (1 + c.rank) + 0.012 / (1 + c.position)
        figure = 0.01 if wants_figure and _FIGURE.search(c.sentence) else 0.0
        length = 0.01 * min(len(c.sentence), MAX_SENTENCE_CHARS) / MAX_SENTENCE_CHARS
        rate = RATE_ARTICLE_BONUS if focus is not None and focus.rate_article(c.chunk) else 0.0
        c.score = c.semantic + 0.04 * c.lexical + structure + figure + rate - length
    return sorted(found, key=lambda c: -c.score), best_semantic


async def question_vector(query: str, embedder: Embedder) -> np.ndarray:
    """The question's e5 ``query:`` vector (the embedding cache has it after retrieval)."""
    return np.asarray((await embedder.embed_queries([query]))[0], dtype=np.float32)


def shared_words(query: str, found: list[Candidate]) -> int:
    """How many content words of the question occur in the candidate sentences."""
    seen: set[str] = set()
    for c in found:
        seen |= stems(c.sentence)
    return len(stems(query) & seen)


def _cosine(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    v = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    q = query / max(float(np.linalg.norm(query)), 1e-12)
    return np.asarray(v @ q)
