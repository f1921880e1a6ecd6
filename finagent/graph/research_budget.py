"""What keeps a research run from looping or flooding its prompt, and how it ends at a limit.

- A repeated call (same tool, same arguments: ``call_digest``) is refused with an error
  the model reads; the first call's output is already in its prompt.
- Tool outputs are cut to ``max_step_output_chars`` each and to what is left of
  ``max_total_output_chars`` for the run (``budgeted``); a spent budget leaves only the
  final tools, as the step limit does.
- A run stopped by a limit ends with the best report it has (``best_report``): why it
  stopped, the sources it found and the last tool output it read, never an empty answer.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import ToolMessage

from finagent.observability import digest
from finagent.prompts import research_messages

_EXCERPT_CHARS = 1500


def call_digest(name: str, args: dict[str, Any]) -> str:
    """The digest of one call: its tool and its arguments (key order ignored)."""
    return digest({"tool": name, "args": args})


def repeated_call_error(step: int) -> str:
    return (
        f"Error: this exact call (same tool, same arguments) was already made at step "
        f"{step}; its result is above. Use that result, call another tool or change the "
        "arguments, or give the final answer."
    )


def budgeted(text: str, used: int, per_step: int, total: int) -> tuple[str, int]:
    """``text`` cut to the step's budget and to what is left of the run's; the chars used
    after it."""
    room = max(0, min(per_step, total - used))
    if len(text) > room:
        text = text[:room] + research_messages.OUTPUT_CUT
    return text, used + min(len(text), room)


def best_report(state: dict[str, Any], reason: str) -> str:
    """The answer of a run stopped by a limit: ``reason``, the sources found and an
    excerpt of the last successful tool output."""
    parts = [reason]
    sources = [s for s in state.get("sources") or [] if s.get("url")]
    if sources:
        listed = "\n".join(
            f"[{s.get('number')}] {s.get('title') or s['url']} — {s['url']}" for s in sources
        )
        parts.append(f"{research_messages.SOURCES_FOUND}\n{listed}")
    outputs = [
        str(m.content)
        for m in state.get("messages") or []
        if isinstance(m, ToolMessage)
        and not str(m.content).startswith("Error")
        and str(m.content).strip() != research_messages.OUTPUT_CUT.strip()
    ]
    if outputs:
        excerpt = outputs[-1][:_EXCERPT_CHARS]
        parts.append(f"{research_messages.LAST_FINDINGS}\n{excerpt}")
    return "\n\n".join(parts)
