"""Compound short forms (сложносокращённые слова): «сельхозналог» is «сельскохозяйственный
налог», «турналог» «туристический налог», «земналог» «земельный налог».

Such a word ends with the lemma of the phrase's last word (its head noun) and opens with a
cut-down start of the words before it: the start's first three letters begin one of those
words and all its letters occur in them in order («сельхоз» in «сельскохозяйственный»).
Read on lemmas, so any case of the word counts («единого сельхозналога»). The start may
end with a linking vowel («о», «е») the adjective lacks: «электроэнергия» is
«электрическая энергия», «электр» + «о» + «энергия»."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from importlib import resources

from razdel import tokenize

from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import known_noun, lemma, part_of_speech
from finagent.yaml_data import load_yaml

MIN_START = 3  # letters of the cut-down start («тур», «зем», «сельхоз»)
# the vowels that join the parts of a Russian compound (соединительные гласные)
_LINKING = ("о", "е")


def _in_order(short: str, full: str) -> bool:
    letters = iter(full)
    return all(ch in letters for ch in short)


@lru_cache(maxsize=65_536)  # a word of a question against each tax's phrase: bounded
def compound_of(word: str, phrase: str) -> bool:
    """Whether ``word`` (any form) is a compound short form of ``phrase`` (an adjective or
    more, then a head noun)."""
    cue = cue_lemmas(phrase)
    if len(cue) < 2:
        return False
    head, modifiers = cue[-1], cue[:-1]
    form = lemma(word)
    if not form.endswith(head) or len(form) - len(head) < MIN_START:
        return False
    start = form[: -len(head)].rstrip("-")
    starts = [start]
    if start.endswith(_LINKING) and len(start) > MIN_START:
        starts.append(start[:-1])
    return any(
        each[:MIN_START] == modifiers[i][:MIN_START] and _in_order(each, "".join(modifiers[i:]))
        for each in starts
        for i in range(len(modifiers))
    )


def compounded(words: Sequence[str], phrases: Iterable[str]) -> list[tuple[int, str]]:
    """(index of the word, phrase) for each word of ``words`` that is a compound short form
    of one of ``phrases``."""
    listed = list(phrases)
    return [(i, p) for i, w in enumerate(words) for p in listed if compound_of(w, p)]


def compounded_in(text: str, phrases: Iterable[str]) -> list[str]:
    """The phrases some word of ``text`` is a compound short form of, in the order found."""
    return list(dict.fromkeys(p for _, p in compounded(_words(text), phrases)))


# A clipped compound the text writes as two words: «амортпремия» — «амортизационная
# премия», «медосмотр» — «медицинский осмотр», «загранкомандировка» — «заграничная
# командировка». The word's lemma is a clipped start and the lemma of a noun; the text
# holds an adjective opening with that start before that noun (another adjective may stand
# between: «социальный налоговый вычет» for «соцвычет»). Read on the text's lemmas in
# order, so only the phrase itself counts, never its two words apart. A clipping cuts an
# adjective after a consonant («мед|ицинский», «загран|ичный»); a start ending in a vowel
# is a combining form of a compound of its own («налого|плательщик», «право|нарушение»,
# «сто|лица»), and a derivational prefix makes a word of its own («пере|плата»).
MIN_CLIPPED = 3  # letters of the clipped start: «мед», «тех», «загран», «аморт»
MIN_NOUN = 5  # letters of the noun after it: «осмотр», «плата» (not «лица», «порт»)
_VOWELS = frozenset("аеёиоуыэюя")
_PREFIX_FILE = "data/derivational_prefixes.yaml"


@cache
def _derivational_prefixes() -> frozenset[str]:
    """Prefixes that derive a word rather than clip an adjective
    (``data/derivational_prefixes.yaml``): «переплата» is no «переменная плата»."""
    text = resources.files("finagent.language").joinpath(_PREFIX_FILE).read_text("utf-8")
    return frozenset(str(p) for p in (load_yaml(text) or {}).get("prefixes", ()))


@lru_cache(maxsize=4096)  # keyed by the words questions use: bounded
def _splittable(word: str) -> str:
    """The lemma of ``word`` when it may be a clipped compound (a noun of ``MIN_CLIPPED`` +
    ``MIN_NOUN`` letters or more), else empty."""
    form = lemma(word)
    if len(form) < MIN_CLIPPED + MIN_NOUN or not form.isalpha():
        return ""
    return form if part_of_speech(form) == "NOUN" else ""


@lru_cache(maxsize=8192)
def _clipped_start(form: str, adjective: str, noun: str) -> bool:
    """Whether the lemma ``form`` is a clipped start of the lemma ``adjective`` and then
    the lemma ``noun``."""
    if len(noun) < MIN_NOUN or not form.endswith(noun):
        return False
    start = form[: -len(noun)]
    return (
        len(start) >= MIN_CLIPPED
        and start[-1] not in _VOWELS
        and start not in _derivational_prefixes()
        and adjective.startswith(start)
        and adjective != start
        and part_of_speech(adjective) == "ADJF"
        and known_noun(noun)
    )


def compound_span(word: str, lemmas: Sequence[str]) -> tuple[int, int] | None:
    """Where the lemmas ``lemmas`` (a sentence's, in order) write the clipped compound
    ``word`` (any form) as its words: the positions of the clipped adjective and of the
    noun, or None."""
    form = _splittable(word)
    if not form:
        return None
    for at in range(len(lemmas) - 1):
        if not lemmas[at].startswith(form[:MIN_CLIPPED]):
            continue
        # the noun right after the adjective, or after one more adjective
        for noun_at in (at + 1, at + 2):
            if noun_at >= len(lemmas):
                break
            if _clipped_start(form, lemmas[at], lemmas[noun_at]):
                return at, noun_at
            if part_of_speech(lemmas[noun_at]) != "ADJF":
                break
    return None


def compound_at(word: str, lemmas: Sequence[str]) -> int:
    """The position of the clipped adjective of ``word`` written out in ``lemmas``
    (:func:`compound_span`), or -1."""
    span = compound_span(word, lemmas)
    return span[0] if span else -1


def may_be_compound(word: str) -> bool:
    """Whether ``word`` is long enough a noun to be a clipped compound («медосмотр»)."""
    return bool(_splittable(word))


def names_compound(word: str, lemmas: Sequence[str]) -> bool:
    """Whether ``lemmas`` (in order) write the clipped compound ``word`` out in full."""
    return compound_at(word, lemmas) >= 0


def compounds_named(words: Iterable[str], lemmas: Sequence[str]) -> frozenset[str]:
    """The ``words`` (lemmas of a question) that ``lemmas`` (in order) do not hold but
    write out in full as the words their clipped compound stands for."""
    held = set(lemmas)
    return frozenset(w for w in words if w not in held and names_compound(w, lemmas))


def expanded(lemmas: Sequence[str], adjectives: Iterable[str]) -> tuple[str, ...]:
    """``lemmas`` with each clipped compound of one of ``adjectives`` (lemmas) written out
    as that adjective and its noun: («суточный», «загранкомандировка») with «заграничный»
    among ``adjectives`` is («суточный», «заграничный», «командировка»)."""
    listed = list(adjectives)
    out: list[str] = []
    for word in lemmas:
        out.extend(_written_out(word, tuple(listed)) or (word,))
    return tuple(out)


@lru_cache(maxsize=4096)
def _written_out(word: str, adjectives: tuple[str, ...]) -> tuple[str, str] | None:
    form = _splittable(word)
    for cut in range(MIN_CLIPPED, len(form) - MIN_NOUN + 1) if form else ():
        noun = form[cut:]
        for adjective in adjectives:
            if _clipped_start(form, adjective, noun):
                return adjective, noun
    return None


@lru_cache(maxsize=4096)  # a question's words, read for every tax it is checked against
def _words(text: str) -> tuple[str, ...]:
    return tuple(t.text for t in tokenize(text) if t.text.isalpha() or "-" in t.text)
