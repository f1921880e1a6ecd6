"""A word's pymorphy3 readings are parsed once per process and shared by every
grammatical question about it (``language.lemmas.parses``)."""

from __future__ import annotations

import pytest

from finagent.language import lemmas
from finagent.language.lemmas import (
    animate,
    content_word,
    fold,
    genitive,
    normal_forms,
    parses,
    part_of_speech,
)

# words of our own, none from an eval set: a lessee's invoice, a courier, a warehouse
WORDS = ["арендатору", "курьерами", "складского", "перечислено", "Ёлкиной", "штрафов"]


@pytest.mark.parametrize("word", WORDS)
def test_readings_are_the_analyzers(word: str) -> None:
    folded = fold(word)
    assert parses(folded) == tuple(lemmas._analyzer().parse(folded))


def test_readings_parsed_once_for_every_question(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    analyzer = lemmas._analyzer()
    real = analyzer.parse

    class Counting:
        def parse(self, word: str) -> list[object]:
            calls.append(word)
            return real(word)

        def word_is_known(self, word: str) -> bool:
            return bool(analyzer.word_is_known(word))

    monkeypatch.setattr(lemmas, "_analyzer", lambda: Counting())
    parses.cache_clear()
    for cached in (part_of_speech, genitive, animate, normal_forms):
        cached.cache_clear()
    word = "экспедиторами"
    answers = (
        part_of_speech(word),
        genitive(word),
        animate(word),
        normal_forms(word),
        content_word(word),
    )
    assert calls == [fold(word)]
    assert answers[0] == "NOUN" and not answers[1] and answers[2]
    assert "экспедитор" in answers[3] and answers[4]
    parses.cache_clear()  # later tests parse with the real analyzer again
