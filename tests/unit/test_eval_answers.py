"""The answer evaluators on hand-made agent results (no index, no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.answers.aggregate import aggregate, check_targets, percentile
from evals.answers.code_units import CodeUnits
from evals.answers.dataset import AnswerItem, load_answer_dataset
from evals.answers.evaluators import make_evaluators, make_summary_evaluator
from evals.answers.metrics import abstention_score, citation_scores, key_fact_score, score_item
from evals.answers.outputs import outputs_from_result
from evals.answers.quotes import reference_report
from evals.answers.report import format_report
from evals.answers.text import answer_body, figures
from finagent.graph.agent import AgentResult
from finagent.retrieval.legal_units import LegalUnit
from finagent.state import Chunk

ART88_P2 = (
    "Если камеральной налоговой проверкой выявлены ошибки в налоговой декларации, об этом "
    "сообщается налогоплательщику с требованием представить в течение пяти дней необходимые "
    "пояснения. Порядок установлен статьей 93 настоящего Кодекса."
)


def _unit(article: str, point: str | None, chapter: str = "14", part: int = 1) -> LegalUnit:
    return LegalUnit("nk", part, chapter, "", article, "", point, "текст")


CODE = CodeUnits.from_units(
    [
        _unit("88", "1"),
        _unit("88", "2"),
        _unit("93", "1"),
        _unit("14", None, chapter="2"),
        _unit("219", "1", chapter="23", part=2),
    ]
)


def _chunk(unit_id: str, text: str = "текст", n: int = 0) -> Chunk:
    return Chunk(
        id=f"c{n}-{unit_id}",
        text=text,
        source="kb",
        title=unit_id,
        metadata={"unit_id": unit_id, "article_id": unit_id.split(".p")[0]},
    )


def _item(**kw: object) -> AnswerItem:
    base: dict[str, object] = {
        "id": "t1",
        "question": "В какой срок дать пояснения по камеральной проверке?",
        "expected_units": ["nk1.ch14.art88.p2"],
        "expected_articles": ["nk1.ch14.art88"],
        "key_fact": "в течение пяти дней",
    }
    return AnswerItem(**{**base, **kw})  # type: ignore[arg-type]


def _outputs(answer: str, chunks: list[Chunk], cited: list[str] | None = None) -> dict:
    debug = {} if cited is None else {"cited_units": cited}
    return outputs_from_result(AgentResult(answer=answer, used_chunks=chunks, debug=debug))


def test_key_fact_normalises_case_yo_and_spacing_and_ignores_the_sources() -> None:
    item = _item(key_fact="в течение  трёх\nмесяцев")
    good = _outputs("## Краткий вывод\nВ ТЕЧЕНИЕ ТРЕХ   месяцев [1]", [])
    assert key_fact_score(good, item) == 1.0
    only_sources = _outputs(
        "## Краткий вывод\nСрок есть.\n\n## Источники\n[1] в течение трёх месяцев", []
    )
    assert key_fact_score(only_sources, item) == 0.0
    assert answer_body("Текст\n## Источники\n[1] x") == "Текст"
    assert key_fact_score(good, _item(trap=True, trap_kind="jurisdiction")) is None


def test_citations_from_debug_at_article_and_point_level() -> None:
    out = _outputs("x", [], cited=["nk1.ch14.art88.p1", "nk1.ch14.art88.p2", "nk2.ch23.art219.p1"])
    scores = citation_scores(out, _item())
    assert scores["article_recall"] == 1.0
    assert scores["article_precision"] == 0.5
    assert scores["point_recall"] == 1.0
    assert scores["point_precision"] == pytest.approx(1 / 3)
    nothing = citation_scores(_outputs("x", [], cited=[]), _item())
    assert nothing["point_recall"] == 0.0 and nothing["point_precision"] is None


def test_citations_fall_back_to_the_cited_source_numbers() -> None:
    chunks = [_chunk("nk1.ch14.art88.p1", n=1), _chunk("nk1.ch14.art88.p2", n=2)]
    out = _outputs("Пояснения даются в течение пяти дней [2].\n\n## Источники\n[1] x", chunks)
    assert out["cited_units_source"] == "citations"
    assert out["cited_units"] == ["nk1.ch14.art88.p2"]
    assert citation_scores(out, _item())["point_precision"] == 1.0


def test_traps_count_precision_only_on_answerable_items() -> None:
    out = _outputs("x", [], cited=["nk1.ch14.art88.p2"])
    trap = citation_scores(out, _item(trap=True, trap_kind="jurisdiction", expected_units=[]))
    assert set(trap.values()) == {None}
    edition = citation_scores(out, _item(trap=True, trap_kind="after_edition"))
    assert edition["point_recall"] == 1.0 and edition["point_precision"] is None


ABSTAIN = (
    "## Краткий вывод\nВ загруженных источниках нет оснований для ответа на этот вопрос: "
    "КоАП РФ не загружен.\n\n## Подробный анализ\nМогу ответить по ст. 122 НК РФ [1]."
)


def test_trap_abstention_pass_and_fail() -> None:
    question = "Какой штраф по КоАП за 2024 год?"
    trap = _item(trap=True, trap_kind="uningested_code", expected_units=[], key_fact=None)
    assert abstention_score(_outputs(ABSTAIN, []), trap, question) == 1.0
    with_figure = ABSTAIN.replace("не загружен.", "не загружен, штраф 5 процентов.")
    assert abstention_score(_outputs(with_figure, []), trap, question) == 0.0
    # a number of the question itself is not a stated figure
    own = ABSTAIN.replace("не загружен.", "не загружен за 2024 год.")
    assert abstention_score(_outputs(own, []), trap, question) == 1.0
    answered = "## Краткий вывод\nШтраф составляет 20 процентов [1]."
    assert abstention_score(_outputs(answered, []), trap, question) == 0.0
    assert figures("по п. 2 ст. 88 НК РФ [3] и 1 000 рублей", "") == ["1000"]


def test_after_edition_traps_need_the_warning_and_false_abstention_is_counted() -> None:
    edition = _item(trap=True, trap_kind="after_edition")
    warned = _outputs("> Вопрос о 2027 годе: норма могла измениться. Ставка 20 % [1].", [])
    assert abstention_score(warned, edition, "") == 1.0
    assert abstention_score(_outputs("Ставка 20 % [1].", []), edition, "") == 0.0
    item = _item()
    scores = score_item(item, item.question, _outputs(ABSTAIN, []), CODE)
    assert scores.abstained and scores.false_abstention == 1.0
    assert scores.trap_abstention is None


def test_quoted_supported_and_unsupported_references() -> None:
    chunks = [_chunk("nk1.ch14.art88.p2", ART88_P2)]
    answer = (
        "## Краткий вывод\nПояснения нужно дать в течение пяти дней (п. 2 ст. 88 НК РФ) [1].\n\n"
        "## Подробный анализ\n- **п. 2 ст. 88 НК РФ**: «Порядок установлен статьей 93 "
        "настоящего Кодекса.» [1]\nТакже см. ст. 93 НК РФ. Штраф по ст. 15.1 КоАП РФ. "
        "И ст. 999 НК РФ, и п. 7 ст. 88 НК РФ.\n\n## Источники\n[1] ст. 500 НК РФ"
    )
    report = reference_report(_outputs(answer, chunks), CODE)
    assert [r["label"] for r in report["supported"]] == ["п. 2 ст. 88 НК РФ", "п. 2 ст. 88 НК РФ"]
    assert [r["label"] for r in report["quoted"]] == ["ст. 93 НК РФ"]
    unsupported = {r["label"]: r["reason"] for r in report["unsupported"]}
    assert unsupported == {
        "ст. 93 НК РФ": "not_retrieved",  # the same article outside the quotation
        "ст. 15.1 КоАП РФ": "unresolved",  # another code
        "ст. 999 НК РФ": "unresolved",  # no such article
        "п. 7 ст. 88 НК РФ": "unresolved",  # no such point
    }
    # the source list is not part of the body
    assert "ст. 500 НК РФ" not in str(report)


def test_evaluators_and_summary_report_the_same_scores() -> None:
    item = _item()
    chunks = [_chunk("nk1.ch14.art88.p2", ART88_P2)]
    out = _outputs("Пояснения в течение пяти дней [1].", chunks, ["nk1.ch14.art88.p2"])
    out["latency_ms"] = 12.0
    inputs, reference = {"question": item.question}, item.reference()
    results = {
        r["key"]: r["score"]
        for ev in make_evaluators(CODE)
        for r in ev(inputs, out, reference)["results"]
    }
    assert results["key_fact"] == 1.0 and results["point_precision"] == 1.0
    assert results["false_abstention"] == 0.0 and results["unsupported_refs"] == 0
    assert "trap_abstention" not in results

    class Run:
        outputs = out

    class Example:
        inputs = {"question": item.question}
        outputs = reference

    summary = make_summary_evaluator(CODE)([Run()], [Example()])
    keys = {r["key"]: r["score"] for r in summary["results"]}
    assert keys["key_fact"] == 1.0 and keys["latency_p50_ms"] == 12.0
    failed = {
        r["key"]: r["score"]
        for ev in make_evaluators(CODE)
        for r in ev(inputs, {}, reference)["results"]
    }
    assert failed["key_fact"] == 0.0 and failed["point_recall"] == 0.0


def test_aggregate_targets_and_table() -> None:
    item = _item()
    trap = _item(id="t2", trap=True, trap_kind="jurisdiction", expected_units=[], key_fact=None)
    good = score_item(
        item, item.question, _outputs("в течение пяти дней [1]", [], ["nk1.ch14.art88.p2"]), CODE
    )
    declined = score_item(trap, "Ставка НДС в Казахстане?", _outputs(ABSTAIN, []), CODE)
    metrics = aggregate([good, declined])
    assert metrics["key_fact"] == 1.0 and metrics["trap_abstention"] == 1.0
    assert metrics["unsupported_refs"] == 1  # ст. 122 НК РФ named in the abstention, not retrieved
    assert metrics["unsupported_in_abstentions"] == 1
    targets = check_targets(metrics)
    assert targets["key_fact"] is True and targets["unsupported_refs"] is False
    assert percentile([5.0, 1.0, 3.0, 2.0], 50) == 2.0 and percentile([], 95) == 0.0
    part = {
        "size": 2,
        "modes": {m: {"metrics": metrics, "targets": targets} for m in ("baseline", "verified")},
    }
    result = {
        "llm": "offline",
        "embedder": "e5",
        "langsmith": {"upload": False},
        "by_dataset": {"answers_taxcode": part},
    }
    table = format_report(result)
    assert "== answers_taxcode (2 items)" in table
    assert "key fact rate" in table and "baseline  verified" in table
    assert ">= 0.8  met / met" in table


def test_dataset_loading_validates_items(tmp_path: Path) -> None:
    path = tmp_path / "tiny.jsonl"
    rows = [
        {
            "id": "x1",
            "question": "Вопрос?",
            "expected_units": ["nk1.ch2.art14"],
            "expected_articles": ["nk1.ch2.art14"],
            "key_fact": None,
            "topic": "t",
            "trap": False,
            "trap_kind": None,
            "note": "",
        },
        {
            "id": "x2",
            "question": "Ловушка?",
            "expected_units": [],
            "expected_articles": [],
            "key_fact": None,
            "topic": "t",
            "trap": True,
            "trap_kind": "after_edition",
            "note": "",
        },
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", "utf-8")
    items = load_answer_dataset(path)
    assert [i.dataset for i in items] == ["tiny", "tiny"]
    assert not items[1].abstention_expected and not items[1].counts_for_recall
    assert len(load_answer_dataset(path, limit=1)) == 1
    path.write_text(json.dumps({**rows[0], "trap_kind": "bogus"}), "utf-8")
    with pytest.raises(ValueError, match="trap_kind"):
        load_answer_dataset(path)


def test_an_abstention_naming_the_questions_missing_article_cites_nothing() -> None:
    trap = _item(
        id="t3", trap=True, trap_kind="nonexistent_document", expected_units=[], key_fact=None
    )
    question = "Что сказано в ст. 999 НК РФ?"
    answer = (
        "## Краткий вывод\nВ загруженных источниках нет оснований для ответа на этот вопрос: "
        "ст. 999 НК РФ нет в загруженном тексте.\n\n## Подробный анализ\nСм. ст. 123 НК РФ."
    )
    scores = score_item(trap, question, _outputs(answer, []), CODE)
    assert scores.named_missing_refs == 1  # the question's own reference, declared missing
    assert scores.unsupported_refs == 1  # ст. 123 НК РФ is offered without a source
    answered = score_item(trap, question, _outputs("Согласно ст. 999 НК РФ ставка 5 %.", []), CODE)
    assert answered.unsupported_refs == 1 and answered.named_missing_refs == 0


def test_a_declines_listing_of_titles_carries_no_tax_code_reference() -> None:
    trap = _item(id="t4", trap=True, trap_kind="out_of_scope", expected_units=[], key_fact=None)
    answer = (
        "Среди загруженных вами документов нет такого: накладная. Поэтому нет оснований для "
        "ответа по этому документу.\n\nВаши документы:\n- Трудовой договор (ст. 56–62 ТК РФ)"
    )
    scores = score_item(trap, "Что в накладной?", _outputs(answer, []), CODE)
    assert scores.unsupported_refs == 0
    answered = score_item(trap, "Что в накладной?", _outputs("См. ст. 56 ТК РФ.", []), CODE)
    assert answered.unsupported_refs == 1  # an answer's other-code reference still counts


def test_llm_path_names_the_fallback_the_overruled_llm_route_and_the_output_check() -> None:
    debug = {
        "decision": {"source": "classifier", "scenario": 2},
        "routing_cross_check": {"llm": {"scenario": 5}, "decided_by": "check:offline_confident"},
        "output_check": "copied_context",
        "text_tool_calls": 1,
        "reply_shares": {"words": 40, "prompt": 0.05, "context": 0.92},
    }
    path = outputs_from_result(AgentResult(answer="ответ", debug=debug))["llm_path"]
    assert path == {
        "decision_source": "classifier",
        "llm_route": "S5",
        "orchestrator_fallback": None,
        "decided_by": "check:offline_confident",
        "output_check": "copied_context",
        "text_tool_calls": 1,
        "reply_shares": {"words": 40, "prompt": 0.05, "context": 0.92},
        "rejected_reply": None,
    }
    failed = {"orchestrator_fallback": {"error_kind": "StructuredOutputError", "request_id": "x"}}
    path = outputs_from_result(AgentResult(answer="ответ", debug=failed))["llm_path"]
    assert path["orchestrator_fallback"] == "StructuredOutputError"
    assert path["llm_route"] is None and path["output_check"] is None
