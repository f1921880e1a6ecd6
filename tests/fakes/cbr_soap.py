"""A loopback fake of the Bank of Russia DailyInfo SOAP service (SOAP 1.1 and 1.2).

It answers the operations finagent uses in the forms the real ASMX service does:
``...XML`` operations return a bare payload node with ``xmlns=""``; DataSet operations
return an ``xs:schema`` block followed by a diffgram. Bad input gets a SOAP Fault with
HTTP 500. Faults can be switched on (``server.fail(...)``) and requests are counted.

Fixture data comes from /work/shared/reference/external-apis.md section 1; values not
listed there are made up. No rates are set on Saturdays and Sundays.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal
from xml.sax.saxutils import escape

from lxml import etree

SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
SOAP12 = "http://www.w3.org/2003/05/soap-envelope"
CBR_NS = "http://web.cbr.ru/"
BUNDLED_WSDL = Path(__file__).resolve().parents[2] / "finagent/clients/wsdl/DailyInfo.wsdl"

FaultMode = Literal["slow", "http500", "html", "malformed"]


@dataclass(frozen=True)
class FakeCurrency:
    internal: str
    char: str
    num: int
    nom: int
    name_ru: str
    name_en: str


CURRENCIES = [
    FakeCurrency("R01235", "USD", 840, 1, "Доллар США", "US Dollar"),
    FakeCurrency("R01239", "EUR", 978, 1, "Евро", "Euro"),
    FakeCurrency("R01375", "CNY", 156, 1, "Китайский юань", "China Yuan"),
    FakeCurrency(
        "R01035",
        "GBP",
        826,
        1,
        "Фунт стерлингов Соединенного королевства",
        "British Pound Sterling",
    ),
    FakeCurrency("R01820", "JPY", 392, 100, "Японских иен", "Japanese Yen"),
    FakeCurrency("R01335", "KZT", 398, 100, "Казахстанских тенге", "Kazakhstan Tenge"),
    FakeCurrency("R01700J", "TRY", 949, 10, "Турецких лир", "Turkish Lira"),
    FakeCurrency("R01775", "CHF", 756, 1, "Швейцарский франк", "Swiss Franc"),
    FakeCurrency("R01010", "AUD", 36, 1, "Австралийский доллар", "Australian Dollar"),
]

# Vcurs for Vnom units, per working day; USD/EUR/CNY values of 2023-11-01/02 (USD) and
# 2025-04-01 (all three) are from public captures, the rest are made up.
_BASE = {
    "GBP": Decimal("112.1000"),
    "JPY": Decimal("61.5000"),
    "KZT": Decimal("19.6000"),
    "TRY": Decimal("32.7000"),
    "CHF": Decimal("101.3000"),
    "AUD": Decimal("58.9000"),
}
_MAIN = {
    date(2023, 10, 31): ("93.2405", "98.6573", "12.7457"),
    date(2023, 11, 1): ("92.0226", "97.3700", "12.5820"),
    date(2023, 11, 2): ("93.2801", "98.6049", "12.7490"),
    date(2023, 11, 3): ("93.2174", "98.8209", "12.7393"),
    date(2023, 11, 7): ("92.1973", "98.6587", "12.6210"),
    date(2025, 3, 27): ("84.0834", "90.8021", "11.5763"),
    date(2025, 3, 28): ("84.0851", "90.9317", "11.5926"),
    date(2025, 3, 31): ("84.4875", "91.3891", "11.6304"),
    date(2025, 4, 1): ("85.4963", "92.4276", "11.7136"),
    date(2025, 4, 2): ("85.0199", "91.8765", "11.6541"),
}


def _rates_table() -> dict[date, dict[str, Decimal]]:
    table: dict[date, dict[str, Decimal]] = {}
    for i, (day, (usd, eur, cny)) in enumerate(sorted(_MAIN.items())):
        row = {"USD": Decimal(usd), "EUR": Decimal(eur), "CNY": Decimal(cny)}
        for char, base in _BASE.items():
            row[char] = base + Decimal(i) / Decimal(100)
        table[day] = row
    return table


def _key_rate_table() -> dict[date, Decimal]:
    """Key rate on every working day 2024-06-03 .. 2025-04-30."""
    steps = [
        (date(2024, 6, 3), "16.00"),
        (date(2024, 7, 29), "18.00"),
        (date(2024, 9, 16), "19.00"),
        (date(2024, 10, 28), "21.00"),
    ]
    out: dict[date, Decimal] = {}
    day = steps[0][0]
    while day <= date(2025, 4, 30):
        if day.weekday() < 5:
            out[day] = Decimal(next(r for d, r in reversed(steps) if d <= day))
        day += timedelta(days=1)
    return out


NEWS = [
    (
        38163,
        date(2024, 7, 26),
        "Банк России повысил ключевую ставку до 18,00% годовых",
        "/press/pr/?file=26072024_133000Key.htm",
    ),
    (
        38552,
        date(2024, 9, 13),
        "Банк России повысил ключевую ставку до 19,00% годовых",
        "/press/pr/?file=13092024_133000Key.htm",
    ),
    (
        38890,
        date(2024, 10, 25),
        "Банк России повысил ключевую ставку до 21,00% годовых",
        "/press/pr/?file=25102024_133000Key.htm",
    ),
]


def _pad(text: str, width: int) -> str:
    """The service pads strings with spaces."""
    return text.ljust(width)


def _dt(day: date) -> str:
    return f"{day.isoformat()}T00:00:00+03:00"


@dataclass
class FakeState:
    rates: dict[date, dict[str, Decimal]] = field(default_factory=_rates_table)
    key_rates: dict[date, Decimal] = field(default_factory=_key_rate_table)
    latest: datetime = datetime(2025, 4, 2)
    requests: Counter[str] = field(default_factory=Counter)
    user_agents: list[str] = field(default_factory=list)
    soap_versions: Counter[str] = field(default_factory=Counter)
    fault: FaultMode | None = None
    fault_remaining: int | None = None  # None = every request while a fault is set
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeCbrServer:
    """The fake service on 127.0.0.1 (free port) in a background thread."""

    def __init__(self) -> None:
        self.state = FakeState()
        handler = type("Handler", (_Handler,), {"state": self.state})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/DailyInfoWebServ/DailyInfo.asmx"

    def start(self) -> FakeCbrServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.state.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    # --- test controls ------------------------------------------------------------------

    def fail(self, mode: FaultMode | None, times: int | None = None) -> None:
        """Answer the next ``times`` requests (all when None) with a fault."""
        with self.state.lock:
            self.state.fault = mode
            self.state.fault_remaining = times
            if mode == "slow":
                self.state.release.clear()
            else:
                self.state.release.set()

    def heal(self) -> None:
        self.fail(None)

    @property
    def requests(self) -> Counter[str]:
        return self.state.requests

    @property
    def total_requests(self) -> int:
        return sum(self.state.requests.values())


class _Handler(BaseHTTPRequestHandler):
    state: FakeState
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # silence stderr
        return

    def do_GET(self) -> None:
        if "wsdl" in self.path.partition("?")[2].lower():
            self._send(200, "text/xml; charset=utf-8", BUNDLED_WSDL.read_bytes())
        else:
            self._send(404, "text/plain", b"not found")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        content_type = self.headers.get("Content-Type", "")
        version = "1.2" if "application/soap+xml" in content_type else "1.1"
        env_ns = SOAP12 if version == "1.2" else SOAP11
        operation = "?"
        try:
            root = etree.fromstring(body)
            body_el = root.find(f"{{{env_ns}}}Body")
            if body_el is None or len(body_el) == 0:
                raise _BadRequest("Server did not recognize the value of HTTP Header SOAPAction")
            request = body_el[0]
            operation = etree.QName(request).localname
            params = {etree.QName(c).localname: (c.text or "") for c in request}
        except etree.XMLSyntaxError:
            params = {}
        with self.state.lock:
            self.state.requests[operation] += 1
            self.state.user_agents.append(self.headers.get("User-Agent", ""))
            self.state.soap_versions[version] += 1
            fault = self.state.fault
            if fault is not None and self.state.fault_remaining is not None:
                self.state.fault_remaining -= 1
                if self.state.fault_remaining <= 0:
                    self.state.fault, self.state.fault_remaining = None, None
        if fault is not None and self._fault(fault):
            return
        try:
            payload = _dispatch(self.state, operation, params)
        except _BadRequest as exc:
            self._send(500, _ctype(version), _fault_envelope(version, str(exc)))
            return
        envelope = (
            f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{env_ns}" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>'
            f'<{operation}Response xmlns="{CBR_NS}"><{operation}Result>{payload}'
            f"</{operation}Result></{operation}Response></soap:Body></soap:Envelope>"
        )
        self._send(200, _ctype(version), envelope.encode())

    def _fault(self, mode: FaultMode) -> bool:
        if mode == "slow":
            self.state.release.wait(timeout=10)
            return False  # then answer normally (too late for the client)
        if mode == "http500":
            self._send(500, "text/plain; charset=utf-8", b"Internal Server Error")
        elif mode == "html":
            page = (
                "<!DOCTYPE html><html><head><title>Проверка браузера</title></head>"
                "<body><p>Checking your browser before accessing cbr.ru</p></body></html>"
            )
            self._send(200, "text/html; charset=utf-8", page.encode())
        elif mode == "malformed":
            broken = (
                f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP12}">'
                "<soap:Body><GetCursOnDateXMLResponse><ValuteData><Vname>Доллар"
            )
            self._send(200, "application/soap+xml; charset=utf-8", broken.encode())
        return True

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (slow mode)
            pass


class _BadRequest(Exception):
    pass


def _ctype(version: str) -> str:
    return "application/soap+xml; charset=utf-8" if version == "1.2" else "text/xml; charset=utf-8"


def _fault_envelope(version: str, message: str) -> bytes:
    text = escape(message)
    if version == "1.2":
        return (
            f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP12}">'
            "<soap:Body><soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code>"
            f'<soap:Reason><soap:Text xml:lang="en">{text}</soap:Text></soap:Reason>'
            "<soap:Detail /></soap:Fault></soap:Body></soap:Envelope>"
        ).encode()
    return (
        f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP11}">'
        f"<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>{text}"
        "</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>"
    ).encode()


def _parse_date(params: dict[str, str], name: str) -> date:
    raw = params.get(name)
    if raw is None:
        raise _BadRequest(f"Server was unable to read request. ---> {name} is required")
    try:
        return datetime.fromisoformat(raw.strip()).date()
    except ValueError:
        raise _BadRequest(
            "Server was unable to read request. ---> There is an error in XML document. "
            f"---> The string '{raw}' is not a valid AllXsd value."
        ) from None


def _dispatch(state: FakeState, operation: str, params: dict[str, str]) -> str:
    base, xml_form = (operation[:-3], True) if operation.endswith("XML") else (operation, False)
    if base == "GetCursOnDate":
        return _curs_on_date(state, _parse_date(params, "On_date"), xml_form)
    if base == "GetCursDynamic":
        code = params.get("ValutaCode", "").strip()
        frm, to = _parse_date(params, "FromDate"), _parse_date(params, "ToDate")
        return _curs_dynamic(state, code, frm, to, xml_form)
    if base == "KeyRate":
        frm, to = _parse_date(params, "fromDate"), _parse_date(params, "ToDate")
        rows = [
            {"DT": _dt(d), "Rate": f"{r:.2f}"}
            for d, r in sorted(state.key_rates.items(), reverse=True)  # newest first
            if frm <= d <= to
        ]
        return _table("KeyRate", "KR", rows, xml_form)
    if base == "NewsInfo":
        frm, to = _parse_date(params, "fromDate"), _parse_date(params, "ToDate")
        rows = [
            {"Doc_id": str(i), "DocDate": _dt(d), "Title": t, "Url": u}
            for i, d, t, u in NEWS
            if frm <= d <= to
        ]
        return _table("NewsInfo", "News", rows, xml_form)
    if base == "EnumValutes":
        if params.get("Seld") not in ("true", "false", "1", "0"):
            raise _BadRequest("Server was unable to read request. ---> Seld is required")
        rows = [
            {
                "Vcode": _pad(c.internal, 10),
                "Vname": _pad(c.name_ru, 50),
                "VEngname": _pad(c.name_en, 50),
                "Vnom": str(c.nom),
                "VcommonCode": _pad(c.internal, 10),
                "VnumCode": str(c.num),
                "VcharCode": c.char,
            }
            for c in CURRENCIES
        ]
        return _table("ValuteData", "EnumValutes", rows, xml_form)
    if operation == "GetLatestDateTime":
        return state.latest.isoformat()
    raise _BadRequest(f"Server did not recognize the value of HTTP Header SOAPAction: {operation}")


def _rows_on(state: FakeState, day: date) -> tuple[date | None, dict[str, Decimal]]:
    """Rates in force on ``day``: the last working day with rates on or before it."""
    known = [d for d in state.rates if d <= day]
    if not known:
        return None, {}
    last = max(known)
    return last, state.rates[last]


def _curs_on_date(state: FakeState, day: date, xml_form: bool) -> str:
    _, row = _rows_on(state, day)
    rows = []
    for c in CURRENCIES:
        if c.char not in row:
            continue
        vcurs = row[c.char]
        rows.append(
            {
                "Vname": _pad(c.name_ru, 60),
                "Vnom": str(c.nom),
                "Vcurs": f"{vcurs:.4f}",
                "Vcode": str(c.num),
                "VchCode": c.char,
                "VunitRate": f"{vcurs / c.nom}",
            }
        )
    # OnDate echoes the requested date (it does not say when the rate was set).
    attrs = {"OnDate": day.strftime("%Y%m%d")}
    return _table("ValuteData", "ValuteCursOnDate", rows, xml_form, attrs)


def _curs_dynamic(state: FakeState, code: str, frm: date, to: date, xml_form: bool) -> str:
    cur = next((c for c in CURRENCIES if c.internal == code), None)
    rows = []
    if cur is not None:
        for day in sorted(state.rates):
            if frm <= day <= to and cur.char in state.rates[day]:
                vcurs = state.rates[day][cur.char]
                rows.append(
                    {
                        "CursDate": _dt(day),
                        "Vcode": _pad(cur.internal, 10),
                        "Vnom": str(cur.nom),
                        "Vcurs": f"{vcurs:.4f}",
                        "VunitRate": f"{vcurs / cur.nom}",
                    }
                )
    attrs = {"ValCode": code, "FromDate": frm.strftime("%Y%m%d"), "ToDate": to.strftime("%Y%m%d")}
    return _table("ValuteData", "ValuteCursDynamic", rows, xml_form, attrs)


def _table(
    root: str,
    row_name: str,
    rows: list[dict[str, str]],
    xml_form: bool,
    attrs: dict[str, str] | None = None,
) -> str:
    """A payload: the bare node (XML form) or ``xs:schema`` + diffgram (DataSet form)."""
    attr_text = "".join(f' {k}="{escape(v)}"' for k, v in (attrs or {}).items())
    if xml_form:
        body = "".join(_row(row_name, r) for r in rows)
        return f'<{root}{attr_text} xmlns="">{body}</{root}>'
    body = "".join(
        _row(row_name, r, f' diffgr:id="{row_name}{i + 1}" msdata:rowOrder="{i}"')
        for i, r in enumerate(rows)
    )
    return (
        _schema(root, row_name, list(rows[0]) if rows else [])
        + '<diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" '
        'xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1">'
        f'<{root} xmlns="">{body}</{root}></diffgr:diffgram>'
    )


def _row(name: str, fields: dict[str, str], extra: str = "") -> str:
    inner = "".join(f"<{k}>{escape(v)}</{k}>" for k, v in fields.items())
    return f"<{name}{extra}>{inner}</{name}>"


def _schema(root: str, row_name: str, columns: list[str]) -> str:
    cols = "".join(f'<xs:element name="{c}" type="xs:string" minOccurs="0" />' for c in columns)
    return (
        f'<xs:schema id="{root}" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">'
        f'<xs:element name="{root}" msdata:IsDataSet="true"><xs:complexType>'
        '<xs:choice minOccurs="0" maxOccurs="unbounded">'
        f'<xs:element name="{row_name}"><xs:complexType><xs:sequence>{cols}'
        "</xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType>"
        "</xs:element></xs:schema>"
    )


def running_server() -> Iterator[FakeCbrServer]:
    """Generator for a pytest fixture: ``yield from running_server()``."""
    server = FakeCbrServer().start()
    try:
        yield server
    finally:
        server.stop()


class ManualClock:
    """An injectable monotonic clock for cache TTL tests."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
