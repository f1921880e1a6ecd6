"""The ``finagent`` command end to end, as a user runs it (subprocesses, embedded parts)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT, run_finagent, skip_without_tax_code
from tests.e2e.conftest import cli_env

finagent = run_finagent


@pytest.fixture
def ingested(env: dict[str, str], kb_csv: Path, doc_files: dict[str, Path]) -> dict[str, str]:
    kb = finagent(env, "ingest", "kb", str(kb_csv))
    assert kb.returncode == 0, kb.stderr
    assert "ingested 4 articles, 0 errors" in kb.stdout
    # the tree of topic folders it wrote
    assert "├── ндс/\n│   └── ставки-ндс.md\n" in kb.stdout
    assert "└── штрафы/\n    └── штраф-за-непредставление-декларации.md" in kb.stdout
    docs = finagent(env, "ingest", "docs", "--user", "alice", *map(str, doc_files.values()))
    assert docs.returncode == 0, docs.stderr
    ids = [line.split("\t")[0] for line in docs.stdout.strip().splitlines()]
    assert len(ids) == 2 and all(i.startswith("doc_") for i in ids)
    return {"lease": ids[0], "invoice": ids[1]}


def test_route_json(env: dict[str, str]) -> None:
    out = finagent(env, "route", "новости о ключевой ставке", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scenario"] == 2 and data["intent"] == "news" and data["intents"] == ["news"]
    assert data["source"] == "rules" and isinstance(data["confidence"], float)
    assert data["rule"] == "keywords" and data["user_documents"] == 0
    assert data["classifier"]["label"] == "news" and len(data["classifier"]["nearest"]) == 3


def test_eval_routing_reports_dev_hold_out_and_cross_validation(
    env: dict[str, str], tmp_path: Path
) -> None:
    rows = [
        {"id": "h1", "query": "найди акт от Гелиоса за май", "scenario": 1},
        {"id": "h2", "query": "посчитай", "scenario": 5},
    ]
    holdout = tmp_path / "holdout.jsonl"
    holdout.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), "utf-8")
    dev = REPO_ROOT / "evals" / "datasets" / "routing.jsonl"
    out = finagent(env, "eval", "routing", "--dataset", str(dev), "--dataset", str(holdout))
    assert out.returncode == 0, out.stderr
    assert "[routing.jsonl]" in out.stdout and "[holdout.jsonl]" in out.stdout
    assert "5-fold cross-validation" in out.stdout and "recall S1" in out.stdout
    as_json = finagent(env, "eval", "routing", "--dataset", str(holdout), "--json")
    data = json.loads(as_json.stdout)
    assert [d["name"] for d in data["datasets"]] == ["holdout.jsonl"]
    assert data["datasets"][0]["accuracy"] == 1.0
    assert data["cross_validation"]["accuracy"] >= 0.9


def test_search_ask_and_isolation(env: dict[str, str], ingested: dict[str, str]) -> None:
    out = finagent(
        env,
        "search",
        "пени за просрочку",
        "--collection",
        "docs",
        "--user",
        "alice",
        "--top-k",
        "3",
        "--json",
    )
    hits = json.loads(out.stdout)["hits"]
    assert hits and {"id", "score", "text", "metadata"} <= set(hits[0])
    assert hits[0]["document_id"] == ingested["lease"]
    bob = finagent(
        env, "search", "пени за просрочку", "--collection", "docs", "--user", "bob", "--json"
    )
    assert json.loads(bob.stdout)["hits"] == []

    answer = finagent(
        env, "ask", "Какая сумма НДС?", "--user", "alice", "--doc", ingested["invoice"], "--json"
    )
    assert answer.returncode == 0, answer.stderr
    result = json.loads(answer.stdout)
    assert result["scenario"] == 3 and "40 000" in result["answer"]

    foreign = finagent(
        env, "ask", "Какая сумма НДС?", "--user", "bob", "--doc", ingested["invoice"]
    )
    assert foreign.returncode == 2 and "Документы не найдены" in foreign.stderr
    assert "40 000" not in foreign.stdout + foreign.stderr


def test_bad_input_is_a_clear_error(env: dict[str, str]) -> None:
    empty = finagent(env, "ask", "  ")
    assert empty.returncode == 2 and "Вопрос пуст" in empty.stderr
    huge = finagent(env, "ask", "x" * 100_000)  # ASCII: argv items are capped at 128 KiB
    assert huge.returncode == 2 and "слишком длинный" in huge.stderr
    bad_args = finagent(env, "tools", "call", "search_general_kb", "--args", "{oops")
    assert bad_args.returncode == 2 and "не JSON" in bad_args.stderr
    unknown = finagent(env, "tools", "call", "no_such_tool")
    assert unknown.returncode == 1 and unknown.stdout.startswith("Error: unknown tool")
    missing = finagent(env, "ingest", "docs", "--user", "alice", "/nonexistent/file.pdf")
    assert missing.returncode == 1 and "файл не найден" in missing.stderr


async def test_index_held_by_another_process_is_a_one_line_error(
    env: dict[str, str], ingested: dict[str, str]
) -> None:
    """Qdrant Edge allows one process per data dir: the second gets a clear error, exit 3."""
    from finagent.retrieval.edge_index import EdgeIndex
    from finagent.retrieval.index import SearchFilter

    holder = EdgeIndex(Path(env["FINAGENT_DATA_DIR"]) / "qdrant_edge")
    try:
        assert await holder.count("finagent_kb", SearchFilter()) > 0  # the shard is open here
        out = finagent(env, "search", "вычет на лечение", "--collection", "kb")
    finally:
        await holder.close()
    assert out.returncode == 3, out.stderr
    assert (
        out.stderr.startswith("Ошибка: встроенный индекс")
        and "другим процессом finagent" in out.stderr
    )
    assert "Traceback" not in out.stderr


def test_tools_list_and_call_as_the_llm_sees_them(
    env: dict[str, str], ingested: dict[str, str]
) -> None:
    listed = json.loads(finagent(env, "tools", "list", "--json").stdout)
    names = {t["function"]["name"] for t in listed}
    assert {"search_user_documents", "load_documents_full", "search_general_kb"} <= names
    schema = next(t for t in listed if t["function"]["name"] == "search_user_documents")
    assert "user_id" not in json.dumps(schema)
    own = finagent(
        env,
        "tools",
        "call",
        "load_documents_full",
        "--args",
        json.dumps({"document_ids": [ingested["lease"]]}),
        "--user",
        "alice",
    )
    assert own.returncode == 0 and "150 000" in own.stdout
    stolen = finagent(
        env,
        "tools",
        "call",
        "load_documents_full",
        "--args",
        json.dumps({"document_ids": [ingested["lease"]]}),
        "--user",
        "bob",
    )
    assert stolen.stdout.startswith("Error: no such documents") and "150 000" not in stolen.stdout


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``finagent demo --json`` on a fresh data dir, run once for the tests below."""
    out = finagent(cli_env(tmp_path_factory.mktemp("demo") / "data"), "demo", "--json")
    assert out.returncode == 0, out.stderr[-2000:]
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def test_demo_covers_every_scenario(demo: dict[str, Any]) -> None:
    data = demo
    assert data["kb_articles"] >= 40 and len(data["documents"]) == 6
    assert data["user"] == "demo"
    scenarios = [a["scenario"] for a in data["answers"]]
    assert scenarios[:7] == [2, 1, 3, 4, 5, 2, 2]
    for answer in data["answers"]:
        if answer["scenario"] in (1, 3, 4):
            assert "## Источники" in answer["answer"]
    assert "не настроен" in data["answers"][5]["answer"]
    # the shipped embeddings cover the bundled data: a fresh data dir computes no vector
    assert data["embeddings"]["computed"] == 0 and data["embeddings"]["from_cache"] > 100
    if data["tax_code"]:  # the text was found (FINAGENT_TAXCODE_DIR or ../shared)
        assert [t["part"] for t in data["tax_code"]] == [1, 2]
        tax_answers = data["answers"][7:]
        assert len(tax_answers) == 2
        assert all(re.search(r"п\. \d+ ст\. [\d.]+ НК РФ", a["answer"]) for a in tax_answers)
    else:
        assert len(data["answers"]) == 7


