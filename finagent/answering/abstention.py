"""When the sources cannot support an answer: say so instead of answering from unrelated text.

Three checks, cheapest first:
- scope: the question is about another country's taxes, names a code or law that is not
  ingested, an article that does not exist, or a letter or ruling that is not among the
  sources;
- evidence: the best passage is semantically too far from the question (a setting,
  calibrated on the team's answer set).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from finagent.answering import messages
from finagent.cards.model import DocumentCard
from finagent.language.cues import find_cue
from finagent.language.synonyms import names_lemma
from finagent.language.text import analyse
from finagent.legal.catalog import LawCatalog
from finagent.legal.jurisdiction import foreign_country
from finagent.legal.references import CODE_PATTERNS, find_documents, find_references
from finagent.legal.taxes import RATE_ARTICLE_TITLE, Tax, asks_figure, asks_rate, taxes_named
from finagent.question.requests import (
    asks_choice,
    asks_invention,
    asks_outside,
    asks_task_outside,
)
from finagent.question.tables import GENERIC_HEADS, MEASURE_UNITS, STOP_LEMMAS
from finagent.retrieval.legal_units import code_name
from finagent.state import Chunk

_OTHER_CODES: dict[str, str] = {
    **{key: value for key, value in CODE_PATTERNS.items() if key != "nk"},
    "zhk": r"\b(?-i:ЖК)\s+РФ|Жилищн\w+\s+кодекс\w*",
    "sk": r"\b(?-i:СК)\s+РФ|Семейн\w+\s+кодекс\w*",
    "uk": r"\b(?-i:УК)\s+РФ|\b(?-i:УК)\s+\d|Уголовн\w+\s+кодекс\w*",
    "apk": r"\b(?-i:АПК)\b|Арбитражн\w+\s+процессуальн\w+\s+кодекс\w*",
    "gpk": r"\b(?-i:ГПК)\b|Гражданск\w+\s+процессуальн\w+\s+кодекс\w*",
    "zk": r"\b(?-i:ЗК)\s+РФ|Земельн\w+\s+кодекс\w*",
    "law": r"\b\d{1,4}-ФЗ\b|федеральн\w+\s+закон\w*|\bзакон\w*\s+об?\s+(?!налог)\w+",
}
_SHORTEST = 3  # shorter lemmas («на», «ип») are function words or names, not what is asked
_OTHER_CODE_NAMES = {
    "koap": "КоАП РФ",
    "gk": "Гражданский кодекс",
    "tk": "Трудовой кодекс",
    "bk": "Бюджетный кодекс",
    "zhk": "Жилищный кодекс",
    "sk": "Семейный кодекс",
    "uk": "Уголовный кодекс",
    "apk": "АПК РФ",
    "gpk": "ГПК РФ",
    "zk": "Земельный кодекс",
    "law": "текст этого федерального закона",
}
_OTHER_CODE_RE = {k: re.compile(rf"(?:{v})", re.IGNORECASE) for k, v in _OTHER_CODES.items()}
# terms only another code defines: a question in them is about that code even when it does
# not name it («какой административный штраф грозит водителю …» is a КоАП question)
_OTHER_CODE_TERMS: dict[str, tuple[str, ...]] = {
    "koap": (
        "административный штраф",
        "административное правонарушение",
        "административная ответственность",
    ),
    "uk": ("уголовная ответственность", "уголовное дело"),
}


def _codes_asked(query: str) -> Iterator[tuple[str, bool, list[str]]]:
    """Each code other than the Tax Code the question names (``True``) or speaks the terms
    of (the terms it uses), in the order of :data:`_OTHER_CODES`."""
    lemmas = [lemma for sentence in analyse(query).sentences for lemma in sentence.lemmas]
    for key, pattern in _OTHER_CODE_RE.items():
        named = pattern.search(query) is not None
        terms = [t for t in _OTHER_CODE_TERMS.get(key, ()) if find_cue(lemmas, t) >= 0]
        if named or terms:
            yield key, named, terms


def other_code_asked(query: str, held: frozenset[str] = frozenset()) -> str | None:
    """The key of a code other than the Tax Code the question names or speaks the terms of
    («какой административный штраф грозит водителю …» is a КоАП question), unless one of
    those terms is the user's own (every lemma of it in ``held``, their documents' words)."""
    for key, named, terms in _codes_asked(query):
        if named or not any(_held_term(term, held) for term in terms):
            return key
    return None


def _held_term(term: str, held: frozenset[str]) -> bool:
    words = [lemma for sentence in analyse(term).sentences for lemma in sentence.lemmas]
    return bool(words) and all(word in held for word in words)


_RULING = re.compile(
    r"письм\w*\s+(?:минфина|фнс|налогов\w+\s+служб\w*)|"
    r"(?:определени|постановлени|решени)\w*\s+(?:кс|вс|вас|пленума|конституционн\w+|верховн\w+)|"
    r"пленум\w*|\b(?-i:ВС|КС|ВАС)\s+РФ|верховн\w+\s+суд\w*|конституционн\w+\s+суд\w*|"
    r"(?:постановлени|определени|письм)\w*\s+(?:№|N)\s*\d",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Abstention:
    """Why the agent will not answer: a short reason and what exactly is missing."""

    kind: str  # jurisdiction | code | article | document | evidence | year | condition
    reason: str
    missing: str


def jurisdiction_abstention(query: str, country: str | None = None) -> Abstention | None:
    """An abstention for a question about another country's taxes (or ``country``, when
    the caller found it: another country's authority acting), or None."""
    country = foreign_country(query) or country
    if country is None:
        return None
    reason = messages.ABSTAIN_JURISDICTION.format(country=country)
    return Abstention("jurisdiction", reason, reason[0].upper() + reason[1:] + ".")


