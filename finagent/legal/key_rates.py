"""Key-rate history for пени: the shipped history, extended online by the Bank of Russia.

The shipped history (:mod:`finagent.legal.key_rate_data`) serves every day from its first
row through its ``as_of`` date without a network call. Days outside it are asked of the
Bank of Russia client (SOAP ``KeyRateXML``, one canonical range per day so calculations
share the client's stale-capable cache entry): its rows win from their first day on, the
shipped rows serve the days before. When the service fails, the last history fetched in
this process serves, marked stale; with none, the shipped history serves alone and the
days after its ``as_of`` stay unknown (the calculator names them, it never guesses).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Literal

from finagent.clients.errors import ExternalServiceError
from finagent.legal.key_rate_data import ShippedKeyRates, shipped_key_rates
from finagent.legal.penalties import KeyRateTable

if TYPE_CHECKING:  # the client imports zeep; only its instances are used here
    from finagent.clients.cbr import CentralBankClient

# the key rate replaced the refinancing rate for пени from 01.01.2016 (it was set 13.09.2013)
HISTORY_START = date(2013, 9, 13)

#: where the rates came from and why: "cbr" (the Bank of Russia), or the shipped
#: history because it covered the days ("shipped"), because no client is configured
#: ("no_client") or because the service failed ("cbr_failed")
Origin = Literal["cbr", "shipped", "no_client", "cbr_failed"]


@dataclass(frozen=True)
class KeyRateHistory:
    table: KeyRateTable
    origin: Origin
    stale: bool = False  # Bank of Russia rows served from cache after a failed refresh
    fetched_at: datetime | None = None  # when the Bank of Russia rows were fetched

    @property
    def known_until(self) -> date:
        return self.table.known_until


class KeyRateSource:
    """The key rate in force on each day, from the shipped history and the injected client."""

    def __init__(
        self, client: CentralBankClient | None, shipped: ShippedKeyRates | None = None
    ) -> None:
        self._client = client
        self._shipped = shipped
        self._last: KeyRateHistory | None = None
        self._lock = asyncio.Lock()

    @property
    def shipped(self) -> ShippedKeyRates:
        if self._shipped is None:
            self._shipped = shipped_key_rates()
        return self._shipped

    def offline(self, origin: Origin = "shipped") -> KeyRateHistory:
        """The shipped history alone (no network call)."""
        shipped = self.shipped
        return KeyRateHistory(KeyRateTable(shipped.steps, shipped.as_of), origin)

    async def history(self, date_from: date, date_to: date) -> KeyRateHistory:
        """Rates for the days ``date_from``..``date_to``: the shipped history when it covers
        them, else the Bank of Russia's (falling back as the module says)."""
        shipped = self.shipped
        if shipped.covers(date_from, date_to):
            return self.offline()
        if self._client is None:
            return self.offline("no_client")
        today = self._client.today()
        # an extension of the shipped rows, unless the days start before them
        start = HISTORY_START if date_from < shipped.first_day else shipped.as_of
        try:
            series = await self._client.key_rate(start, today)
        except ExternalServiceError:
            if self._last is not None:
                last = self._last
                return KeyRateHistory(last.table, "cbr", True, last.fetched_at)
            return self.offline("cbr_failed")
        online = sorted((p.date, p.rate) for p in series.points)
        if not online:
            return self.offline("cbr_failed")
        earlier = [(d, r) for d, r in shipped.steps if d < online[0][0]]
        table = KeyRateTable([*earlier, *online], today)
        history = KeyRateHistory(table, "cbr", series.stale, series.fetched_at)
        if not series.stale:
            async with self._lock:
                self._last = history
        return history
