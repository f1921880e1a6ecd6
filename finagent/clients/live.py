"""The clients of the live sources a deployment configured (built by finagent/bootstrap.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # each client's module is slow to import: only the configured ones load
    from finagent.clients.cbr import CentralBankClient
    from finagent.clients.internal_search import SearchClient
    from finagent.clients.tavily import TavilyClient


@dataclass(frozen=True)
class LiveClients:
    """The clients of the live sources that are configured (None: not configured)."""

    cbr: CentralBankClient | None = None
    tavily: TavilyClient | None = None
    search: SearchClient | None = None

    def closers(self) -> list[Callable[[], Awaitable[None]]]:
        return [c.aclose for c in (self.cbr, self.tavily, self.search) if c is not None]
