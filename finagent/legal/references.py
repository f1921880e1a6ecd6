"""Find Russian legal references in text: «п. 2 ст. 88 НК РФ», «подп. 4 п. 1 ст. 218» and so on.

A reference names an article and optionally a point and a sub-point, in either order
(«п. 2 ст. 88» or «ст. 88 п. 2»), and optionally a code («НК РФ», «Налогового кодекса»,
«настоящего Кодекса», «КоАП», «ГК РФ», ...). Lists of articles («ст. 218, 219 и 220 НК РФ»)
and ranges («ст. 198–208 ТК РФ») give one reference per article named. Letters and
rulings («письмо Минфина от ... № ...») are found by :func:`find_documents`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUM = r"\d+(?:\.\d+)*(?:-\d+)?"
_SUB = r"(?:подп\.|подпункт(?:а|ом|е|ы|ов|ами)?|пп\.)\s*(?P<sub>\d+(?:\.\d+)?)\)?"
_POINT = r"(?:п\.|пункт(?:а|у|ом|е|ы|ов|ами|ах)?)\s*(?P<point>\d+(?:\.\d+)*(?:-\d+)?)"
# «ст 119» as typed in a hurry: the abbreviation without its dot, before a number
_ARTICLE_WORD = r"(?:ст\.|(?<![а-яёa-z])ст(?=\s*\d)|стать(?:я|и|ей|е|ю|ям|ями|ях))"
# a range of articles is written with a dash and no spaces: «ст. 198–208 ТК РФ»
_ITEM = rf"{_NUM}(?:[–—]{_NUM})?"
_ARTICLES = rf"(?P<articles>{_ITEM}(?:\s*(?:,|и)\s*{_ITEM}(?!\s*(?:п\.|пункт)))*)"
_POINT_AFTER = r"(?:,?\s*(?:п\.|пункт(?:а|ом|е)?)\s*(?P<point2>\d+(?:\.\d+)*(?:-\d+)?))"

# code names as written in answers and in the codes themselves
CODE_PATTERNS: dict[str, str] = {
    "nk": r"\b(?-i:НК)\b(?:\s*РФ)?|Налогов\w*\s+кодекс\w*"
    r"(?:\s+Российской\s+Федерации)?|настоящ\w*\s+Кодекс\w*",
    "koap": r"\b(?-i:КоАП)\b(?:\s*РФ)?|Кодекс\w*\s+(?:Российской\s+Федерации\s+)?"
    r"об\s+административных\s+правонарушениях",
    "gk": r"\b(?-i:ГК)\b(?:\s*РФ)?|Гражданск\w*\s+кодекс\w*"
    r"(?:\s+Российской\s+Федерации)?",
    "tk": r"\b(?-i:ТК)\b(?:\s*РФ)?|Трудов\w*\s+кодекс\w*"
    r"(?:\s+Российской\s+Федерации)?",
    "bk": r"\b(?-i:БК)\b(?:\s*РФ)?|Бюджетн\w*\s+кодекс\w*"
    r"(?:\s+Российской\s+Федерации)?",
}
_CODE = "|".join(f"(?P<code_{k}>{v})" for k, v in CODE_PATTERNS.items())
_FOREIGN_CODE = r"(?P<code_other>(?:[А-Я]{2,5}\s+(?:РФ|РК|РБ))|Кодекс(?:а|е|ом)?\s+[А-Я][а-я]+)"

_REFERENCE = re.compile(
    rf"(?:(?:{_SUB})[\s,]*)?(?:(?:{_POINT})[\s,]*)?{_ARTICLE_WORD}\s*{_ARTICLES}"
    rf"{_POINT_AFTER}?(?:\s+(?:{_CODE}|{_FOREIGN_CODE}))?",
    re.IGNORECASE,
)
_SPLIT_ARTICLES = re.compile(rf"{_NUM}")

_DOCUMENT = re.compile(
    r"(?:письм[оаеу]|разъяснени[еяю]|определени[еяю]|постановлени[еяю]|решени[еяю]|приказ[аеу]?)"
    r"\s+(?:[А-ЯЁA-Z][\wЁё-]*\s*){0,6}(?:РФ\s+)?от\s+\d{1,2}\.\d{1,2}\.\d{2,4}"
    r"(?:\s*(?:г\.|года))?(?:\s*(?:№|N)\s*[\w/.-]+)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class LegalReference:
    """One article (and optional point and sub-point) of one code, as found in a text."""

    article: str
    point: str | None
    subpoint: str | None
    code: str | None  # "nk", "koap", ...; "other" for an unknown code; None when not named
    start: int
    end: int
    text: str

    def with_code(self, code: str) -> LegalReference:
        return LegalReference(
            self.article, self.point, self.subpoint, code, self.start, self.end, self.text
        )

    @property
    def label(self) -> str:
        """Canonical Russian form: «подп. 4 п. 1 ст. 218 НК РФ»."""
        from finagent.retrieval.legal_units import code_name

        parts = []
        if self.subpoint:
            parts.append(f"подп. {self.subpoint}")
        if self.point:
            parts.append(f"п. {self.point}")
        parts.append(f"ст. {self.article}")
        if self.code and self.code != "other":
            parts.append(code_name(self.code))
        return " ".join(parts)


_CODE_AT = re.compile(rf"\s*(?:{_CODE}|{_FOREIGN_CODE})", re.IGNORECASE)


def code_at(text: str, pos: int) -> str | None:
    """The code named at ``pos`` of ``text`` (after spaces): "nk", "tk", ..., "other" for
    an unknown one, or None when none is named there."""
    m = _CODE_AT.match(text, pos)
    return _code_of(m) if m else None


def _code_of(match: re.Match[str]) -> str | None:
    for key in CODE_PATTERNS:
        if match.group(f"code_{key}"):
            return key
    return "other" if match.group("code_other") else None


def find_references(text: str) -> list[LegalReference]:
    """Every legal reference in ``text``, in order (one per article of a list)."""
    found: list[LegalReference] = []
    for m in _REFERENCE.finditer(text):
        code = _code_of(m)
        articles = _SPLIT_ARTICLES.findall(m.group("articles"))
        point = m.group("point") or m.group("point2")
        for i, article in enumerate(articles):
            found.append(
                LegalReference(
                    article=article,
                    point=point if i == 0 else None,
                    subpoint=m.group("sub") if i == 0 else None,
                    code=code,
                    start=m.start(),
                    end=m.end(),
                    text=m.group(0),
                )
            )
    return found


def find_documents(text: str) -> list[str]:
    """Letters, rulings and orders named with a date («письмо Минфина от 01.02.2023 № 03-...»)."""
    return [m.group(0).strip() for m in _DOCUMENT.finditer(text)]
