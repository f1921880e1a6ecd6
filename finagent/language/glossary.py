"""Everyday and professional words and the Tax Code terms they stand for: «камералка» is
«камеральная налоговая проверка», «ИИС» is «индивидуальный инвестиционный счет».
Retrieval adds the term to its query, the ranker to the question's topic; cues are written
as ordinary words and matched as lemmas (several when the analyser reads a slang word's
forms differently). The table is data: ``finagent/language/data/glossary.yaml``."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from razdel import tokenize

from finagent.language.cues import has_any
from finagent.language.lemmas import lemma
from finagent.yaml_data import load_yaml


@cache
def glossary() -> tuple[tuple[tuple[str, ...], str], ...]:
    """The (cues, Code term) pairs of the shipped glossary, in file order."""
    return tuple(
        (tuple(str(c) for c in row["cues"]), str(row["term"])) for row in _rows() if "term" in row
    )


@cache
def _rows() -> tuple[dict[str, Any], ...]:
    text = resources.files("finagent.language").joinpath("data/glossary.yaml").read_text("utf-8")
    return tuple(load_yaml(text) or [])


@cache
def kind_abbreviations() -> dict[str, tuple[str, ...]]:
    """Abbreviations of kinds of documents and the kinds each may stand for, most usual
    first («КД»: коллективный, кредитный, корпоративный договор): the glossary's rows with
    ``kinds`` instead of a ``term``, keyed by the abbreviation folded to lower case."""
    found: dict[str, tuple[str, ...]] = {}
    for row in _rows():
        if "kinds" in row:
            for cue in row["cues"]:
                found[str(cue).lower()] = tuple(str(k) for k in row["kinds"])
    return found


def glossary_terms(question: str) -> list[str]:
    """The Code terms of the everyday words a question uses («камералка» -> «камеральная
    налоговая проверка»)."""
    lemmas = [lemma(t.text) for t in tokenize(question)]
    return [term for cues, term in glossary() if has_any(lemmas, cues)]
