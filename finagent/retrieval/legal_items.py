"""The enumerated items of a legal unit («1) …», «28) …»): where a long unit is split.

An article without numbered points that enumerates its cases («Не подлежат
налогообложению … следующие виды доходов: 1) …; 28) …») states each case in an item, and
so does a point with sub-points. Such a unit is indexed item by item: each item is one
citable unit of law (п. 28 ст. 217, подп. 2 п. 3 ст. 425), and a piece cut at an arbitrary
place would hold the end of one case and the start of the next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r"^(\d+(?:\.\d+)?(?:-\d+)?)\)\s")
MIN_ITEMS = 2  # one numbered line is no enumeration
MAX_LEAD_CHARS = 400  # an introduction longer than this is a text of its own, not a lead-in


@dataclass(frozen=True)
class Item:
    """One enumerated item: its number and its lines (continuation paragraphs included)."""

    number: str
    text: str


@dataclass(frozen=True)
class Enumeration:
    """A unit's text as its opening (everything before the first item) and its items."""

    opening: str
    items: tuple[Item, ...]

    @property
    def lead(self) -> str:
        """The sentence introducing the items («… следующие виды доходов физических лиц:»),
        when the opening ends with one."""
        last = self.opening.rstrip().rsplit("\n", 1)[-1].strip()
        return last if last.endswith(":") and len(last) <= MAX_LEAD_CHARS else ""


def enumeration(text: str) -> Enumeration | None:
    """The items of ``text``, or None when it enumerates fewer than :data:`MIN_ITEMS`.

    An item runs to the next item: the Code's items go on in paragraphs of their own
    («28) доходы, не превышающие 4000 рублей, …: / стоимость подарков …;»)."""
    opening: list[str] = []
    items: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        m = _ITEM.match(line.strip())
        if m:
            items.append((m.group(1), [line]))
        elif items:
            items[-1][1].append(line)
        else:
            opening.append(line)
    if len(items) < MIN_ITEMS:
        return None
    return Enumeration(
        "\n".join(opening).strip(),
        tuple(Item(number, "\n".join(lines).strip()) for number, lines in items),
    )
