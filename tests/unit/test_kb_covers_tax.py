"""A tax whose chapter of the Code is not loaded is still answered from a knowledge-base
article on it that speaks of what is asked, however the article words the tax's name.
Invented articles and wording."""

from __future__ import annotations

from typing import Any

from finagent.answering.abstention import scope_abstention
from finagent.legal.catalog import LawCatalog
from finagent.retrieval.legal import parse_code
from finagent.retrieval.legal_chunks import chunk_units
from finagent.state import Chunk

# only chapter 23 of the Code is loaded: chapter 32 (individuals' property tax) is not
CODE = """Глава 23. НАЛОГ НА ДОХОДЫ ФИЗИЧЕСКИХ ЛИЦ

Статья 224. Налоговые ставки

1. Налоговая ставка устанавливается в размере 13 процентов.
"""


class _Index:
    """The vector backend's scroll over the loaded Code's payloads (a stand-in for the
    external store, as in test_legal_items)."""

    def __init__(self, payloads: list[dict[str, Any]]) -> None:
        self.payloads = payloads

    async def count(self, collection: str, flt: Any) -> int:
        return len(self.payloads)

    async def scroll(
        self, collection: str, flt: Any, limit: int = 100_000, fields: Any = None
    ) -> list[dict[str, Any]]:
        if fields is None:
            return self.payloads
        return [{k: v for k, v in p.items() if k in fields} for p in self.payloads]


def _catalog() -> LawCatalog:
    units = chunk_units(parse_code(CODE, "nk", 2), max_chars=600, overlap=50)
    return LawCatalog(_Index([{**c.payload(), "source": "law"} for c in units]), "kb")  # type: ignore[arg-type]


ARTICLE = Chunk(
    id="kb-7:2",
    text=(
        "Имущественные налоги граждан и физических лиц / Как считают налог на имущество\n"
        "Из площади гаража при расчёте вычитают 5 кв. м, из площади дачи — 30 кв. м."
    ),
    source="kb",
    title="Имущественные налоги граждан и физических лиц",
)


async def _kind(question: str, chunks: list[Chunk]) -> str | None:
    found = await scope_abstention(question, chunks, _catalog())
    return found.kind if found else None


async def test_an_article_on_the_tax_that_speaks_of_the_asked_answers() -> None:
    assert (
        await _kind("налог на имущество физлиц: сколько метров дачи не облагается?", [ARTICLE])
        is None
    )


async def test_an_article_that_names_nothing_asked_is_no_ground() -> None:
    assert await _kind("налог на имущество физлиц: какая ставка для яхт?", [ARTICLE]) == "chapter"


async def test_an_article_on_another_tax_is_no_ground() -> None:
    question = "налог на имущество организаций: сколько метров гаража вычитают?"
    assert await _kind(question, [ARTICLE]) == "chapter"
