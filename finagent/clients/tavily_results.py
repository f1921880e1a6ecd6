"""Typed Tavily results and their parsing from the SDK's JSON payloads."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from finagent.clients.tavily_errors import TavilyError

SearchDepth = Literal["basic", "advanced", "fast", "ultra-fast"]
Topic = Literal["general", "news", "finance"]
TimeRange = Literal["day", "week", "month", "year"]


class WebResult(BaseModel):
    """One web search hit."""

    model_config = ConfigDict(frozen=True)

    title: str
    url: str
    snippet: str
    published_at: str | None = None  # ISO 8601 when Tavily gives a date (news/finance)
    score: float | None = None


class SearchResults(BaseModel):
    """Search hits with their freshness: ``stale`` when served from cache after a failure."""

    model_config = ConfigDict(frozen=True)

    results: list[WebResult]
    fetched_at: datetime  # when Tavily produced these results (UTC)
    stale: bool = False


class ExtractedPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    url: str
    content: str


class FailedPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    url: str
    error: str


class ExtractResult(BaseModel):
    """Pages Tavily could read and the URLs it could not."""

    pages: list[ExtractedPage]
    failed: list[FailedPage]


def payload_items(payload: Any, field: str) -> list[dict[str, Any]]:
    if not isinstance(payload, dict):
        raise TavilyError(
            "Tavily returned an unreadable answer; try again later",
            kind="bad_response",
            transient=True,
        )
    items = payload.get(field) or []
    return [item for item in items if isinstance(item, dict)]


def web_result(item: dict[str, Any]) -> WebResult:
    score = item.get("score")
    return WebResult(
        title=str(item.get("title") or item.get("url") or "").strip(),
        url=str(item.get("url") or ""),
        snippet=" ".join(str(item.get("content") or "").split()),
        published_at=iso_date(item.get("published_date")),
        score=float(score) if isinstance(score, int | float) else None,
    )


def iso_date(value: Any) -> str | None:
    """RFC 2822 ("Tue, 11 Mar 2025 17:00:00 GMT") or ISO dates to ISO 8601."""
    if not value or not isinstance(value, str):
        return None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value.strip() or None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.isoformat()