def test_demo_vat_answer_with_the_tax_code(demo: dict[str, Any]) -> None:
    """The README's first command: the VAT question's first line states the rates, the
    answer quotes chapter 21 (not the patent system's «ставка 0 процентов»), no sentence
    dangles at «:», sources [1], [2], ..."""
    if not demo["tax_code"]:
        skip_without_tax_code("Tax Code text not found (FINAGENT_TAXCODE_DIR or ../shared)")
    answer = demo["answers"][0]["answer"]
    body, sources = answer.split("## Источники\n")
    summary = body.split("## Подробный анализ")[0]
    rates = next(line for line in summary.splitlines() if line.startswith("Ставка НДС — "))
    assert "20 %" in rates and "10 %" in rates
    assert "ст. 164 НК РФ" in answer and "346." not in answer
    assert not re.search(r":»? \[\d+\]", body)
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", body)]
    listed = [int(n) for n in re.findall(r"^\[(\d+)\]", sources, re.MULTILINE)]
    assert listed == list(range(1, len(listed) + 1)) and set(cited) == set(listed)


def test_ask_with_an_openai_compatible_llm(env: dict[str, str], ingested: dict[str, str]) -> None:
    """The real ChatOpenAI client against a loopback chat-completions server."""
    from tests.fakes.openai_api import run_fake_chat

    decision = {
        "scenario": 2,
        "intents": ["kb"],
        "confidence": 0.9,
        "reason": "вопрос о НДС",
        "clarifying_questions": [],
        "sub_queries": ["нулевая ставка НДС экспорт"],
    }
    script = [
        {"content": json.dumps(decision, ensure_ascii=False)},
        {
            "content": "## Краткий вывод\nПри экспорте ставка 0 % [1].\n\n## Подробный анализ\n"
            "Нулевая ставка применяется при экспорте товаров [1]."
        },
    ]
    with run_fake_chat(script) as chat:
        llm_env = {
            **env,
            "FINAGENT_LLM_BASE_URL": chat.url,
            "FINAGENT_LLM_MODEL": "fake-model",
            "FINAGENT_LLM_API_KEY": "sk-test-secret-9876",
            "FINAGENT_LLM_MAX_RETRIES": "0",
        }
        out = finagent(
            llm_env, "-v", "ask", "Какая ставка НДС при экспорте?", "--user", "alice", "--json"
        )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert result["debug"]["decision"]["source"] == "llm"
    assert result["debug"]["answer_mode"] == "llm"
    assert result["answer"].startswith("## Краткий вывод\nПри экспорте ставка 0 % [1].")
    assert "## Источники\n[1] Ставки НДС" in result["answer"]
    first, second = chat.requests
    assert first["response_format"]["type"] == "json_schema"
    assert {t["function"]["name"] for t in second["tools"]} >= {"search_general_kb"}
    assert chat.auth == ["Bearer sk-test-secret-9876"] * 2
    assert "sk-test-secret-9876" not in out.stdout + out.stderr


