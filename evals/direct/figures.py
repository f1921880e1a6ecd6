"""Figures of an answer (a number with a unit, percent or currency, or a date) that no
cited source and not the question contains: the unsupported figures.

Two parts of an answer are the agent's own notes, not claims from a source, and are not
read: the dating warning (its dates are the cited source's own date and 1 January of the
question's year) and the list of the user's own documents under a «document not held»
reply (their titles, which carry their own numbers and dates).

A figure the answer computes counts as supported only as the result of an equation it
shows, every operand a known figure and the arithmetic exact
(:func:`finagent.answering.figures.computed`): «1 284 000,00 + 960 000,00 = 2 244 000,00».
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evals.answers.text import CITATION, answer_body
from finagent.answering.coverage import undated
from finagent.answering.edition import without_dating_warning
from finagent.answering.figures import computed
from finagent.language.counts import worded_counts
from finagent.language.money import worded_amounts
from finagent.legal.references import find_references
from finagent.prompts import routing_messages
from finagent.russian_months import MONTHS

_NUMBER = r"\d+(?:[ \u00a0\u202f\u2009]\d{3})*(?:[.,]\d+)?"
_UNIT = (
    r"%|процент\w*|руб\w*|₽|коп\w*|тыс\w*|млн\w*|млрд\w*|(?:календарн|рабоч)\w*\s+дн\w*"
    r"|дн(?:я|ей)\b|день|месяц\w*|недел\w*|лет\b|год(?:а|ов)?\b|час\w*|евро|долл\w*"
)
_MONTH_WORDS = "|".join(sorted({re.escape(m) for m in MONTHS}, key=len, reverse=True))
FIGURE = re.compile(
    rf"\b\d{{1,2}}\.\d{{1,2}}\.\d{{2,4}}\b"  # 12.03.2025
    rf"|\b\d{{1,2}}\s+(?:{_MONTH_WORDS})[а-я]{{0,3}}\b(?:\s+\d{{4}})?"  # 1 января 2025
    rf"|(?<![\d.,]){_NUMBER}\s*(?:{_UNIT})",
    re.IGNORECASE,
)
_DIGITS = re.compile(_NUMBER)
# a number wrapped over a line, or set in a justified line a PDF's text keeps («24  000»)
_WRAPPED = re.compile(r"\d+(?:\s{1,3}\d{3})*(?:[.,]\d+)?")


def _core(figure: str) -> str:
    """The figure's number as compared: «297 200,50 руб.» -> «297200.50»; a date whole."""
    if re.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{2,4}", figure):
        return figure
    match = _DIGITS.search(figure)
    return re.sub(r"\s", "", match.group(0)).replace(",", ".") if match else figure


def _numbers(text: str) -> set[str]:
    spaced = text.replace("\u00a0", " ").replace("\u202f", " ").replace("\u2009", " ")
    found = {re.sub(r"\s", "", n).replace(",", ".") for n in _DIGITS.findall(spaced)}
    # a number the source wraps over a line («528» / «000 рублей») or justifies is one number
    found |= {re.sub(r"\s", "", n).replace(",", ".") for n in _WRAPPED.findall(spaced)}
    found |= {m.group(0) for m in re.finditer(r"\b\d{1,2}\.\d{1,2}\.\d{2,4}\b", text)}
    # an ISO date of the source's metadata (edition, review) as the answer writes it
    found |= {f"{d}.{m}.{y}" for y, m, d in re.findall(r"\b(\d{4})-(\d{2})-(\d{2})\b", text)}
    # a sum the source writes in words («трех тысяч рублей») supports it in digits
    found |= {f"{amount:f}" for amount in worded_amounts(text)}
    # a count the source writes in words («двух месяцев») supports it in digits («2 месяца»)
    found |= {f"{count:f}" for count in worded_counts(text)}
    return found


def _without_references(text: str) -> str:
    """The text with legal references («п. 2 ст. 88») and citation markers blanked."""
    out, last = [], 0
    for ref in sorted(find_references(text), key=lambda r: r.start):
        if ref.start >= last:
            out.append(text[last : ref.start])
            last = ref.end
    out.append(text[last:])
    return CITATION.sub(" ", " ".join(out))


_HELD_INTRO = routing_messages.DOCUMENT_NOT_HELD.split("{documents}", 1)[0]
_HELD_HEADING = _HELD_INTRO.strip().rsplit("\n", 1)[-1]  # «Ваши документы:»
_HELD_LIST = re.compile(rf"^{re.escape(_HELD_HEADING)}\n(?:- .*(?:\n|$))*", re.M)


def without_own_notes(text: str) -> str:
    """``text`` without the dating warning and the list of the user's own documents."""
    return _HELD_LIST.sub("", without_dating_warning(text))


def answer_figures(text: str) -> list[str]:
    """Every figure stated in ``text`` (legal references and ``[n]`` are not figures)."""
    return [m.group(0).strip() for m in FIGURE.finditer(_without_references(text))]


def unsupported_figures(answer: str, sources: Sequence[str], question: str) -> list[str]:
    """Figures of the answer body whose number occurs in no source text nor the question."""
    known = _numbers(question)
    for text in sources:
        known |= _numbers(text)
    body = without_own_notes(answer_body(answer))
    # a result the answer shows as an equation of known figures that holds is supported
    known |= computed(body, known)
    return [f for f in answer_figures(body) if _core(f) not in known]


def source_titles(chunks: Sequence[Any], answer: str) -> list[str]:
    """The titles (and citation labels) of the retrieved passages that ``answer`` names
    word for word: an answer that names a source it searched (an abstention's list of
    titles) states that title's figures as a name, not as a claim of its own."""
    body = " ".join(answer.split())
    out = []
    for chunk in chunks:
        data = chunk if isinstance(chunk, dict) else chunk.model_dump()
        meta = data.get("metadata") or {}
        for title in (data.get("title"), meta.get("citation")):
            # an abstention names a title without its date (coverage.undated)
            for form in {str(title), undated(str(title))} if title else ():
                if " ".join(form.split()) in body:
                    out.append(form)
    return out


def cited_source_texts(answer: str, chunks: Sequence[Any], numbers: Any = None) -> list[str]:
    """Texts (with title and citation label) of the retrieved chunks the answer cites,
    numbered as the answer node numbers them (``numbers``: ``debug["source_numbers"]``)."""
    from finagent.answering.context import build_context
    from finagent.state import Chunk

    parsed = [c if isinstance(c, Chunk) else Chunk.model_validate(c) for c in chunks]
    ctx = build_context(parsed, [], max_chars=10**9)
    cited = {int(n) for n in CITATION.findall(answer_body(answer))}
    shown = {int(old): int(new) for old, new in numbers or []}
    texts = []
    for chunk, number in zip(ctx.chunks, ctx.chunk_numbers, strict=False):
        if shown.get(number, number) in cited:
            meta = " ".join(str(v) for v in chunk.metadata.values() if isinstance(v, str | int))
            texts.append(f"{chunk.title or ''}\n{meta}\n{chunk.text}")
    return texts
