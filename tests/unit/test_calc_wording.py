"""Question understanding over accountants' wording: abbreviations and other verbs for the
same event (the lexicon, on lemmas), qualifiers and events the question denies, a cited
article alone."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.language.dates import days_in
from finagent.language.text import analyse
from finagent.legal.calc_text import read_question
from finagent.routing.calc_rules import is_calc_question
from tests.unit.calc_reading import deadline, penalty, row_ids

_ids = row_ids


def _denied(text: str) -> set[str]:
    """The lemmas the question denies (as the lexicon reads them)."""
    return {w.lemma for w in read_question(text).words if w.negated}


def _read(text: str) -> list[str]:
    """The lemmas not denied."""
    return [w.lemma for w in read_question(text).words if w.content and not w.negated]


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # abbreviations and slang for the audits and their steps
        ("Акт ВНП вручен 12.03.2025. До какого числа можно возразить?", "objections_100"),
        ("КНП декларации по НДС началась 21.04.2025. Когда последний день?", "desk_audit_vat_88"),
        ("Камералку по прибыли начали 28.03.2025. Когда она закончится?", "desk_audit_88"),
        ("Решение о назначении ВНП от 03.06.2025. Когда истекает срок проверки?", "field_audit_89"),
        ("Апелляцию на решение, полученное 01.12.2025, до какого числа подать?", "appeal_139_1"),
        # other verbs for receiving the document
        ("Требование пояснений пришло 02.06.2025. Когда срок представления?", "explanations_88"),
        ("Акт проверки нам отдали 12.03.2025. Крайний срок для возражений?", "objections_100"),
        ("Инспекция прислала требование о пояснениях 02.06.2025. Когда срок?", "explanations_88"),
        # a qualifier the question rules out does not select its special row
        (
            "Требование о представлении документов получено 24.04.2025, мы не КГН и не "
            "иностранная организация. Последний день?",
            "documents_93",
        ),
        (
            "Уточненку по налогу на прибыль сдали 30.11.2025. До какой даты камеральная "
            "проверка (не НДС)?",
            "desk_audit_88",
        ),
        # an event the question says did not happen does not select its row
        (
            "Акт выездной проверки получен 12.03.2025, дополнительные мероприятия не "
            "проводились. До какого числа возражения?",
            "objections_100",
        ),
        (
            "Решение по проверке вручено 02.06.2025, жалобу подавать не будем... "
            "Когда решение вступит в силу, если жалобу мы не подаем?",
            "decision_in_force_101",
        ),
        # п. 1 ст. 93.1 (another person's audit) against п. 2 (a deal, no audit)
        (
            "Инспекция проверяет нашего поставщика, требование о документах получили "
            "10.04.2025. До какого числа ответить?",
            "documents_93_1_audit",
        ),
        (
            "Пришло требование о представлении информации о конкретной сделке с проверяемым "
            "лицом, получено 05.03.2025. Последний день?",
            "documents_93_1_audit",
        ),
        (
            "Встречка: требование о документах по сделке получено 31.01.2025. Срок исполнения?",
            "documents_93_1_audit",
        ),
        (
            "Вне рамок проверки запросили документы по конкретной сделке, требование "
            "получено 05.03.2025. До какого числа?",
            "documents_93_1_deal",
        ),
        # the справка was handed over; the question is about the act
        (
            "Справку о проведенной выездной проверке вручили, она от 30.10.2025. Крайний "
            "срок составления акта?",
            "act_field_100",
        ),
    ],
)
def test_accountants_wording_finds_the_governing_row(question: str, row: str) -> None:
    assert _ids(question) == [row]
    assert is_calc_question(question)


def test_negated_qualifier_is_dropped_but_the_rest_is_kept() -> None:
    read = _read("Организация (не КГН, не иностранная) получила требование")
    assert "консолидированный" not in read and "иностранный" not in read
    assert "организация" in read and "требование" in read
    # «не ИП» is a person: it selects the collection rows for individuals
    assert "физлицо" in _read("гражданин не ИП")


def test_a_cited_article_alone_gives_its_periods_as_variants() -> None:
    assert sorted(_ids("Требование по ст. 93.1 НК РФ получено 24.12.2025. Последний день?")) == [
        "documents_93_1_audit",
        "documents_93_1_deal",
    ]


@pytest.mark.parametrize(
    "question",
    [
        "По ст. 999 НК РФ что-то получено 24.12.2025. Последний день?",
        # a hyphenated article is its own article, not ст. 93.1
        "Требование по ст. 93.1-1 НК РФ получено 24.12.2025. Последний день?",
    ],
)
def test_a_cited_article_without_rows_matches_nothing(question: str) -> None:
    assert _ids(question) == []


@pytest.mark.parametrize(
    "question",
    [
        "Требование о пояснениях получено 03.02.2025. Срок ответа?",
        "Акт проверки получен 03.02.2025. Срок подачи возражений?",
        "Налоговое уведомление получено 05.11.2025. Когда срок уплаты?",
        # «каким днём истекает», «к какой дате», past tense «когда истек»
        "Решение о самостоятельной выездной проверке филиала вынесено 08.05.2024. "
        "Каким днём истекает срок этой проверки?",
        "Решение о взыскании с нашего ИП вынесено во вторник, 06.05.2025. К какой дате "
        "налоговая обязана довести его до ИП?",
        "Акт в порядке ст. 101.4 выявленного 17 декабря 2024 г. нарушения составлен "
        "10.01.2025. Когда истек срок составления акта?",
    ],
)
def test_terse_asks_are_calc_questions(question: str) -> None:
    assert is_calc_question(question)


def test_a_question_without_a_question_mark_is_not_a_terse_ask() -> None:
    assert not is_calc_question("Требование о пояснениях получено 03.02.2025. Срок ответа")


@pytest.mark.parametrize(
    ("question", "event"),
    [
        # rows without their own `event_cue` take one from the kind of their event
        (
            "Требование от 01.04.2025 о документах по проверке нашего поставщика "
            "получили 07.04.2025. До какого числа ответить?",
            date(2025, 4, 7),
        ),
        (
            "Налоговое уведомление от 01.10.2025 получено 20.10.2025. До какого числа уплатить?",
            date(2025, 10, 20),
        ),
        (
            "Справку о проведенной выездной проверке, датированную 30.10.2025, вручили "
            "05.11.2025. До какого числа составят акт?",
            date(2025, 10, 30),
        ),
        # a cue after a clause break belongs to the next date
        (
            "Требование о представлении документов датировано 19.12.2024, а вручено директору "
            "под расписку 20 декабря 2024 г. Когда последний день представить документы?",
            date(2024, 12, 20),
        ),
        (
            "Приказ о создании ОП подписан 27.01.2025, а рабочие места оборудованы, т.е. ОП "
            "создано, 31.01.2025. До какого числа сообщить о создании подразделения?",
            date(2025, 1, 31),
        ),
        # the updated declaration the question names; a demand's «срок исполнения»
        (
            "Первичную декларацию по УСН сдали 28 марта 2024 г., а уточненную — 29.11.2024. "
            "До какого числа может идти камеральная проверка уточненки?",
            date(2024, 11, 29),
        ),
        # a bracketed aside between the date and its cue; a day as an ordinal word
        (
            "Декларацию сдали 20.01.2025. 14 февраля 2025 г. (пятница, вечер) получили "
            "требование о пояснениях. До какого числа ответить?",
            date(2025, 2, 14),
        ),
        (
            "Расчет сдали 25 апреля 2025 года, а требование пояснить ошибки получили "
            "двадцать первого мая 2025 года. Какой последний день для пояснений?",
            date(2025, 5, 21),
        ),
        # «получается» (it comes out as) is not «получили»
        (
            "Акт вручили нам 04.12.2024. Месяц на возражения, получается 4 января, это "
            "выходной. Когда последний день подать возражения?",
            date(2024, 12, 4),
        ),
        # the updated declaration told far from its date, the first one in its own clause
        (
            "Уточненную декларацию по налогу на прибыль за 2024 год (с доплатой налога) мы "
            "направили через оператора 14.05.2025; первичную подавали 20.03.2025. Когда "
            "закончится камеральная проверка уточненки?",
            date(2025, 5, 14),
        ),
        # a branch is closed from the day of the decision, not of the registry entry
        (
            "Решение учредителей о ликвидации представительства в Самаре принято 03.03.2025; "
            "представительство фактически закрыто 30.04.2025. До какого дня сообщить в "
            "инспекцию о его закрытии?",
            date(2025, 3, 3),
        ),
        (
            "Требование об уплате задолженности направлено организации 05.03.2025, срок "
            "исполнения в нем — по 31.03.2025. До какой даты ИФНС вправе принять решение о "
            "взыскании?",
            date(2025, 3, 31),
        ),
        (
            "Гражданину (не ИП) 15.10.2024 направили требование об уплате задолженности со "
            "сроком исполнения 8 ноября 2024 г. До какого дня инспекция должна принять "
            "решение о взыскании?",
            date(2024, 11, 8),
        ),
    ],
)
def test_the_event_date_is_the_one_next_to_the_rows_event_words(question: str, event: date) -> None:
    query = deadline(question)
    assert query is not None and query.event_date == event


def test_event_words_follow_the_event_kind() -> None:
    from finagent.legal.period_cues import event_words

    assert ("получить",) in event_words("explanations_88")  # «день получения требования»
    assert ("создать",) in event_words("division_created_23")


def test_penalty_delay_given_as_through_n_days() -> None:
    query = penalty(
        "Организация 28.07.2025 должна была уплатить 1 000 000 руб., а уплатила через 60 "
        "дней. Пени?"
    )
    assert query is not None
    assert (query.due_date, query.paid_date) == (date(2025, 7, 28), date(2025, 9, 26))


def test_penalty_overdue_range_with_one_month_name() -> None:
    question = "Пени на 100 тыс. руб. за период с 1 по 31 июля 2025 для организации?"
    query = penalty(question)
    assert query is not None
    assert (query.due_date, query.paid_date) == (date(2025, 6, 30), date(2025, 7, 31))
    assert query.payer == "organization"
    assert is_calc_question(question)


def test_a_day_range_date_takes_the_month_of_the_second_day() -> None:
    days = [
        (d.year, d.month, d.day) for d in days_in(analyse("просрочка с 3 по 20 марта 2025 года"))
    ]
    assert days == [(2025, 3, 3), (2025, 3, 20)]


def test_participant_of_an_ooo_is_declined() -> None:
    assert _ids("Стали участником ООО 03.03.2025. До какого числа сообщить?") == [
        "participation_llc"
    ]
    assert deadline("Стали участником ООО 03.03.2025. До какого числа сообщить?") is None


def test_asking_for_more_time_is_the_notice_of_impossibility() -> None:
    question = (
        "Требование о документах получили 05.03.2025, хотим попросить продлить срок. До "
        "какого числа подать уведомление?"
    )
    assert _ids(question) == ["documents_93_notice"]


def test_a_tax_notice_that_states_its_own_due_date_is_not_guessed() -> None:
    stated = (
        "Налоговое уведомление получено 20.11.2025, срок уплаты в нем 01.12.2025. До "
        "какого числа платить?"
    )
    assert deadline(stated) is None
    unstated = (
        "Налоговое уведомление получено 31.08.2025. До какого числа уплатить, если иной "
        "срок в уведомлении не указан?"
    )
    assert _ids(unstated) == ["tax_notice_58"]


def test_a_dated_and_handed_over_decision_is_not_the_delivery_of_an_act() -> None:
    question = (
        "Решение о проведении выездной проверки датировано 01.04.2025, вручено нам "
        "03.04.2025. Когда истекает срок проверки?"
    )
    assert _ids(question) == ["field_audit_89"]
    query = deadline(question)
    assert query is not None and query.event_date == date(2025, 4, 1)


def test_act_is_a_word_not_a_part_of_another() -> None:
    # «фактически» and «актуальный» hold «акт» but name no act of an audit
    question = (
        "Решение о проведении выездной проверки фактически вынесено 01.04.2025 (актуальная "
        "редакция). Когда она должна закончиться?"
    )
    assert _ids(question) == ["field_audit_89"]


def test_a_field_audit_neither_suspended_nor_extended_gets_the_plain_period() -> None:
    question = (
        "Решение о проведении выездной проверки вынесено 01.04.2025, проверка не "
        "приостанавливалась и не продлевалась. Когда последний день?"
    )
    query = deadline(question)
    assert query is not None and (query.period, query.unit) == (2, "months")
    assert is_calc_question(question)
    # a suspended one is not computed: the question does not say for how long
    assert (
        deadline("Выездная проверка назначена 01.04.2025, ее приостанавливали. Когда закончится?")
        is None
    )


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "Назначена выездная проверка филиала 01.04.2025. Когда истекает срок?",
            "field_audit_branch_89",
        ),
        (
            "Решение о проведении выездной проверки в отношении организации с филиалами "
            "вынесено 01.04.2025. Когда закончится?",
            "field_audit_89",
        ),
        (
            "Выездная проверка компании, у которой есть филиал, назначена 01.04.2025. Когда "
            "закончится?",
            "field_audit_89",
        ),
    ],
)
def test_a_branchs_own_audit_against_an_audit_of_a_company_with_branches(
    question: str, row: str
) -> None:
    assert _ids(question) == [row]


@pytest.mark.parametrize(
    ("who", "payer"),
    [
        ("Адвокат", "individual"),
        ("Нотариус", "individual"),
        ("Глава КФХ", "individual"),
        ("ТСЖ", "organization"),
    ],
)
def test_payer_words(who: str, payer: str) -> None:
    query = penalty(
        f"{who} не уплатил 40 000 руб. в срок 28.04.2025, уплатил 30.06.2025. Сколько пени?"
    )
    assert query is not None and query.payer_given and query.payer == payer


@pytest.mark.parametrize(
    "question",
    [
        "Требование по пункту 1 статьи 93.1 получено 24.12.2025. Последний день?",
        "Требование по п.1 ст.93.1 получено 24.12.2025. Последний день?",
    ],
)
def test_cited_point_in_words_or_without_spaces(question: str) -> None:
    assert _ids(question) == ["documents_93_1_audit"]


@pytest.mark.parametrize(
    "text",
    [
        "Решения о продлении не было.",
        "Продлений и приостановлений не было.",
        "Продления не было.",
        "Решения о продлении проверки инспекция не принимала.",
        "Продлевать проверку инспекция не стала.",
        "Инспекция не стала ее продлевать.",
        "Уведомлений о невозможности представить документы в срок не подавали.",
        "О продлении КНП ничего не приходило.",
        "Если продлевать не будет.",
        "Не будут продлевать.",
        "Продления камеральной проверки не было.",
    ],
)
def test_a_denied_event_is_dropped(text: str) -> None:
    """An extension, suspension or notice the question says did not happen selects no row."""
    read = _read(text)
    assert not {"продлить", "приостановить", "невозможность"} & set(read), read


def test_lasts_is_not_extended_and_without_court_is_not_court() -> None:
    assert "продлить" not in _read("До какой даты продлится камеральная проверка?")
    assert "суд" not in _read("решение о взыскании (без суда)")
    assert "консолидированный" not in _read("Проверка не в отношении КГН")
    # a denied extension keeps the audit it would have extended
    assert "проверка" in _read("Продления камеральной проверки не было.")


def test_a_threshold_is_not_the_debt() -> None:
    query = penalty(
        "ИП на УСН, взносы 1 % с доходов свыше 300 тыс. — 85 тыс. руб., срок уплаты "
        "01.07.2024, заплатил 20.09.2024. Какая сумма пеней?"
    )
    assert query is not None and query.amount == 85000


def test_sent_is_received_except_by_registered_mail() -> None:
    """«прислали» is receipt by ТКС or in person; sent by registered mail it is not: the
    period runs from the sixth working day after the sending (п. 4 ст. 31); sent without
    saying how, the day of receipt is asked back."""
    from finagent.answering.calc import clarification
    from finagent.legal.calc_extract import extract_calc_request
    from tests.unit.calc_reading import TODAY, deadline

    assert "получить" in _read("Инспекция прислала акт 10.03.2025")
    posted = deadline(
        "Акт прислали заказным письмом 10.03.2025. До какого числа подать возражения?"
    )
    assert posted is not None and posted.event_date == date(2025, 3, 18)
    req = extract_calc_request(
        "Акт нам направили 10.03.2025. До какого числа подать возражения?", TODAY
    )
    asked = clarification(req)
    assert req.decline == "sent_not_received" and asked is not None and "получен" in asked


def test_an_extension_in_months_does_not_lengthen_a_period_in_days() -> None:
    query = deadline(
        "Подал 20.05.2024 заявление на вычет в упрощённом порядке; инспекция продлила проверку "
        "до трех месяцев — решение о продлении принято 10.06.2024. До какого числа это решение "
        "должны направить мне через личный кабинет?"
    )
    assert query is not None and (query.period, query.unit) == (3, "working_days")
    assert query.event_date == date(2024, 6, 10)


@pytest.mark.parametrize(
    ("question", "row_id"),
    [
        (
            "Решение по камеральной проверке вынесено 29.04.2025, а вручили его нам только "
            "14 мая. Какой был последний день для вручения решения?",
            "decision_delivery_101",
        ),
        (
            "Сообщение о создании ОП инспекция получила 19.02.2025. До какого дня налоговая "
            "обязана поставить нас на учёт по месту нахождения ОП?",
            "registration_division_84",
        ),
        (
            "Мы налоговый агент по налогу на прибыль; удержать налог невозможно, об этом стало "
            "известно 3 октября 2025 г. До какого дня сообщить в инспекцию о невозможности "
            "удержать налог?",
            "agent_cannot_withhold_24",
        ),
        (
            "Подала 3-НДФЛ на вычет за лечение 29 ноября 2024 г. До какого числа максимум "
            "должна закончиться проверка?",
            "desk_audit_88",
        ),
        (
            "Инспекция 31 октября 2025 года вынесла решение о дополнительных мероприятиях "
            "налогового контроля. На какой максимальный срок они могут это растянуть? Мы "
            "обычное ООО, не группа.",
            "additional_measures_101",
        ),
        (
            "Налоговая вынесла решение о взыскании долга со счетов моего ИП 6 июня 2025 г. В "
            "какой срок они должны были довести его до меня через ТКС?",
            "collection_notice_46",
        ),
        (
            "Я обычный человек, не ИП. Было требование об уплате налога со сроком исполнения "
            "до 13 декабря 2024 г. До какого дня налоговая может принять и направить мне "
            "решение о взыскании?",
            "individual_decision_48",
        ),
        (
            "Получил налоговое уведомление 8 октября 2025 года (перерасчёта не было). По общему "
            "правилу статьи 58 НК — месяц на уплату. Какой последний день?",
            "tax_notice_58",
        ),
        (
            "Инспектор 22 апреля 2025 г. обнаружил у меня нарушение — не в ходе камеральной или "
            "выездной проверки. До какого числа он должен составить акт?",
            "act_101_4",
        ),
        (
            "Справка о проведенной выездной проверке составлена 31 марта 2025 г. и вручена "
            "представителю 2 апреля 2025 г. Акт подписан 3 июня 2025 г. Какой последний день "
            "срока, отведенного инспекции на составление акта?",
            "act_field_100",
        ),
        (
            "Решение о продлении срока камеральной проверки по НДС принято 29 апреля 2025 г., а "
            "в личном кабинете появилось только 12.05.2025. Какой последний день был у "
            "инспекции для направления этого решения?",
            "desk_audit_extension_notice_88",
        ),
        (
            "Долг по ЕНС 18 тыс. руб.; решение о взыскании размещено в реестре 17.03.2023. "
            "Когда пройдут три года, после которых считаются десять месяцев на постановление?",
            "property_small_debt_47",
        ),
        (
            "Срок исполнения требования истек 10.01.2025; решение о взыскании (сальдо ЕНС — "
            "1,4 млн руб.) размещено в реестре 31 января 2025 г. До какой даты инспекция "
            "вправе направить приставу постановление о взыскании за счет имущества?",
            "property_resolution_47",
        ),
        (
            "3 июня 2025 г. инспектор вне рамок налоговой проверки выявил, что мы с опозданием "
            "сообщили о создании обособленного подразделения. До какого дня составить акт?",
            "act_101_4",
        ),
    ],
)
def test_the_asked_step_and_whose_deadline_decide_the_row(question: str, row_id: str) -> None:
    """Among dated steps and parties, the row is the step the question asks about."""
    assert _ids(question) == [row_id]
    assert is_calc_question(question)


def test_a_limited_liability_company_is_an_organization() -> None:
    query = penalty(
        "Оплата 20.02.2025, сумма 1 800 000 ₽, срок уплаты 20.12.2024. Плательщик — общество "
        "с ограниченной ответственностью. Пени?"
    )
    assert query is not None and query.payer == "organization" and query.payer_given


@pytest.mark.parametrize(
    ("question", "payer"),
    [
        ("ИП, налог 185 000 руб., срок 28.04.2025, заплатил 31.10.2025. Пени? Я ИП, не "
         "организация.", "individual"),
        ("Бабушка не заплатила 9 870 рублей, срок 02.12.2024, уплачено 20.01.2025. Она не ИП. "
         "Какие пени?", "individual"),
        ("организация, задолженность 960 000 р со сроком уплаты 05.06.2025, погашена "
         "20.06.2025, нужны пени", "organization"),
    ],
)  # fmt: skip
def test_a_payer_the_question_rules_out_is_not_the_payer(question: str, payer: str) -> None:
    assert is_calc_question(question)
    query = penalty(question)
    assert query is not None and query.payer == payer and query.payer_given


@pytest.mark.parametrize(
    "question",
    [
        "Акт об обнаружении фактов налогового правонарушения получили 31.10.25. возражения до?",
        "Сообщение, что в перерасчёте отказано, налоговая сформировала 15 апреля 2025 года. До "
        "какого числа подать жалобу?",
        "Мама получила налоговое уведомление 30.10.2024 — не перерасчёт, обычное уведомление. "
        "До какого числа заплатить?",
        "Иностранная компания вела деятельность через обособленное подразделение, которое не "
        "является аккредитованным филиалом или представительством, и прекратила ее 29 мая "
        "2025 г. До какой даты подать заявление о снятии с учёта?",
    ],
)
def test_terse_and_negated_wordings_are_computed(question: str) -> None:
    assert is_calc_question(question)
    query = deadline(question)
    assert query is not None and query.row_id is not None and not query.variants


def test_dev9_wordings() -> None:
    dated = penalty(
        "Продала квартиру, НДФЛ к уплате 1,05 млн рублей, срок уплаты 15 июля 2025 года, а "
        "оплатила 1 октября сего года (2025). Какие будут пени?"
    )
    assert dated is not None and dated.paid_date == date(2025, 10, 1)
    assert dated.payer == "individual" and dated.payer_given
    rest = penalty(
        "ООО должно было уплатить 320 000 руб. до 28.04.2025. В срок внесли только 120 000 "
        "руб., оставшиеся 200 000 руб. перечислили 19.05.2025. Посчитайте пени."
    )
    assert rest is not None and rest.amount == 200000
    assert is_calc_question(
        "Пени организации: сумма недоимки 615 000 руб., срок уплаты 28.07.2023, погашено "
        "10.11.2023."
    )


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("получили восьмого апреля 2025 года", date(2025, 4, 8)),
        ("Двадцать девятого октября 2025 г. пришло", date(2025, 10, 29)),
        ("тридцать первого марта 2025", date(2025, 3, 31)),
        ("третье марта 2025 г.", date(2025, 3, 3)),
        ("8-е апреля 2025", date(2025, 4, 8)),
    ],
)
def test_a_day_written_as_an_ordinal_word(text: str, day: date) -> None:
    found = days_in(analyse(text))
    assert [date(d.year or 0, d.month, d.day) for d in found] == [day]
