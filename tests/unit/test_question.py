"""The typed Question: answer type, subject, as-of date and the user's documents it names."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_docs"
OWN = Path(__file__).resolve().parents[1] / "data" / "cards"


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    paths = sorted(SAMPLES.iterdir()) + sorted(OWN.iterdir())
    return [build_card(p.stem, p.stem, p.read_text(encoding="utf-8")) for p in paths]


@pytest.mark.parametrize(
    ("text", "answer_types", "taxes", "fields"),
    [
        ("Какая ставка НДС?", ["rate"], ["vat"], ["vat"]),
        ("Какая ставка НДФЛ для нерезидентов?", ["rate"], ["pit"], []),
        ("Сколько процентов налог на прибыль в 2025 году?", ["rate", "amount"], ["profit"], []),
        (
            "кто арендодатель и сколько платим в месяц?",
            ["party", "amount"],
            [],
            ["landlord", "rent"],
        ),
        ("счёт-фактура № 87: сумма и покупатель?", ["amount", "party"], [], ["buyer"]),
        ("срок камеральной проверки", ["period"], [], []),
        ("максимальный вычет на лечение", ["limit"], [], []),
        ("Можно ли применять УСН при доходах 450 млн рублей?", ["yes_no"], ["usn"], []),
        ("Что такое ЕНС?", ["definition"], ["ens"], []),
        ("До какого числа платить НДФЛ за сотрудников?", ["date"], ["pit"], ["payment_term"]),
        ("Какие документы нужны для вычета на обучение?", ["procedure"], [], []),
        ("Какие пени по договору аренды за просрочку?", ["rate"], [], ["penalty"]),
        (
            "Какой штраф за непредставление пояснений?",
            ["amount"],
            [],
            ["penalty"],  # «пояснений» complements «непредставление»: no term is asked
        ),
        ("Когда заканчивается договор с СеверСтройИнвест?", ["date"], [], ["valid_until"]),
        ("Под какой процент выдан заём?", ["rate"], [], ["interest_rate", "principal"]),
        (
            # «у работника» says whose term, it does not ask who the employee is
            "Какой испытательный срок у работника?",
            ["period"],
            [],
            ["probation"],
        ),
        ("Какие взносы платит ИП за себя?", ["procedure"], ["insurance"], []),
        ("Привет, как дела?", ["procedure"], [], []),
        ("Спасибо", ["unknown"], [], []),
    ],
)
def test_answer_type_and_subject(
    text: str, answer_types: list[str], taxes: list[str], fields: list[str]
) -> None:
    question = build_question(text, TODAY)
    assert question.answer_types == answer_types
    assert question.answer_type == answer_types[0]
    assert question.taxes == taxes and question.tax == (taxes[0] if taxes else None)
    assert question.fields == fields
    assert question.subject == (taxes or fields or [None])[0]


def test_as_of_and_typed_values() -> None:
    question = build_question("Можно ли в 2025 году получить вычет 150 000 ₽ за 3 месяца?", TODAY)
    assert (question.as_of, question.as_of_source) == (date(2025, 1, 1), "year")
    assert [str(m.amount) for m in question.money] == ["150000"]
    assert [(p.count, p.unit) for p in question.periods] == [(3, "month")]
    implicit = build_question("Какая ставка НДС?", TODAY)
    assert (implicit.as_of, implicit.as_of_source) == (TODAY, "implicit")


def test_today_defaults_to_moscow() -> None:
    from finagent.moscow_time import moscow_today

    assert build_question("Какая ставка НДС?").as_of == moscow_today()


@pytest.mark.parametrize(
    ("text", "document", "reasons"),
    [
        ("счёт-фактура № 87: сумма и покупатель?", "schet_faktura", {"тип", "номер", "роль"}),
        ("Кто займодавец и под какой процент?", "dogovor_zajma", {"роль"}),
        ("Сколько мы должны Уралтехснабу?", "dogovor_zajma", {"контрагент"}),
        ("Когда платить Соколовой за бухгалтерию?", "dogovor_uslug", {"лицо"}),
        ("Какой оклад у Беловой?", "trudovoj_dogovor", {"лицо"}),
        ("Что в УПД по ПСК-45/2025?", "dogovor_postavki", {"номер"}),
        ("Какие пени по договору аренды?", "dogovor_arendy", {"тип"}),
        ("Что требует налоговая в требовании о пояснениях?", "uvedomlenie_fns", {"тип"}),
    ],
)
def test_documents_the_question_names(
    cards: list[DocumentCard], text: str, document: str, reasons: set[str]
) -> None:
    question = build_question(text, TODAY, cards)
    named = {m.document_id: set(m.reasons) for m in question.documents}
    assert document in named, named
    assert reasons <= named[document]
    assert question.documents[0].document_id == document


def test_a_tax_question_names_no_document(cards: list[DocumentCard]) -> None:
    assert build_question("Какая ставка НДФЛ для нерезидентов?", TODAY, cards).documents == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_typed_question(text: str) -> None:
    question = build_question(text, TODAY)
    assert question.answer_type == question.answer_types[0]
    for span in [*question.money, *question.periods, *question.dates, *question.identifiers]:
        assert text[span.start : span.end] == span.text


@pytest.mark.parametrize(
    ("text", "several"),
    [
        ("Какие ставки НДС действуют и когда применяется 0 %?", True),
        ("Каковы сроки камеральной проверки?", True),
        ("Какие документы нужны для вычета на лечение?", True),
        ("Какая ставка НДС при экспорте?", False),
        ("Сколько платим в месяц по аренде?", False),
    ],
)
def test_a_plural_question_word_asks_for_several_values(text: str, several: bool) -> None:
    assert build_question(text).several is several


@pytest.mark.parametrize(
    ("text", "answer_type"),
    [
        ("За какое время охрана должна приехать по тревоге?", "period"),
        ("За сколько нужно предупредить арендодателя о выезде?", "period"),
        ("За сколько купили склад?", "amount"),
        ("Кого нужно предупредить о расторжении?", "party"),
    ],
)
def test_how_far_ahead_is_a_period_not_a_price(text: str, answer_type: str) -> None:
    assert build_question(text, TODAY).answer_type == answer_type


@pytest.mark.parametrize(
    ("text", "answer_types"),
    [
        # «до какого» with «числа» left out asks a date over the period or field named
        ("Расчёт по взносам за полугодие до какого надо сдать?", ["date"]),
        ("Аванс по налогу на прибыль за 1 квартал до какого заплатить?", ["date"]),
        ("По какое нужно подать возражения?", ["date"]),
        # a noun after it is what is asked; a sum asked first still leads
        ("До какой суммы выручки можно не платить НДС?", ["limit"]),
        ("Сколько стоит патент и до какого его оплатить?", ["amount"]),
        ("Какая ставка и до какого её может снизить регион?", ["rate"]),
    ],
)
def test_a_left_out_day_after_until_which_asks_a_date(text: str, answer_types: list[str]) -> None:
    assert build_question(text, TODAY).answer_types[: len(answer_types)] == answer_types


@pytest.mark.parametrize(
    ("text", "answer_type"),
    [
        # «через сколько» / «спустя сколько» ask a span after an event, even with a
        # sanction named as its condition
        ("Через сколько банк приостановит операции, если не сдать расчёт?", "period"),
        ("Через сколько вернут переплату по налогу на имущество?", "period"),
        ("Спустя сколько дней после отказа можно снова подать заявление?", "period"),
        ("Сколько штраф, если через месяц так и не сдать отчёт?", "amount"),
    ],
)
def test_how_soon_after_an_event_is_a_period(text: str, answer_type: str) -> None:
    assert build_question(text, TODAY).answer_type == answer_type


@pytest.mark.parametrize(
    ("text", "answer_type"),
    [
        # «сколько» counting units of time with a pronoun or an adverb between asks a span;
        # a unit after a preposition or a noun («в месяц», «налога за год») does not
        ("Сколько у нас дней на ответ по запросу банка?", "period"),
        ("Сколько всего лет хранятся путевые листы?", "period"),
        ("Сколько ещё недель ждать решения по жалобе?", "period"),
        ("Сколько кварталов нельзя отказаться от выбранной ставки?", "period"),
        ("Сколько в месяц мы платим за хранение архива?", "amount"),
        ("Сколько налога за год заплатит кофейня на патенте?", "amount"),
        ("Какой сбор, и сколько если повторно за год?", "amount"),
    ],
)
def test_a_count_of_time_units_is_a_period(text: str, answer_type: str) -> None:
    assert build_question(text, TODAY).answer_type == answer_type


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # a preposition of a bound, «какой» and a noun of quantity ask the threshold
        ("От какой стоимости лицензия учитывается как нематериальный актив?", "limit"),
        ("С какой части дохода начинается повышенная ставка?", "limit"),
        ("При каком объёме продаж положена скидка?", "limit"),
        # «доля» asks a share; a date word or a condition asks no threshold
        ("При какой доле в уставном капитале компания считается дочерней?", "rate"),
        ("До какого числа сдать отчёт?", "date"),
        ("При каких условиях дают отсрочку?", "procedure"),
    ],
)
def test_a_bound_asked_by_its_quantity_is_a_limit(text: str, first: str) -> None:
    assert build_question(text, TODAY).answer_type == first


def test_a_bound_a_later_part_asks_does_not_lead() -> None:
    question = build_question("Какой вычет на обучение и до какой суммы расходов он даётся?", TODAY)
    assert question.answer_types == ["amount", "limit"]


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # «сколько» before a verb of holding or lasting asks for how long
        ("Сколько нужно хранить кассовые документы?", "period"),
        ("Сколько лицензия может действовать без продления?", "period"),
        ("Сколько ждать возврата НДФЛ?", "period"),
        # before a verb of paying or costing it asks a sum
        ("Сколько нужно заплатить за патент?", "amount"),
        ("Сколько стоит регистрация ИП?", "amount"),
    ],
)
def test_how_long_a_verb_of_lasting_asks(text: str, first: str) -> None:
    assert build_question(text, TODAY).answer_type == first


def test_an_asked_bound_of_a_duration_asks_the_period() -> None:
    assert build_question("На какой максимальный срок выдают лицензию?", TODAY).answer_type == (
        "period"
    )
    assert build_question("Какой минимальный срок аренды земли?", TODAY).answer_type == "period"
    # a bound of a sum is a limit; a duration that sets a condition asks nothing
    assert build_question("Какой максимальный размер вычета?", TODAY).answer_type == "limit"
    question = build_question("Если продать раньше минимального срока, есть ли лимит?", TODAY)
    assert question.answer_type != "period"


def test_a_bound_of_a_rate_asks_a_rate() -> None:
    assert build_question("Какой максимальный тариф сбора?", TODAY).answer_type == "rate"
    text = "До какого максимума муниципалитет вправе поднять ставку сбора?"
    assert build_question(text, TODAY).answer_type == "rate"
    # a limit of a sum that a rate is conditioned on stays a limit
    assert build_question("Какой порог выручки для ставки 4 %?", TODAY).answer_type == "limit"


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # the head noun after «какой» names a sum or a span of time: a value is asked
        ("Какое пособие положено при рождении ребёнка?", "amount"),
        ("Какая компенсация за неиспользованный отпуск при увольнении?", "amount"),
        ("Какие командировочные не облагаются взносами?", "amount"),  # one allowance
        ("Какой отчётный период по налогу на имущество?", "period"),
        # the plural of a countable noun asks which kinds: a list
        ("Какие надбавки облагаются НДФЛ?", "procedure"),
        ("Какие выплаты работникам освобождены от взносов?", "procedure"),
        # a clear cue of the clause keeps its type
        ("Какой максимальный имущественный вычет?", "limit"),
        ("Какие ставки взносов для малого бизнеса?", "rate"),
        ("Какие пени за просрочку налога?", "rate"),
        # a noun naming no value leaves «какой» to its own weak cue
        ("Какой налог платит ИП на патенте?", "procedure"),
    ],
)
def test_the_head_noun_after_kakoi_names_the_value_asked(text: str, first: str) -> None:
    assert build_question(text, TODAY).answer_type == first


def test_a_clause_after_a_comma_and_i_that_asks_on_is_a_part() -> None:
    floor = build_question("Какой штраф за неуплату взносов, и есть ли нижний предел?", TODAY)
    assert [p.answer_type for p in floor.parts] == ["amount", "limit"]
    # a case asked after «и если» asks what the part before it asked
    repeat = build_question("Какой штраф за грубое нарушение учёта, и если повторно?", TODAY)
    assert [p.answer_type for p in repeat.parts] == ["amount", "amount"]
    # a bare condition, or conditions coordinated with «и», is no further ask
    assert build_question("Какой штраф, если сдать отчёт позже?", TODAY).parts == []
    assert build_question("Какой штраф, если не сдали и если не заплатили?", TODAY).parts == []


def test_a_question_word_that_ends_its_clause_asks_the_noun_before_it() -> None:
    """«ОГРН у поставщика какой?»: the noun the clause starts with, not a name or a
    preposition's object."""
    heads = [a.head for a in build_question("ОГРН у ООО «Кедр» какой?").attributes]
    assert heads == ["огрн"]
    heads = [a.head for a in build_question("а у Петровой оклад какой?").attributes]
    assert heads == ["оклад"]
    heads = [a.head for a in build_question("по договору займа ставка какая?").attributes]
    assert heads == ["ставка"]


@pytest.mark.parametrize(
    ("text", "taxes"),
    [
        ("Когда подают 3-НДФЛ за проданную машину?", ["pit"]),
        ("Какая ответственность за ошибку в 2-НДФЛ?", ["pit"]),
        ("Сдаём НДС-декларацию с опозданием — что будет?", ["vat"]),
        ("Сколько стоит ИП-регистрация?", []),
    ],
)
def test_a_form_named_after_a_tax_names_the_tax(text: str, taxes: list[str]) -> None:
    assert build_question(text, TODAY).taxes == taxes
