"""Bank of Russia SOAP replies: row parsing with lxml from either result form (the bare
node of ``...XML`` operations or the DataSet, ``xs:schema`` + diffgram, that zeep exposes
as ``_value_1``). The transport that refuses non-SOAP answers is in
:mod:`~finagent.clients.cbr_transport`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from finagent.clients.cbr_models import CbrUnavailable


def _local(tag: Any) -> str:
    from lxml import etree

    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _text(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    return "" if value is None else str(value).strip()


def iter_rows(result: Any, row_name: str) -> Iterator[dict[str, str]]:
    """Rows named ``row_name`` from any result form, as trimmed strings.

    Handles an lxml node (``...XML`` operations), zeep objects/dicts holding the
    DataSet diffgram (``_value_1``) and lists of either.
    """
    from lxml import etree
    from zeep.helpers import serialize_object

    if isinstance(result, etree._Element):
        for el in result.iter():
            if _local(el.tag) == row_name:
                yield {_local(c.tag): _text(c.text) for c in el if _local(c.tag)}
        return
    if hasattr(result, "__values__") or hasattr(result, "__dict__"):
        result = serialize_object(result, dict)
    if isinstance(result, dict):
        for key, value in result.items():
            if key == "schema":
                continue
            if key == row_name and isinstance(value, dict):
                yield {k: _text(v) for k, v in value.items() if not isinstance(v, dict)}
            else:
                yield from iter_rows(value, row_name)
    elif isinstance(result, list | tuple):
        for item in result:
            yield from iter_rows(item, row_name)


def parse_decimal(raw: str) -> Decimal:
    try:
        return Decimal(raw.strip().replace(",", ".").replace("\xa0", "").replace(" ", ""))
    except InvalidOperation:
        raise CbrUnavailable(f"Bank of Russia sent a malformed number: {raw[:20]!r}") from None


def parse_date(raw: str | date | datetime) -> date:
    """``2023-11-01T00:00:00+03:00``, ``2023-11-01`` or ``20231101`` -> local date."""
    if isinstance(raw, datetime):
        return raw.date()
    if isinstance(raw, date):
        return raw
    text = raw.strip()
    try:
        if re.fullmatch(r"\d{8}", text):
            return datetime.strptime(text, "%Y%m%d").date()
        return datetime.fromisoformat(text).date()  # keeps the +03:00 local date
    except ValueError:
        raise CbrUnavailable(f"Bank of Russia sent a malformed date: {text[:30]!r}") from None


def int_or_none(raw: str) -> int | None:
    raw = raw.strip()
    return int(raw) if raw.isdigit() else None
