"""Search hits, fetched documents and the error of the internal document-search API."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from finagent.clients.errors import (
    ExternalServiceError,
)


class SearchHit(BaseModel):
    """One item of a search page."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    title: str = ""
    pub_division: int | None = None
    pub_alias: str | None = None
    url: str | None = None


class InternalDocument(BaseModel):
    """A fetched document with clean, bounded text."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    url: str | None
    text: str
    pub_division: int | None = None
    pub_alias: str | None = None
    truncated: bool = False


class InternalSearchError(ExternalServiceError):
    """The search API failed as a whole (not a single document); the message is safe to show."""
