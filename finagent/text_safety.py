"""Making text and JSON-like values from an LLM safe to store, embed and show.

LLM output may carry what no store, index or HTTP client takes: lone UTF-16 surrogates
(from JSON ``\\ud800`` escapes) and integers beyond 64 bits (the checkpointer's msgpack
cannot write them).
"""

from __future__ import annotations

from typing import Any

INT64_MAX = 2**63 - 1


def is_utf8(text: str) -> bool:
    """Whether UTF-8 can encode ``text`` (it holds no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def has_lone_surrogates(value: Any) -> bool:
    """Whether any string in ``value`` (nested lists and dicts, keys too) is not UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_utf8(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def utf8_safe(text: str) -> str:
    """``text`` with anything UTF-8 cannot encode (lone surrogates) replaced by '?'."""
    return text if is_utf8(text) else text.encode("utf-8", "replace").decode("utf-8")


def storable(value: Any, depth: int = 0) -> Any:
    """``value`` with strings made UTF-8 safe and integers beyond int64 turned into text.

    Nesting deeper than 100 levels is replaced by its ``repr`` (cut to 1 000 characters).
    """
    if depth > 100:
        return utf8_safe(repr(value)[:1000])
    if isinstance(value, str):
        return utf8_safe(value)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return value if -INT64_MAX - 1 <= value <= INT64_MAX else str(value)
    if isinstance(value, dict):
        return {utf8_safe(str(k)): storable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [storable(v, depth + 1) for v in value]
    return utf8_safe(str(value))
