"""The law catalogue joins a unit's overlapping chunks: the fast overlap search finds
exactly what the plain definition (the longest 21-400 character overlap) finds."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from finagent.legal.catalog import LawCatalog, _join, _overlap


def _plain_overlap(text: str, piece: str) -> int:
    top = min(len(text), len(piece), 400)
    return next((n for n in range(top, 20, -1) if text.endswith(piece[:n])), 0)


def test_overlap_matches_the_definition_on_repetitive_text() -> None:
    rng = random.Random(29)
    for _ in range(5000):
        alphabet = rng.choice(("ab", "ab ", "абв. "))
        base = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 900)))
        cut = rng.randint(0, len(base))
        text = base[:cut]
        piece = base[max(0, cut - rng.randint(0, 450)) :]
        piece += "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 50)))
        assert _overlap(text, piece) == _plain_overlap(text, piece)


def test_join_drops_the_repeated_overlap_and_keeps_unrelated_pieces_apart() -> None:
    first = "1. Налогоплательщики уплачивают налог по ставке, установленной статьей 164."
    second = first[-40:] + " 2. Сумма налога исчисляется по итогам периода."
    assert _join([first, second]) == first + second[40:]
    assert _join([first, "Иной текст без общего начала с концом первого."]) == (
        first + "\nИной текст без общего начала с концом первого."
    )
    assert _join([]) == ""


class GatedIndex:
    """Two law points; ``scroll`` waits for ``release`` (counts its calls)."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.scrolls = 0

    async def count(self, collection: str, flt: Any = None) -> int:
        return 2

    async def scroll(
        self, collection: str, flt: Any, limit: int = 100_000, fields: Any = None
    ) -> list[Any]:
        self.scrolls += 1
        self.started.set()
        await self.release.wait()
        return [
            {"unit_id": f"nk.a{n}", "article": str(n), "text": f"Статья {n}.", "code": "nk"}
            for n in (1, 2)
        ]


async def test_a_prefetched_catalogue_is_loaded_once_for_the_lookup_after_it() -> None:
    index = GatedIndex()
    catalog = LawCatalog(index, "kb")  # type: ignore[arg-type]
    catalog.prefetch()
    catalog.prefetch()  # loading already: not started twice
    lookup = asyncio.create_task(catalog.unit("nk.a2"))
    await index.started.wait()  # the load runs; the lookup waits for it
    index.release.set()
    unit = await lookup
    assert unit is not None and unit.article == "2"
    assert index.scrolls == 1
    catalog.prefetch()  # fresh: nothing to do
    assert index.scrolls == 1


async def test_stopping_cancels_a_load_still_running() -> None:
    index = GatedIndex()
    catalog = LawCatalog(index, "kb")  # type: ignore[arg-type]
    catalog.prefetch()
    await index.started.wait()
    await catalog.stop()
    assert index.scrolls == 1 and not catalog._fresh()
    index.release.set()
    assert await catalog.unit("nk.a1") is not None  # the lookup loads again
