"""The possible length of a term: «сколько может длиться …» is answered by the Code's rule
and the extension its point states next.

A made-up warehouse audit's point, written for this mechanism, about no evaluation item.
"""

from __future__ import annotations

import pytest

from finagent.answering.asked_extreme import asks_possible_length, extension_after
from finagent.answering.context import build_context
from finagent.answering.direct import compose_direct
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk

POINT = Chunk(id="nk.997#6", text="", source="law", title="ст. 997 НК РФ", metadata={})
OTHER = Chunk(id="nk.997#7", text="", source="law", title="ст. 997 НК РФ", metadata={})
RULE = "Ревизия склада не может продолжаться более трех недель."
EXTENDED = "Указанный срок может быть продлен до шести недель."
PLACE = "Ревизия склада проводится по месту хранения товаров."


def _at(chunk: Chunk, sentence: str, position: int) -> Candidate:
    return Candidate(chunk, 1, sentence, 0, position, score=1.0, learned=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Сколько может длиться ревизия склада?", True),
        ("Ревизия склада — сколько она длится максимум?", True),
        # the plain term, or a condition asked or set aside, is another question
        ("Сколько длится ревизия склада?", False),
        ("Сколько может длиться ревизия склада, если её продлят?", False),
        ("Сколько может длиться ревизия склада без продления?", False),
    ],
)
def test_the_possible_length_is_asked_by_a_modal_or_a_maximum(text: str, expected: bool) -> None:
    assert asks_possible_length(build_question(text)) is expected


def test_the_extension_stated_next_in_the_point_follows_the_rule() -> None:
    question = build_question("Сколько может длиться ревизия склада?")
    top = _at(POINT, RULE, 0)
    extended = _at(POINT, EXTENDED, 1)
    assert extension_after(question, top, [top, extended]) is extended
    # a sentence of another point, or one naming no extension, is none
    assert extension_after(question, top, [top, _at(OTHER, EXTENDED, 1)]) is None
    assert extension_after(question, top, [top, _at(POINT, PLACE, 1)]) is None
    # the plain term is answered by the rule alone
    plain = build_question("Сколько длится ревизия склада?")
    assert extension_after(plain, top, [top, extended]) is None


def test_the_lead_names_the_extension_and_quotes_it_after_the_rule() -> None:
    chunk = Chunk(
        id="nk.997#6",
        text=f"6. {RULE} {EXTENDED}",
        source="law",
        title="ст. 997 НК РФ",
        metadata={"citation": "п. 6 ст. 997 НК РФ"},
    )
    ctx = build_context([chunk], [], 10_000)
    ranked = [_at(chunk, RULE, 0), _at(chunk, EXTENDED, 1)]
    possible = compose_direct(
        build_question("Сколько может длиться ревизия склада?"), ctx, ranked, []
    )
    lead = possible.split("\n\n")[:3]
    assert "Срок — 3 недели" in lead[0] and "с продлением — 6 недель" in lead[0]
    assert EXTENDED in possible.split("##")[1]
    plain = compose_direct(build_question("Сколько длится ревизия склада?"), ctx, ranked, [])
    assert "с продлением" not in plain
