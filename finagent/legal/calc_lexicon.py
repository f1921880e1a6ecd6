"""The words calculators read questions with (data/calc_lexicon.yaml), as lemma tuples.

One concept is one lemma: «пришло», «поступило», «получение» are all «получить», «КНП» is
«камеральный налоговый проверка». :func:`canonical` applies that to a lemma sequence, and
the cue tables (period_cues.yaml) go through the same function, so a cue names each
concept once and never spells endings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from typing import Any

from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import normal_forms
from finagent.yaml_data import load_yaml


@dataclass(frozen=True)
class Replacement:
    variant: tuple[str, ...]  # lemmas as a question writes them
    canonical: tuple[str, ...]  # the lemmas they are read as


@cache
def lexicon() -> dict[str, Any]:
    text = files("finagent.legal").joinpath("data/calc_lexicon.yaml").read_text("utf-8")
    data: dict[str, Any] = load_yaml(text)
    return data


@cache
def replacements() -> tuple[Replacement, ...]:
    """Every variant of ``same``, longest first (a phrase wins over its first word)."""
    out = [
        Replacement(cue_lemmas(str(variant)), cue_lemmas(str(canonical)))
        for canonical, variants in lexicon()["same"].items()
        for variant in variants
    ]
    return tuple(sorted(out, key=lambda r: -len(r.variant)))


def canonical_spans(lemmas: Sequence[str]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Where ``lemmas`` hold a variant: (first index, index after, canonical lemmas); the
    positions not covered keep their own lemma."""
    by_first: dict[str, list[Replacement]] = {}
    for r in replacements():
        by_first.setdefault(r.variant[0], []).append(r)
    out: list[tuple[int, int, tuple[str, ...]]] = []
    i = 0
    while i < len(lemmas):
        for r in by_first.get(lemmas[i], ()):
            size = len(r.variant)
            if tuple(lemmas[i : i + size]) == r.variant:
                out.append((i, i + size, r.canonical))
                i += size
                break
        else:
            out.append((i, i + 1, _hyphenated(lemmas[i]) or (lemmas[i],)))
            i += 1
    return out


_VOWELS = frozenset("аеиоуыэюя")


def _hyphenated(lemma: str) -> tuple[str, ...] | None:
    """An initialism joined to a noun by a hyphen («НДС-декларация», «УСН-налог») is the
    two words («НДС декларация»): the initialism (three to four letters, at most one
    vowel) read through the lexicon, the noun as pymorphy3 lemmatised it."""
    first, _, rest = lemma.partition("-")
    if not rest or "-" in rest or not first.isalpha() or not rest.isalpha():
        return None
    if not 3 <= len(first) <= 4 or sum(ch in _VOWELS for ch in first) > 1 or len(rest) < 4:
        return None
    single = _single()
    return (single.get(first, first), single.get(rest, rest))


@cache
def _single() -> dict[str, str]:
    """Variants of one word read as one word («прийти» → «получить»)."""
    return {
        r.variant[0]: r.canonical[0]
        for r in replacements()
        if len(r.variant) == 1 and len(r.canonical) == 1
    }


@lru_cache(maxsize=50_000)
def readings(word: str) -> frozenset[str]:
    """The lemma of every reading pymorphy3 offers for ``word``, each read through the
    lexicon: «наличными» is both «наличные» and «наличный», «пришло» is «получить»."""
    single = _single()
    return frozenset(single.get(form, form) for form in normal_forms(word))


@cache
def canonical(phrase: str) -> tuple[str, ...]:
    """The canonical lemmas of a phrase written in a table («требование о пояснениях»)."""
    return tuple(lemma for _, _, lemmas in canonical_spans(cue_lemmas(phrase)) for lemma in lemmas)


@cache
def word_set(key: str) -> frozenset[str]:
    """A list of single words of the lexicon (``negators``, ``auxiliaries``), as lemmas."""
    return frozenset(lemma for word in lexicon()[key] for lemma in canonical(str(word)))


@cache
def phrases(key: str) -> tuple[tuple[str, ...], ...]:
    """A list of phrases of the lexicon, each as canonical lemmas, longest first."""
    return tuple(sorted({canonical(str(p)) for p in lexicon()[key]}, key=lambda p: -len(p)))


@cache
def _document_names() -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for name, others in lexicon()["document_names"].items():
        members = frozenset(lemma for word in (name, *others) for lemma in canonical(str(word)))
        for lemma in members:
            out[lemma] = members
    return out


def document_names(lemma: str) -> frozenset[str]:
    """Every name of the document ``lemma`` names, itself included («запрос» is also
    «требование» and «истребование»); a word of no class is its own only name."""
    return _document_names().get(lemma, frozenset({lemma}))


@dataclass(frozen=True)
class GoverningLaw:
    """A law other than the Tax Code and the phrases that tie a question to it
    (``governing_laws`` of the lexicon), each phrase as canonical lemmas."""

    law: str
    what: str
    cites: tuple[tuple[str, ...], ...] = ()
    payments: tuple[tuple[str, ...], ...] = ()
    debts: tuple[tuple[str, ...], ...] = ()
    scoped: tuple[tuple[str, ...], ...] = ()
    with_: tuple[tuple[str, ...], ...] = ()
    objects: tuple[tuple[str, ...], ...] = ()


_LAW_FIELDS = ("cites", "payments", "debts", "scoped", "with", "objects")


@cache
def governing_laws() -> tuple[GoverningLaw, ...]:
    """The other laws of the lexicon, in its order."""
    out = []
    for entry in lexicon()["governing_laws"]:
        lists = {
            ("with_" if key == "with" else key): tuple(
                sorted({canonical(str(p)) for p in entry.get(key, ())}, key=lambda p: -len(p))
            )
            for key in _LAW_FIELDS
        }
        out.append(GoverningLaw(law=str(entry["law"]), what=str(entry["what"]), **lists))
    return tuple(out)


@cache
def law_phrases(field: str) -> tuple[tuple[str, ...], ...]:
    """One field's phrases over every other law (``cites``, ``payments``, ``debts``,
    ``objects``), longest first."""
    found = {p for law in governing_laws() for p in getattr(law, field)}
    return tuple(sorted(found, key=lambda p: -len(p)))
