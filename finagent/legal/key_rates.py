"""Key-rate history for пени from the Bank of Russia client, with a stale fallback.

One canonical request (from :data:`HISTORY_START` to today) so every calculation of a day
shares the client's cache entry; when the service fails and the client has no cached
answer for today's range, the last history fetched in this process is used, marked stale.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from finagent.clients.errors import ExternalServiceError
from finagent.legal.penalties import KeyRateTable

if TYPE_CHECKING:  # the client imports zeep; only its instances are used here
    from finagent.clients.cbr import CentralBankClient

# the key rate replaced the refinancing rate for пени from 01.01.2016 (it was set 13.09.2013)
HISTORY_START = date(2013, 9, 13)


@dataclass(frozen=True)
class KeyRateHistory:
    table: KeyRateTable
    stale: bool
    as_of: datetime | None


class KeyRateSource:
    """The key rate in force on each day up to today, from the injected client."""

    def __init__(self, client: CentralBankClient) -> None:
        self._client = client
        self._last: KeyRateHistory | None = None
        self._lock = asyncio.Lock()

    def today(self) -> date:
        return self._client.today()

    async def history(self) -> KeyRateHistory:
        """Raises the client's ExternalServiceError when there is nothing to fall back on."""
        today = self._client.today()
        try:
            series = await self._client.key_rate(HISTORY_START, today)
        except ExternalServiceError:
            if self._last is None:
                raise
            return KeyRateHistory(self._last.table, True, self._last.as_of)
        points = [(p.date, p.rate) for p in series.points]
        if not points:
            raise ExternalServiceError("the Bank of Russia returned no key-rate rows")
        history = KeyRateHistory(KeyRateTable(points, today), series.stale, series.fetched_at)
        if not series.stale:
            async with self._lock:
                self._last = history
        return history
