"""A loopback Bank of Russia key-rate responder for the offline пени evaluation.

The evaluation runs the real ``CentralBankClient`` (zeep, SOAP 1.2, the bundled WSDL)
against this server on 127.0.0.1, so the key rates reach the calculators through the
client's real request, parsing and cache path. It answers only ``KeyRateXML`` (the one
operation the пени calculator uses) from the key-rate history shipped with the package
(``finagent/legal/data/key_rate_history.csv``, the one copy); anything else gets a SOAP
Fault. It lives here, not in ``tests/``, so ``finagent eval answers --calc``
works from an installed package; the tests keep the full fake in ``tests/fakes``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from lxml import etree

SOAP12 = "http://www.w3.org/2003/05/soap-envelope"
CBR_NS = "http://web.cbr.ru/"


def published_key_rates(
    until: date, steps: Sequence[tuple[date, Decimal]] | None = None
) -> dict[date, Decimal]:
    """Rate steps ``(effective_from, percent)`` (default: the shipped history) as the
    service publishes them: one row per working day (Mon-Fri) from the first step to
    ``until``, the last step holding after the history's own ``as_of``."""
    if steps is None:
        from finagent.legal.key_rate_data import shipped_key_rates

        steps = shipped_key_rates().steps
    steps = sorted(steps)
    out: dict[date, Decimal] = {}
    day = steps[0][0]
    while day <= until:
        if day.weekday() < 5:
            out[day] = next(rate for start, rate in reversed(steps) if start <= day)
        day += timedelta(days=1)
    return out


def _envelope(body: str) -> bytes:
    return (
        f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP12}" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>{body}'
        "</soap:Body></soap:Envelope>"
    ).encode()


def _key_rate_payload(rates: dict[date, Decimal], frm: date, to: date) -> str:
    rows = "".join(
        f"<KR><DT>{d.isoformat()}T00:00:00+03:00</DT><Rate>{r:.2f}</Rate></KR>"
        for d, r in sorted(rates.items(), reverse=True)  # newest first, as the service does
        if frm <= d <= to
    )
    return (
        f'<KeyRateXMLResponse xmlns="{CBR_NS}"><KeyRateXMLResult>'
        f'<KeyRate xmlns="">{rows}</KeyRate></KeyRateXMLResult></KeyRateXMLResponse>'
    )


def _fault(message: str) -> bytes:
    return _envelope(
        "<soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code>"
        f'<soap:Reason><soap:Text xml:lang="en">{message}</soap:Text></soap:Reason>'
        "</soap:Fault>"
    )


class _Handler(BaseHTTPRequestHandler):
    rates: dict[date, Decimal]
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            request = etree.fromstring(body).find(f"{{{SOAP12}}}Body")[0]  # type: ignore[index]
            operation = etree.QName(request).localname
            params = {etree.QName(c).localname: (c.text or "") for c in request}
            if operation != "KeyRateXML":
                raise ValueError(f"unsupported operation {operation}")
            frm = date.fromisoformat(params["fromDate"][:10])
            to = date.fromisoformat(params["ToDate"][:10])
        except (etree.XMLSyntaxError, TypeError, IndexError, KeyError, ValueError) as exc:
            self._send(500, _fault(f"Server was unable to process request: {exc}"))
            return
        self._send(200, _envelope(_key_rate_payload(self.rates, frm, to)))

    def _send(self, status: int, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/soap+xml; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class KeyRateResponder:
    """The responder on 127.0.0.1 (free port) in a background thread."""

    def __init__(self, rates: dict[date, Decimal]) -> None:
        handler = type("Handler", (_Handler,), {"rates": rates})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/DailyInfoWebServ/DailyInfo.asmx"

    def start(self) -> KeyRateResponder:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
