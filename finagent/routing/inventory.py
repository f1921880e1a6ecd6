"""The user's document inventory as the router sees it: titles, types, counterparties, dates.

Type, counterparty and date come from what is stored with the document; where nothing is
stored they are read from the title (and the opening of the text at ingestion) with
simple Russian rules: the first document-type word («договор», «счёт-фактура», «акт»,
...), a legal-form name («ООО «Ромашка»», «ИП Иванов») or a quoted name, and the first
date (``dd.mm.yyyy``, ISO or «март 2025»).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel

from finagent.text_normalize import normalize

# canonical type -> pattern over normalised text (lower case, ё -> е); order matters:
# compound types first («счет-фактура» before «счет»)
DOC_TYPES: tuple[tuple[str, str], ...] = (
    ("счёт-фактура", r"\bсчет[а-я]*[- ]фактур|\bсчетов[- ]фактур|\bсф\b"),
    ("акт сверки", r"\bакт[а-я]* сверки"),
    ("платёжное поручение", r"\bплатежн[а-я]* поручени|\bплатежк"),
    ("товарная накладная", r"\bнакладн|\bторг-12|\bупд\b"),
    ("договор", r"\bдоговор|\bконтракт|\bсоглашени|\bдопсоглашени"),
    ("счёт", r"\bсчет(а|у|ом|е|ов|ам|ами|ах)?\b(?! в банке)|\bинвойс"),
    ("акт", r"\bакт(а|е|у|ом|ы|ов|ами|ах)?\b"),
    ("выписка", r"\bвыписк"),
    ("уведомление", r"\bуведомлени"),
    ("требование", r"\bтребовани[еяию]\b(?! (закона|законодательства|к ))"),
    ("спецификация", r"\bспецификаци"),
    ("претензия", r"\bпретензи"),
    ("доверенность", r"\bдоверенност"),
    ("справка", r"\bсправк"),
    ("письмо", r"\bписьм[оа]\b|\bписьме\b"),
    ("квитанция", r"\bквитанци"),
    ("смета", r"\bсмет[аеуы]\b"),
    ("приказ", r"\bприказ"),
    ("протокол", r"\bпротокол"),
    ("устав", r"\bустав[аеу]?\b"),
    ("декларация", r"\bдекларац"),
    ("отчёт", r"\bотчет"),
    ("чек", r"\bчек(а|е|и|ов)?\b"),
)
_LEGAL_FORM = r"(?:ооо|ао|пао|зао|оао|ип|нко|гуп|муп|llc|ltd)"
_QUOTED = re.compile(r"[«\"“]([^»\"”]{2,60})[»\"”]")
_FORM_NAME = re.compile(
    rf"\b{_LEGAL_FORM}\s+[«\"“]?([а-яa-z0-9][а-яa-z0-9\- ]{{1,40}}?)[»\"”]?"
    r"(?=$|[,.;:()]| от | за | по | на | с | №| n\b| \d)"
)
_WITH_NAME = re.compile(
    r"\b(?:с|от|для)\s+([а-яa-z][а-яa-z\-]{2,30}(?:\s+[а-яa-z][а-яa-z\-]{2,30})?)"
    r"(?=$|[,.;:()]| от | за | по | на | №| \d)"
)
_NOT_NAMES = {
    "поставщиком",
    "поставщика",
    "покупателем",
    "покупателя",
    "арендатором",
    "арендодателем",
    "подрядчиком",
    "подрядчика",
    "заказчиком",
    "банком",
    "банка",
    "налоговой",
    "контрагентом",
    "учредителем",
    "работником",
    "сотрудником",
    "физлицом",
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
}
_MONTHS = (
    "январ",
    "феврал",
    "март",
    "апрел",
    "ма[йяе]",
    "июн",
    "июл",
    "август",
    "сентябр",
    "октябр",
    "ноябр",
    "декабр",
)
_DATE = re.compile(
    r"\b(\d{1,2}\.\d{1,2}\.\d{2,4}|\d{4}-\d{2}-\d{2}|(?:"
    + "|".join(_MONTHS)
    + r")[а-я]*\s+\d{4}|[1-4]\s*(?:квартал|кв\.?)\s+\d{4}|\d{4}\s*г)"
)
_WORD = re.compile(r"[а-яa-z0-9]+")
_STOP = {"от", "за", "по", "на", "с", "и", "в", "во", "к", "для", "год", "года", "г", "no"}


class InventoryItem(BaseModel):
    """One of the user's documents as the router sees it."""

    title: str
    doc_type: str | None = None
    counterparty: str | None = None
    date: str | None = None


def doc_types_in(text: str) -> list[str]:
    """Canonical document types named in ``text``, in order of appearance."""
    text = normalize(text)
    found: list[tuple[int, str]] = []
    for name, pattern in DOC_TYPES:
        match = re.search(pattern, text)
        if match:
            found.append((match.start(), name))
            text = re.sub(pattern, lambda m: " " * len(m.group(0)), text)  # «счет-фактура» ≠ «счет»
    return [name for _, name in sorted(found)]


