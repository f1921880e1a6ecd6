"""A word's pymorphy3 readings are parsed once per process and shared by every
grammatical question about it (``language.lemmas.parses``)."""

from __future__ import annotations

import pytest

from finagent.language import lemmas
from finagent.language.lemmas import (
    animate,
    best_parse,
    content_word,
    counted,
    fold,
    genitive,
    lemma,
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


def test_a_letter_unicode_does_not_name_is_read_as_an_unknown_word() -> None:
    # pymorphy3 asks unicodedata.name() of every letter; Tangut letters have no listed name
    word = "знак\U00017000"
    assert lemma(word) == word
    assert best_parse(word).tag.POS is None
    assert counted(2, "строка") == "2 строки"
