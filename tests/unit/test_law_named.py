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


def test_another_law_named_elsewhere_in_the_question_is_not_the_code() -> None:
    # another code by its abbreviation, also in lower case after «по»
    assert not names_law("Сколько дней длится испытательный срок по ТК, по закону?")
    assert not names_law("по гк какой по закону срок исковой давности?")
    # another law by its adjective, anywhere in the question
    assert not names_law("Что трудовое законодательство говорит о переработках по закону?")
    # a code of something, or a law of a topic other than taxes
    assert not names_law("Разрешает ли кодекс деловой этики подарки поставщикам?")
    assert not names_law("По кодексу поведения можно ли брать подарки?")
    assert not names_law("По законодательству о занятости сколько платят пособие?")
    # a group of companies is no code
    assert names_law("ГК «Восток» платит по закону НДС с аванса?")


def test_tax_law_named_generically_is_the_code() -> None:
    assert names_law("Какой срок уплаты по законодательству о налогах и сборах?")
    assert names_law("По законодательству РФ сколько хранят счета-фактуры?")
    assert names_law("какие по закону ставки НДС для книг?")


def test_a_company_abbreviated_like_a_code_is_no_other_law() -> None:
    # «ТК», «ГК», «СК» before a company's name are a transport company, a group of
    # companies, an insurer: the law asked is still the Code
    assert names_law("Нужно ли по закону брать счёт-фактуру у ТК Байкал-Сервис за доставку?")
    assert names_law("С аванса от ГК Эталон по закону начисляем НДС?")
    assert names_law("Страховку по СК Ренессанс по закону можно взять в расходы?")
    assert names_law("Возмещение от СК «Ингосстрах» по закону облагается налогом?")
    # the country's name or an article after the abbreviation keeps it a code
    assert not names_law("по закону сколько длится отпуск по ТК Российской Федерации?")
    assert not names_law("по закону каков срок давности по ГК РФ?")


def test_russian_law_generally_is_the_code() -> None:
    assert names_law("Какой срок хранения документов по российскому законодательству?")
    assert names_law("Что по действующему законодательству грозит за опоздание с декларацией?")
    assert not names_law("Какой срок хранения документов по казахстанскому законодательству?")