def research_env(env: dict[str, str], chat_url: str, tmp_path: Path) -> dict[str, str]:
    """The environment of a research run against the fake OpenAI-compatible chat server."""
    return {
        **env,
        "FINAGENT_LLM_BASE_URL": chat_url,
        "FINAGENT_LLM_API_KEY": "sk-x-1234",
        "FINAGENT_REPORTS_DIR": str(tmp_path / "reports"),
        "FINAGENT_LLM_MAX_RETRIES": "0",
    }


def test_research_writes_a_report(
    env: dict[str, str], ingested: dict[str, str], tmp_path: Path
) -> None:
    """`finagent research` end to end: real ChatOpenAI, KB search tool, report on disk."""
    from tests.fakes.openai_api import run_fake_chat

    reasoning = {
        "reasoning_steps": ["Найти ставки НДС", "Оформить отчёт"],
        "current_situation": "Начало",
        "plan_status": "Ищу данные",
        "enough_data": False,
        "remaining_steps": ["Поиск"],
        "task_completed": False,
    }
    script = [
        {
            "content": json.dumps(
                {
                    **reasoning,
                    "tool": {
                        "tool_name": "Req_Find_Passages_For_Queries",
                        "queries": ["ставка НДС экспорт", "льготная ставка НДС"],
                    },
                },
                ensure_ascii=False,
            )
        },
        {
            "content": json.dumps(
                {
                    **reasoning,
                    "enough_data": True,
                    "task_completed": True,
                    "tool": {
                        "tool_name": "create_report",
                        "title": "Ставки НДС",
                        "user_request_language_reference": "Какие ставки НДС?",
                        "content": "Основная ставка 20 %, льготная 10 %, экспорт 0 % [1].",
                        "confidence": "high",
                    },
                },
                ensure_ascii=False,
            )
        },
    ]
    with run_fake_chat(script) as chat:
        llm_env = research_env(env, chat.url, tmp_path)
        out = finagent(llm_env, "research", "Какие ставки НДС?", "--user", "alice", "--json")
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert result["status"] == "completed"
    report = Path(result["report"]["path"])
    assert report.parent == tmp_path / "reports" and report.suffix == ".md"
    assert "экспорт 0 % [1]" in report.read_text(encoding="utf-8")
    tool_turn = json.dumps(chat.requests[1]["messages"], ensure_ascii=False)
    assert "Ставки НДС" in tool_turn  # the KB passages reached the model


