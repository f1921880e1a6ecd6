"""Polarity and actor of a sentence against a value question (ranker tie-breaks)."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.polarity import (
    acting_actors,
    denial_mismatch,
    denies_text,
    other_actor,
)
from finagent.answering.ranker import rank_learned
from finagent.answering.sentence_profile import profile
from finagent.question.build import build_question
from finagent.state import Chunk

LAW = Chunk(id="nk", text="Статья", source="law", title="Статья", metadata={})


def candidate(sentence: str, position: int = 0, semantic: float = 0.8) -> Candidate:
    return Candidate(LAW, 1, sentence, 0, position, semantic=semantic)


def test_a_denied_predicate_is_a_denial_a_bound_or_a_condition_is_not() -> None:
    assert denies_text("При расчёте налога не признаются расходы на отдых работников.")
    assert denies_text("Не подлежат налогообложению подарки до 4 000 рублей.")
    # a bound states a value
    assert not denies_text("Проверка не может продолжаться более двух месяцев.")
    assert not denies_text("Декларация подаётся не позднее 30 апреля.")
    # a negated participle qualifies a noun
    assert not denies_text("Штраф — 5 % от суммы налога, не уплаченной в установленный срок.")
    # a condition or an exception sets a case, also when a conjunction goes on with it
    assert not denies_text("Срок — пять лет, если иное не предусмотрено настоящим Кодексом.")
    assert not denies_text(
        "Если инспекция запросила пояснения, а организация их не направила, штраф 5 000 руб."
    )


def test_a_denial_mismatches_an_affirmative_question_only() -> None:
    denial = "При расчёте налога не признаются расходы на отдых работников."
    asked = build_question("В каком размере можно признать расходы на отдых работников?")
    assert denial_mismatch(denial, asked.text)
    negated = build_question("Какие расходы не признаются при расчёте налога?")
    assert not denial_mismatch(denial, negated.text)


def test_the_subject_of_another_actor_is_marked_unless_the_question_names_it() -> None:
    duty = profile("Налоговый орган обязан в течение десяти дней вернуть переплату.").sequence
    payer = "Сколько дней есть на уплату налога после получения требования?"
    assert other_actor(duty, payer)
    for text in (
        "За сколько дней налоговая вернёт переплату?",
        "Когда инспекция вернёт переплату?",
        "Сколько дней у инспекции на ответ?",
    ):
        assert not other_actor(duty, text)
    # an actor named after the predicate is not the sentence's subject
    filed = profile("Заявление подаётся в налоговый орган в течение десяти дней.").sequence
    assert not other_actor(filed, payer)


def test_an_authority_the_askers_act_is_addressed_to_does_not_act() -> None:
    duty = profile("Налоговый орган обязан в течение пяти дней выдать свидетельство.").sequence
    for text in (
        "Купил долю в фирме — в какой срок уведомить налоговую?",
        "В какой срок сообщить в инспекцию о новой точке?",
        "Когда подать заявление в налоговый орган?",
    ):
        assert acting_actors(text) == frozenset()
        assert other_actor(duty, text)
    assert acting_actors("Сколько ждать ответа от налоговой?") == {"authority"}


def test_the_ranker_prefers_the_askers_own_affirmative_rule() -> None:
    question = build_question("В какой срок подаётся уведомление о переходе на спецрежим?")
    found = [
        candidate("Налоговый орган обязан в течение пяти дней выдать уведомление.", 0, 0.9),
        candidate("Уведомление подаётся не позднее чем за десять дней до начала.", 1, 0.84),
    ]
    ranked = rank_learned(question, found, None)
    assert "десять дней" in ranked[0].sentence
