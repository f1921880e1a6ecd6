"""zeep's async transport for the Bank of Russia, refusing replies that are not SOAP.

Its own module so that importing the client (and every tool module with it) does not load
zeep and lxml: they load when the first SOAP call builds the service proxy."""

from __future__ import annotations

from typing import Any

import httpx
from zeep.transports import AsyncTransport

from finagent.clients.cbr_models import CbrError, CbrUnavailable


class CheckingTransport(AsyncTransport):
    """Refuses non-SOAP replies (HTML anti-bot pages, plain-text errors) before zeep."""

    async def post(self, address: str, message: Any, headers: dict[str, str]) -> Any:
        try:
            response = await self.client.post(address, content=message, headers=headers)
        except httpx.TimeoutException as exc:
            raise CbrUnavailable("Bank of Russia service timed out") from exc
        except httpx.TransportError as exc:
            raise CbrUnavailable(
                f"Bank of Russia service is unreachable ({type(exc).__name__})"
            ) from exc
        content_type = response.headers.get("Content-Type", "").lower()
        head = response.content[:200].lstrip().lower()
        is_html = "html" in content_type or head.startswith((b"<!doctype html", b"<html"))
        if is_html or "xml" not in content_type:
            kind = "an HTML page (anti-bot protection?)" if is_html else "a non-SOAP reply"
            if response.status_code >= 500 or response.status_code < 400:
                raise CbrUnavailable(
                    f"Bank of Russia answered {kind} with HTTP {response.status_code}"
                )
            raise CbrError(f"Bank of Russia refused the request (HTTP {response.status_code})")
        return response