def test_research_clarification_resumes_in_a_later_process(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A non-interactive run stops on a clarification; a second process answers it."""
    from tests.fakes.openai_api import run_fake_chat

    reasoning = {
        "reasoning_steps": ["Понять запрос", "Уточнить период"],
        "current_situation": "Период не указан",
        "plan_status": "Жду ответа",
        "enough_data": False,
        "remaining_steps": ["Ответить"],
        "task_completed": False,
    }
    clarify = {
        "tool_name": "clarification",
        "reasoning": "Неясен год",
        "unclear_terms": ["год"],
        "assumptions": ["2024 год", "2025 год"],
        "questions": ["За какой год нужна ставка?"],
    }
    final = {
        "tool_name": "final_answer",
        "reasoning": "Год известен",
        "completed_steps": ["Уточнил год"],
        "answer": "В 2025 году основная ставка НДС 20 %.",
        "status": "completed",
    }
    script = [
        {"content": json.dumps({**reasoning, "tool": step}, ensure_ascii=False)}
        for step in (clarify, final)
    ]
    with run_fake_chat(script) as chat:
        llm_env = research_env(env, chat.url, tmp_path)
        first = finagent(llm_env, "research", "Какая ставка НДС?", "--user", "alice")
        assert first.returncode == 0, first.stderr[-3000:]
        assert "За какой год нужна ставка?" in first.stdout
        command = re.search(r"--thread (\S+) --answer", first.stdout)
        assert command, first.stdout
        thread = command.group(1)

        missing = finagent(llm_env, "research", "--thread", "nope", "--answer", "2025")
        assert missing.returncode == 2 and "no research run waiting" in missing.stderr

        second = finagent(
            llm_env, "research", "--thread", thread, "--answer", "2025", "--user", "alice", "--json"
        )
    assert second.returncode == 0, second.stderr[-3000:]
    result = json.loads(second.stdout)
    assert result["status"] == "completed" and result["thread_id"] == thread
    assert result["answer"] == "В 2025 году основная ставка НДС 20 %."
    assert "2025" in json.dumps(chat.requests[-1]["messages"], ensure_ascii=False)


def test_research_finds_the_packaged_agents_from_another_directory(
    env: dict[str, str], ingested: dict[str, str], tmp_path: Path
) -> None:
    """Outside the repository the packaged agent (with its KB tools) is used; a configured
    agents file that does not exist is a clear error with exit code 2."""
    from tests.fakes.openai_api import run_fake_chat

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    reasoning = {
        "reasoning_steps": ["Найти ставки НДС", "Ответить"],
        "current_situation": "Начало",
        "plan_status": "Ищу",
        "enough_data": False,
        "remaining_steps": ["Ответить"],
        "task_completed": False,
    }
    search = {"tool_name": "search_general_kb", "query": "ставка НДС экспорт"}
    final = {
        "tool_name": "final_answer",
        "reasoning": "Данные найдены",
        "completed_steps": ["Поиск в базе знаний"],
        "answer": "При экспорте ставка НДС 0 %.",
        "status": "completed",
    }
    script = [
        {"content": json.dumps({**reasoning, "tool": step}, ensure_ascii=False)}
        for step in (search, final)
    ]
    with run_fake_chat(script) as chat:
        llm_env = research_env(env, chat.url, tmp_path)
        out = finagent(
            llm_env,
            "research",
            "Ставка НДС при экспорте?",
            "--user",
            "alice",
            "--json",
            cwd=elsewhere,
        )
        missing = finagent(
            {**llm_env, "FINAGENT_AGENTS_CONFIG": "no-such-agents.yaml"},
            "research",
            "Ставка НДС?",
            cwd=elsewhere,
        )
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert result["status"] == "completed"
    assert result["answer"] == "При экспорте ставка НДС 0 %."
    offered = json.dumps(chat.requests[0], ensure_ascii=False)
    assert "search_general_kb" in offered
    tool_turn = json.dumps(chat.requests[1]["messages"], ensure_ascii=False)
    assert "Ставка 0 процентов применяется при экспорте" in tool_turn
    assert missing.returncode == 2
    assert "no-such-agents.yaml: file not found" in missing.stderr
    assert "FINAGENT_AGENTS_CONFIG" in missing.stderr
    assert len(chat.requests) == 2  # the failing run never reached the LLM


LAW_TEXT = """Глава 14. НАЛОГОВЫЙ КОНТРОЛЬ

Статья 88. Камеральная налоговая проверка

1. Камеральная налоговая проверка проводится по месту нахождения налогового органа.
(в ред. Федерального закона от 27.07.2006 N 137-ФЗ)
2. Камеральная проверка проводится в течение трех месяцев со дня представления декларации.

Статья 105.1. Общие положения о взаимозависимых лицах

1. Взаимозависимыми лицами признаются лица, влияющие на условия сделок.
"""


def test_ingest_law_and_search_shows_unit_and_citation(env: dict[str, str], tmp_path: Path) -> None:
    code = tmp_path / "nk-sample.txt"
    code.write_text(LAW_TEXT, encoding="utf-8")
    ingest = finagent(env, "ingest", "law", str(code), "--code", "nk", "--part", "1")
    assert ingest.returncode == 0, ingest.stderr
    out = finagent(env, "search", "сколько длится камеральная проверка декларации", "--json")
    hits = json.loads(out.stdout)["hits"]
    assert hits[0]["unit_id"] == "nk1.ch14.art88.p2"
    assert hits[0]["citation"] == "п. 2 ст. 88 НК РФ"
    assert "в ред." not in hits[0]["text"]
    again = finagent(env, "ingest", "law", str(code), "--code", "nk", "--part", "1")
    assert again.returncode == 0
    total = finagent(env, "search", "взаимозависимые лица", "--top-k", "50", "--json")
    ids = [h["id"] for h in json.loads(total.stdout)["hits"]]
    assert len(ids) == len(set(ids)) == 3  # re-ingest added no duplicates


LAW_PART_TWO = """Глава 21. НАЛОГ НА ДОБАВЛЕННУЮ СТОИМОСТЬ

Статья 164. Налоговые ставки

1. Налогообложение производится по налоговой ставке 0 процентов при реализации товаров,
вывезенных в таможенной процедуре экспорта.
"""


def test_ingest_law_by_name_finds_both_parts(env: dict[str, str], tmp_path: Path) -> None:
    folder = tmp_path / "tax-code"
    folder.mkdir()
    (folder / "nk-part1-2030.txt").write_text(LAW_TEXT, encoding="utf-8")
    (folder / "nk-part2-2030.txt").write_text(LAW_PART_TWO, encoding="utf-8")
    named = {**env, "FINAGENT_TAXCODE_DIR": str(folder)}
    out = finagent(named, "ingest", "law", "nk", "--json")
    assert out.returncode == 0, out.stderr
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["code"], r["part"]) for r in reports] == [("nk", 1), ("nk", 2)]
    hits = json.loads(finagent(named, "search", "ставка 0 процентов экспорт", "--json").stdout)
    assert hits["hits"][0]["citation"] == "п. 1 ст. 164 НК РФ"


def test_ingest_law_by_name_says_where_to_put_the_text(env: dict[str, str], tmp_path: Path) -> None:
    empty = tmp_path / "nowhere"
    empty.mkdir()
    out = finagent({**env, "FINAGENT_TAXCODE_DIR": str(empty)}, "ingest", "law", "nk")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Ошибка: текст Налогового кодекса не найден")
    assert str(empty) in lines[0] and "nk-part1-<редакция>.txt" in lines[0]
    assert "FINAGENT_TAXCODE_DIR" in lines[0]
    missing = finagent(env, "ingest", "law", str(tmp_path / "no-such.txt"))
    assert missing.returncode == 2 and "нет такого файла" in missing.stderr


def test_newcomer_messages(env: dict[str, str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nbroken garbage\n")
    out = finagent(env, "ingest", "docs", str(broken), "--user", "alice")
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        "Ошибка: broken.pdf: не удалось прочитать PDF: файл повреждён или неполон"
    ]
    research = finagent(env, "research", "Какие ставки НДС?")
    assert research.returncode == 2 and "Invalid value" not in research.stderr
    assert research.stderr.startswith("Ошибка: для research нужна LLM")
    routed = finagent(env, "route", "новости о ключевой ставке")
    assert routed.returncode == 0 and routed.stdout.startswith("S2 news (rules")
    assert "[" not in routed.stdout.splitlines()[0]
    listed = finagent(env, "tools", "list").stdout.splitlines()
    assert listed and all(line.rstrip().endswith((".", ")")) for line in listed)
