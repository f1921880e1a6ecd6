"""Stop 42, dedup11: a clipped compound names a clause by its full words (not a synonym
group), one root check, one inverse-frequency weight, the «о …» complement by its lemma.
Own wording, about no evaluation item."""

from __future__ import annotations

import math

from finagent.answering.named_object import complements
from finagent.answering.sentence_profile import profile
from finagent.language.corpus_lemmas import CorpusLemmas
from finagent.language.synonyms import by_compound, by_synonym, names_lemma, same_root


def test_a_clipped_compound_is_named_by_all_its_full_words() -> None:
    clause = profile("Работнику выплачивается материальная помощь в размере оклада").lemmas
    assert by_synonym({"матпомощь"}, clause) == {"матпомощь"}
    assert names_lemma("матпомощь", clause)


def test_its_head_noun_alone_names_no_compound() -> None:
    legal_aid = profile("Исполнитель оказывает юридическую помощь по спорам").lemmas
    assert not by_synonym({"матпомощь"}, legal_aid)
    assert not names_lemma("матпомощь", legal_aid)
    # nor is a bare «помощь» named by a clause that speaks of «матпомощь»
    assert not by_synonym({"помощь"}, profile("Матпомощь выдаётся по заявлению").lemmas)


def test_a_one_word_cue_of_the_glossary_by_its_term() -> None:
    wages = profile("Заработная плата выплачивается дважды в месяц").lemmas
    assert by_compound({"зп"}, wages) == {"зп"}
    assert not by_compound({"зп"}, profile("Плата за хранение вносится ежемесячно").lemmas)


def test_a_compound_only_a_clipped_prefix_suggests_is_not_expanded() -> None:
    plate = profile("Государственный номер автомобиля указан в приложении").lemmas
    assert not by_compound({"госномер"}, plate)


def test_one_lemma_is_one_root_even_when_short() -> None:
    assert same_root("год", "год")
    assert not same_root("год", "годный")
    assert same_root("страховать", "страховой")


def test_the_inverse_frequency_weight_favours_rare_words() -> None:
    table = CorpusLemmas(units=99, used={"штраф": 49, "повторно": 4}, as_name={})
    assert math.isclose(table.weight(["штраф"]), math.log(100 / 50))
    assert table.weight(["повторно"]) > table.weight(["штраф"])
    assert math.isclose(table.weight([]), 0.0)


def test_every_form_of_the_preposition_o_opens_a_complement() -> None:
    for text in (
        "заявление об отказе от патента",
        "заявление обо всех изменениях патента",
        "заявление о продлении патента",
    ):
        assert "заявление" in complements(profile(text).sequence)
