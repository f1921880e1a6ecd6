"""Fuzzing the self-hosted FastAPI service: no request a client can send gets a 5xx.

Hypothesis makes the requests (schemathesis cannot be installed next to this project's dev
tools, see docs/serving.md): JSON bodies generated from AskRequest's JSON schema and then
broken in every way a client can break them; Authorization headers that are missing,
garbage, huge or not ASCII; multipart uploads built byte by byte, with hostile names, types
and contents (mutated PDF/DOCX, zip bombs). The app runs in-process on real services
(temporary data dir, no LLM, no network). LangServe's routes of both graphs get bodies
valid and broken (huge integers, lone surrogates, deep nesting, over-long fields, wrong
types, oversized batches). The regression tests at the end pin each bug the
fuzzing found.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import httpx
import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from finagent.bootstrap import Deps
from finagent.retrieval.loaders import DOCX_XML_ALLOWANCE_BYTES
from finagent.server.app import (
    MAX_JSON_BODY_BYTES,
    MAX_UPLOAD_FILES,
    MULTIPART_OVERHEAD_BYTES,
    AskRequest,
    create_app,
)
from tests.conftest import INVOICE, LEASE

TOKENS = "alice-token-0001:alice,bob-token-00002:bob"
SECRETS = ("alice-token-0001", "bob-token-00002")
ALICE = {"Authorization": "Bearer alice-token-0001"}
MAX_FILE_BYTES = 64 * 1024  # small, so "too large" and the archive limit are reachable
ALICE_DOC = "@alice-doc"  # in generated bodies: replaced by the id of Alice's document
CYRILLIC = re.compile("[а-яА-ЯёЁ]")
STATUSES = {200, 401, 413, 422}  # all a POST may answer

FUZZ = settings(
    derandomize=True,  # the same examples on every run
    database=None,
    deadline=None,  # no timing asserts; max_examples bounds the run
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # one app serves all examples on purpose
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


T = TypeVar("T")


def mostly(usual: st.SearchStrategy[T], unusual: st.SearchStrategy[T]) -> st.SearchStrategy[T]:
    """``usual`` in three draws of four, so most requests get past auth and parsing."""
    return st.sampled_from(range(4)).flatmap(lambda n: unusual if n == 3 else usual)


@dataclass
class Target:
    http: httpx.AsyncClient
    alice_doc: str  # id of a document Alice uploaded


async def serve(services: Deps) -> AsyncIterator[Target]:
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)  # app exceptions propagate: a crash fails
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            lease = await http.post(
                "/v1/documents", headers=ALICE, files=[("files", ("lease.md", LEASE.encode()))]
            )
            yield Target(http, lease.json()["results"][0]["document_id"])


@pytest.fixture
async def client(make_services, kb_csv) -> AsyncIterator[Target]:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS, max_file_bytes=MAX_FILE_BYTES)
    await services.ingestor().ingest_kb([kb_csv])
    async for target in serve(services):
        yield target


def check(response: httpx.Response, allowed: set[int]) -> Any:
    """The contract every answer keeps; returns the parsed JSON body."""
    assert response.status_code < 500, response.text[:500]
    assert response.status_code in allowed, (response.status_code, response.text[:500])
    if currently_in_test_context():  # the mix shows with --hypothesis-show-statistics
        event(f"HTTP {response.status_code}")
    text = response.text + "".join(f"{k}: {v}" for k, v in response.headers.items())
    for secret in SECRETS:
        assert secret not in text
    assert "finagent-upload-" not in text  # no server temp paths
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body["detail"], str) and body["detail"]
    if response.status_code in (413, 422):
        assert CYRILLIC.search(body["detail"]), body["detail"]
    if response.status_code == 401:
        assert response.headers["www-authenticate"] == "Bearer"
    return body


# --- headers -------------------------------------------------------------------------------

_header_bytes = st.binary(max_size=300).map(  # what HTTP allows in a header value
    lambda b: bytes(c for c in b if c == 9 or 32 <= c <= 126 or c >= 128)
)
hostile_authorizations = st.one_of(
    st.none(),
    st.sampled_from(
        [
            b"bearer alice-token-0001",  # accepted: the scheme is case-insensitive
            b"Bearer  alice-token-0001 ",  # accepted: surrounding blanks are ignored
            b"Bearer alice-token-000",
            b"Bearer alice-token-00011",
            b"Basic YWxpY2U6cGFzcw==",
            b"Bearer",
            b"Bearer ",
            b"alice-token-0001",
            "Bearer токен-алисы".encode(),
            "Bearer токен".encode("cp1251"),
            b"Bearer \xff\xfe\x80",
        ]
    ),
    _header_bytes,
    _header_bytes.map(lambda b: b"Bearer " + b),
    st.integers(1_000, 100_000).map(lambda n: b"Bearer " + b"a" * n),
)
authorizations = mostly(
    st.sampled_from([b"Bearer alice-token-0001", b"Bearer bob-token-00002"]),
    hostile_authorizations,
)


def with_auth(authorization: bytes | None, **extra: bytes) -> dict[str, bytes]:
    headers = dict(extra)
    if authorization is not None:
        headers["Authorization"] = authorization
    return headers


# --- /v1/ask -------------------------------------------------------------------------------

any_text = st.text(st.characters(exclude_categories=()), max_size=60)  # lone surrogates too
russian = st.sampled_from(["какие пени в моём договоре аренды?", "ставка НДС", "привет", " "])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)


def from_schema(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid for the JSON-schema subset Pydantic emits for AskRequest."""
    if "$ref" in schema:
        return from_schema(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "anyOf" in schema:
        return st.one_of([from_schema(s, defs) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "string":
        return russian | any_text | st.text(max_size=schema.get("maxLength", 5000))
    if kind == "array":
        items = from_schema(schema["items"], defs) | st.just(ALICE_DOC)
        return st.lists(items, max_size=min(schema.get("maxItems", 5), 5))
    assert kind == "object", schema
    props = {k: from_schema(v, defs) for k, v in schema["properties"].items()}
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {k: v for k, v in props.items() if k in required},
        optional={k: v for k, v in props.items() if k not in required},
    )


ASK_SCHEMA = AskRequest.model_json_schema()
valid_asks = from_schema(ASK_SCHEMA, ASK_SCHEMA.get("$defs", {}))


@st.composite
def broken_asks(draw: st.DrawFn) -> Any:
    """A valid body with one field of any JSON type, an extra key or a key dropped."""
    body = dict(draw(valid_asks))
    key = draw(st.sampled_from([*ASK_SCHEMA["properties"], "user_id"]))
    if draw(st.booleans()):
        body.pop(key, None)
    else:
        body[key] = draw(json_values)
    return body


def encode_json(value: Any) -> bytes:
    return json.dumps(value).encode()  # ASCII: "\ud800", NaN and Infinity pass as they are


hostile_bodies = st.one_of(
    st.builds(encode_json, json_values),
    st.binary(max_size=200),  # not JSON, invalid UTF-8
    st.integers(1, 50_000).map(lambda n: b"[" * n + b"]" * n),  # deep nesting
    st.integers(1, 50_000).map(lambda n: b'{"query":' * n),
    st.builds(lambda q: json.dumps({"query": q}, ensure_ascii=False).encode("utf-16"), russian),
    st.builds(lambda q: json.dumps({"query": q}, ensure_ascii=False).encode("cp1251"), russian),
)
raw_bodies = mostly(
    st.builds(encode_json, valid_asks),
    st.builds(encode_json, broken_asks()) | hostile_bodies,
)
content_types = mostly(
    st.sampled_from([b"application/json", b"application/json; charset=utf-8"]),
    st.sampled_from(
        [
            b"application/problem+json",
            b"text/plain",
            b"multipart/form-data",
            b"application/x-www-form-urlencoded",
            b"\xff\xfe",
            None,
        ]
    ),
)


@settings(FUZZ, max_examples=500)
@given(authorization=authorizations, body=raw_bodies, content_type=content_types)
async def test_fuzz_ask(
    client: Target, authorization: bytes | None, body: bytes, content_type: bytes | None
) -> None:
    body = body.replace(ALICE_DOC.encode(), client.alice_doc.encode())
    extra = {"Content-Type": content_type} if content_type is not None else {}
    headers = with_auth(authorization, **extra)
    answer = check(await client.http.post("/v1/ask", content=body, headers=headers), STATUSES)
    if "answer" in answer:
        assert isinstance(answer["answer"], str) and answer["answer"]


# --- /v1/documents -------------------------------------------------------------------------

SEEDS = ["md", "txt-cp1251", "pdf", "docx", "not-word", "bomb"]
BOMB_BYTES = MAX_FILE_BYTES + DOCX_XML_ALLOWANCE_BYTES + 1024 * 1024  # over the server limit
_W = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _not_word(xml: bytes) -> Iterable[bytes]:
    return [xml.replace(b"wordprocessingml.document.main", b"spreadsheetml.sheet.main")]


def _empty_paragraphs(_: bytes) -> Iterable[bytes]:
    yield b"<?xml version='1.0'?><w:document " + _W + b"><w:body>"
    chunk = b"<w:p/>" * (1 << 17)
    for _ in range(BOMB_BYTES // len(chunk) + 1):
        yield chunk
    yield b"</w:body></w:document>"


def rezip(archive: bytes, rewrite: dict[str, Callable[[bytes], Iterable[bytes]]]) -> bytes:
    """A copy of a zip with some members rewritten, streamed so bombs stay cheap to make."""
    source = zipfile.ZipFile(io.BytesIO(archive))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            with target.open(info.filename, "w", force_zip64=True) as member:
                for part in rewrite.get(info.filename, lambda d: [d])(data):
                    member.write(part)
    return out.getvalue()


@cache
def seed(kind: str) -> bytes:
    """Small real files of every supported type (to mutate), and two hostile DOCX."""
    if kind == "md":
        return LEASE.encode()
    if kind == "txt-cp1251":
        return INVOICE.encode("cp1251")
    if kind == "pdf":
        from fpdf import FPDF

        pdf = FPDF()
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        pdf.cell(text="Invoice 58: 240 000 RUB")
        return bytes(pdf.output())
    if kind == "docx":
        import docx

        document = docx.Document()
        document.add_paragraph("Договор аренды: пени 0,1 % в день.")
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()
    if kind == "not-word":  # a valid package whose main part is a spreadsheet
        return rezip(seed("docx"), {"[Content_Types].xml": _not_word})
    if kind == "bomb":  # a real DOCX whose document.xml inflates to BOMB_BYTES
        return rezip(seed("docx"), {"word/document.xml": _empty_paragraphs})
    raise AssertionError(kind)


def zip_of(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


SUFFIXES = (".md", ".txt", ".pdf", ".docx")
SUFFIX_OF = dict(zip(SEEDS, [*SUFFIXES, ".docx", ".docx"], strict=True))


@st.composite
def mutated(draw: st.DrawFn, kind: str | None = None) -> bytes:
    """A real file with a few bytes overwritten, maybe truncated."""
    data = bytearray(seed(kind or draw(st.sampled_from(SEEDS[:5]))))
    for _ in range(draw(st.integers(0, 6))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data[: draw(st.integers(0, len(data)))] if draw(st.booleans()) else data)


@st.composite
def matched_parts(draw: st.DrawFn) -> tuple[bytes, bytes | None, bytes, bytes]:
    """A file whose name matches its type, so its parser runs on (mutated) content."""
    kind = draw(st.sampled_from(SEEDS))
    stem = draw(st.text(st.characters(codec="utf-8", exclude_characters="/\\\r\n"), max_size=20))
    data = draw(st.just(seed(kind)) | mutated(kind)) if kind != "bomb" else seed(kind)
    return b"files", (stem + SUFFIX_OF[kind]).encode(), b"application/octet-stream", data


contents = st.one_of(
    st.just(b""),
    st.sampled_from(SEEDS).map(seed),
    mutated(),
    st.binary(max_size=300),  # random bytes, invalid UTF-8, NULs
    st.text(max_size=200).map(str.encode),
    st.just(b"\xd0" * 100),  # truncated UTF-8
    st.just(b"%PDF-1.4\n" + b"\x00" * 50),
    st.just(zip_of({"word/document.xml": b"<not-xml"})),
    st.just(zip_of({"[Content_Types].xml": b"\x00" * 10})),
    st.just(b"x" * (MAX_FILE_BYTES + 1)),
)
names = st.one_of(
    st.sampled_from(
        [
            "lease.md",
            "счёт.txt",
            "scan.pdf",
            "contract.docx",
            "CONTRACT.DOCX",
            "virus.exe",
            "archive.zip",
            "noext",
            "",
            ".",
            "..",
            "../../etc/passwd.md",
            "..\\..\\win.txt",
            "C:\\Users\\a\\doc.docx",
            "a\x00b.md",
            "a" * 300 + ".md",
            "я" * 200 + ".txt",
            ".md",
            " .txt",
            "a\tb.md",
        ]
    ),
    st.text(max_size=40),
    st.builds(lambda s, ext: s + ext, st.text(max_size=20), st.sampled_from(SUFFIXES)),
).map(str.encode)
raw_names = st.one_of(
    names,
    st.binary(max_size=40).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")),
    st.sampled_from([b"\xff\xfe.md", "отчёт.txt".encode("cp1251"), b'a"b.md', b"a;b=c.md"]),
)
parts = st.tuples(
    mostly(st.just(b"files"), st.sampled_from([b"file", b"", b"files[]"])),
    mostly(raw_names, st.none()),  # None: a plain form field, not a file
    st.sampled_from([b"text/markdown", b"application/pdf", b"application/octet-stream", b""]),
    contents,
)

BOUNDARY = b"fuzz-boundary-7f3a"


def multipart(items: Iterable[tuple[bytes, bytes | None, bytes, bytes]]) -> bytes:
    """A multipart body built by hand, so file names reach the server byte for byte."""
    out = b""
    for field, filename, content_type, data in items:
        disposition = b'form-data; name="' + field + b'"'
        if filename is not None:
            disposition += b'; filename="' + filename + b'"'
        out += b"--" + BOUNDARY + b"\r\nContent-Disposition: " + disposition + b"\r\n"
        if content_type:
            out += b"Content-Type: " + content_type + b"\r\n"
        out += b"\r\n" + data + b"\r\n"
    return out + b"--" + BOUNDARY + b"--\r\n"


def files(*named: tuple[bytes, bytes]) -> bytes:
    return multipart((b"files", name, b"application/octet-stream", data) for name, data in named)


MULTIPART = {"Content-Type": b"multipart/form-data; boundary=" + BOUNDARY}
upload_bodies = mostly(
    st.lists(matched_parts() | parts, min_size=1, max_size=4).map(multipart),
    st.one_of(
        st.lists(parts, max_size=MAX_UPLOAD_FILES + 3).map(multipart),  # none to too many
        st.binary(max_size=300),  # not multipart at all
        st.builds(lambda b: b"--" + BOUNDARY + b"\r\n" + b, st.binary(max_size=200)),  # cut
    ),
)
upload_types = mostly(
    st.just(MULTIPART["Content-Type"]),
    st.sampled_from(
        [
            b"multipart/form-data",  # no boundary
            b"multipart/form-data; boundary=other",
            b"application/json",
            None,
        ]
    ),
)


@settings(FUZZ, max_examples=500)
@given(authorization=authorizations, body=upload_bodies, content_type=upload_types)
async def test_fuzz_upload(
    client: Target, authorization: bytes | None, body: bytes, content_type: bytes | None
) -> None:
    extra = {"Content-Type": content_type} if content_type is not None else {}
    headers = with_auth(authorization, **extra)
    report = check(await client.http.post("/v1/documents", content=body, headers=headers), STATUSES)
    for result in report.get("results", []):
        event(f"file {result['status']}")
        assert result["status"] in {"ingested", "unchanged", "error"}
        assert (result["status"] == "error") == bool(result["error"])
        assert 0 < len(result["file"].encode()) <= 255 and "\x00" not in result["file"]


@settings(FUZZ, max_examples=200)
@given(
    authorization=authorizations,
    method=st.sampled_from(["GET", "HEAD", "DELETE", "PUT", "OPTIONS"]),
    path=st.sampled_from(["/v1/documents", "/healthz", "/v1/ask", "/v1/nope", "/v1/documents/x"]),
    body=st.binary(max_size=50),
)
async def test_fuzz_other_requests(
    client: Target, authorization: bytes | None, method: str, path: str, body: bytes
) -> None:
    headers = with_auth(authorization)
    response = await client.http.request(method, path, content=body, headers=headers)
    assert response.status_code < 500
    for secret in SECRETS:
        assert secret not in response.text
    if method == "GET" and path == "/v1/documents" and response.status_code == 200:
        ids = [d["id"] for d in response.json()]
        assert ids == ([client.alice_doc] if b"alice" in (authorization or b"") else [])


# --- LangServe: both graphs, all five endpoints ----------------------------------------------

LANGSERVE_ROUTES = [
    f"/langserve/{graph}{config}/{endpoint}"
    for graph in ("agent", "research")
    for config in ("", "/c/N4XyA")  # the playground's config-hash form of each route
    for endpoint in ("invoke", "batch", "stream", "stream_log", "stream_events")
]
LANGSERVE_STATUSES = {200, 401, 404, 413, 422}
huge_ints = st.integers(300, 6000).map(lambda n: "9" * n)  # raw JSON text, not a Python int
over_long = st.sampled_from([4001, 10_000]).map(lambda n: "я" * n)
agent_fields = {
    "query": russian | any_text | over_long | json_values,
    "chat_id": st.none() | st.sampled_from(["c1", "c" * 201, "c" * 10_000]) | json_values,
    "selected_document_ids": st.lists(st.just(ALICE_DOC) | any_text, max_size=60) | json_values,
    "answer_instructions": st.none() | st.just("коротко") | over_long | json_values,
}
agent_inputs = mostly(
    st.fixed_dictionaries({"query": russian}, optional={"chat_id": st.sampled_from(["c1"])}),
    st.fixed_dictionaries({}, optional=agent_fields) | json_values,
)
run_configs = st.fixed_dictionaries(  # "config" in a body, or "config": null
    {}, optional={"configurable": st.fixed_dictionaries({"thread_id": any_text | over_long})}
) | st.sampled_from([None, []])


@st.composite
def langserve_bodies(draw: st.DrawFn, batch: bool) -> bytes:
    """A LangServe body, valid or broken; raw JSON text, so it can hold what Python's json
    cannot write (huge integers, deep nesting)."""
    kind = draw(st.sampled_from(["valid"] * 3 + ["huge int", "deep", "surrogate", "raw"]))
    if kind == "raw":
        return draw(hostile_bodies)
    if batch:
        sizes = mostly(st.integers(0, 2), st.integers(21, 1000))
        value: Any = {"inputs": [draw(agent_inputs)] * draw(sizes)}
    else:
        value = {"input": draw(agent_inputs)}
    if draw(st.booleans()):
        value["config"] = draw(run_configs)
    text = json.dumps(value, ensure_ascii=draw(st.booleans()))
    if kind == "huge int":
        text = text[:-1] + ', "n": ' + draw(huge_ints) + "}"
    elif kind == "deep":
        depth = draw(st.integers(60, 5000))
        text = text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    elif kind == "surrogate":
        text = text[:-1] + ', "s": "\\ud800"}'
    return text.encode()


@st.composite
def langserve_requests(draw: st.DrawFn) -> tuple[str, bytes]:
    route = draw(st.sampled_from(LANGSERVE_ROUTES))
    return route, draw(langserve_bodies(batch=route.endswith("/batch")))


@settings(FUZZ, max_examples=150)
@given(authorization=authorizations, request=langserve_requests(), content_type=content_types)
async def test_fuzz_langserve(
    client: Target,
    authorization: bytes | None,
    request: tuple[str, bytes],
    content_type: bytes | None,
) -> None:
    route, body = request
    body = body.replace(ALICE_DOC.encode(), client.alice_doc.encode())
    extra = {"Content-Type": content_type} if content_type is not None else {}
    response = await client.http.post(
        route, content=body, headers=with_auth(authorization, **extra)
    )
    assert response.status_code in LANGSERVE_STATUSES, (response.status_code, response.text[:500])
    event(f"HTTP {response.status_code}")
    for secret in SECRETS:
        assert secret not in response.text
    if response.status_code == 200:
        assert "Internal Server Error" not in response.text  # no error event in a stream
        return
    detail = response.json()["detail"]
    assert isinstance(detail, str) and CYRILLIC.search(detail), detail


# --- regression tests: one per bug the fuzzing found -----------------------------------------


async def post_json(client: Target, body: bytes) -> httpx.Response:
    headers = {**ALICE, "Content-Type": "application/json"}
    return await client.http.post("/v1/ask", content=body, headers=headers)


@pytest.mark.parametrize("body", [b"Infinity", b"NaN", b'{"query": -Infinity}'])
async def test_non_finite_numbers_are_a_russian_422(client: Target, body: bytes) -> None:
    # was: 500, the default 422 handler echoed the float and could not render it
    detail = check(await post_json(client, body), {422})["detail"]
    assert detail.startswith("Некорректный запрос:")


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "\\ud800 \\u043d\\u0434\\u0441"}',
        b'{"query": "ndc", "chat_id": "\\udc00"}',
        b'{"query": "ndc", "document_ids": ["\\ud800"]}',
        b'{"query": "ndc", "answer_instructions": "\\ud800"}',
        b'{"query": 5, "chat_id": "\\ud800"}',
        b'{"query": "ndc", "chat_id": "a\\u0000"}',
        b'{"query": "ndc", "document_ids": ["\\u0000"]}',
    ],
)
async def test_lone_surrogates_and_nul_are_a_russian_422(client: Target, body: bytes) -> None:
    # was: 500 from the embedder (UTF-8 encode) or from rendering the echoed input
    detail = check(await post_json(client, body), {422})["detail"]
    assert "Некорректный запрос" in detail


async def test_nul_in_ids_is_a_422_on_postgres(
    make_services: Callable[..., Awaitable[Deps]], postgres_url: str
) -> None:
    # was: 500, PostgreSQL rejects NUL in the thread id and the document lookup
    services = await make_services(api_tokens=TOKENS, postgres_url=postgres_url)
    async for target in serve(services):
        for field in ('"chat_id": "a\\u0000"', '"document_ids": ["\\u0000"]'):
            body = ('{"query": "q", ' + field + "}").encode()
            assert "недопустимые символы" in check(await post_json(target, body), {422})["detail"]
        ok = json.dumps({"query": "ставка НДС", "chat_id": "c1"}).encode()
        assert check(await post_json(target, ok), {200})["answer"]


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"\x80", b"application/json"),  # was: 400 "There was an error parsing the body"
        (b"", b"application/json"),  # was: 422 with an English list echoing the input
        (b"[" * 1933 + b"]" * 1933, b"application/json"),
        (b'{"query": "q"}', b"text/plain"),
    ],
)
async def test_unparsable_ask_bodies_are_a_russian_422(
    client: Target, body: bytes, content_type: bytes
) -> None:
    headers = {**ALICE, "Content-Type": content_type}
    response = await client.http.post("/v1/ask", content=body, headers=headers)
    assert check(response, {422})["detail"].startswith(("Некорректный", "Не удалось разобрать"))


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (files((b"a.md", b"x")), b"multipart/form-data"),  # was: 400 "Missing boundary..."
        (multipart([]), MULTIPART["Content-Type"]),  # was: 422 with an English list
        (files(*[(b"a.md", b"x")] * (MAX_UPLOAD_FILES + 1)), MULTIPART["Content-Type"]),
    ],
)
async def test_bad_uploads_are_a_russian_422(
    client: Target, body: bytes, content_type: bytes
) -> None:
    headers = {**ALICE, "Content-Type": content_type}
    response = await client.http.post("/v1/documents", content=body, headers=headers)
    check(response, {422})


