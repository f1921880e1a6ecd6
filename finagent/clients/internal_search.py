"""Client of the internal document-search API (wire format: docs/internal-search-api.md).

Pages through ``GET {doc_api_url}/search`` and fetches each hit: documents of publication
divisions 3 and 13 as XML from ``GET {internal_gateway_api_url}/documents/{id}``, the
others as JSON from ``GET {doc_api_url}/documents/{id}``. Text is cleaned of markup and
truncated. A document that fails is logged and skipped; the rest are still returned.
With ``internal_search_token`` set, every request carries ``Authorization: Bearer``; the
token is registered for redaction and never appears in messages or logs. Results are
not cached.
Models are in :mod:`~finagent.clients.internal_search_models`, reply parsing in
:mod:`~finagent.clients.internal_search_parse`.
"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from typing import Any
from urllib.parse import quote

import httpx

from finagent.clients.breaker import Breaker
from finagent.clients.budget import answer_budget
from finagent.clients.call_log import external_call
from finagent.clients.errors import (
    CircuitOpenError,
    TransientServiceError,
    is_transient,
)
from finagent.clients.internal_search_models import InternalDocument, InternalSearchError, SearchHit
from finagent.clients.internal_search_parse import (
    int_or,
    parse_json_document,
    parse_xml_document,
    search_hits,
)
from finagent.clients.resilient import BudgetExhausted, CallPolicy, DeadlineExceeded, resilient_call
from finagent.config import Settings
from finagent.observability import get_logger, register_secrets

log = get_logger("finagent.clients.internal_search")
SERVICE = "internal_search"
XML_DIVISIONS = frozenset({3, 13})
MAX_LIMIT = 20
TOKEN_ENV = "FINAGENT_INTERNAL_SEARCH_TOKEN"
AUTH_STATUSES = frozenset({401, 403})


class SearchClient:
    """Async client of the internal search API with paging, retries and a circuit breaker."""

    def __init__(
        self,
        settings: Settings,
        http: httpx.AsyncClient | None = None,
        *,
        retry_attempts: int = 3,
        retry_initial_s: float = 0.2,
        breaker: Breaker | None = None,
    ) -> None:
        if not settings.doc_api_url:
            raise InternalSearchError("internal search is not configured: set FINAGENT_DOC_API_URL")
        token = settings.internal_search_token
        secret = token.get_secret_value().strip() if token else ""
        if secret:
            register_secrets([secret])
        self._has_token = bool(secret)
        self._auth: dict[str, str] = {"Authorization": f"Bearer {secret}"} if secret else {}
        self._doc_api = settings.doc_api_url.rstrip("/")
        gateway = settings.internal_gateway_api_url
        self._gateway = gateway.rstrip("/") if gateway else None
        self._timeout = httpx.Timeout(settings.doc_api_timeout_s)
        self._page_size = settings.doc_api_page_size
        self._max_pages = settings.doc_api_max_pages
        self._max_chars = settings.doc_api_max_doc_chars
        self._policy = CallPolicy(
            SERVICE,
            deadline_s=settings.doc_api_deadline_s,
            attempts=retry_attempts,
            backoff_s=retry_initial_s,
        )
        self._breaker = breaker or Breaker(
            SERVICE,
            threshold=settings.doc_api_breaker_threshold,
            ttl_s=settings.doc_api_breaker_ttl_s,
        )
        self._injected = http
        self._own: httpx.AsyncClient | None = None
        self._own_loop: weakref.ref[asyncio.AbstractEventLoop] | None = None

    async def fetch_search_pages_and_docs(
        self, query: str, limit: int = 3, pub_alias: str | None = None
    ) -> list[InternalDocument]:
        """Up to ``limit`` documents for ``query``, in search order; broken ones skipped.

        The whole search (every page and document) takes at most ``doc_api_deadline_s``.
        """
        query = query.strip()
        if not query:
            raise InternalSearchError("the search query is empty")
        with answer_budget(self._policy.deadline_s):
            return await self._search_and_fetch(query, limit, pub_alias)

    async def _search_and_fetch(
        self, query: str, limit: int, pub_alias: str | None
    ) -> list[InternalDocument]:
        limit = max(1, min(limit, MAX_LIMIT))
        docs: list[InternalDocument] = []
        refused: list[int] = []  # 401/403 answers to document requests
        seen: set[str] = set()
        page, pages = 1, 1
        while len(docs) < limit and page <= min(pages, self._max_pages):
            payload = await self._search_page(query, page, pub_alias)
            pages = int_or(payload.get("pages"), default=page)
            hits = search_hits(payload)
            if not hits:
                break
            pending = [h for h in hits if h.id not in seen]
            seen.update(h.id for h in pending)
            while pending and len(docs) < limit:
                batch, pending = pending[: limit - len(docs)], pending[limit - len(docs) :]
                fetched = await asyncio.gather(*(self._document(h, refused) for h in batch))
                docs.extend(d for d in fetched if d is not None)
            page += 1
        if not docs and refused:  # not "nothing found" when we were not allowed to read
            raise self._auth_error(refused[0], "the internal document service")
        return docs

    async def aclose(self) -> None:
        if self._own is not None:
            own, self._own = self._own, None
            await own.aclose()

    # --- HTTP -----------------------------------------------------------------------
    def _http(self) -> httpx.AsyncClient:
        if self._injected is not None:
            return self._injected
        loop = asyncio.get_running_loop()
        if self._own is None or self._own_loop is None or self._own_loop() is not loop:
            self._own = httpx.AsyncClient(
                timeout=self._timeout, headers={"Accept": "application/json, application/xml"}
            )
            self._own_loop = weakref.ref(loop)
        return self._own

    async def _get(
        self, operation: str, url: str, breaker: Breaker | None = None, **params: Any
    ) -> httpx.Response:
        """GET through ``resilient_call`` (retries on 5xx/transport errors, total deadline,
        ``breaker`` when given); raises for any non-2xx answer. With a breaker (the search
        itself) a reply that is not JSON is a transient failure too."""
        attempts = itertools.count(1)

        async def attempt() -> httpx.Response:
            async with external_call(SERVICE, operation, attempt=next(attempts)):
                response = await self._http().get(
                    url, params=params, headers=self._auth, timeout=self._timeout
                )
                response.raise_for_status()
                if breaker is not None:
                    try:
                        response.json()
                    except ValueError:
                        raise TransientServiceError("not JSON") from None
                return response

        return (await resilient_call(attempt, policy=self._policy, breaker=breaker)).value

    async def _search_page(self, query: str, page: int, pub_alias: str | None) -> dict[str, Any]:
        params: dict[str, Any] = {"q": query, "page": page, "page_size": self._page_size}
        if pub_alias:
            params["pub_alias"] = pub_alias
        try:
            url = f"{self._doc_api}/search"
            response = await self._get("search", url, breaker=self._breaker, **params)
            payload = response.json()
        except CircuitOpenError as exc:
            wait = f"; retry in about {exc.retry_after_s:.0f} s" if exc.retry_after_s else ""
            raise InternalSearchError(
                f"internal search is temporarily unavailable after repeated failures{wait}"
            ) from None
        except httpx.HTTPStatusError as exc:
            status = exc.response.status_code
            if status in AUTH_STATUSES:
                raise self._auth_error(status) from None
            advice = "try again later" if status >= 500 else "rephrase the query"
            raise InternalSearchError(
                f"internal search failed (HTTP {status}); {advice}", transient=status >= 500
            ) from None
        except (httpx.TimeoutException, DeadlineExceeded, BudgetExhausted):
            raise InternalSearchError(
                "internal search did not answer in time; try again later", transient=True
            ) from None
        except TransientServiceError:
            raise InternalSearchError(
                "internal search returned an unreadable answer (not JSON); try again later",
                transient=True,
            ) from None
        except httpx.TransportError as exc:
            raise InternalSearchError(
                f"cannot reach internal search ({type(exc).__name__}); check "
                "FINAGENT_DOC_API_URL and the network",
                transient=True,
            ) from None
        except ValueError:
            raise InternalSearchError(
                "internal search returned an unreadable answer (not JSON); try again later",
                transient=True,
            ) from None
        if not isinstance(payload, dict):
            raise InternalSearchError("internal search returned an unexpected answer")
        return payload

    def _auth_error(self, status: int, service: str = "internal search") -> InternalSearchError:
        """A clear, token-free error for a 401/403 answer."""
        if status == 401:
            problem = "rejected the access token" if self._has_token else "requires a token"
        else:
            problem = "denied access with this token" if self._has_token else "denied access"
        action = "check" if self._has_token else "set"
        return InternalSearchError(
            f"{service} {problem} (HTTP {status}); {action} {TOKEN_ENV}", transient=False
        )

    async def _document(self, hit: SearchHit, refused: list[int]) -> InternalDocument | None:
        """Fetch and parse one document; ``None`` (logged) when it cannot be read.

        401/403 answers are also appended to ``refused``.
        """
        as_xml = hit.pub_division in XML_DIVISIONS
        try:
            if as_xml:
                if not self._gateway:
                    raise InternalSearchError(
                        "XML gateway is not configured (FINAGENT_INTERNAL_GATEWAY_API_URL)"
                    )
                url = f"{self._gateway}/documents/{quote(hit.id, safe='')}"
                doc = parse_xml_document(
                    (await self._get("document_xml", url)).content, hit, self._max_chars
                )
            else:
                url = f"{self._doc_api}/documents/{quote(hit.id, safe='')}"
                doc = parse_json_document(
                    (await self._get("document_json", url)).json(), hit, self._max_chars
                )
        except Exception as exc:  # one bad document must not sink the others
            status = exc.response.status_code if isinstance(exc, httpx.HTTPStatusError) else None
            if status in AUTH_STATUSES:
                refused.append(status)
            log.warning(
                "internal_document_skipped",
                doc_id=hit.id,
                pub_division=hit.pub_division,
                error_type=type(exc).__name__,
                status=status,
                transient=is_transient(exc),
            )
            return None
        return doc
