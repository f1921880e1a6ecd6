"""The real-model lane: finagent against a local OpenAI-compatible server (not run in CI).

Runs ``finagent eval answers --llm`` on the first N items and one ``finagent research``
question (and, with ``--decision-methods``, the orchestrator's decision alone for the same
questions with the other structured-output methods) against either

- a GGUF file, served here by llama.cpp through ``xllamacpp`` (``pip install -e
  ".[real-model]"``) on 127.0.0.1 with few threads, or
- any running OpenAI-compatible server (``--server http://127.0.0.1:8080/v1``).

Every LLM timeout is raised (a small CPU model reads a 5k-token prompt in minutes), and
the results are written to ``--out`` (eval.json, research.json, their logs and
summary.md: per answer the mode, sections, verified citations, tool calls, time and
tokens; for research the status, tool calls and final answer). See docs/real-model.md.

Usage:
  python scripts/real_model_lane.py --gguf model.gguf [--threads 1] [--limit 10]
  python scripts/real_model_lane.py --server http://127.0.0.1:8080/v1 --model NAME
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
DATASET = REPO / "evals" / "datasets" / "answers_taxcode.jsonl"
# -v: the log at INFO on stderr, the command's .log here (the CLI otherwise writes warnings
# only, to DATA_DIR/finagent.log): re-asks, research steps and tool calls are read from it
FINAGENT = [sys.executable, "-m", "finagent.cli", "-v"]
QUESTION = "Какие налоговые ставки НДС установлены в России и когда применяется ставка 0 %?"


def serve(gguf: Path, port: int, threads: int, ctx: int) -> None:
    """Serve ``gguf`` on 127.0.0.1:``port`` until killed (run as a child process)."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf)
    # recent xllamacpp takes a set of aliases: a plain string became one alias per character
    aliases = params.model_alias
    params.model_alias = {gguf.stem} if isinstance(aliases, (set, frozenset)) else gguf.stem
    params.n_ctx = ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.port = port
    server = xllamacpp.Server(params)
    print(f"serving {gguf.name} at {server.listening_address}", flush=True)
    while True:
        time.sleep(3600)


def wait_ready(base_url: str, child: subprocess.Popen[bytes] | None, limit_s: float) -> str:
    """The model id the server lists, once it answers (the child must stay alive)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if child is not None and child.poll() is not None:
            sys.exit(f"the llama.cpp server exited with code {child.returncode}")
        try:
            models = httpx.get(f"{base_url}/models", timeout=5).json()
            return str(models["data"][0]["id"])
        except (httpx.HTTPError, KeyError, IndexError, ValueError):
            time.sleep(1)
    sys.exit(f"no OpenAI-compatible server answered at {base_url} in {limit_s:.0f} s")


def lane_env(base_url: str, model: str, args: argparse.Namespace) -> dict[str, str]:
    env = {**os.environ}
    env.update(
        {
            "FINAGENT_LLM_BASE_URL": base_url,
            "FINAGENT_LLM_MODEL": model,
            "FINAGENT_LLM_API_KEY": env.get("FINAGENT_LLM_API_KEY", "local-no-key"),
            "FINAGENT_LLM_STRUCTURED_METHOD": args.method,
            "FINAGENT_LLM_TIMEOUT_S": str(args.timeout),
            # one request (streamed body included) and one answer's external calls in all:
            # the 120 s and 90 s defaults turn every CPU answer into a fallback
            "FINAGENT_LLM_DEADLINE_S": str(args.timeout),
            "FINAGENT_ANSWER_BUDGET_S": str(args.timeout * 4),
            "FINAGENT_LLM_MAX_RETRIES": "0",
            "FINAGENT_LLM_ORCHESTRATOR_MAX_TOKENS": str(args.orchestrator_max_tokens),
            "FINAGENT_LLM_ANSWER_MAX_TOKENS": str(args.answer_max_tokens),
            "FINAGENT_LLM_RESEARCH_MAX_TOKENS": str(args.research_max_tokens),
            "FINAGENT_MAX_TOOL_CALLS": "1",
            # the answer prompt must fit the model's window with the tool schemas
            "FINAGENT_MAX_CONTEXT_CHARS": str(args.context_chars),
            "LANGSMITH_TRACING": "false",
        }
    )
    return env


def run(cmd: list[str], env: dict[str, str], out: Path, name: str) -> tuple[str, float]:
    started = time.perf_counter()
    with (out / f"{name}.log").open("w") as log:
        done = subprocess.run(cmd, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=log)
    seconds = time.perf_counter() - started
    stdout = done.stdout.decode()
    (out / f"{name}.json").write_text(stdout)
    if done.returncode != 0:
        print(f"{name} exited with {done.returncode}; see {out / (name + '.log')}")
    return stdout, seconds


def questions(limit: int) -> list[str]:
    """The first ``limit`` questions of the answer dataset (the eval's items)."""
    lines = DATASET.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines if line.strip()][:limit]


