"""Replies of the internal document-search API: search hits from its JSON pages, and
document text from its JSON or XML bodies with markup cleaned and length capped."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

from defusedxml import ElementTree as SafeET
from pydantic import ValidationError

from finagent.clients.internal_search_models import InternalDocument, SearchHit
from finagent.observability import get_logger

log = get_logger("finagent.clients.internal_search")

TRUNCATION_MARKER = "[...truncated]"


def parse_json_document(data: Any, hit: SearchHit, max_chars: int) -> InternalDocument:
    """A JSON document ``{id, title, body_html, url, updated_at}``."""
    if not isinstance(data, dict):
        raise ValueError("document JSON is not an object")
    body = data.get("body_html") or data.get("body") or data.get("text") or ""
    text, truncated = truncate_text(clean_markup(str(body)), max_chars)
    return InternalDocument(
        id=str(data.get("id") or hit.id),
        title=_clean_title(data.get("title")) or hit.title or hit.id,
        url=data.get("url") or hit.url,
        text=text,
        pub_division=hit.pub_division,
        pub_alias=hit.pub_alias,
        truncated=truncated,
    )


def parse_xml_document(raw: bytes, hit: SearchHit, max_chars: int) -> InternalDocument:
    """A gateway XML document ``<document><title/><url/><body/></document>``.

    Parsed with defusedxml (no entity expansion bombs, no external entities). The title is
    taken from the XML; ``<body>`` may hold nested markup or escaped/CDATA HTML.
    """
    root = SafeET.fromstring(raw)
    title_el = root.find("title")
    body_el = root.find("body")
    url_el = root.find("url")
    body = _xml_inner_text(body_el) if body_el is not None else ""
    text, truncated = truncate_text(clean_markup(body), max_chars)
    title = _clean_title("".join(title_el.itertext()) if title_el is not None else None)
    url = (url_el.text or "").strip() if url_el is not None else ""
    return InternalDocument(
        id=root.get("id") or hit.id,
        title=title or hit.title or hit.id,
        url=url or hit.url,
        text=text,
        pub_division=hit.pub_division,
        pub_alias=hit.pub_alias,
        truncated=truncated,
    )


_INLINE_TAGS = frozenset("a abbr b code em font i mark s small span strong sub sup u".split())


def _xml_inner_text(element: Any) -> str:
    """Text of an XML element; element boundaries become line breaks except inline tags.

    Text nodes keep any markup they carry (escaped or CDATA HTML) for ``clean_markup``.
    """
    parts = [element.text or ""]
    for child in element:
        tag = str(child.tag).rsplit("}", 1)[-1].lower()
        sep = "" if tag in _INLINE_TAGS else "\n"
        parts += [sep, _xml_inner_text(child), sep, child.tail or ""]
    return "".join(parts)


_BLOCK_TAGS = frozenset(
    "p div br li ul ol tr table h1 h2 h3 h4 h5 h6 section article header footer "
    "blockquote pre title hr dd dt".split()
)
_SKIP_TAGS = frozenset({"script", "style", "head", "noscript", "template"})


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self._skip += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def clean_markup(text: str) -> str:
    """Plain text from HTML/XML: tags, scripts and entities removed, whitespace normalised."""
    parser = _TextExtractor()
    parser.feed(text)
    parser.close()
    plain = html.unescape("".join(parser.parts)).replace("\xa0", " ")
    lines = (re.sub(r"[^\S\n]+", " ", line).strip() for line in plain.split("\n"))
    return "\n".join(line for line in lines if line)


def truncate_text(text: str, max_chars: int) -> tuple[str, bool]:
    """``text`` cut to ``max_chars`` characters plus ``[...truncated]`` when longer."""
    if len(text) <= max_chars:
        return text, False
    return text[:max_chars].rstrip() + "\n" + TRUNCATION_MARKER, True


def _clean_title(value: Any) -> str:
    return " ".join(clean_markup(str(value)).split()) if value else ""


def search_hits(payload: dict[str, Any]) -> list[SearchHit]:
    hits = []
    for item in payload.get("items") or []:
        if isinstance(item, dict) and item.get("id") is not None:
            item = {**item, "id": str(item["id"])}
            item["pub_division"] = int_or(item.get("pub_division"), default=None)
            item["title"] = str(item.get("title") or "")
            try:
                hits.append(SearchHit.model_validate(item))
            except ValidationError:
                log.warning("internal_search_hit_skipped", doc_id=item["id"])
    return hits


def int_or(value: Any, default: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
