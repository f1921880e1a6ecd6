"""A loopback fake of the Tavily REST API (POST /search, POST /extract).

It speaks the real wire protocol so the real ``tavily-python`` SDK runs against it:
Bearer auth (or ``api_key`` in the JSON body, as older clients sent it), realistic finance
news results with ``published_date``, and Tavily's error bodies ``{"detail": {"error": ...}}``.
Tests switch behaviour at run time: a fixed error status, N transient 500s, a slow mode.

"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.fakes.net import LoopbackServer

FAKE_TAVILY_KEY = "tvly-FAKE-4b1d-SECRET-test-key-0000"
NO_RESULTS_QUERY = "no-results"  # a query containing this finds nothing

ERROR_DETAILS: dict[int, str] = {
    400: "Invalid request: query is too long or a parameter is malformed.",
    401: "Unauthorized: missing or invalid API key.",
    403: "Forbidden: this endpoint is not available on your plan.",
    429: "Your request has been blocked due to excessive requests. Please slow down.",
    432: "This request exceeds your plan's set usage limit. Please upgrade your plan.",
    433: "This request exceeds the pay-as-you-go limit. Raise it in the dashboard.",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}

NEWS: list[dict[str, Any]] = [
    {
        "title": "Банк России сохранил ключевую ставку на уровне 21%",
        "url": "https://www.cbr.ru/press/pr/?file=14022025_133000Key.htm",
        "content": (
            "Совет директоров Банка России 14 февраля 2025 года принял решение сохранить "
            "ключевую ставку на уровне 21,00% годовых. Инфляционное давление остаётся высоким, "
            "рост внутреннего спроса продолжает значительно опережать возможности расширения "
            "производства товаров и услуг. " * 3
        ),
        "score": 0.91,
        "published_date": "Fri, 14 Feb 2025 10:30:00 GMT",
    },
    {
        "title": "Минфин предложил изменить порядок уплаты НДФЛ с доходов по вкладам",
        "url": "https://www.rbc.ru/finances/11/03/2025/67d0a1b29a7947f1c2e3d4f5",
        "content": (
            "Министерство финансов подготовило поправки в Налоговый кодекс, касающиеся "
            "налогообложения процентов по банковским вкладам."
        ),
        "score": 0.87,
        "published_date": "Tue, 11 Mar 2025 17:00:00 GMT",
    },
    {
        "title": "Курс рубля: аналитики ожидают стабилизации в марте",
        "url": "https://www.interfax.ru/business/1012345",
        "content": "Рубль укрепился к доллару на фоне высоких цен на нефть и налогового периода.",
        "score": 0.74,
        "published_date": "Mon, 10 Mar 2025 09:15:00 GMT",
    },
    {
        "title": "ФНС напомнила о сроках подачи декларации 3-НДФЛ",
        "url": "https://www.nalog.gov.ru/rn77/news/activities_fts/15234567/",
        "content": "Декларацию 3-НДФЛ за 2024 год нужно подать не позднее 30 апреля 2025 года.",
        "score": 0.69,
        "published_date": None,
    },
]


@dataclass
class FakeTavily:
    """Behaviour switches and records of a fake Tavily API."""

    api_key: str = FAKE_TAVILY_KEY
    error_status: int | None = None
    transient_failures: int = 0
    transient_status: int = 500
    slow: bool = False
    requests: Counter[str] = field(default_factory=Counter)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    auth_headers: list[str | None] = field(default_factory=list)
    url: str = ""
    _release: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    def reset(self) -> None:
        self.error_status = None
        self.transient_failures = 0
        self.transient_status = 500
        self.slow = False
        self._release = None
        self.requests.clear()
        self.bodies.clear()
        self.auth_headers.clear()

    def release_slow(self) -> None:
        """Let every request held by slow mode finish (used on teardown)."""
        if self._loop is not None and self._release is not None:
            self._loop.call_soon_threadsafe(self._release.set)

    # --- handlers -------------------------------------------------------------
    async def _authorise(self, request: Request, body: dict[str, Any]) -> JSONResponse | None:
        header = request.headers.get("authorization")
        self.auth_headers.append(header)
        token = header.removeprefix("Bearer ").strip() if header else body.get("api_key")
        if token != self.api_key:
            return _error(401)
        return None

    async def _preamble(self, request: Request, endpoint: str) -> tuple[dict[str, Any], Any]:
        self.requests[endpoint] += 1
        try:
            body = await request.json()
        except ValueError:
            return {}, _error(400)
        self.bodies.append(body)
        if self.slow:
            self._loop = asyncio.get_running_loop()
            self._release = self._release or asyncio.Event()
            await asyncio.wait_for(self._release.wait(), timeout=30)
        if self.transient_failures > 0:
            self.transient_failures -= 1
            return body, _error(self.transient_status)
        if self.error_status is not None:
            return body, _error(self.error_status)
        return body, await self._authorise(request, body)

    async def search(self, request: Request) -> JSONResponse:
        body, failure = await self._preamble(request, "search")
        if failure is not None:
            return failure
        query = body.get("query")
        if not isinstance(query, str) or not query.strip():
            return _error(400)
        max_results = int(body.get("max_results", 5))
        include = body.get("include_domains") or []
        items = [n for n in NEWS if not include or any(d in n["url"] for d in include)]
        if NO_RESULTS_QUERY in query:
            items = []
        results = []
        for item in items[:max_results]:
            result = {k: v for k, v in item.items() if k != "published_date"}
            result["raw_content"] = None
            if body.get("topic") in ("news", "finance") and item["published_date"]:
                result["published_date"] = item["published_date"]
            results.append(result)
        return JSONResponse(
            {
                "query": query,
                "follow_up_questions": None,
                "answer": None,
                "images": [],
                "results": results,
                "response_time": 0.42,
                "request_id": f"req-{self.requests['search']}",
            }
        )

    async def extract(self, request: Request) -> JSONResponse:
        body, failure = await self._preamble(request, "extract")
        if failure is not None:
            return failure
        urls = body.get("urls")
        urls = [urls] if isinstance(urls, str) else list(urls or [])
        results, failed = [], []
        for url in urls:
            if "broken" in url or not url.startswith("http"):
                failed.append({"url": url, "error": "Failed to fetch url"})
            else:
                results.append(
                    {
                        "url": url,
                        "raw_content": f"# Page {url}\n\nКлючевая ставка 21%.",
                        "images": [],
                    }
                )
        return JSONResponse(
            {"results": results, "failed_results": failed, "response_time": 0.1, "request_id": "x"}
        )

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/search", self.search, methods=["POST"]),
                Route("/extract", self.extract, methods=["POST"]),
            ]
        )


def _error(status: int) -> JSONResponse:
    detail = ERROR_DETAILS.get(status, "Error")
    return JSONResponse({"detail": {"error": detail}}, status_code=status)


@contextmanager
def run_fake_tavily() -> Iterator[FakeTavily]:
    """Start a fake Tavily on a free loopback port; yields its state (``url`` set)."""
    fake = FakeTavily()
    server = LoopbackServer(fake.app())
    server.start()
    fake.url = server.url
    try:
        yield fake
    finally:
        fake.release_slow()
        server.stop()