def route_decisions(
    method: str, limit: int, env: dict[str, str], out: Path
) -> list[dict[str, Any]]:
    """``finagent route --json`` for every eval question with ``method``: whether the
    orchestrator's structured decision was valid, and its time."""
    finagent = [*FINAGENT, "route", "--json", "--user", "lane"]
    env = {**env, "FINAGENT_LLM_STRUCTURED_METHOD": method}
    rows = []
    for n, question in enumerate(questions(limit), 1):
        stdout, seconds = run([*finagent, question], env, out, f"route-{method}-{n}")
        try:
            routed = json.loads(stdout)
        except ValueError:
            rows.append({"item": n, "error": "unreadable", "s": seconds})
            continue
        row = decision_row(n, routed, seconds)
        # asked again under the response format: the server ignored tool_choice
        row["reasked"] = "structured_reask" in (out / f"route-{method}-{n}.log").read_text()
        rows.append(row)
    (out / f"decisions-{method}.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return rows


def decision_row(n: int, routed: dict[str, Any], seconds: float) -> dict[str, Any]:
    """One ``finagent route --json`` result as a row: valid LLM decision or the failure,
    the LLM's route, the route taken and who decided it."""
    fallback = routed["debug"].get("orchestrator_fallback")
    cross = routed["debug"].get("routing_cross_check") or {}
    llm_route = (cross.get("llm") or {}).get("scenario")
    return {
        "item": n,
        "valid": not isinstance(fallback, dict),
        "fallback": fallback.get("error_kind") if isinstance(fallback, dict) else fallback,
        "llm_route": f"S{llm_route}" if llm_route is not None else None,
        "route": f"S{routed['scenario']}",
        "source": routed["source"],
        "decided_by": cross.get("decided_by"),
        "s": round(seconds),
    }


def summarise_decisions(method: str, rows: list[dict[str, Any]]) -> list[str]:
    valid = sum(1 for r in rows if r.get("valid"))
    reasked = sum(1 for r in rows if r.get("valid") and r.get("reasked"))
    lines = [
        f"### orchestrator decisions, {method}: {valid} of {len(rows)} valid "
        f"({reasked} after a re-ask under the response format)",
        "",
        "| item | valid | re-asked | fallback | LLM route | route | source | decided by | s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['item']} | {r.get('valid')} | {r.get('reasked', '-')} | "
            f"{r.get('fallback') or '-'} | "
            f"{r.get('llm_route') or '-'} | "
            f"{r.get('route')} | {r.get('source')} | {r.get('decided_by') or '-'} | {r['s']} |"
        )
    return lines


def research_steps(log: str) -> list[str]:
    """The research run's step, refusal and limit events, in order, from its log."""
    events = r"research_(?:step|step_unparsed|repeated_call|limit|llm_failure)\b.*"
    return [re.sub(r"\x1b\[[0-9;]*m", "", m) for m in re.findall(events, log)]


def sections(answer: str) -> list[str]:
    return re.findall(r"(?m)^##\s+(.+?)\s*$", answer)


def shares(measured: dict[str, Any] | None) -> str:
    """The copy checks' measures of the final reply: words / prompt share / context share."""
    if not measured:
        return "-"
    return f"{measured['words']}/{measured['prompt']:.2f}/{measured['context']:.2f}"


def summarise_eval(result: dict[str, Any]) -> list[str]:
    lines = [
        "| item | decision | LLM route | route | decided by | mode | check | text calls | "
        "copy shares w/prompt/context | sections | cited units | refs ok/removed | tool calls | "
        "s | prompt tok | completion tok |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for part in result["by_dataset"].values():
        for item in part["items"]["verified"]:
            path = item.get("llm_path") or {}
            decision = path.get("orchestrator_fallback") or path.get("decision_source")
            lines.append(
                f"| {item['id']} | {decision} | {path.get('llm_route') or '-'} | "
                f"S{item.get('scenario')} | "
                f"{path.get('decided_by') or '-'} | {item.get('answer_mode')} | "
                f"{path.get('output_check') or '-'} | {path.get('text_tool_calls') or '-'} | "
                f"{shares(path.get('reply_shares'))} | "
                f"{'; '.join(sections(item['answer'])) or '-'} | "
                f"{', '.join(item['cited_units']) or '-'} | "
                f"{item['supported_refs']}/{item['unsupported_refs']} | "
                f"{', '.join(item.get('tool_calls') or []) or '-'} | "
                f"{item['latency_ms'] / 1000:.0f} | {item.get('prompt_tokens')} | "
                f"{item.get('completion_tokens')} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", type=Path, help="serve this GGUF with xllamacpp")
    parser.add_argument("--server", help="an OpenAI-compatible base URL ending in /v1")
    parser.add_argument("--model", help="model name for --server (default: the first listed)")
    parser.add_argument("--threads", type=int, default=1)
    # research offers every tool's schema (about 8k tokens with function_calling) and adds
    # up to 24 000 characters of tool output: an 8k window overflows at its third step
    parser.add_argument("--ctx", type=int, default=16384, help="context window (tokens)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--limit", type=int, default=10, help="answer-eval items")
    parser.add_argument("--question", default=QUESTION, help="the research question")
    parser.add_argument(
        "--method", default="json_schema", choices=["json_schema", "function_calling"]
    )
    parser.add_argument(
        "--decision-methods",
        default="",
        help="comma-separated structured-output methods whose orchestrator decisions are "
        "also measured alone on the same questions (finagent route)",
    )
    parser.add_argument("--timeout", type=float, default=3600.0, help="per LLM call, seconds")
    # small limits keep a CPU run short (a small model rarely stops on its own)
    parser.add_argument("--orchestrator-max-tokens", type=int, default=200)
    parser.add_argument("--answer-max-tokens", type=int, default=200)
    parser.add_argument("--research-max-tokens", type=int, default=400)
    parser.add_argument(
        "--context-chars", type=int, default=3000, help="answer context (a small window)"
    )
    parser.add_argument("--out", type=Path, default=REPO / ".finagent" / "real-model-lane")
    parser.add_argument("--skip-eval", action="store_true", help="only the research run")
    parser.add_argument("--skip-research", action="store_true", help="only the answer eval")
    parser.add_argument("--serve-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_only:
        serve(args.gguf, args.port, args.threads, args.ctx)
        return
    if bool(args.gguf) == bool(args.server):
        parser.error("give exactly one of --gguf and --server")
    args.out.mkdir(parents=True, exist_ok=True)
    child = None
    if args.gguf:
        if not args.gguf.is_file():
            parser.error(f"no such GGUF file: {args.gguf}")
        cmd = [sys.executable, __file__, "--serve-only", "--gguf", str(args.gguf)]
        cmd += ["--port", str(args.port), "--threads", str(args.threads), "--ctx", str(args.ctx)]
        log = (args.out / "server.log").open("w")
        child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        base_url = f"http://127.0.0.1:{args.port}/v1"
    else:
        base_url = args.server.rstrip("/")
    try:
        model = args.model or wait_ready(base_url, child, 600)
        if args.model:
            wait_ready(base_url, child, 600)
        env = lane_env(base_url, model, args)
        finagent = FINAGENT
        eval_cmd = [*finagent, "eval", "answers", "--llm", "--no-baseline", "--json"]
        eval_cmd += ["--dataset", str(DATASET), "--limit", str(args.limit)]
        decisions = {
            method: route_decisions(method, args.limit, env, args.out)
            for method in filter(None, args.decision_methods.split(","))
        }
        eval_out, eval_s = ("", 0.0) if args.skip_eval else run(eval_cmd, env, args.out, "eval")
        research_out, research_s = "", 0.0
        if not args.skip_research:
            research_cmd = [*finagent, "research", args.question, "--json", "--user", "lane"]
            research_out, research_s = run(research_cmd, env, args.out, "research")
    finally:
        if child is not None:
            child.terminate()
            child.wait(timeout=30)
    name = args.gguf.name if args.gguf else model
    report = [f"# Real-model lane: {name}", "", f"server: {base_url}, method: {args.method}", ""]
    for method, rows in decisions.items():
        report += [*summarise_decisions(method, rows), ""]
    try:
        if args.skip_eval:
            raise ValueError("skipped")
        result = json.loads(eval_out)
        report += [f"## finagent eval answers ({eval_s / 60:.1f} min)", ""]
        report += summarise_eval(result)
        report += [
            "",
            "metrics: "
            + json.dumps(
                {k: p["modes"]["verified"]["metrics"] for k, p in result["by_dataset"].items()},
                ensure_ascii=False,
            ),
        ]
    except (ValueError, KeyError) as exc:
        report += [f"eval output unreadable: {exc}"]
    research_log = "" if args.skip_research else (args.out / "research.log").read_text()
    tools = re.findall(r"tool_call\b.*?\btool=(\S+)", research_log)
    report += ["", f"## finagent research ({research_s / 60:.1f} min)", ""]
    try:
        if args.skip_research:
            raise ValueError("skipped")
        research = json.loads(research_out)
        report += [
            f"status: {research.get('status')}, iterations: {research.get('iterations')}",
            f"tool calls: {', '.join(tools) or '-'}",
            "",
            "steps:",
            "",
            *(f"- {step}" for step in research_steps(research_log)),
            "",
            "answer:",
            "",
            str(research.get("answer") or "-"),
        ]
    except ValueError as exc:
        report += [f"research output unreadable: {exc}"]
    (args.out / "summary.md").write_text("\n".join(report) + "\n")
    print("\n".join(report))


if __name__ == "__main__":
    main()
