"""The per-turn shortcuts of stop 40's speed lane give the answers the plain code gave."""

from __future__ import annotations

from finagent.language.lemmas import adjective_of, lemma, nouns_by_adjective
from finagent.routing import distinctive


def _plain(nouns: set[str], lemmas: set[str]) -> set[str]:
    return {n for n in nouns if any(adjective_of(n, lm) for lm in lemmas)}


def test_nouns_by_adjective_matches_the_pairwise_check() -> None:
    sentence = "Кассовый чек и гарантийное письмо выдаются при отгрузке партии товара"
    lemmas = {lemma(w) for w in sentence.lower().split()}
    nouns = {"касса", "гарантия", "товар", "партия", "штраф", "чек", "акт"}
    named = nouns_by_adjective(nouns, lemmas)
    assert named == _plain(nouns, lemmas)
    assert {"касса", "гарантия"} <= named
    assert "штраф" not in named


def test_nouns_by_adjective_needs_a_long_enough_stem() -> None:
    # «акт» has a stem too short to make an adjective of it: «актовый» names none
    assert nouns_by_adjective({"акт"}, {"актовый"}) == _plain({"акт"}, {"актовый"}) == set()
    assert nouns_by_adjective(set(), {"кассовый"}) == set()


def test_value_words_are_cached_and_unchanged() -> None:
    texts = ("Договор поставки", "Цена партии составляет 120 000 рублей.")
    first = distinctive._lemmas_of_texts(texts)
    expected = frozenset(t for text in texts for t in distinctive._sentence_lemmas(text))
    assert first == expected
    hits = distinctive._lemmas_of_texts.cache_info().hits
    assert distinctive._lemmas_of_texts(texts) is first
    assert distinctive._lemmas_of_texts.cache_info().hits == hits + 1
