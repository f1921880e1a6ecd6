"""A value a sentence derives from another is the one it states, not the figure it used.

«МРОТ в 2025 году — 22 440 руб., значит 1,5 МРОТ = 33 660 руб.» states the threshold
33 660 руб.; 22 440 руб. is the input of that conclusion. When a sentence states values
of the asked type both before and after a connective of inference («значит»,
«следовательно», «то есть», «т. е.», «что составляет»), the lead names those after the
last such connective within its own sentence only (a quotation may hold two sentences:
«… = 33 660 руб. В 2024 году порогом был один МРОТ (19 242 руб.)»). A total («итого»)
is not a conclusion of this kind (it is another quantity, a sum over a period), and
neither is a bare «=» (a worked example's product), so neither is a connective here. A
question whose every content word the premise names («МРОТ в 2025 году сколько?») asks
the premise itself: then every value stays.
"""

from __future__ import annotations

import re

from razdel import sentenize, tokenize

from finagent.language.lemmas import lemma

_CONNECTIVE = re.compile(
    r"(?<!\w)(?:значит|следовательно|то\s+есть|т\.\s*е\.|что\s+(?:составляет|составит|равно))(?!\w)",
    re.IGNORECASE,
)
_SPACE = re.compile(r"\s+")


def derived_values(
    sentence: str, values: tuple[str, ...], topic: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """Of ``values`` (each as it appears in ``sentence``), those after the sentence's last
    connective of inference when values stand on both sides of it, unless the question's
    content lemmas (``topic``) are all named before the connective; else all of them."""
    if len(values) < 2:
        return values
    text = _SPACE.sub(" ", sentence)
    marks = [m.end() for m in _CONNECTIVE.finditer(text)]
    if not marks:
        return values
    cut = marks[-1]
    end = next((s.stop for s in sentenize(text) if s.start <= cut <= s.stop), len(text))
    places = [text.find(_SPACE.sub(" ", v)) for v in values]
    if any(p < 0 for p in places):
        return values
    start = next((s.start for s in sentenize(text) if s.start <= cut <= s.stop), 0)
    premise = {lemma(t.text) for t in tokenize(text[start:cut])}
    if topic and topic <= premise:
        return values
    after = tuple(v for v, p in zip(values, places, strict=True) if cut <= p < end)
    return after if after and len(after) < len(values) else values
