"""Namespace labels for the LangGraph store."""

from __future__ import annotations

import re

_ESCAPED = {"25": "%", "2E": ".", "00": "\x00"}


def label(value: str) -> str:
    """``value`` as a namespace label, injectively.

    Store labels may not contain ``.`` (the namespace separator) or NUL, yet user and chat
    ids may (``alice.smith@example.com``): those characters and ``%``, the escape, are
    percent-encoded. Ids without them are unchanged.
    """
    return value.replace("%", "%25").replace(".", "%2E").replace("\x00", "%00")


def unlabel(value: str) -> str:
    """The id a ``label`` was made from."""
    return re.sub(r"%(25|2E|00)", lambda m: _ESCAPED[m.group(1)], value)
