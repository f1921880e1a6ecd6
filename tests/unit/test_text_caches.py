"""The latency work of stop 45 changes no result: each faster lookup gives what the plain
scan it replaced gives, and a reading remembered by text hands every caller its own copy."""

from __future__ import annotations

from collections.abc import Iterable, Set

import pytest

from finagent.answering.coverage import _Text
from finagent.answering.document_sentences import document_sentences, section_headings
from finagent.answering.evidence import Candidate, units_of
from finagent.answering.extractive import _distinct
from finagent.answering.figures import known_numbers, numbers_of
from finagent.answering.named_words import _terms, spelled_out
from finagent.answering.sentence_profile import profile
from finagent.cards.header_units import unit_cells
from finagent.language.lemmas import adjective_of, nouns_by_adjective
from finagent.language.synonyms import (
    _groups,
    by_compound,
    by_root,
    by_synonym,
    in_groups,
    same_root,
)
from finagent.redaction import _MEMO_CHARS, Redactor
from finagent.state import Chunk

# lemma sets as sentences and questions give them: roots shared at six letters, adjectives
# of nouns, synonyms of the groups, words of one letter and empty sets
LEMMA_SETS: list[frozenset[str]] = [
    frozenset(),
    frozenset({"страховой", "сумма", "договор", "в", "размер"}),
    frozenset({"авансовый", "платёж", "перечислять", "кассовый", "отчёт"}),
    frozenset({"услуга", "представитель", "оплата", "неустойка", "пеня"}),
    frozenset({"инвентаризационный", "опись", "комиссия", "материальный", "помощь"}),
    frozenset({"арендный", "плата", "помещение", "субаренда", "ремонтный", "работа"}),
]
ASKED_SETS: list[set[str]] = [
    set(),
    {"страховать", "сумма", "срок"},
    {"аванс", "касса", "отчётность"},
    {"юрист", "пени", "штраф", "услуга"},
    {"инвентаризация", "матпомощь", "комиссия"},
    {"аренда", "ремонт", "помещение", "я"},
]


def _root_scan(asked: Set[str], lemmas: Set[str]) -> set[str]:
    return {a for a in asked if a not in lemmas and any(same_root(a, lm) for lm in lemmas)}


def _adjective_scan(nouns: Iterable[str], lemmas: Iterable[str]) -> set[str]:
    named = set()
    for noun in nouns:
        stem = noun[:-1] if noun[-1:] in "аеёиоуыэюяь" else noun
        if len(stem) < 4:
            continue
        if any(
            adjective_of(noun, lm) for lm in lemmas if len(lm) > len(noun) and lm.startswith(stem)
        ):
            named.add(noun)
    return named


def _synonym_scan(asked: Set[str], lemmas: Set[str]) -> set[str]:
    missing = {a for a in asked if a not in lemmas}
    return set(in_groups(missing, lemmas, _groups())) | by_compound(asked, lemmas)


@pytest.mark.parametrize("lemmas", LEMMA_SETS)
@pytest.mark.parametrize("asked", ASKED_SETS)
def test_lookups_name_what_the_pairwise_scans_name(asked: set[str], lemmas: frozenset[str]) -> None:
    for given in (lemmas, set(lemmas)):  # a remembered frozenset or a caller's own set
        assert by_root(asked, given) == _root_scan(asked, given)
        assert by_synonym(asked, given) == _synonym_scan(asked, given)
        assert nouns_by_adjective(asked, given) == _adjective_scan(asked, given)
        assert nouns_by_adjective(asked, list(given)) == _adjective_scan(asked, given)


def test_a_spelled_out_term_counts_once_whichever_cue_names_it() -> None:
    sentence = profile("Единый налоговый платёж перечислен 28 марта.")
    for asked in ({"енп"}, {"енп", "платёж"}, set(), {"касса"}):
        scanned = sum(
            1 for cues, term in _terms() if cues & asked and term and term <= sentence.lemmas
        )
        assert spelled_out(asked, sentence) == scanned


def _candidate(sentence: str, position: int) -> Candidate:
    chunk = Chunk(id="c", text=sentence, title="Статья")
    return Candidate(chunk, 1, sentence, 0, position)


def test_distinct_sentences_up_to_a_limit_are_the_first_of_all_distinct_ones() -> None:
    texts = [
        "Налог уплачивается не позднее 28-го числа следующего месяца.",
        "не позднее 28-го числа следующего месяца",
        "Декларация представляется не позднее 25-го числа.",
        "Налог уплачивается не позднее 28-го числа следующего месяца",
        "Пени начисляются за каждый день просрочки.",
        "Штраф составляет 20 процентов неуплаченной суммы.",
    ]
    ranked = [_candidate(t, i) for i, t in enumerate(texts)]
    every = _distinct(ranked)
    for limit in range(len(texts) + 1):
        assert _distinct(ranked, limit) == every[:limit]


DOCUMENT = (
    "ДОГОВОР ПОСТАВКИ № 12\n\n1. ПРЕДМЕТ ДОГОВОРА\nПоставщик передаёт товар.\n"
    "2. ЦЕНА И ПОРЯДОК РАСЧЁТОВ\nЦена товара — 120 000 руб. Оплата в течение "
    "десяти рабочих дней.\n№: 1; Наименование: Стеллаж; Вес, кг: 40; Сумма, руб.: 5 000\n"
)


def test_remembered_readings_hand_each_caller_its_own_copy() -> None:
    first = document_sentences(DOCUMENT)
    first.append("чужое")
    assert "чужое" not in document_sentences(DOCUMENT)
    units = units_of(DOCUMENT)
    units.clear()
    assert units_of(DOCUMENT)
    starts, titles = section_headings(DOCUMENT)
    starts.append(-1)
    titles.append("чужой")
    assert section_headings(DOCUMENT) == (starts[:-1], titles[:-1])
    row = "№: 1; Наименование: Стеллаж; Вес, кг: 40; Сумма, руб.: 5 000"
    cells = unit_cells(row)
    assert cells
    cells.clear()
    assert unit_cells(row)


def test_a_passage_reading_is_copied_before_a_caller_sets_its_document() -> None:
    one = _Text.of(DOCUMENT, "ООО «Альфа»", "Договор поставки")
    one.document, one.parties = "doc-1", {"альфа"}
    other = _Text.of(DOCUMENT, "ООО «Альфа»", "Договор поставки")
    assert other.document == "" and other.parties == set()
    fresh = _Text.read(DOCUMENT, "ООО «Альфа»", "Договор поставки")
    assert (other.lemmas, other.names, other.dates, other.months) == (
        fresh.lemmas,
        fresh.names,
        fresh.dates,
        fresh.months,
    )


def test_known_numbers_are_the_union_of_each_source_numbers() -> None:
    texts = [DOCUMENT, "Срок — двух месяцев; сумма трех тысяч рублей, 01.02.2026.", ""]
    assert known_numbers(texts) == set().union(*(numbers_of(t) for t in texts))
    assert {"120000", "10"} <= known_numbers(texts)


def test_a_long_text_is_redacted_alike_each_time_it_is_written() -> None:
    key = "sk-proj-Cache7Secret2a9f4e1b6cQwErTy"
    redactor = Redactor([key])
    long = ("Договор аренды, пункт о платежах. " * (_MEMO_CHARS // 30)) + f" ключ {key} конец"
    assert len(long) > _MEMO_CHARS
    once, twice = redactor.redact(long), redactor.redact(long)
    assert once == twice and key not in once and once.endswith(" конец")
    other = long.replace("аренды", "поставки")
    assert redactor.redact(other) == once.replace("аренды", "поставки")
