"""A question that names a tax is about that tax's chapter of the Tax Code.

«Какие ставки НДС действуют и когда применяется 0 %?» is about chapter 21; п. 3 ст.
346.51 (chapter 26.5, the patent system) also speaks of «ставки в размере 0 процентов»
and shares the question's words, but it answers for another tax. When the question names
taxes (:func:`finagent.legal.taxes.taxes_named`), the knowledge-base search
(:meth:`Retriever.search_many`) searches the question once more inside their chapters,
and once more inside their rate articles («Налоговые ставки») when it asks for a rate,
and fuses those lists with the others; the rate articles' best passage keeps a place
among the results (:meth:`TaxFocus.kept`). Tax Code passages from the chapters of taxes
the question does not name go after every other result. The general part (chapters 1-20),
knowledge-base articles and user documents are never pushed back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from finagent.legal.taxes import (
    RATE_ARTICLE_TITLE,
    RATE_ARTICLE_TITLES,
    TAXES,
    asks_rate,
    taxes_named,
)
from finagent.retrieval.index import SearchFilter
from finagent.state import Chunk

LAW_SOURCE = "law"  # the payload source of code passages (law_ingest.LAW_SOURCE)
TAX_CODE = "nk"
TAX_CHAPTERS = frozenset(tax.chapter for tax in TAXES if tax.chapter)


@dataclass(frozen=True)
class TaxFocus:
    """The Tax Code chapters of the taxes a question names, and whether it asks a rate."""

    chapters: tuple[str, ...]
    rate: bool = False

    def narrowed(self, flt: SearchFilter | None) -> list[SearchFilter]:
        """``flt`` narrowed to the chapters (and to their rate articles for a rate
        question); nothing when ``flt`` leaves the Tax Code out."""
        base = flt or SearchFilter()
        sources = [base.source] if isinstance(base.source, str) else base.source
        if sources is not None and LAW_SOURCE not in sources:
            return []
        chapters = {**base.extra, "code": TAX_CODE, "chapter": list(self.chapters)}
        extras = [chapters]
        if self.rate:
            extras.append({**chapters, "article_title": list(RATE_ARTICLE_TITLES)})
        return [
            SearchFilter(
                user_id=base.user_id, document_ids=base.document_ids, source=LAW_SOURCE, extra=e
            )
            for e in extras
        ]

    def rate_article(self, chunk: Chunk) -> bool:
        """For a rate question: a passage of a named chapter's rate article."""
        return (
            self.rate
            and chunk.source == LAW_SOURCE
            and str(chunk.metadata.get("chapter") or "") in self.chapters
            and bool(RATE_ARTICLE_TITLE.match(str(chunk.metadata.get("article_title") or "")))
        )

    def kept(self, focused: Sequence[Sequence[Chunk]]) -> list[Chunk]:
        """For a rate question, the best passage of the named chapters' rate articles: the
        rate article states the rate, though other articles of the chapter share more of
        the question's words and win the fusion («Какая ставка ЕСХН?» — п. 1 ст. 346.8,
        not the computation rules of ст. 346.9)."""
        if not self.rate or len(focused) < 2 or not focused[1]:
            return []
        return [focused[1][0]]

    def demoted(self, chunk: Chunk) -> bool:
        """A Tax Code passage of another tax's chapter."""
        if chunk.source != LAW_SOURCE or chunk.metadata.get("code", TAX_CODE) != TAX_CODE:
            return False
        chapter = str(chunk.metadata.get("chapter") or "")
        return chapter in TAX_CHAPTERS and chapter not in self.chapters


def tax_focus(question: str) -> TaxFocus | None:
    """The chapters of the taxes ``question`` names; None when it names none of the Code's."""
    chapters = [tax.chapter for tax in taxes_named(question) if tax.chapter]
    if not chapters:
        return None
    return TaxFocus(tuple(dict.fromkeys(chapters)), rate=asks_rate(question))
