"""Stop 39, docs7: document numbers are no shares, clipped scope adjectives and
attribute synonyms in the coverage check."""

from __future__ import annotations

from razdel import tokenize

from finagent.answering.coverage import _covered
from finagent.answering.sentence_profile import computed_profile, values_of
from finagent.language.lemmas import lemma
from finagent.question.asked import AskedAttribute, asked_attributes


def _lemmas(text: str) -> list[str]:
    return [lemma(t.text) for t in tokenize(text)]


def _attributes(question: str) -> list[str]:
    words = [t.text for t in tokenize(question)]
    return [a.head for a in asked_attributes(words, [lemma(w) for w in words])]


def test_fraction_after_number_sign_is_a_document_number() -> None:
    text = "Поставщик действует на основании приказа № 31/08 от 14.02.2027."
    assert computed_profile(text).shares == ()
    assert values_of(computed_profile(text), "rate") == ()


def test_fraction_after_number_word_is_a_document_number() -> None:
    assert computed_profile("согласно протоколу номер 7/19 собрания").shares == ()
    assert computed_profile("по счёту №4/112 от 3 мая").shares == ()


def test_a_share_stays_a_share() -> None:
    text = "Арендатор платит пени в размере 1/150 ключевой ставки за день просрочки."
    assert computed_profile(text).shares == ("1/150",)
    assert "1/150" in values_of(computed_profile(text), "rate")


def test_clipped_scope_adjective_is_read_past() -> None:
    assert _attributes("какая макс сумма заказа по договору с Альфой?") == ["сумма"]
    assert _attributes("какую мин цену может предложить Ромашка на аукционе?") == ["цена"]


def test_turnover_is_covered_by_the_volume_of_sales() -> None:
    asked = AskedAttribute(head="оборот", lemmas=["оборот"], text="обороте")
    sentence = "если объём продаж за полугодие превысит 3 500 000 рублей, скидка составит 4 %"
    assert _covered(asked, [_lemmas(sentence)])
    assert not _covered(asked, [_lemmas("срок поставки 5 дней")])
