"""A stable order for search results: by score, ties by the chunk's id in natural order.

The index returns tied scores in no fixed order (RRF gives equal scores to a chunk ranked
first by BM25 and third by e5 and one ranked the other way round; the embedded index
breaks such ties by its own hash order), so the sections of one article came back in
another order from run to run. Every list the retriever returns is ordered here, and a
search asks the index for a few more hits than it keeps, so a tie at the cut is decided
here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

# hits asked beyond the limit, so that ties at the cut are broken here, not by the index
TIE_MARGIN = 8
# scores equal to this many decimals are a tie (float sums differ in the last bits)
SCORE_DECIMALS = 9
_PARTS = re.compile(r"(\d+)")


def id_key(chunk_id: str) -> tuple[tuple[int, int, str], ...]:
    """Natural order of a chunk id: «doc:2» before «doc:10», «st88#1» before «st88#12»."""
    return tuple(
        (1, int(part), "") if part.isdigit() else (0, 0, part)
        for part in _PARTS.split(chunk_id)
        if part
    )


def stable_order(
    items: Sequence[T], score: Callable[[T], float], chunk_id: Callable[[T], str]
) -> list[T]:
    """``items`` best score first; equal scores by chunk id (natural order)."""
    return sorted(items, key=lambda x: (-round(score(x), SCORE_DECIMALS), id_key(chunk_id(x))))
