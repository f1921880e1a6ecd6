"""Persons: natasha's NER (slovnet models shipped in its wheel) and «в лице …» clauses.

natasha is imported on first use only: it costs about a second to load and is needed where
document cards are built (ingestion), never on the question path."""

from __future__ import annotations

from functools import cache
from typing import Any

from finagent.language.spans import Person
from finagent.language.text import Analysed, AnalysedSentence

# lowercase words of a position between «в лице» and the name
_MAX_POSITION_WORDS = 4


@cache
def _ner() -> tuple[Any, Any]:
    from natasha import NewsEmbedding, NewsNERTagger, Segmenter

    return Segmenter(), NewsNERTagger(NewsEmbedding())


def ner_persons(text: str, offset: int = 0) -> list[tuple[str, int, int]]:
    """PER spans of ``text`` (adjacent spans merged), offsets shifted by ``offset``."""
    from natasha import Doc

    segmenter, tagger = _ner()
    doc = Doc(text)
    doc.segment(segmenter)
    doc.tag_ner(tagger)
    merged: list[tuple[int, int]] = []
    for span in doc.spans:
        if span.type != "PER":
            continue
        if merged and not text[merged[-1][1] : span.start].strip():
            merged[-1] = (merged[-1][0], span.stop)
        else:
            merged.append((span.start, span.stop))
    return [(text[a:b], a + offset, b + offset) for a, b in merged]


def _represented(sentence: AnalysedSentence) -> list[Person]:
    """«в лице генерального директора Лаврентьева Игоря Семёновича»."""
    found = []
    tokens = sentence.tokens
    for i in range(len(tokens) - 2):
        if tokens[i].lemma != "в" or tokens[i + 1].lemma != "лицо":
            continue
        j = i + 2
        while j < len(tokens) and j - i - 2 < _MAX_POSITION_WORDS and tokens[j].text.islower():
            j += 1
        k = j
        while k < len(tokens) and k - j < 3 and tokens[k].text[:1].isupper():
            k += 1
        if k > j:
            base = sentence.sentence.start
            start, end = tokens[j].start, tokens[k - 1].end
            name = sentence.sentence.text[start - base : end - base]
            found.append(
                Person(text=name, start=start, end=end, sentence=sentence.sentence, name=name)
            )
    return found


def representatives_in(analysed: Analysed) -> list[Person]:
    return [person for sentence in analysed.sentences for person in _represented(sentence)]


def persons_in(analysed: Analysed, head_chars: int = 6000, tail_chars: int = 3000) -> list[Person]:
    """Persons named in the opening and the end (signatures) of a document: «в лице …»
    clauses, then NER spans not already found."""
    found = representatives_in(analysed)
    text = analysed.text
    windows = [(0, min(len(text), head_chars))]
    if len(text) > head_chars:
        windows.append((max(head_chars, len(text) - tail_chars), len(text)))
    by_offset = {s.sentence.start: s for s in analysed.sentences}
    starts = sorted(by_offset)
    for a, b in windows:
        for name, start, end in ner_persons(text[a:b], a):
            # one word is too often a role («Арендодателю») tagged as a person
            if len(name.split()) < 2 or any(p.start <= start < p.end for p in found):
                continue
            sentence = next(
                (by_offset[s] for s in reversed(starts) if s <= start), analysed.sentences[0]
            )
            found.append(
                Person(text=name, start=start, end=end, sentence=sentence.sentence, name=name)
            )
    return sorted(found, key=lambda p: p.start)
