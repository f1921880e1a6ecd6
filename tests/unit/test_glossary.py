"""The glossary of everyday words for the Tax Code's terms: each entry against the Code's
text, and probe questions (written for this test, about no eval item) that reach the
Code's wording through it."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest

from finagent.language.cues import cue_lemmas
from finagent.language.glossary import (
    clipped_prefixes,
    expanded_compound,
    glossary,
    glossary_terms,
)
from finagent.language.lemmas import lemma
from finagent.routing.expansion import expand_query
from tests.conftest import skip_without_tax_code

REPO = Path(__file__).resolve().parents[2]


@cache
def _code_lemmas() -> str:
    """The whole Code as one string of lemmas, space-separated and padded."""
    env = os.environ.get("FINAGENT_TAXCODE_DIR")
    folder = Path(env) if env else REPO.parent / "shared" / "data" / "tax-code"
    paths = [folder / f"nk-part{part}-2025.txt" for part in (1, 2)]
    missing = [p for p in paths if not p.exists()]
    if missing:
        skip_without_tax_code(f"Tax Code text not found at {missing[0]} (set FINAGENT_TAXCODE_DIR)")
    text = " ".join(p.read_text(encoding="utf-8") for p in paths).lower().replace("ё", "е")
    return " " + " ".join(lemma(w) for w in re.findall(r"[а-яa-z0-9-]+", text)) + " "


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(lm for lm in cue_lemmas(phrase) if any(ch.isalnum() for ch in lm))


def _in_code(lemmas: tuple[str, ...]) -> bool:
    return f" {' '.join(lemmas)} " in _code_lemmas()


@pytest.mark.taxcode
def test_every_term_is_the_codes_wording() -> None:
    """Every lemma of every term occurs in the Code: the glossary maps to the Code's
    words, never to an article number or a question's words."""
    vocabulary = set(_code_lemmas().split())
    for _cues, term in glossary():
        assert set(_words(term)) <= vocabulary, term


@pytest.mark.taxcode
def test_a_cue_the_code_uses_only_shortens_its_own_term() -> None:
    """A cue the Code itself uses («суточные») must be part of its term: a Code word
    («подарок») already finds the Code and mapping it elsewhere would mislead."""
    for cues, term in glossary():
        for cue in cues:
            if _in_code(_words(cue)):
                assert set(_words(cue)) <= set(_words(term)), (cue, term)


def test_entries_are_well_formed() -> None:
    entries = glossary()
    assert len(entries) >= 40
    terms = [term for _cues, term in entries]
    assert len(set(terms)) == len(terms)
    assert all(cues and all(c.strip() for c in cues) for cues, _term in entries)


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("Можно вернуть НДФЛ за абонемент в фитнес?", "физкультурно-оздоровительные услуги"),
        ("До какого числа сдать 6-НДФЛ за девять месяцев?", "расчет сумм налога на доходы"),
        ("Какой вычет по ИИС третьего типа?", "индивидуальный инвестиционный счет"),
        ("Нам заблокировали счет, что делать?", "приостановление операций по счетам"),
        ("КУДиР можно вести в электронном виде?", "книга учета доходов и расходов"),
        ("Кто раньше платил вмененку?", "единый налог на вмененный доход"),
        ("Сколько платит самозанятый с переводов от физлиц?", "налог на профессиональный доход"),
        ("Когда уплачивать взносы за себя ИП?", "страховые взносы в фиксированном размере"),
        ("Кому положены налоговые каникулы?", "налоговая ставка в размере 0 процентов"),
        ("Как заполнить РСВ за год?", "расчет по страховым взносам"),
        ("Что будет, если слетел с упрощёнки в середине года?", "утратил право на применение"),
        ("Покупаю лекарства ребёнку, дадут ли вычет?", "лекарственные препараты"),
    ],
)
def test_everyday_words_reach_the_codes_terms(question: str, term: str) -> None:
    assert any(t.startswith(term) for t in glossary_terms(question)), glossary_terms(question)
    assert term in expand_query(question)[-1]


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("Облагается ли НДФЛ подарок от работодателя?", []),  # the Code's own word
        ("Как начислять амортизацию?", []),
        ("Какой срок выездной проверки?", ["выездная налоговая проверка"]),
    ],
)
def test_the_codes_own_words_get_no_other_term(question: str, terms: list[str]) -> None:
    assert glossary_terms(question) == terms


def test_clipped_prefixes_are_taught_by_the_glossarys_compounds() -> None:
    prefixes = clipped_prefixes()
    assert "социальный" in prefixes["соц"]
    assert "государственный" in prefixes["гос"]
    assert ("государственный", "номер") in expanded_compound("госномер")
    assert ("социальный", "выплата") in expanded_compound("соцвыплаты")
    # a word the dictionary knows is not clipped, nor an unknown word of no such prefix
    assert expanded_compound("доплата") == []
    assert expanded_compound("профсоюз") == []
    assert expanded_compound("пусконаладка") == []


def test_a_clipped_compound_reaches_retrieval_in_full_words() -> None:
    assert "государственный номер" in expand_query("какой госномер у погрузчика?")[-1]