async def test_hostile_file_names_are_stored_under_safe_names(client: Target) -> None:
    # was: 500 for NUL ("embedded null byte"), > 255 bytes ("File name too long") and ".."
    body = files(
        (b"a\x00b.md", LEASE.encode()),
        (b"a" * 300 + b".md", INVOICE.encode()),
        (b"..", b"x"),
        (b"../../etc/passwd.md", b"# a\n\nb"),
        (b"C:\\Users\\a\\notes.txt", "Заметки".encode()),
    )
    response = await client.http.post("/v1/documents", content=body, headers=MULTIPART | ALICE)
    results = check(response, {200})["results"]
    assert [r["file"] for r in results] == [
        "ab.md",
        "a" * 252 + ".md",
        "file2",
        "passwd.md",
        "notes.txt",
    ]
    statuses = [r["status"] for r in results]
    # a name without an extension (file2) is read by its content: text
    assert statuses == ["unchanged", "ingested", "ingested", "ingested", "ingested"]


async def test_broken_docx_fails_alone_without_server_paths(client: Target) -> None:
    # was: 500 (PackageNotFoundError escaped the loader) for the whole upload, and the
    # not-a-Word error quoted the server's temporary path
    body = files(
        (b"fake.docx", b"PK\x03\x04 a zip cut short"),
        (b"sheet.docx", seed("not-word")),
        (b"real.docx", seed("docx")),
    )
    response = await client.http.post("/v1/documents", content=body, headers=MULTIPART | ALICE)
    fake, sheet, real = check(response, {200})["results"]
    assert fake["status"] == "error"
    assert fake["error"].startswith("fake.docx: файл повреждён")
    assert sheet["status"] == "error" and "внутри не документ Word" in sheet["error"]
    assert real["status"] == "ingested"


