"""Web research tools on Tavily: ``web_search`` and ``extract_page_content``.

Both number their sources in the research run (see :class:`finagent.tools.sgr.ResearchRun`)
so the report can cite ``[1]``, ``[2]``; outside a research run the numbering is local to
the call. Output is cut to the run's ``content_limit``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from finagent.clients.tavily import TavilyClient
from finagent.clients.tavily_errors import TavilyError
from finagent.clients.tavily_results import Topic
from finagent.tools.base import Tool, ToolContext, ToolError, truncate
from finagent.tools.news import with_stale_notice
from finagent.tools.research_run import research_run

WEB_SEARCH = "web_search"
EXTRACT_PAGE_CONTENT = "extract_page_content"
WEB_TOOLS = frozenset({WEB_SEARCH, EXTRACT_PAGE_CONTENT})

SNIPPET_CHARS = 300


class WebSearchInput(BaseModel):
    reasoning: str = Field(description="Зачем нужен этот поиск и что ожидается найти")
    query: str = Field(
        description="Поисковый запрос на языке запроса пользователя", min_length=2, max_length=400
    )
    max_results: int | None = Field(
        default=None,
        ge=1,
        le=10,
        description="Сколько результатов вернуть (по умолчанию - лимит агента)",
    )


class ExtractPageContentInput(BaseModel):
    reasoning: str = Field(description="Почему нужны именно эти страницы")
    urls: list[str] = Field(
        description="1-5 адресов страниц из результатов web_search", min_length=1, max_length=5
    )


class WebSearchTool(Tool[WebSearchInput]):
    """Поиск актуальной информации в интернете (Tavily): новости, изменения законов, ставки.

    Используй, когда нужны свежие или публичные данные, которых нет во внутренних
    источниках. Возвращает пронумерованные источники [N]: заголовок, адрес, дата и
    короткий фрагмент. Для полного текста страниц вызови extract_page_content. Если вывод
    начинается с предупреждения «данные из кэша», результаты устарели: укажи это в отчёте.
    """

    name = WEB_SEARCH
    input_model = WebSearchInput

    def __init__(self, client: TavilyClient | None, *, topic: Topic = "general") -> None:
        self._client = client
        self._topic = topic

    async def run(self, args: WebSearchInput, ctx: ToolContext) -> str:
        if self._client is None or not self._client.configured:
            raise ToolError("web search is not configured (no Tavily API key); use other tools")
        run = research_run(ctx)
        limit = min(args.max_results or run.max_results, run.max_results)
        try:
            found = await self._client.search(
                args.query,
                max_results=limit,
                search_depth="advanced",
                topic=self._topic,
                user_id=ctx.user_id,
            )
        except TavilyError as exc:
            raise ToolError(f"web search failed: {exc}") from exc
        if not found.results:
            empty = f"Ничего не найдено по запросу «{args.query}». Переформулируй запрос."
            return with_stale_notice(empty, found)
        lines = [f"Результаты поиска «{args.query}»:"]
        for result in found.results[:limit]:
            title = result.title or result.url
            number = run.add_source(result.url, title)
            lines.append(f"\n[{number}] {title}\n{result.url}")
            if result.published_at:
                lines.append(f"Дата: {result.published_at}")
            snippet = " ".join(result.snippet.split())
            if snippet:
                lines.append(truncate(snippet, SNIPPET_CHARS))
        return truncate(with_stale_notice("\n".join(lines), found), run.content_limit)


class ExtractPageContentTool(Tool[ExtractPageContentInput]):
    """Получить полный текст страниц по адресам из результатов web_search (Tavily Extract).

    Используй для подробного анализа 1-5 самых полезных страниц. Текст может быть
    устаревшим: сверяй даты. Каждая страница обрезается до лимита агента.
    """

    name = EXTRACT_PAGE_CONTENT
    input_model = ExtractPageContentInput

    def __init__(self, client: TavilyClient | None) -> None:
        self._client = client

    async def run(self, args: ExtractPageContentInput, ctx: ToolContext) -> str:
        if self._client is None or not self._client.configured:
            raise ToolError("page extraction is not configured (no Tavily API key)")
        run = research_run(ctx)
        try:
            result = await self._client.extract(list(dict.fromkeys(args.urls)))
        except TavilyError as exc:
            raise ToolError(f"page extraction failed: {exc}") from exc
        if not result.pages and result.failed:
            details = "; ".join(f"{page.url}: {page.error}" for page in result.failed)
            raise ToolError(f"no page could be extracted ({details}); try other URLs")
        blocks = []
        for page in result.pages:
            number = run.add_source(page.url)
            text = truncate(page.content.strip(), run.content_limit)
            blocks.append(f"## [{number}] {page.url}\n\n{text}")
        blocks += [f"## {page.url}\n\nError: {page.error}" for page in result.failed]
        return "\n\n".join(blocks)


def web_tools(client: TavilyClient | None) -> list[Tool[Any]]:
    """``web_search`` and ``extract_page_content`` on one client."""
    return [WebSearchTool(client), ExtractPageContentTool(client)]
