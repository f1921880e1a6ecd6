"""Finance news from the web (Tavily): the ``fetch_finance_news`` tool."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from finagent.clients.tavily import TavilyClient
from finagent.clients.tavily_errors import TavilyError
from finagent.clients.tavily_results import SearchResults, WebResult
from finagent.config import Settings
from finagent.tools.base import Tool, ToolContext, ToolError

SNIPPET_CHARS = 300


class FetchFinanceNewsInput(BaseModel):
    query: str = Field(
        min_length=2,
        max_length=400,
        description=(
            "What to look for, as a short news search query, ideally in Russian "
            "(e.g. 'ключевая ставка ЦБ решение', 'НДФЛ по вкладам изменения 2025')."
        ),
    )
    max_results: int = Field(
        default=5, ge=1, le=10, description="How many news items to return (1-10)."
    )
    search_depth: Literal["basic", "advanced"] = Field(
        default="advanced",
        description="'advanced' gives more relevant results; 'basic' is faster and cheaper.",
    )


class FetchFinanceNews(Tool[FetchFinanceNewsInput]):
    """Search recent finance and tax news on the web (Tavily).

    Use it for current events the documents and knowledge base cannot know: Bank of
    Russia decisions, new laws and tax changes, market and ruble news, statements of the
    Ministry of Finance or the Federal Tax Service. Returns titles, links, dates and short
    snippets with the source domain; cite the links. If the output starts with a
    "данные из кэша" warning, the news are an older cached copy: tell the user so. Not for
    official exchange rates or the key rate value (use the Bank of Russia tool) or for the
    user's own documents.
    """

    name = "fetch_finance_news"
    source_note = "tavily.com"
    source_name = "финансовые новости"
    input_model = FetchFinanceNewsInput

    def __init__(self, client: TavilyClient) -> None:
        self._client = client

    async def run(self, args: FetchFinanceNewsInput, ctx: ToolContext) -> str:
        try:
            found = await self._client.search(
                args.query,
                max_results=args.max_results,
                search_depth=args.search_depth,
                user_id=ctx.user_id,
            )
        except TavilyError as exc:
            raise ToolError(f"finance news search failed: {exc}") from None
        if not found.results:
            text = f"No news found for «{args.query}». Try a broader or differently worded query."
        else:
            text = "\n".join(_format_item(i, r) for i, r in enumerate(found.results, start=1))
        return with_stale_notice(text, found)


def stale_notice(fetched_at: datetime) -> str:
    """The warning put before results served from the stale cache (Russian: shown to users)."""
    when = fetched_at.astimezone(UTC).strftime("%d.%m.%Y %H:%M UTC")
    return (
        f"ВНИМАНИЕ: данные из кэша от {when}, сервис недоступен (Tavily); "
        "результаты могут быть неактуальны — сообщите об этом пользователю."
    )


def with_stale_notice(text: str, found: SearchResults) -> str:
    """``text`` with :func:`stale_notice` on top when ``found`` is stale."""
    return f"{stale_notice(found.fetched_at)}\n{text}" if found.stale else text


def _format_item(index: int, result: WebResult) -> str:
    date = f" ({result.published_at[:10]})" if result.published_at else ""
    lines = [f"{index}. **{_one_line(result.title)}**{date}", f"   URL: {result.url}"]
    snippet = _trim(result.snippet, SNIPPET_CHARS)
    if snippet:
        lines.append(f"   {snippet}")
    lines.append(f"   [Источник: {domain_of(result.url)}]")
    return "\n".join(lines)


def domain_of(url: str) -> str:
    """The host of ``url`` without a leading ``www.``."""
    host = urlsplit(url).hostname or url
    return host.removeprefix("www.")


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "(untitled)"


def _trim(text: str, limit: int) -> str:
    """Cut at a word boundary near ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] or text[:limit]
    return cut.rstrip(" ,;:.-") + "…"


def build_news_tools(settings: Settings, client: TavilyClient | None = None) -> list[Tool[Any]]:
    """The news tools; without a Tavily key the tool answers that the source is not set up."""
    return [FetchFinanceNews(client or TavilyClient(settings))]
