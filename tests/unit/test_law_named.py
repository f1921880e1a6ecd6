"""A question asking «по закону» / «по кодексу» asks the Tax Code, not another law."""

from __future__ import annotations

from finagent.answering.code_over_kb import names_code, names_law
from finagent.question.build import build_question


def test_the_law_asked_by_a_generic_word_is_the_code() -> None:
    assert names_law("За сколько дней по закону нужно подать уведомление о переходе?")
    assert names_law("Какой размер пошлины установлен кодексом для регистрации?")
    assert names_law("сколько по законодательству хранят книгу покупок?")
    assert names_law("штраф за опоздание с расчётом по Налоговому кодексу?")
    assert names_code(build_question("в какой срок по кодексу вернут переплату по налогу?"))


def test_another_law_or_a_law_of_its_own_name_is_not_the_code() -> None:
    assert not names_law("Сколько дней отпуска по Трудовому кодексу?")
    assert not names_law("по закону о защите прав потребителей сколько дней на возврат?")
    assert not names_law("по закону 44-ФЗ какой срок оплаты?")
    assert not names_law("по федеральному закону сколько хранить кассовые чеки?")
    assert not names_law("законный представитель подписывает заявление?")
    assert not names_code(build_question("за сколько дней вернут переплату по налогу?"))
