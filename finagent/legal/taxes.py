"""Which chapter of the Tax Code governs each Russian tax or fee, by the names users use.

Used to tell a question about a tax whose chapter is not ingested (land tax, state duty,
transport tax...) from one the corpus can answer, and to check that the chapter's rate
article is there when the question asks for a rate. Taxes outside the Tax Code (НПД,
АУСН) name their own federal law.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.language.compounds import compounded_in


@dataclass(frozen=True)
class Tax:
    name: str  # as the answer names it
    pattern: re.Pattern[str]
    chapter: str | None  # Tax Code chapter; None when another law governs it
    law: str | None = None
    # the full name as adjectives and a head noun, whose compound short form also names
    # the tax («сельхозналог», «турналог»; :mod:`finagent.language.compounds`)
    phrase: str | None = None


def _tax(
    name: str, pattern: str, chapter: str | None, law: str | None = None, phrase: str = ""
) -> Tax:
    full = phrase or (name if " " in name and name.split()[1] in _HEADS else None)
    return Tax(name, re.compile(pattern, re.IGNORECASE), chapter, law, full)


_HEADS = frozenset({"налог", "сбор"})  # a name «<adjective> налог» is such a phrase


TAXES: tuple[Tax, ...] = (
    _tax("НДС", r"\b(?-i:НДС)\b|налог\w*\s+на\s+добавленн\w+", "21"),
    _tax("акцизы", r"\bакциз\w*", "22"),
    _tax("НДФЛ", r"\b(?-i:НДФЛ)\b|налог\w*\s+на\s+доходы\s+физ\w*|подоходн\w+", "23"),
    _tax("страховые взносы", r"страхов\w+\s+взнос\w*", "34"),
    _tax("налог на прибыль", r"налог\w*\s+на\s+прибыль|налог\w*\s+на\s+прибыли", "25"),
    _tax("сборы за пользование объектами животного мира", r"объект\w+\s+животного\s+мира", "25.1"),
    _tax("водный налог", r"водн\w+\s+налог\w*", "25.2"),
    _tax("государственная пошлина", r"госпошлин\w*|государственн\w+\s+пошлин\w*", "25.3"),
    _tax("налог на дополнительный доход", r"\b(?-i:НДД)\b|дополнительн\w+\s+доход\w*\s+от", "25.4"),
    _tax("НДПИ", r"\b(?-i:НДПИ)\b|добыч\w+\s+полезн\w+\s+ископаем\w*", "26"),
    _tax(
        "ЕСХН",
        r"\b(?-i:ЕСХН)\b|сельскохозяйствен\w+\s+налог\w*",
        "26.1",
        phrase="единый сельскохозяйственный налог",
    ),
    _tax("УСН", r"\b(?-i:УСН)\b|упрощ[её]нк\w*|упрощенн\w+\s+систем\w*", "26.2"),
    _tax("ПСН", r"\b(?-i:ПСН)\b|патент\w*", "26.5"),
    _tax("игорный налог", r"игорн\w+", "29"),
    _tax("транспортный налог", r"транспортн\w+\s+налог\w*", "28"),
    _tax("налог на имущество организаций", r"налог\w*\s+на\s+имущество\s+организац\w*", "30"),
    _tax("земельный налог", r"земельн\w+\s+налог\w*", "31"),
    _tax(
        "налог на имущество физических лиц",
        r"налог\w*\s+на\s+(?:имущество\s+физ\w*|квартир\w*|дом\b|недвижимост\w*)",
        "32",
    ),
    _tax("торговый сбор", r"торгов\w+\s+сбор\w*", "33"),
    _tax("туристический налог", r"туристическ\w+\s+налог\w*|курортн\w+\s+сбор\w*", "33.1"),
    _tax(
        "налог на профессиональный доход",
        r"\b(?-i:НПД)\b|самозанят\w*|профессиональн\w+\s+доход\w*",
        None,
        "Федеральный закон № 422-ФЗ",
    ),
    _tax(
        "АУСН", r"\b(?-i:АУСН)\b|автоматизированн\w+\s+упрощ\w+", None, "Федеральный закон № 17-ФЗ"
    ),
)

_ASKS_RATE = re.compile(r"\bставк\w*|сколько\s+процент\w*|какой\s+процент", re.IGNORECASE)
_ASKS_FIGURE = re.compile(
    r"\bставк\w*|процент\w*|сколько|размер\w*|сумм\w*|посчита\w*|рассчита\w*|расч[её]т\w*|"
    r"\bлимит\w*|стоит\b|стоимост\w*|\bкакой\s+налог\s+за\b",
    re.IGNORECASE,
)
RATE_ARTICLE_TITLE = re.compile(r"^налогов\w+\s+ставк", re.IGNORECASE)
# the rate articles' titles as the Code spells them (art. 164, 224, 284, 346.8, 346.20, ...)
RATE_ARTICLE_TITLES = ("Налоговые ставки", "Налоговая ставка")


def taxes_named(text: str) -> list[Tax]:
    """The taxes a question names, in the order of :data:`TAXES`: by a name, or by the
    compound short form of its full name («турналог»)."""
    phrases = {tax.phrase for tax in TAXES if tax.phrase}
    short = set(compounded_in(text, phrases)) if phrases else set()
    return [tax for tax in TAXES if tax.pattern.search(text) or tax.phrase in short]


def compound_tax_names(text: str) -> list[str]:
    """The full names of the taxes ``text`` names only by a compound short form
    («сельхозналог» -> «единый сельскохозяйственный налог»): what a search should add."""
    return [
        tax.phrase
        for tax in TAXES
        if tax.phrase and not tax.pattern.search(text) and compounded_in(text, [tax.phrase])
    ]


def asks_rate(text: str) -> bool:
    return bool(_ASKS_RATE.search(text))


def asks_figure(text: str) -> bool:
    """A rate, an amount, a limit or a calculation: what a chapter's own text must give."""
    return bool(_ASKS_FIGURE.search(text))
