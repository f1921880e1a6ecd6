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


# --- one definition of a quotation for the agent's check and the evaluation's count ---

KB_LIST = Chunk(
    id="kb-2",
    text=(
        "Её не нужно сдавать. За отсутствие книги грозит штраф по ст. 120 НК РФ — от "
        "10 000 руб. Отражаются:\n\n- доходы по кассовому методу — на дату поступления денег;"
        "\n- при объекте «доходы минус расходы» — оплаченные расходы из перечня ст. 346.16 "
        "НК РФ;\n- уплаченные страховые взносы (для объекта «доходы»)."
    ),
    source="kb",
)
LIST_QUOTE = (
    "«За отсутствие книги грозит штраф по ст. 120 НК РФ — от 10 000 руб. Отражаются: доходы "
    "по кассовому методу — на дату поступления денег; при объекте «доходы минус расходы» — "
    "оплаченные расходы из перечня ст. 346.16 НК РФ; уплаченные страховые взносы (для "
    "объекта «доходы»).» [1]"
)


def _unsupported_in_eval(answer: str, chunks: list[Chunk]) -> list[str]:
    from evals.answers.code_units import CodeUnits
    from evals.answers.quotes import reference_report

    outputs = {"answer": answer, "retrieved": [{"text": c.text} for c in chunks]}
    report = reference_report(outputs, CodeUnits())
    return [r["label"] for r in report["unsupported"]]


async def test_a_list_flattened_into_its_introduction_is_still_a_quotation() -> None:
    # the composer quotes a Markdown list joined to its introduction, without the bullets
    answer = f"## Краткий вывод\n{LIST_QUOTE}\n\n## Подробный анализ\n- {LIST_QUOTE}"
    checked, report = await check_references(answer, [KB_LIST], catalog=None)
    assert report.removed == [] and checked == answer
    assert report.quoted == ["ст. 120 НК РФ", "ст. 346.16 НК РФ"] * 2
    assert _unsupported_in_eval(checked, [KB_LIST]) == []


async def test_a_source_with_unbalanced_nested_quotes_shields_no_later_line() -> None:
    # a statement row «АО «КБ «Вектор-Финанс», …» never closes its outer quote: the next
    # line's quotation is still found, by the agent and by the evaluation alike
    notice = Chunk(
        id="doc-2",
        text=(
            "- За непредставление пояснений — штраф **5 000 руб.** (п. 1 ст. 129.1 НК РФ), "
            "при повторном нарушении в течение года — **20 000 руб.** (п. 2 ст. 129.1 НК РФ)."
        ),
        source="user_docs",
    )
    row = Chunk(
        id="doc-1", text="Контрагент: АО «КБ «Вектор-Финанс», ИНН 7705001234", source="user_docs"
    )
    answer = (
        "- «Контрагент: АО «КБ «Вектор-Финанс», ИНН 7705001234» [1]\n"
        "- «За непредставление пояснений — штраф 5 000 руб. (п. 1 ст. 129.1 НК РФ), при "
        "повторном нарушении в течение года — 20 000 руб. (п. 2 ст. 129.1 НК РФ).» [2]"
    )
    checked, report = await check_references(answer, [row, notice], catalog=None)
    assert report.removed == [] and checked == answer
    assert _unsupported_in_eval(checked, [row, notice]) == []


async def test_every_occurrence_in_every_section_goes_and_the_evaluation_agrees() -> None:
    # a reference outside any quotation is removed wherever it stands; a quotation the
    # source does not hold shields nothing
    answer = (
        "## Краткий вывод\nСтавка — 1 % (ст. 346.20 НК РФ) [1].\n\n"
        "## Подробный анализ\n- По ст. 346.20 НК РФ минимальный налог платят все.\n"
        "- «Минимальный налог уплачивают по ст. 346.20 НК РФ все упрощенцы.» [1]"
    )
    checked, report = await check_references(answer, [KB_LIST], catalog=None)
    assert report.removed == ["ст. 346.20 НК РФ"] * 3
    assert "346.20" not in checked and checked.count(REFERENCE_REMOVED) == 3
    assert _unsupported_in_eval(answer, [KB_LIST]) == ["ст. 346.20 НК РФ"] * 3
    assert _unsupported_in_eval(checked, [KB_LIST]) == []
