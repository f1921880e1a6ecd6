"""Sentences and tokens with character offsets (razdel), each token with its lemma."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict
from razdel import sentenize, tokenize

from finagent.language.lemmas import lemma


class Sentence(BaseModel):
    """A sentence of a source text and where it is (offsets into that text)."""

    model_config = ConfigDict(frozen=True)

    text: str
    start: int
    end: int


@dataclass(slots=True)
class Token:
    text: str
    start: int
    end: int
    lemma: str


@dataclass
class AnalysedSentence:
    sentence: Sentence
    tokens: list[Token]

    @cached_property
    def lemmas(self) -> tuple[str, ...]:
        return tuple(token.lemma for token in self.tokens)

    def words(self, first: int, last: int) -> str:
        """Text from token ``first`` through token ``last``, as written."""
        base = self.sentence.start
        return self.sentence.text[self.tokens[first].start - base : self.tokens[last].end - base]

    def located(self, first: int, last: int) -> dict[str, Any]:
        """The fields every span has (text, offsets, sentence) for tokens ``first`` through
        ``last``."""
        return {
            "text": self.words(first, last),
            "start": self.tokens[first].start,
            "end": self.tokens[last].end,
            "sentence": self.sentence,
        }

    def gap(self, left: int, right: int) -> str:
        """Text between token ``left`` and token ``right`` (``left`` < ``right``)."""
        base = self.sentence.start
        a, b = self.tokens[left].end - base, self.tokens[right].start - base
        return self.sentence.text[a:b]


@dataclass
class Analysed:
    """A text split once into sentences and tokens; every extractor reads this."""

    text: str
    sentences: list[AnalysedSentence] = field(default_factory=list)


def _split_lines(text: str) -> list[tuple[int, int]]:
    """Line blocks: razdel does not end a sentence at a line break, documents do (headings,
    table rows, «Продавец: …» lines), so sentences are found inside each non-empty line."""
    spans = []
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        if line.strip():
            spans.append((start, end))
        start = end + 1
    return spans


# (a sentence's offset in its line, its text, its tokens as (text, start, end, lemma))
_LineSentences = tuple[tuple[int, str, tuple[tuple[str, int, int, str], ...]], ...]
LINE_CACHE = 16_384  # lines kept: every question reads the same documents' lines again


@lru_cache(maxsize=LINE_CACHE)
def _line_sentences(line: str) -> _LineSentences:
    """razdel's sentences and tokens of one line, each token with its lemma (a pure
    function of the line; cached, as ``lemma`` is)."""
    return tuple(
        (
            piece.start,
            piece.text,
            tuple((t.text, t.start, t.stop, lemma(t.text)) for t in tokenize(piece.text)),
        )
        for piece in sentenize(line)
    )


def analyse(text: str) -> Analysed:
    result = Analysed(text)
    for line_start, line_end in _split_lines(text):
        for offset, piece, words in _line_sentences(text[line_start:line_end]):
            start = line_start + offset
            sentence = Sentence(text=piece, start=start, end=start + len(piece))
            tokens = [Token(word, start + a, start + b, lem) for word, a, b, lem in words]
            result.sentences.append(AnalysedSentence(sentence, tokens))
    return result