def _counterparty(text: str) -> str | None:
    match = _FORM_NAME.search(text)
    if match:
        return match.group(1).strip(" -")
    quoted = _QUOTED.search(text)
    if quoted:
        return normalize(quoted.group(1)).strip(" -")
    for match in _WITH_NAME.finditer(text):
        name = match.group(1).strip(" -")
        if name.split()[0] not in _NOT_NAMES and not doc_types_in(name):
            return name
    return None


def describe(title: str, text_head: str = "") -> InventoryItem:
    """Type, counterparty and date read from a title (and the opening of the text)."""
    normalized_title = normalize(re.sub(r"[_]+", " ", title))
    head = normalize(text_head[:600])
    types = doc_types_in(normalized_title) or doc_types_in(head)
    counterparty = _counterparty(normalized_title) or (_counterparty(head) if head else None)
    date = _DATE.search(normalized_title) or (_DATE.search(head) if head else None)
    return InventoryItem(
        title=title,
        doc_type=types[0] if types else None,
        counterparty=counterparty,
        date=date.group(1) if date else None,
    )


def _stems(text: str) -> set[str]:
    """Crude Russian stems: words of 4+ letters cut to at most len-2 (min 4) characters."""
    out = set()
    for word in _WORD.findall(normalize(text)):
        if word in _STOP or len(word) < 4:
            continue
        out.add(word[: max(4, len(word) - 2)])
    return out


class InventoryMatch(BaseModel):
    """What of the user's documents a question names."""

    doc_types: list[str] = []
    counterparties: list[str] = []
    titles: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.doc_types or self.counterparties or self.titles)


class Inventory:
    """The user's documents; ``None`` items means unknown (not loaded), ``[]`` none uploaded."""

    def __init__(self, items: Iterable[InventoryItem]) -> None:
        self.items = list(items)
        self._types = {i.doc_type for i in self.items if i.doc_type}
        self._counterparties = [
            (c, _stems(c))
            for c in dict.fromkeys(i.counterparty for i in self.items if i.counterparty)
        ]
        self._titles = [(i.title, _stems(i.title)) for i in self.items]
        # every stem of a counterparty or a title: matching costs one lookup per prefix of
        # each question word, whatever the number of documents
        self._stem_set = {
            stem for _, stems in [*self._counterparties, *self._titles] for stem in stems
        }

    def __len__(self) -> int:
        return len(self.items)

    def match(self, question: str) -> InventoryMatch:
        """Document types, counterparties and titles of the user's documents named in it."""
        text = normalize(question)
        named = {
            word[:length]
            for word in set(_WORD.findall(text))
            for length in range(4, len(word) + 1)
            if word[:length] in self._stem_set
        }
        types = [t for t in doc_types_in(text) if _family(t) & self._types]
        parties = [c for c, stems in self._counterparties if stems and stems <= named]
        titles = [
            title
            for title, stems in self._titles
            if len(stems) >= 2 and len(stems & named) >= max(2, (len(stems) * 2 + 2) // 3)
        ]
        return InventoryMatch(doc_types=types, counterparties=parties, titles=titles)

    def summary(self, max_items: int = 20, max_chars: int = 1500) -> str:
        """A bounded Russian-labelled list for the LLM orchestrator's prompt."""
        if not self.items:
            return "(документов нет)"
        lines = []
        used = 0
        for item in self.items[:max_items]:
            parts = [f"«{item.title[:80]}»"]
            if item.doc_type:
                parts.append(f"тип: {item.doc_type}")
            if item.counterparty:
                parts.append(f"контрагент: {item.counterparty[:40]}")
            if item.date:
                parts.append(f"дата: {item.date}")
            line = "- " + "; ".join(parts)
            if used + len(line) > max_chars:
                break
            lines.append(line)
            used += len(line) + 1
        rest = len(self.items) - len(lines)
        if rest > 0:
            lines.append(f"- … и ещё {rest}")
        return "\n".join(lines)


_FAMILIES = {
    "счёт": {"счёт-фактура", "счёт"},
    "счёт-фактура": {"счёт-фактура", "счёт"},
    "акт": {"акт", "акт сверки"},
    "акт сверки": {"акт", "акт сверки"},
    "товарная накладная": {"товарная накладная"},
}


def _family(doc_type: str) -> set[str]:
    return _FAMILIES.get(doc_type, {doc_type})


def inventory_from(rows: Sequence[dict[str, str | None]]) -> Inventory:
    """An inventory from plain rows (``title``, ``doc_type``, ``counterparty``, ``date``);
    missing fields are read from the title."""
    items = []
    for row in rows:
        title = str(row.get("title") or "")
        derived = describe(title)
        items.append(
            InventoryItem(
                title=title,
                doc_type=row.get("doc_type") or derived.doc_type,
                counterparty=row.get("counterparty") or derived.counterparty,
                date=row.get("date") or derived.date,
            )
        )
    return Inventory(items)