def _covered_by_sources(pattern: re.Pattern[str], chunks: list[Chunk]) -> bool:
    """A knowledge-base article or a user document that itself speaks of it."""
    return any(c.source != "law" and pattern.search(c.text) for c in chunks)


def _terms_covered(terms: list[str], chunks: list[Chunk]) -> bool:
    """A knowledge-base article or a user document that uses one of the terms itself."""
    for chunk in chunks:
        if chunk.source == "law":
            continue
        lemmas = [lemma for sentence in analyse(chunk.text).sentences for lemma in sentence.lemmas]
        if any(find_cue(lemmas, term) >= 0 for term in terms):
            return True
    return False


def request_abstention(query: str) -> Abstention | None:
    """An abstention for a request no source can ground: to make data up, to choose for
    the user, or about another domain (``finagent.question.requests``)."""
    if asks_invention(query):
        return Abstention("request", messages.ABSTAIN_INVENT, messages.ABSTAIN_INVENT_MISSING)
    if asks_choice(query):
        return Abstention("request", messages.ABSTAIN_ADVICE, messages.ABSTAIN_ADVICE_MISSING)
    if asks_outside(query):
        return Abstention("request", messages.ABSTAIN_OUTSIDE, messages.ABSTAIN_OUTSIDE_MISSING)
    return None


def task_abstention(query: str, cards: Sequence[DocumentCard] = ()) -> Abstention | None:
    """An abstention for a message taken for small talk that asks for a task of another
    domain (``finagent.question.requests.asks_task_outside``); the user's document cards
    lend their words as anchors."""
    vocabulary = frozenset(word for card in cards for word in card.vocabulary)
    if asks_task_outside(query, vocabulary):
        return Abstention("request", messages.ABSTAIN_OUTSIDE, messages.ABSTAIN_OUTSIDE_MISSING)
    return None


async def scope_abstention(
    query: str, chunks: list[Chunk], catalog: LawCatalog | None
) -> Abstention | None:
    """An abstention for a question outside what is ingested, or None."""
    found = jurisdiction_abstention(query)
    if found:
        return found
    ingested = await catalog.codes() if catalog else set()
    loaded = ", ".join(code_name(c) for c in sorted(ingested)) or "кодексы не загружены"
    for key, named, terms in _codes_asked(query):
        if key in ingested:
            continue
        if named:
            if _covered_by_sources(_OTHER_CODE_RE[key], chunks):
                continue
        elif _terms_covered(terms, chunks):
            continue
        name = _OTHER_CODE_NAMES[key]
        return Abstention(
            "code",
            messages.ABSTAIN_CODE.format(code=name),
            messages.ABSTAIN_CODE_MISSING.format(code=name, loaded=loaded),
        )
    if catalog is not None:
        for ref in find_references(query):
            if ref.code not in (None, "nk") and ref.code not in ingested:
                continue  # handled above as a code that is not ingested
            resolution = await catalog.resolve(ref)
            if resolution.problem in ("article", "point", "subpoint"):
                return Abstention(
                    "article",
                    messages.ABSTAIN_ARTICLE.format(reference=ref.label),
                    messages.ABSTAIN_ARTICLE_MISSING.format(reference=ref.label),
                )
    if catalog is not None and "nk" in ingested:
        found = await _uncovered_tax(query, chunks, catalog)
        if found:
            return found
    documents = find_documents(query) or [m.group(0) for m in _RULING.finditer(query)]
    for document in documents:
        needle = re.escape(document.split("№")[-1].split(" N ")[-1].strip()[:30])
        if not _covered_by_sources(re.compile(needle, re.IGNORECASE), chunks):
            return Abstention(
                "document",
                messages.ABSTAIN_DOCUMENT.format(document=document),
                messages.ABSTAIN_DOCUMENT_MISSING.format(document=document),
            )
    return None


