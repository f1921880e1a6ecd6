"""References quoted verbatim from a source stand; paraphrased or invented ones are removed."""

from __future__ import annotations

from finagent.answering.messages import REFERENCE_REMOVED
from finagent.answering.reference_check import check_references
from finagent.state import Chunk

SOURCE = Chunk(
    id="law-1",
    text="Вычет предоставляется в порядке, предусмотренном статьей 220 настоящего Кодекса.",
    source="law",
)


async def test_a_verbatim_quotation_keeps_the_codes_own_cross_reference() -> None:
    text = (
        "Согласно ст. 219 НК РФ: «Вычет предоставляется в порядке, предусмотренном статьей "
        "220 настоящего Кодекса.» [1]"
    )
    checked, report = await check_references(text, [SOURCE], catalog=None)
    # no catalog: nothing can be verified; the quotation's own reference is kept as quoted
    assert report.quoted == ["ст. 220 НК РФ"] and report.removed == ["ст. 219 НК РФ"]
    assert "статьей 220 настоящего Кодекса" in checked
    assert checked.startswith(f"Согласно {REFERENCE_REMOVED}:")


async def test_a_quotation_that_is_not_in_the_source_is_no_shield() -> None:
    text = "«Вычет предоставляется по правилам статьи 999 настоящего Кодекса.» [1]"
    checked, report = await check_references(text, [SOURCE], catalog=None)
    assert report.removed == ["ст. 999 НК РФ"] and "999" not in checked


async def test_no_references_no_change() -> None:
    text = "Ставка 20 процентов [1]."
    checked, report = await check_references(text, [SOURCE], catalog=None)
    assert checked == text and report.as_debug()["unsupported"] == 0


async def test_a_quote_of_an_emphasised_source_keeps_its_reference() -> None:
    # the source marks figures in bold; the composer quotes the sentence without the markup
    source = Chunk(
        id="kb-1",
        text="Срок ответа — **10 рабочих дней**, а по ст. 93.1 НК РФ — **5 рабочих дней**.",
        source="kb",
    )
    text = "«Срок ответа — 10 рабочих дней, а по ст. 93.1 НК РФ — 5 рабочих дней.» [1]"
    checked, report = await check_references(text, [source], catalog=None)
    assert report.quoted == ["ст. 93.1 НК РФ"] and report.removed == []
    assert checked == text


async def test_a_fragment_barely_longer_than_its_reference_is_no_quote() -> None:
    source = Chunk(
        id="doc-1",
        text="налоговый орган вправе приостановить операции по счетам (пп. 3 п. 3 ст. 76 НК РФ).",
        source="user_docs",
    )
    checked, report = await check_references("«3 п. 3 ст. 76 НК РФ).» [1]", [source], catalog=None)
    assert report.removed == ["п. 3 ст. 76 НК РФ"] and "ст. 76" not in checked