async def test_docx_zip_bomb_is_refused_unopened(client: Target) -> None:
    # was: opened by python-docx: a 110 KB upload inflating to 50 MB took 2.9 GB of RAM
    bomb = seed("bomb")
    assert len(bomb) < MAX_FILE_BYTES
    body = files((b"bomb.docx", bomb))
    response = await client.http.post("/v1/documents", content=body, headers=MULTIPART | ALICE)
    [result] = check(response, {200})["results"]
    assert (
        result["status"] == "error" and "после распаковки файл слишком большой" in result["error"]
    )


async def test_oversized_bodies_are_a_413(client: Target) -> None:
    # was: buffered whole (memory) before any check
    query = json.dumps({"query": "я" * MAX_JSON_BODY_BYTES}).encode()
    check(await post_json(client, query), {413})
    upload_limit = MAX_UPLOAD_FILES * (MAX_FILE_BYTES + 1) + MULTIPART_OVERHEAD_BYTES
    body = files((b"big.md", b"x" * (upload_limit + 1)))
    response = await client.http.post("/v1/documents", content=body, headers=MULTIPART | ALICE)
    check(response, {413})
    for declared in ("9" * 5000, str(upload_limit + 1)):  # a lying Content-Length
        headers = MULTIPART | ALICE | {"Content-Length": declared}
        response = await client.http.post("/v1/documents", content=b"", headers=headers)
        check(response, {413})
    ok = json.dumps({"query": "ставка НДС", "answer_instructions": "коротко"}).encode()
    check(await post_json(client, ok), {200})


async def test_errors_are_documented(client: Target) -> None:
    schema = (await client.http.get("/openapi.json")).json()
    ask = schema["paths"]["/v1/ask"]["post"]["responses"]
    assert {"200", "401", "413", "422"} <= set(ask)
    error = schema["components"]["schemas"]["ErrorResponse"]
    assert error["properties"]["detail"]["type"] == "string"