async def _uncovered_tax(query: str, chunks: list[Chunk], catalog: LawCatalog) -> Abstention | None:
    """The question names only taxes whose chapter (or rate article) is not ingested."""
    named = taxes_named(query)
    if not named:
        return None
    chapters = await catalog.chapters("nk")
    loaded = messages.ABSTAIN_CHAPTERS_LOADED.format(
        chapters=", ".join(sorted(chapters, key=_chapter_key))
    )
    problems: list[Abstention] = []
    figure = asks_figure(query)
    for tax in named:
        if _covered_by_sources(tax.pattern, chunks) or _kb_article_of(tax, query, chunks):
            return None
        # the general part names every tax (art. 13-15, 18): enough for a question with
        # no figure, such as «транспортный налог — региональный?»
        if not figure and any(tax.pattern.search(c.text) for c in chunks):
            return None
        if tax.chapter is None:
            reason = messages.ABSTAIN_LAW.format(tax=tax.name)
            missing = messages.ABSTAIN_LAW_MISSING.format(law=tax.law)
        elif tax.chapter not in chapters:
            reason = messages.ABSTAIN_CHAPTER.format(tax=tax.name)
            missing = messages.ABSTAIN_CHAPTER_MISSING.format(chapter=tax.chapter, tax=tax.name)
        elif asks_rate(query) and not any(
            RATE_ARTICLE_TITLE.match(title) for title in chapters[tax.chapter]
        ):
            reason = messages.ABSTAIN_RATE_ARTICLE.format(tax=tax.name)
            missing = messages.ABSTAIN_RATE_ARTICLE_MISSING.format(chapter=tax.chapter)
        else:
            return None  # one named tax the corpus covers is enough to try
        problems.append(Abstention("chapter", reason, f"{missing} {loaded}"))
    return problems[0]


def _lemmas(text: str) -> list[str]:
    return [lm for sentence in analyse(text).sentences for lm in sentence.lemmas]


def _content(lemmas: Sequence[str]) -> set[str]:
    return {lm for lm in lemmas if len(lm) >= _SHORTEST and lm.isalpha() and lm not in STOP_LEMMAS}


def _kb_article_of(tax: Tax, query: str, chunks: list[Chunk]) -> bool:
    """A retrieved knowledge-base passage on the tax that speaks of what is asked: one of its
    lines (its title path is the first) names every word of the tax's full name, by lemma or
    root, however worded («Имущественные налоги физических лиц» for «налог на имущество
    физических лиц»), and the passage names a word of the question beyond the tax's name,
    a word for a kind of value and a unit («квартира», «площадь»). The article answers
    from its own text, so the tax's missing chapter is no ground to decline."""
    name = _content(_lemmas(tax.name))
    asked = _content(_lemmas(query)) - name - GENERIC_HEADS - MEASURE_UNITS
    if not name or not asked:
        return False
    for chunk in chunks:
        if chunk.source != "kb":
            continue
        lines = [_lemmas(line) for line in f"{chunk.title or ''}\n{chunk.text}".splitlines()]
        if not any(all(names_lemma(w, set(lms)) for w in name) for lms in lines if lms):
            continue
        held = {lm for lms in lines for lm in lms}
        if any(names_lemma(w, held) for w in asked):
            return True
    return False


def _chapter_key(chapter: str) -> tuple[float, ...]:
    return tuple(float(p) for p in chapter.split(".") if p.isdigit())


def evidence_abstention(
    best_similarity: float | None,
    chunks: list[Chunk],
    min_similarity: float,
    shared_words: int | None = None,
) -> Abstention | None:
    """An abstention when no passage is close enough to the question.

    Close enough: the best sentence reaches ``min_similarity`` (e5 cosine) and at least
    one content word of the question occurs in the passages (``shared_words``).
    """
    close = best_similarity is not None and best_similarity >= min_similarity
    if chunks and close and shared_words != 0:
        return None
    titles = "; ".join(dict.fromkeys(c.metadata.get("citation") or c.title for c in chunks[:3]))
    return Abstention(
        "evidence",
        messages.ABSTAIN_EVIDENCE,
        messages.ABSTAIN_EVIDENCE_MISSING.format(titles=titles or "ничего не найдено"),
    )


def render_abstention(abstention: Abstention, available: str | None = None) -> str:
    """The Russian answer: no figures in the summary, what is missing in the details."""
    summary = messages.ABSTAIN_SUMMARY.format(reason=abstention.reason)
    details = messages.ABSTAIN_DETAILS.format(
        missing=abstention.missing, available=available or messages.ABSTAIN_AVAILABLE_DEFAULT
    )
    return f"## Краткий вывод\n{summary}\n\n## Подробный анализ\n{details}"
