"""The law catalogue joins a unit's overlapping chunks: the fast overlap search finds
exactly what the plain definition (the longest 21-400 character overlap) finds."""

from __future__ import annotations

import random

from finagent.legal.catalog import _join, _overlap


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
