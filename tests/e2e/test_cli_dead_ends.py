"""Dead ends of the ``finagent`` command name the way out, in Russian; the log stays in
the log file unless ``-v``; ``serve`` says where it listens."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from finagent.retrieval.taxcode_source import HELP_ANCHOR
from tests.conftest import REPO_ROOT, run_finagent
from tests.e2e.test_cli_imports import heavy_in, loaded_modules
from tests.fakes.net import free_port

GUARD_S = 120  # a deadlock guard, not a timing assert


def test_empty_question_is_refused_before_the_agent_loads(env: dict[str, str]) -> None:
    out = run_finagent(env, "ask", " \n ")
    assert out.returncode == 2 and "Вопрос пуст" in out.stderr
    modules = loaded_modules(env, "ask", "  ")
    assert "finagent.input_checks" in modules  # the check really ran
    assert heavy_in(modules) == [] and "finagent.bootstrap" not in modules
    assert not (Path(env["FINAGENT_DATA_DIR"])).exists()  # nothing was created


def test_empty_index_is_named_with_the_way_out(env: dict[str, str], tmp_path: Path) -> None:
    out = run_finagent(env, "ask", "Какие сроки уплаты налога на имущество?", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "База пуста" in out.stderr and "finagent demo" in out.stderr
    assert str(Path(env["FINAGENT_DATA_DIR"]).resolve()) in out.stderr
    assert "## Краткий вывод" in out.stdout and "База пуста" not in out.stdout
    as_json = run_finagent(env, "ask", "Что такое НДС?", "--json", cwd=tmp_path)
    assert as_json.returncode == 0 and "База пуста" in as_json.stderr


def test_log_goes_to_the_file_unless_verbose(env: dict[str, str], tmp_path: Path) -> None:
    """An LLM that refuses connections makes the orchestrator log a warning: the user sees
    only the answer; the warning is in DATA_DIR/finagent.log, and on stderr with -v."""
    broken_llm = {
        **env,
        "FINAGENT_LLM_API_KEY": "sk-test-unused",
        "FINAGENT_LLM_BASE_URL": f"http://127.0.0.1:{free_port()}/v1",
        "FINAGENT_LLM_MAX_RETRIES": "0",
    }
    out = run_finagent(broken_llm, "ask", "Привет! Что ты умеешь?")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() and "warning" not in out.stderr
    assert "…" not in out.stderr  # progress lines only on a terminal or with -v
    log = (Path(env["FINAGENT_DATA_DIR"]) / "finagent.log").read_text(encoding="utf-8")
    assert "[warning" in log and "sk-test-unused" not in log
    verbose = run_finagent(broken_llm, "-v", "ask", "Привет! Что ты умеешь?")
    assert verbose.returncode == 0 and "[warning" in verbose.stderr and "…" in verbose.stderr


def test_serve_without_tokens_shows_an_example_before_loading_the_app(
    env: dict[str, str],
) -> None:
    out = run_finagent(env, "serve")
    assert out.returncode == 2
    assert "не заданы токены" in out.stderr and 'FINAGENT_API_TOKENS="' in out.stderr
    bad = run_finagent({**env, "FINAGENT_API_TOKENS": "short:alice"}, "serve")
    assert bad.returncode == 2 and "FINAGENT_API_TOKENS=" in bad.stderr
    modules = loaded_modules(env, "serve")
    assert heavy_in(modules, ("fastapi", "uvicorn", "langgraph.graph")) == []


def test_serve_prints_where_it_listens_and_how_to_sign_in(env: dict[str, str]) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "finagent.cli", "serve", "--port", str(port)],
        env={**env, "FINAGENT_API_TOKENS": "alice-token-0001:alice"},
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(4)]
        text = "".join(lines)
        urls = re.findall(r"http://127\.0\.0\.1:\d+/\S*", text)
        assert f"http://127.0.0.1:{port}/" in urls and f"http://127.0.0.1:{port}/docs" in urls
        assert "FINAGENT_API_TOKENS" in text and "Bearer" in text
        with httpx.Client(timeout=GUARD_S) as http:  # the printed addresses answer
            assert http.get(f"http://127.0.0.1:{port}/").status_code == 200
            assert http.get(f"http://127.0.0.1:{port}/docs").status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=GUARD_S)
    assert "research_tool_unavailable" not in err  # unconfigured optional tools are INFO


def test_tax_code_hint_points_at_an_existing_readme_anchor() -> None:
    page, anchor = HELP_ANCHOR.split("#")
    headings = re.findall(r"^#+ (.+)$", (REPO_ROOT / page).read_text(encoding="utf-8"), re.M)
    slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}
    assert anchor in slugs


def test_demo_reports_each_step_on_stderr_and_answers_on_stdout(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Not a terminal: plain lines, the first before anything heavy is loaded."""
    no_tax_code = tmp_path / "no-tax-code"
    no_tax_code.mkdir()
    out = run_finagent({**env, "FINAGENT_TAXCODE_DIR": str(no_tax_code)}, "demo")
    assert out.returncode == 0, out.stderr
    steps = out.stderr.splitlines()
    assert steps[0].startswith("finagent demo: загружаю")
    assert steps[1] == "Загружаю программу, модели и индекс…"
    done = [s.strip() for s in steps if s.startswith("  ") and not s.startswith("  …")]
    assert [d.split(":")[0] for d in done] == [
        "Загружаю программу, модели и индекс",
        "База знаний",
        "Документы пользователя demo",
    ]
    assert re.search(r"База знаний: \d+ стат\w+, \d+ фрагмент\w* \(\d+,\d с\)", out.stderr)
    assert re.search(r"Данные загружены за \d+,\d с; отвечаю на \d+ вопрос", out.stderr)
    assert "### " in out.stdout and "База знаний…" not in out.stdout
    quiet = run_finagent({**env, "FINAGENT_TAXCODE_DIR": str(no_tax_code)}, "demo", "--json")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_input_errors_are_russian_with_the_way_out(env: dict[str, str]) -> None:
    bad_collection = run_finagent(env, "search", "пени", "--collection", "news")
    assert bad_collection.returncode == 2
    assert bad_collection.stderr.startswith("Ошибка: --collection: kb")
    bad_args = run_finagent(env, "tools", "call", "search_kb", "--args", "{oops")
    assert bad_args.returncode == 2 and bad_args.stderr.startswith("Ошибка: --args — не JSON")
    assert "пример: --args" in bad_args.stderr and "Error" not in bad_args.stderr
