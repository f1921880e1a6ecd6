"""A hanging Bank of Russia behind the LangGraph API server: the answer budget ends the call.

``langgraph dev`` serves the agent graph with the Bank of Russia at a loopback server that
accepts and never answers, a 120 s call deadline and a 5 s answer budget. The run is
answered in Russian, naming the source as unavailable, and the server's log shows that the
budget (not the 120 s deadline) ended the call. The next question finds the circuit open
(the log names the breaker's refusal) and is answered the same way.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from langgraph_sdk import get_client

from tests.conftest import run_finagent
from tests.e2e.langgraph_server import langgraph_dev
from tests.fakes.faults import fault_server
from tests.integration.test_fault_modes import CBR_QUESTION, assert_source_unavailable_in_russian

ALICE = {"Authorization": "Bearer alice-token-0001"}
# the 5 s budget, less what routing took, ended the call: not the 120 s deadline
BOUNDED_BY_BUDGET = re.compile(r"did not answer within ([0-4]\.\d+|5(\.0)?) s")


async def test_a_hanging_upstream_is_cut_by_the_answer_budget_in_api_runs(
    tmp_path: Path, kb_csv: Path
) -> None:
    log_path = tmp_path / "server.log"
    workdir = tmp_path / "server"
    workdir.mkdir()
    with fault_server("hang", path="/DailyInfoWebServ/DailyInfo.asmx") as upstream:
        env = {
            **os.environ,
            "FINAGENT_DATA_DIR": str(tmp_path / "data"),
            "FINAGENT_CBR_ENABLED": "true",
            "FINAGENT_CBR_URL": upstream.url,
            "FINAGENT_CBR_DEADLINE_S": "120",
            "FINAGENT_CBR_BREAKER_THRESHOLD": "1",
            "FINAGENT_ANSWER_BUDGET_S": "5",
            "FINAGENT_LLM_API_KEY": "",
            "OPENROUTER_API_KEY": "",
            "LANGSMITH_TRACING": "false",
            "LANGGRAPH_CLI_NO_ANALYTICS": "1",
            "FINAGENT_API_TOKENS": "alice-token-0001:alice",
        }
        assert run_finagent(env, "ingest", "kb", str(kb_csv)).returncode == 0
        with langgraph_dev(env, log_path, workdir=workdir) as url:
            client = get_client(url=url, headers=ALICE)
            first = await client.runs.wait(None, "agent", input={"query": CBR_QUESTION})
            second = await client.runs.wait(None, "agent", input={"query": CBR_QUESTION})
    for final in (first, second):
        assert isinstance(final, dict)
        assert_source_unavailable_in_russian(final["answer"], "Банк России")
    log = log_path.read_text(encoding="utf-8", errors="replace")
    failures = [line for line in log.splitlines() if "live_source_failed" in line]
    assert len(failures) == 2, failures
    assert BOUNDED_BY_BUDGET.search(failures[0]), failures[0]
    assert "after repeated failures" in failures[1], failures[1]  # the open circuit
