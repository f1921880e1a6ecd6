"""A Cyrillic spelling of a name a document writes in Latin letters: «Ларгус» for «LADA
Largus», «Камаз» for «KAMAZ». The name's normal forms are romanised by ``anyascii`` (its
Russian table) and compared whole with the Latin words of the text; a name the two
spellings render otherwise («Хендай» — «Hyundai») is not matched."""

from __future__ import annotations

from functools import lru_cache

from anyascii import anyascii

from finagent.language.lemmas import compound_forms


def _cyrillic(word: str) -> bool:
    return any("а" <= ch <= "я" or ch == "ё" for ch in word.lower())


@lru_cache(maxsize=10_000)
def latin_forms(name: str) -> frozenset[str]:
    """The lower-case Latin spellings of a Cyrillic name's normal forms («Ларгуса» —
    {«largus», «largusa»}); empty for a name already in Latin letters."""
    if not _cyrillic(name):
        return frozenset()
    out = set()
    for form in compound_forms(name):
        latin = anyascii(form).lower().replace("'", "")
        if latin.replace("-", "").isalpha() and latin.isascii():
            out.add(latin)
    return frozenset(out)
