"""The README's notebook example runs as written, in a fresh interpreter, and leaves the
host's logging as it found it: no root handler, level or record factory changed,
structlog unconfigured, nothing on stdout but what the example prints."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT, run_finagent

PROBE = r"""
import ast, asyncio, json, logging, sys
import structlog

code = sys.stdin.read()
root = logging.getLogger()
before = (list(root.handlers), root.level, logging.getLogRecordFactory())
namespace = {}

async def main():
    compiled = compile(code, "README.md", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    await eval(compiled, namespace)

asyncio.run(main())
after = (list(root.handlers), root.level, logging.getLogRecordFactory())
report = {
    "answer": namespace["result"].answer,
    "logging_untouched": before == after,
    "structlog_configured": structlog.is_configured(),
}
sys.stderr.write("\n@@" + json.dumps(report, ensure_ascii=False))
"""


def notebook_example() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## In a notebook", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "the README has no notebook example"
    return found.group(1)


def test_the_readme_notebook_example_runs_and_leaves_logging_alone(
    tmp_path: Path, kb_csv: Path
) -> None:
    code = notebook_example()
    assert len(code.strip().splitlines()) == 5
    env = {
        **os.environ,
        "FINAGENT_DATA_DIR": str(tmp_path / "data"),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "LANGSMITH_TRACING": "false",
    }
    done = run_finagent(env, "ingest", "kb", str(kb_csv))
    assert done.returncode == 0, done.stderr
    ran = subprocess.run(
        [sys.executable, "-c", PROBE],
        input=code,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    report = json.loads(ran.stderr.rsplit("\n@@", 1)[1])
    assert "## Краткий вывод" in report["answer"] and "0 процентов" in report["answer"]
    assert ran.stdout == report["answer"] + "\n"  # the example's print, nothing else
    assert report["logging_untouched"] and not report["structlog_configured"]
