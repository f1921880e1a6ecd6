"""The direct-answer evaluation's matcher, item parsing, figure check and arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.direct.dataset import docs_folder, fresh_user, is_blind, load_direct_dataset
from evals.direct.figures import answer_figures, source_titles, unsupported_figures
from evals.direct.matching import (
    first_section,
    group_met,
    lead_line,
    missing_groups,
    normalise_value,
)
from evals.direct.scoring import ItemResult, aggregate, check_targets


@pytest.mark.parametrize(
    ("text", "alternative"),
    [
        ("Платим 297\u00a0200 руб. в месяц", "297200"),
        ("Платим 297200 руб.", "297 200"),
        ("Платим 3\u202f269\u2009200 рублей", "3 269 200"),
        ("Ставка — 20 %.", "20%"),
        ("пени 0,1 % в день", "0.1 %"),
        ("Арендодатель — ООО «СеверСтройИнвест»", 'ООО "СеверСтройИнвест"'),
        ("Вычет на ЛЕЧЕНИЕ", "вычет на лечение."),
        ("срок — три месяца", "три месяца"),
        ("Отчёт сдаётся", "отчет сдается"),
    ],
)
def test_normalised_alternative_is_found(text: str, alternative: str) -> None:
    assert group_met(text, [alternative])


@pytest.mark.parametrize(
    ("text", "alternative"),
    [
        ("Платим 297 201 руб.", "297 200"),
        ("Ставка 2 %", "20 %"),
        ("Покупатель — АО «Север»", "ООО «Север»"),
    ],
)
def test_different_value_is_not_found(text: str, alternative: str) -> None:
    assert not group_met(text, [alternative])


def test_normalise_value_strips_edges_and_unifies_dashes() -> None:
    assert normalise_value("  «Срок — 60 дней».  ") == "срок - 60 дней"


def test_every_group_needed_any_alternative_enough() -> None:
    groups = [["297 200", "297200"], ["СеверСтройИнвест"]]
    assert missing_groups("297200 руб., арендодатель СеверСтройИнвест", groups) == []
    assert missing_groups("297 200 руб.", groups) == [["СеверСтройИнвест"]]


def test_first_section_is_the_summary_else_the_first_paragraph() -> None:
    answer = (
        "## Краткий вывод\nСтавка 20 % [1].\n\n## Подробный анализ\n297 200\n\n## Источники\n[1] x"
    )
    assert first_section(answer) == "Ставка 20 % [1]."
    assert first_section("Чтобы ответить точно, уточните:\n- какой год?\n\nещё") == (
        "Чтобы ответить точно, уточните:\n- какой год?"
    )


def test_figures_with_units_and_dates_but_not_references() -> None:
    text = "Ставка 20 % (п. 3 ст. 164 НК РФ) [2]; 60 календарных дней; до 12.03.2025; 5 лет"
    assert answer_figures(text) == ["20 %", "60 календарных дней", "12.03.2025", "5 лет"]


def test_unsupported_figure_is_one_in_no_source_nor_question() -> None:
    answer = "## Краткий вывод\nПлата 297 200 руб., пени 0,5 % за 30 дней [1].\n\n## Источники\n1"
    sources = ["Арендная плата составляет 297\u00a0200 рублей в месяц; пени 0,5 процента"]
    assert unsupported_figures(answer, sources, "что будет через 30 дней?") == []
    assert unsupported_figures(answer, sources, "что будет?") == ["30 дней"]


def test_a_number_its_source_wraps_over_a_line_is_supported() -> None:
    answer = "## Краткий вывод\nНДС — 71 400 рублей [1]."
    assert unsupported_figures(answer, ["в том числе НДС — 71\n400 рублей"], "") == []
    assert unsupported_figures(answer, ["в том числе НДС — 71\n500 рублей"], "") == [
        "71 400 рублей"
    ]


def test_iso_date_of_a_source_supports_the_written_date() -> None:
    answer = "## Краткий вывод\nТекст НК РФ в редакции от 31.07.2025 [1]."
    assert unsupported_figures(answer, ["edition 2025-07-31"], "") == []
    assert unsupported_figures(answer, ["edition 2025-07-30"], "") == ["31.07.2025"]


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), "utf-8")
    return path


GOOD = {
    "id": "a1",
    "question": "Сколько платим?",
    "category": "doc_sample",
    "user": "demo",
    "answer_type": "amount",
    "must_contain": [["297 200"]],
    "expected": "answer",
    "as_of": "2026-11-27",
}


def test_malformed_items_are_reported_and_skipped(tmp_path: Path) -> None:
    rows: list[object] = [
        GOOD,
        {**GOOD, "id": "a2", "category": "law"},
        {**GOOD, "id": "a3", "must_contain": []},
        {**GOOD, "id": "a4", "as_of": "27.11.2026"},
        {**GOOD, "id": "a5", "must_contain": [[""]]},
        ["not", "an", "object"],
        {**GOOD},  # duplicate id
        {**GOOD, "id": "d1", "expected": "decline", "must_contain": None, "category": "decline"},
    ]
    path = _write(tmp_path / "direct_x.jsonl", rows)
    path.write_text(path.read_text("utf-8") + "\n{broken", "utf-8")
    loaded = load_direct_dataset(path)
    assert [i.id for i in loaded.items] == ["a1", "d1"]
    assert len(loaded.problems) == 7
    assert loaded.problems[0].startswith("line 2: 'category'")
    assert loaded.items[0].must_contain == [["297 200"]]


def test_dataset_naming_rules() -> None:
    path = Path("/x/direct_dev_blind1.jsonl")
    assert docs_folder(path) == Path("/x/direct_docs/dev_blind1")
    assert fresh_user("direct_dev_blind1") == "fresh-dev_blind1"
    assert is_blind("direct_holdout_v4") and not is_blind("direct_dev_blind1")


def _result(category: str, expected: str = "answer", **kw: object) -> ItemResult:
    result = ItemResult(id=category, category=category, answer_type="amount", expected=expected)
    for key, value in kw.items():
        setattr(result, key, value)
    return result


def test_aggregate_counts_and_rates() -> None:
    results = [
        _result("doc_sample", hit=True, latency_ms=10.0),
        _result("doc_sample", hit=False, value_in_body=True, latency_ms=20.0),
        _result("doc_new", hit=False, declined=True, latency_ms=30.0),
        _result("taxcode", hit=True, unsupported_figures=["5 %", "7 дней"], latency_ms=40.0),
        _result("kb", hit=False, latency_ms=400.0),
        _result("decline", "decline", declined=True, latency_ms=50.0),
        _result("decline", "clarify", clarified=True, latency_ms=60.0),
        _result("decline", "decline", unsupported_refs=["ст. 999"], latency_ms=70.0),
        _result("decline", "decline", live_unavailable=True, latency_ms=80.0),
        _result("kb", error="boom"),
    ]
    metrics = aggregate(results)
    assert metrics["doc_sample"] == {"rate": 0.5, "hit": 1, "n": 2}
    assert metrics["doc_new"] == {"rate": 0.0, "hit": 0, "n": 1}
    assert metrics["doc"] == {"rate": 0.333, "hit": 1, "n": 3}
    assert metrics["taxcode_kb"] == {"rate": 0.333, "hit": 1, "n": 3}
    assert metrics["declined"] == {"rate": 0.75, "hit": 3, "n": 4}
    assert metrics["live_unavailable"] == 1
    # the kb and doc_sample misses; a failed run counts as an error, not as wrong
    assert metrics["wrong"] == 2
    assert metrics["value_elsewhere"] == 1
    assert metrics["false_abstentions"] == 1
    assert metrics["answered_instead_of_declining"] == 1
    assert metrics["unsupported_figures"] == 2
    assert metrics["answers_with_unsupported_figures"] == 1
    assert metrics["unsupported_refs"] == 1
    assert metrics["errors"] == 1
    assert metrics["latency_p95_ms"] == 400.0  # nearest rank over the 9 finished runs
    targets = check_targets(metrics)
    assert targets["doc"] is False and targets["latency_p95_ms"] is False
    assert targets["unsupported_figures"] is False and targets["key_fact"] is None


def test_targets_met_on_a_perfect_run() -> None:
    metrics = aggregate(
        [_result("doc_sample", hit=True), _result("decline", "decline", declined=True)]
    )
    targets = check_targets(metrics)
    assert targets["doc_sample"] is True and targets["declined"] is True
    assert targets["doc_new"] is None
    assert targets["unsupported_figures"] is True and targets["latency_p95_ms"] is True


def test_own_notes_are_not_figures_of_the_answer() -> None:
    from finagent.answering.messages import DATING_WARNING
    from finagent.nodes.not_held import not_held_answer

    warning = DATING_WARNING.format(date="01.01.2025", what="статья базы знаний «X»", year=2026)
    dated = f"## Краткий вывод\n{warning}\n\nСтавка — 6 % [1]."
    assert unsupported_figures(dated, ["Ставка 6 %"], "Какая ставка?") == []
    held = not_held_answer("договор займа", ["Счёт-фактура № 87 от 13 марта 2025 г."])
    assert unsupported_figures(held, [], "Какая ставка по договору займа?") == []
    # a figure the answer states outside those notes still counts
    assert unsupported_figures(held + "\n\nСумма 5 000 руб.", [], "?") == ["5 000 руб"]


def test_a_quote_without_the_sources_emphasis_is_quoted() -> None:
    from evals.answers.quotes import is_quoted

    source = "штраф **5 000 руб.** (п. 1 ст. 129.1 НК РФ), при повторном нарушении — 20 000 руб."
    assert is_quoted("«штраф 5 000 руб. (п. 1 ст. 129.1 НК РФ), при повторном нарушении»", [source])


def test_a_window_of_a_long_sentence_shields_its_reference() -> None:
    from evals.answers.quotes import is_quoted, quoted_reference
    from finagent.legal.references import find_references

    source = (
        "Вычет не дается с месяца, в котором доход, исчисленный нарастающим итогом (за "
        "исключением дохода по ставке, установленной пунктом 1 статьи 777 настоящего "
        "Кодекса), превысил 900 000 рублей."
    )
    window = "«…установленной пунктом 1 статьи 777 настоящего Кодекса), превысил 900 000 рублей.»"
    assert is_quoted(window, [source])
    body = f"Сумма — 900 000 рублей [1].\n\n{window} [1]"
    ref = find_references(body)[0]
    assert quoted_reference(body, ref, [source])
    # a window whose words the source does not hold is not a quotation
    assert not is_quoted("«…установленной пунктом 2 статьи 777 настоящего Кодекса)»", [source])


_SOURCE = (
    "Лицо, в отношении которого проводилась налоговая проверка, в течение одного месяца "
    "со дня получения акта налоговой проверки вправе представить письменные возражения."
)


def test_lead_line_keeps_the_value_line_and_drops_a_copied_quote() -> None:
    summary = f"Срок — одного месяца (п. 6 ст. 100 НК РФ) [1].\n\n«{_SOURCE}» [1]"
    assert lead_line(summary, [_SOURCE]).startswith("Срок — одного месяца")
    quote_only = f"Согласно п. 6 ст. 100 НК РФ: «{_SOURCE}» [1]"
    lead = lead_line(quote_only, [_SOURCE])
    assert lead == "Согласно п. 6 ст. 100 НК РФ: [1]"
    assert missing_groups(lead, [["одного месяца"]]) == [["одного месяца"]]
    # a quotation copied from no cited source is the answer's own words
    assert "одного месяца" in lead_line(quote_only, ["другой текст"])


def test_a_party_name_in_quotes_stays_in_the_lead() -> None:
    source = "ООО «Вектор», именуемое в дальнейшем «Арендодатель», и ИП Петров заключили договор."
    summary = "Арендодатель — ООО «Вектор» [1] (документ «Договор аренды № 5»).\n- «…» [1]"
    assert not missing_groups(lead_line(summary, [source]), [["ООО «Вектор»"]])


def test_aggregate_reports_the_lead_beside_the_hit_rate() -> None:
    results = [
        _result("taxcode", hit=True, lead_hit=True),
        _result("kb", hit=True, lead_hit=False),
        _result("doc_new", hit=True, lead_hit=True),
        _result("doc_new", hit=False, lead_hit=False),
    ]
    metrics = aggregate(results)
    assert metrics["taxcode_kb"] == {"rate": 1.0, "hit": 2, "n": 2}
    assert metrics["lead_taxcode_kb"] == {"rate": 0.5, "hit": 1, "n": 2}
    assert metrics["lead_doc"] == {"rate": 0.5, "hit": 1, "n": 2}
    assert metrics["lead_all"] == {"rate": 0.5, "hit": 2, "n": 4}
    assert metrics["hit_not_lead"] == 1
    assert all(not key.startswith("lead") for key in check_targets(metrics))


def test_a_live_source_notice_is_not_the_lead() -> None:
    from finagent.answering.messages import FROM_KNOWLEDGE_BASE

    notice = f"Источник данных «Банк России» не настроен. {FROM_KNOWLEDGE_BASE}"
    summary = f"{notice}\n\nСтавка — 16,5 % («Ключевая ставка») [1].\n\n«27 октября — 16,5 %.» [1]"
    assert lead_line(summary, ["27 октября — 16,5 %."]).startswith("Ставка — 16,5 %")


def test_the_decline_probes_run_on_the_dev_sets_data_dir() -> None:
    """The probe set has no documents of its own: its fresh user is dev11's, and the dev
    sets come without items so that the data dir (their digest) is theirs."""
    from evals.direct.dataset import DATASETS_DIR
    from evals.direct.probes import FRESH_OF, probe_datasets

    *dev, probes = probe_datasets()
    every_dev_set = list(DATASETS_DIR.glob("direct_dev_blind*.jsonl"))
    assert len(dev) == len(every_dev_set) >= 15 and all(not d.items for d in dev)
    assert dev[0].name == "direct_dev_blind1" and dev[-1].name == f"direct_dev_blind{len(dev)}"
    assert not probes.problems
    refuse = [i for i in probes.items if i.expected != "answer"]
    assert len(refuse) >= 40 and len(probes.items) - len(refuse) >= 20
    assert all(i.dataset == FRESH_OF for i in probes.items if i.user == "fresh")


def test_a_searched_sources_title_is_a_name_not_an_unsupported_figure() -> None:
    from finagent.state import Chunk

    searched = Chunk(id="kb-7", text="Ставки налога.", source="kb", title="Взнос 1 % с дохода")
    answer = (
        "## Краткий вывод\nВ загруженных источниках нет оснований для ответа.\n\n"
        "## Подробный анализ\nИскал «срок» в найденных фрагментах (Взнос 1 % с дохода) — "
        "этот показатель в них не приводится.\n\n## Источники\nИсточники не использовались."
    )
    assert unsupported_figures(answer, [], "какой срок?") == ["1 %"]
    assert unsupported_figures(answer, source_titles([searched], answer), "какой срок?") == []
    # a title the answer does not name supports none of its figures
    elsewhere = answer.replace("(Взнос 1 % с дохода)", "(Ставки) — взнос 1 %")
    assert source_titles([searched], elsewhere) == []
