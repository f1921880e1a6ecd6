"""Codes of unified forms («ОС-1», «Т-1», «ТОРГ-12», «КС-2», «ИНВ-3», «2-НДФЛ»): a code
names a kind of document (the form it is filled in), never one document's number."""

from __future__ import annotations

import re

# series of the unified forms of primary records (Goskomstat) and of reporting forms
_SERIES = "ао|инв|кму|ко|кс|м|мб|мх|ос|оп|торг|т|тн|ттн|фму|эсм|сзв|ефс|рсв|псв|апв"
_SERIES_CODE = re.compile(rf"^(?:{_SERIES})-\d{{1,2}}[а-я]?(?:-[а-я]+)?$")
_REPORT_CODE = re.compile(r"^\d-(?:ндфл|фсс|т|сзв)$")


def is_form_code(word: str) -> bool:
    """«ОС-1», «ос-1а», «ТОРГ-12», «КС-2», «Т-73», «ИНВ-3», «2-НДФЛ», «СЗВ-ТД» excluded
    (letters only); a number like «А-17/2025» or «ТС-08» is not of a known series."""
    folded = word.strip("«»\"'.,;:()").lower().replace("ё", "е").replace("–", "-")
    return bool(_SERIES_CODE.match(folded) or _REPORT_CODE.match(folded))
