"""A long unit that enumerates items is indexed item by item, each with its citation."""

from __future__ import annotations

from typing import Any

from finagent.legal.catalog import LawCatalog
from finagent.legal.references import find_references
from finagent.retrieval.legal import parse_code
from finagent.retrieval.legal_chunks import chunk_units
from finagent.retrieval.legal_items import enumeration
from finagent.retrieval.retriever import chunk_of_hit
from finagent.retrieval.unit_pieces import _previous_id

FILLER = "условие, установленное для такого случая законодательством, " * 8
ARTICLE = f"""Глава 90. ОБРАЗЦОВЫЙ НАЛОГ

Статья 901. Доходы, освобождаемые от образцового налога

Освобождаются от образцового налога следующие доходы:
1) выплаты на обучение, не превышающие 7000 рублей за год, при условии {FILLER};
2) премии за изобретения, не превышающие 9000 рублей, если {FILLER};
3) доходы, не превышающие 3000 рублей, полученные по каждому из следующих оснований:
стоимость призов, полученных на конкурсах, при условии {FILLER};
суммы помощи работникам, при условии {FILLER}{FILLER};

Статья 902. Ставки

1. Ставка составляет 11 процентов.
"""


def _chunks() -> list[Any]:
    return chunk_units(parse_code(ARTICLE, "nk", 2), max_chars=600, overlap=50)


def test_an_enumeration_has_its_opening_lead_and_items() -> None:
    text = "Вводный текст.\nОсвобождаются доходы:\n1) первый;\n2) второй;\nпродолжение"
    found = enumeration(text)
    assert found is not None and found.lead == "Освобождаются доходы:"
    assert [i.number for i in found.items] == ["1", "2"]
    assert found.items[1].text.endswith("продолжение")
    assert enumeration("Текст без перечня.\n1) единственный пункт;") is None


def test_items_of_an_article_without_points_are_its_points() -> None:
    chunks = [c for c in _chunks() if c.unit.article == "901"]
    assert [c.subpoint for c in chunks][:3] == [None, "1", "2"]
    item = next(c for c in chunks if c.subpoint == "2")
    assert item.citation == "п. 2 ст. 901 НК РФ"
    lead, own = item.text.split("\n", 1)
    assert lead == "Освобождаются от образцового налога следующие доходы:" == item.lead
    assert own.startswith("2) премии") and item.index_text.startswith("Статья 901.")
    assert item.payload()["unit_citation"] == "ст. 901 НК РФ"
    # the long third item is cut in pieces: only its later pieces continue a text
    third = [c for c in chunks if c.subpoint == "3"]
    assert len(third) > 1 and [c.continues for c in third][:2] == [False, True]
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_a_short_unit_stays_whole() -> None:
    rates = [c for c in _chunks() if c.unit.article == "902"]
    assert len(rates) == 1 and rates[0].subpoint is None
    assert rates[0].citation == "п. 1 ст. 902 НК РФ"


def test_an_items_first_piece_has_no_preceding_piece() -> None:
    chunks = _chunks()
    by_id = {
        c.chunk_id: chunk_of_hit(c.chunk_id, 1.0, {**c.payload(), "source": "law"}) for c in chunks
    }
    first = next(c for c in chunks if c.subpoint == "3")
    later = next(c for c in chunks if c.subpoint == "3" and c.continues)
    assert _previous_id(by_id[first.chunk_id]) is None
    assert _previous_id(by_id[later.chunk_id]) == (first.unit.unit_id, first.chunk_id)


class _Index:
    def __init__(self, payloads: list[dict[str, Any]]) -> None:
        self.payloads = payloads

    async def count(self, collection: str, flt: Any) -> int:
        return len(self.payloads)

    async def scroll(
        self, collection: str, flt: Any, limit: int = 100_000, fields: Any = None
    ) -> list[dict[str, Any]]:
        """Only the selected payload keys, as the real backends return them."""
        if fields is None:
            return self.payloads
        return [{k: v for k, v in p.items() if k in fields} for p in self.payloads]


async def test_the_catalog_resolves_an_articles_item_as_its_point() -> None:
    catalog = LawCatalog(_Index([{**c.payload(), "source": "law"} for c in _chunks()]), "kb")
    [ref] = find_references("п. 2 ст. 901 НК РФ")
    resolved = await catalog.resolve(ref)
    assert resolved.ok and resolved.excerpt is not None and "9000 рублей" in resolved.excerpt
    assert resolved.units[0].citation == "ст. 901 НК РФ"
    assert resolved.units[0].text.count("Освобождаются от образцового налога") == 1
    [missing] = find_references("п. 7 ст. 901 НК РФ")
    assert not (await catalog.resolve(missing)).ok
    # an article with points: a point must exist
    [absent] = find_references("п. 3 ст. 902 НК РФ")
    assert (await catalog.resolve(absent)).problem == "point"
