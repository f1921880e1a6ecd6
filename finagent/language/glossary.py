"""Everyday and professional words and the Tax Code terms they stand for: «камералка» is
«камеральная налоговая проверка», «ИИС» is «индивидуальный инвестиционный счет».
Retrieval adds the term to its query, the ranker to the question's topic; cues are written
as ordinary words and matched as lemmas (several when the analyser reads a slang word's
forms differently). The table is data: ``finagent/language/data/glossary.yaml``."""

from __future__ import annotations

from functools import cache
from importlib import resources

from razdel import tokenize

from finagent.language.cues import has_any
from finagent.language.lemmas import lemma
from finagent.yaml_data import load_yaml


@cache
def glossary() -> tuple[tuple[tuple[str, ...], str], ...]:
    """The (cues, Code term) pairs of the shipped glossary, in file order."""
    text = resources.files("finagent.language").joinpath("data/glossary.yaml").read_text("utf-8")
    rows = load_yaml(text) or []
    return tuple((tuple(str(c) for c in row["cues"]), str(row["term"])) for row in rows)


def glossary_terms(question: str) -> list[str]:
    """The Code terms of the everyday words a question uses («камералка» -> «камеральная
    налоговая проверка»)."""
    lemmas = [lemma(t.text) for t in tokenize(question)]
    return [term for cues, term in glossary() if has_any(lemmas, cues)]
