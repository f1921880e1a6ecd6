"""A loopback fake of the internal document-search API (see docs/internal-search-api.md).

One uvicorn server hosts both services under different prefixes, so base URLs with a path
are exercised too:

- ``{url}/api`` = ``FINAGENT_DOC_API_URL``: ``GET /search`` (paged), ``GET /documents/{id}``
  (JSON); ``{url}/gateway`` = ``FINAGENT_INTERNAL_GATEWAY_API_URL``: ``GET /documents/{id}`` (XML)

Documents of publication divisions 3 and 13 exist only on the gateway; the others only as
JSON. ``doc-104`` is broken (always 500); ``doc-105`` has a long HTML body; ``doc-666``
is hostile XML (entity expansion) that a safe parser must refuse.

Auth (off by default): with ``token`` set every endpoint requires
``Authorization: Bearer <token>`` (401 otherwise, with ``WWW-Authenticate``);
``forbidden_token`` is a known token without access (403); ``gateway_token`` makes the
gateway require a different token. Every ``Authorization`` header received is recorded.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from tests.fakes.net import LoopbackServer

XML_DIVISIONS = {3, 13}
MAX_QUERY_CHARS = 300
LONG_PARAGRAPH = (
    "<p>Налоговый вычет на долгосрочное владение ценными бумагами предоставляется "
    "при условии владения более трёх лет &laquo;без перерыва&raquo;.</p>\n"
)


@dataclass(frozen=True)
class FakeDoc:
    id: str
    title: str
    pub_division: int
    pub_alias: str
    body: str  # HTML for JSON documents, inner XML of <body> for gateway documents
    xml_title: str | None = None  # the title inside the XML differs from the search hit's
    broken: bool = False
    doctype: str = ""  # a DTD placed before <document> (hostile XML)

    @property
    def url(self) -> str:
        return f"https://docs.example.corp/{self.pub_alias}/{self.id}"


DOCS: list[FakeDoc] = [
    FakeDoc(
        "doc-101",
        "НДФЛ: ставки в 2025 году",
        1,
        "nk",
        "<h1>Ставки НДФЛ</h1><p>Ставка налога &mdash; 13%&nbsp;для доходов до 2,4 млн руб."
        "</p>\n\n<script>alert('x')</script><p>Свыше &#8212; 15%.</p>",
    ),
    FakeDoc(
        "doc-102",
        "Письмо Минфина (hit title)",
        3,
        "letters",
        "<p>Налог на доходы по вкладам уплачивается на основании уведомления.</p>",
        xml_title="Письмо Минфина России от 10.03.2025 № 03-04-05/12345",
    ),
    FakeDoc(
        "doc-103",
        "Письмо ФНС (hit title)",
        13,
        "letters",
        "<![CDATA[<div>Налоговые органы <b>не вправе</b> требовать &laquo;лишние&raquo; "
        "документы.</div>]]>",
        xml_title="Письмо ФНС России от 01.02.2025 № БС-4-11/1234@",
    ),
    FakeDoc("doc-104", "Сломанный документ о налогах", 2, "nk", "", broken=True),
    FakeDoc("doc-105", "Длинная практика по налогам", 1, "practice", LONG_PARAGRAPH * 80),
    FakeDoc(
        "doc-106",
        "Налог на прибыль: ставка 25%",
        5,
        "nk",
        "<p>С 2025 года ставка налога на прибыль &mdash; 25%.</p>",
    ),
    FakeDoc(
        "doc-107",
        "Разъяснение по налогу на имущество",
        13,
        "letters",
        "<section><p>Налог на имущество физических лиц</p><p>уплачивается до 1 декабря."
        "</p></section>",
        xml_title="Разъяснение ФНС по налогу на имущество",
    ),
    FakeDoc(
        "doc-666",
        "Опасный XML-документ",
        3,
        "hostile",
        "&lol3;",
        doctype=(
            '<!DOCTYPE document [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">'
            '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]>\n'
        ),
    ),
]


@dataclass
class FakeInternalSearch:
    """Behaviour switches and request records of the fake."""

    docs: list[FakeDoc] = field(default_factory=lambda: list(DOCS))
    search_failures: int = 0  # the next N search requests answer 503
    token: str | None = None  # required Bearer token (None: no auth)
    forbidden_token: str | None = None  # a valid token without access: 403
    gateway_token: str | None = None  # the gateway's own token (default: ``token``)
    requests: Counter[str] = field(default_factory=Counter)
    search_params: list[dict[str, str]] = field(default_factory=list)
    auth_headers: list[str | None] = field(default_factory=list)
    url: str = ""

    def reset(self) -> None:
        self.search_failures = 0
        self.token = self.forbidden_token = self.gateway_token = None
        self.requests.clear()
        self.search_params.clear()
        self.auth_headers.clear()

    @property
    def doc_api_url(self) -> str:
        return f"{self.url}/api"

    @property
    def gateway_url(self) -> str:
        return f"{self.url}/gateway"

    def _refuse(self, request: Request, *, gateway: bool = False) -> Response | None:
        """401/403 when auth is on and the Bearer token is missing, wrong or forbidden."""
        header = request.headers.get("authorization")
        self.auth_headers.append(header)
        expected = (self.gateway_token or self.token) if gateway else self.token
        if expected is None:
            return None
        scheme, _, token = (header or "").partition(" ")
        if scheme.lower() == "bearer" and token and token == self.forbidden_token:
            return JSONResponse({"error": "forbidden"}, status_code=403)
        if scheme.lower() != "bearer" or token != expected:
            return JSONResponse(
                {"error": "invalid or missing token"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
            )
        return None

    def _by_id(self, doc_id: str) -> FakeDoc | None:
        return next((d for d in self.docs if d.id == doc_id), None)

    async def search(self, request: Request) -> Response:
        params = dict(request.query_params)
        self.search_params.append(params)
        self.requests["search"] += 1
        if refused := self._refuse(request):
            return refused
        if self.search_failures > 0:
            self.search_failures -= 1
            return JSONResponse({"error": "search backend unavailable"}, status_code=503)
        query = params.get("q", "").strip().lower()
        try:
            page = int(params.get("page", "1"))
            page_size = int(params.get("page_size", "10"))
        except ValueError:
            return JSONResponse({"error": "page and page_size must be integers"}, 400)
        if not query or len(query) > MAX_QUERY_CHARS or page < 1 or not 1 <= page_size <= 100:
            return JSONResponse(
                {"error": "q: 1-300 characters; page >= 1; 1 <= page_size <= 100"}, 400
            )
        terms = [t for t in query.split() if len(t) >= 3]
        hits = [
            d
            for d in self.docs
            if any(t in (d.title + " " + d.body).lower() for t in terms)
            and (not params.get("pub_alias") or d.pub_alias == params["pub_alias"])
        ]
        pages = math.ceil(len(hits) / page_size)
        chunk = hits[(page - 1) * page_size : page * page_size]
        items = [
            {
                "id": d.id,
                "title": d.title,
                "pub_division": d.pub_division,
                "pub_alias": d.pub_alias,
                "url": d.url,
            }
            for d in chunk
        ]
        return JSONResponse({"items": items, "page": page, "pages": pages, "total": len(hits)})

    async def json_document(self, request: Request) -> Response:
        doc_id = request.path_params["doc_id"]
        self.requests[f"json:{doc_id}"] += 1
        if refused := self._refuse(request):
            return refused
        doc = self._by_id(doc_id)
        if doc is None or doc.pub_division in XML_DIVISIONS:
            return JSONResponse({"error": f"document {doc_id} not found"}, status_code=404)
        if doc.broken:
            return JSONResponse({"error": "internal error"}, status_code=500)
        return JSONResponse(
            {
                "id": doc.id,
                "title": doc.title,
                "body_html": doc.body,
                "url": doc.url,
                "updated_at": "2025-03-01T12:00:00Z",
            }
        )

    async def xml_document(self, request: Request) -> Response:
        doc_id = request.path_params["doc_id"]
        self.requests[f"xml:{doc_id}"] += 1
        if refused := self._refuse(request, gateway=True):
            return refused
        doc = self._by_id(doc_id)
        if doc is None or doc.pub_division not in XML_DIVISIONS:
            return Response("<error>not found</error>", 404, media_type="application/xml")
        xml = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"{doc.doctype}"
            f'<document id="{doc.id}" division="{doc.pub_division}">\n'
            f"  <title>{escape(doc.xml_title or doc.title)}</title>\n"
            f"  <url>{escape(doc.url)}</url>\n"
            "  <updated_at>2025-03-10T08:00:00Z</updated_at>\n"
            f"  <body>{doc.body}</body>\n"
            "</document>\n"
        )
        return Response(xml.encode(), media_type="application/xml; charset=utf-8")

    def app(self) -> Starlette:
        api = [
            Route("/search", self.search),
            Route("/documents/{doc_id}", self.json_document),
        ]
        gateway = [Route("/documents/{doc_id}", self.xml_document)]
        return Starlette(routes=[Mount("/api", routes=api), Mount("/gateway", routes=gateway)])


@contextmanager
def run_fake_internal_search() -> Iterator[FakeInternalSearch]:
    """Start the fake on a free loopback port; yields its state (``url`` set)."""
    fake = FakeInternalSearch()
    server = LoopbackServer(fake.app())
    server.start()
    fake.url = server.url
    try:
        yield fake
    finally:
        server.stop()
