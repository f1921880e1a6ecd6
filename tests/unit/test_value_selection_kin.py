"""A document's value chosen by the question's own words in the clause's own wording
(synonyms, roots), by the party that acts in the clause, and a table cell in whole roubles."""

from __future__ import annotations

import pytest

from finagent.answering.acted_party import acted_roles, acting_roles, of_acted_party
from finagent.answering.document_sentences import shared_words
from finagent.answering.sentence_profile import profile
from finagent.language.synonyms import by_root, by_synonym, synonyms
from tests.unit.card_reading import card_answer


def test_synonym_groups_are_symmetric_lemmas() -> None:
    assert "представитель" in synonyms("юрист")
    assert "юрист" in synonyms("представитель")
    assert synonyms("юрист") == synonyms("юрист") - {"юрист"}


def test_a_clause_names_a_word_by_its_synonym_or_root() -> None:
    clause = profile("Взыскать 40 000 руб. расходов на оплату услуг адвоката.").lemmas
    assert by_synonym({"юрист"}, clause) == {"юрист"}
    assert shared_words({"юрист"}, clause) == 1
    insured = profile("Арендатор страхует склад на страховую сумму 9 000 000 рублей.").lemmas
    assert by_root({"страхование"}, insured) == {"страхование"}


@pytest.mark.parametrize(
    ("text", "actors"),
    [
        ("За просрочку отгрузки Поставщик уплачивает Покупателю пени 0,2 %.", {"supplier"}),
        ("Покупатель уплачивает Поставщику неустойку 0,03 % за каждый день.", {"buyer"}),
        ("какую неустойку платит поставщик за срыв отгрузки", {"supplier"}),
        ("Неустойка по договору поставки", set()),
    ],
)
def test_the_party_that_acts(text: str, actors: set[str]) -> None:
    assert acting_roles(text) == actors


def test_a_subject_after_its_verb_is_not_acted_on() -> None:
    assert acted_roles("сколько платит покупатель") == frozenset()
    assert acted_roles("сколько платим покупателю") == {"buyer"}


def test_the_clause_of_the_acting_party_answers() -> None:
    clauses = [
        "6.1. При задержке оплаты Покупатель уплачивает Поставщику пени 0,03 % в день.",
        "6.2. При задержке отгрузки Поставщик уплачивает Покупателю пени 0,2 % в день.",
    ]
    assert of_acted_party("какие пени платит поставщик", clauses, str) == [clauses[1]]
    assert of_acted_party("какие пени по договору", clauses, str) == clauses


def test_a_table_cell_in_whole_roubles_is_a_sum() -> None:
    assert profile("Этап: 3; Стоимость, руб.: 4 250 000; Срок: до 15.12.2026").money == (
        "4 250 000",
    )
    assert profile("Позиция: 2; Цена, руб.: 350; Кол-во: 4").money == ()


def test_the_acting_party_chooses_among_a_fields_values() -> None:
    text = (
        "# Договор поставки № 17-П\n\n"
        "ООО «Север-Трейд», именуемое в дальнейшем «Поставщик», и ООО «Лесная Гавань», "
        "именуемое в дальнейшем «Покупатель», заключили договор.\n\n"
        "7.1. При задержке оплаты Покупатель уплачивает Поставщику неустойку в размере "
        "0,03 % от суммы долга за каждый день.\n\n"
        "7.2. При задержке отгрузки Поставщик уплачивает Покупателю неустойку в размере "
        "0,2 % от стоимости партии за каждый день.\n"
    )
    found = dict(card_answer(text, "Какую неустойку платит поставщик по договору 17-П?"))
    assert any("0,2" in v for v in found.get("неустойка", [])), found


def test_every_synonym_group_holds_two_lemmas_at_least() -> None:
    from finagent.language.synonyms import _groups

    assert _groups()
    assert all(len(group) >= 2 for group in _groups())


def test_the_synonym_cache_is_bounded() -> None:
    # keyed by the words users type: an unbounded cache would grow for the service's life
    from finagent.language.synonyms import synonyms

    assert synonyms.cache_info().maxsize is not None
