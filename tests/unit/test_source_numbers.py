"""Citation numbers an answer shows have no gaps: the cited sources become [1], [2], ...
and the source list, the streamed citations and the eval read the same numbers."""

from __future__ import annotations

from evals.answers.outputs import fallback_cited_units
from finagent.answering.context import build_context, renumber
from finagent.answering.final import finalise
from finagent.server.stream import citations
from finagent.state import Chunk, Source


def law(unit: str, citation: str) -> Chunk:
    meta = {"unit_id": unit, "citation": citation}
    return Chunk(id=f"{unit}#0", text=citation, source="law", title=citation, metadata=meta)


CHUNKS = [
    law("nk1.ch14.art88.p2", "п. 2 ст. 88 НК РФ"),
    law("nk1.ch14.art88.p3", "п. 3 ст. 88 НК РФ"),
    law("nk2.ch21.art164.p1", "п. 1 ст. 164 НК РФ"),
]


def test_cited_sources_are_numbered_in_order_of_first_citation() -> None:
    sources = [Source(number=n, title=t, kind="kb") for n, t in [(1, "A"), (2, "B"), (3, "C")]]
    body, shown, pairs = renumber("Вывод [3]. Подробно: [1], снова [3].", sources)
    assert body == "Вывод [1]. Подробно: [2], снова [1]."
    assert [(s.number, s.title) for s in shown] == [(1, "C"), (2, "A"), (3, "B")]
    assert pairs == [[3, 1], [1, 2], [2, 3]]
    # nothing cited: the numbers stay
    assert renumber("Без ссылок.", sources)[2] == [[1, 1], [2, 2], [3, 3]]


def test_the_answer_and_its_source_list_have_no_gap() -> None:
    ctx = build_context(CHUNKS, [], 10_000)
    text, debug = finalise(
        "## Краткий вывод\nСрок три месяца [3], а [1] о другом.", ctx.sources, []
    )
    assert "три месяца [1], а [2] о другом" in text
    assert text.endswith("## Источники\n[1] п. 1 ст. 164 НК РФ\n[2] п. 2 ст. 88 НК РФ")
    assert "[3]" not in text
    assert debug == {"source_numbers": [[3, 1], [1, 2], [2, 3]]}

    # the stream's citations carry the numbers the answer shows, with their passages
    shown = citations(CHUNKS, [], 10_000, debug["source_numbers"])
    assert [(c["number"], c["title"]) for c in shown] == [
        (1, "п. 1 ст. 164 НК РФ"),
        (2, "п. 2 ст. 88 НК РФ"),
        (3, "п. 3 ст. 88 НК РФ"),
    ]
    assert shown[0]["passages"][0]["chunk_id"] == "nk2.ch21.art164.p1#0"

    # the eval maps the shown numbers back to the retrieved units
    units = fallback_cited_units(text, CHUNKS, debug["source_numbers"])
    assert units == ["nk1.ch14.art88.p2", "nk2.ch21.art164.p1"]
