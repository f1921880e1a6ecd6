"""The state one research run hands to the tools of its steps (numbered sources, limits)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finagent.tools.base import ToolContext

DEFAULT_MAX_RESULTS = 5
DEFAULT_CONTENT_LIMIT = 3500


@dataclass
class SourceRef:
    """A numbered source of one research run."""

    number: int
    url: str
    title: str = ""


@dataclass
class ResearchRun:
    """Mutable per-run state handed to the tools of one research step."""

    sources: list[SourceRef] = field(default_factory=list)
    reports_dir: Path | None = None
    max_results: int = DEFAULT_MAX_RESULTS
    content_limit: int = DEFAULT_CONTENT_LIMIT

    def add_source(self, url: str, title: str = "") -> int:
        """Number of ``url`` in this run, adding it if new."""
        for source in self.sources:
            if source.url == url:
                if title and not source.title:
                    source.title = title
                return source.number
        number = len(self.sources) + 1
        self.sources.append(SourceRef(number=number, url=url, title=title))
        return number

    def sources_as_dicts(self) -> list[dict[str, Any]]:
        return [{"number": s.number, "url": s.url, "title": s.title} for s in self.sources]

    @classmethod
    def from_dicts(cls, sources: list[dict[str, Any]] | None, **kwargs: Any) -> ResearchRun:
        refs = [
            SourceRef(int(s["number"]), str(s["url"]), str(s.get("title", "")))
            for s in sources or []
        ]
        return cls(sources=refs, **kwargs)


def research_run(ctx: ToolContext) -> ResearchRun:
    """The run state in ``ctx``; a fresh one when the tool is called outside a run."""
    return ctx.research if ctx.research is not None else ResearchRun()
