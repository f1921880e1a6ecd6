"""Classes of calc questions fixed after blind hold-out v8 (stop 33): a year taken from the
reporting period, a denied narrower document, other branches of law, a payment date told
far from its verb, a dated receipt of an unnamed document, a document sent by registered
mail, an ООО told apart from the share, a foreign party acting here, a filing dated
instead of its receipt. Every question is invented for the test."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.deadline_reading import posted_receipts
from finagent.legal.deadlines import compute_deadline
from finagent.legal.law_scope import OTHER_LAW
from finagent.routing.calc_rules import calc_decision
from tests.unit.calc_reading import TODAY, deadline, row_ids


@pytest.mark.parametrize(
    ("question", "event"),
    [
        (
            "Требование о пояснениях по декларации по НДС за 3 квартал 2024 получили "
            "5 февраля. До какого числа ответить?",
            date(2025, 2, 5),
        ),
        (
            "Декларацию по налогу на имущество за 2023 год подали 15 марта. Когда "
            "закончится камеральная проверка?",
            date(2024, 3, 15),
        ),
        (
            "Расчет за 9 месяцев 2024 года сдали 20 октября. Когда закончится камеральная "
            "проверка?",
            date(2024, 10, 20),
        ),
        (
            "Решение о выездной проверке за 2021-2023 годы вынесли 15 мая. Когда проверка "
            "должна закончиться?",
            date(2024, 5, 15),
        ),
    ],
)
def test_a_missing_year_comes_from_the_reporting_period(question: str, event: date) -> None:
    """The first such day after the end of the period the question names, stated."""
    read = deadline(question)
    assert read is not None and read.event_date == event
    assert "по отчетному периоду" in read.assumptions[0]


def test_a_year_named_alone_and_other_dates_still_decide() -> None:
    alone = deadline("В 2024 году акт выездной проверки вручили 10 июня. Когда подать возражения?")
    assert alone is not None and alone.event_date == date(2024, 6, 10)
    assert "по году, названному в вопросе" in alone.assumptions[0]
    dated = deadline(
        "Декларацию за 2023 год подали 20.02.2025, требование о пояснениях получили 3 марта. "
        "До какого числа ответить на требование?"
    )
    assert dated is not None and dated.event_date == date(2025, 3, 3)


def test_denying_an_updated_declaration_does_not_deny_the_declaration() -> None:
    read = deadline(
        "Декларацию по налогу на прибыль за 2024 год представили 25.03.2025. Уточненную "
        "декларацию не подавали. Когда закончится камеральная проверка?"
    )
    assert read is not None and read.row_id == "desk_audit_88"
    assert read.event_date == date(2025, 3, 25)


@pytest.mark.parametrize(
    "question",
    [
        # a court's own act appealed to a higher court (АПК)
        "Районный суд отказал нам в иске по налоговому спору, решение изготовлено "
        "12 августа 2025. До какого дня подать апелляционную жалобу?",
        # contributions for injuries at work (125-ФЗ), though «взносы» is a tax word
        "Заплатили взносы на травматизм за май 2025 на 15 дней позже, 52 000 руб. Посчитайте пени.",
        "Взносы от НС и ПЗ за май 20 000 руб. уплатили на 10 дней позже срока. Пени по НК?",
        "Взносы на капитальный ремонт 12 000 руб. оплатили на 30 дней позже. Сколько пеней?",
        # another code cited by its article
        "Поставщик задержал оплату на 30 дней, долг 200 000 руб. Сколько процентов по ст. 395 ГК?",
    ],
)
def test_other_branches_of_law_are_declined(question: str) -> None:
    assert extract_calc_request(question, TODAY).decline == OTHER_LAW


def test_an_appeal_to_the_higher_tax_authority_is_not_another_law() -> None:
    req = extract_calc_request(
        "Решение по выездной проверке вручили 3 марта 2025 года. До какого числа подать "
        "апелляционную жалобу в вышестоящий налоговый орган?",
        TODAY,
    )
    assert req.decline != OTHER_LAW


def test_a_payment_date_told_far_from_its_verb() -> None:
    """«перечислил НДФЛ ... с опозданием, 20 августа»: the day of the payment, so the due
    date and the arrears are asked, not the payment."""
    req = extract_calc_request(
        "Посчитайте пени: ИП перечислил НДФЛ за 2024 год с опозданием, 20 августа 2025.", TODAY
    )
    assert [d.day for d in req.dated("payment")] == [date(2025, 8, 20)]
    assert {"amount", "due_date"} <= set(req.missing)
    assert "payment_date" not in req.missing


def test_a_dated_receipt_of_an_unnamed_document_is_claimed_and_asked_back() -> None:
    question = "Из налоговой пришло письмо по ТКС 5 марта 2025, в какой срок надо ответить?"
    assert calc_decision(question) is not None
    assert extract_calc_request(question, TODAY).missing == ["procedure"]


@pytest.mark.parametrize(
    "question",
    [
        "Получили от покупателя аванс 5 марта 2025, в какой срок выставить счет-фактуру?",
        "Получили зарплату 5 марта 2025, до какого числа нужно перечислить НДФЛ?",
    ],
)
def test_a_receipt_not_from_the_inspection_stays_with_the_knowledge_base(question: str) -> None:
    assert calc_decision(question) is None


def test_a_posted_act_counts_from_the_sixth_day_when_every_reading_agrees() -> None:
    """п. 5 ст. 100: the act sent by registered mail counts as received on the sixth day;
    sent on Thu 03.04.2025 every reading of «шестой день» ends the month on 12.05.2025."""
    sent = date(2025, 4, 3)
    ends = {compute_deadline(r, 1, "months").end_date for r in posted_receipts(sent)}
    assert ends == {date(2025, 5, 12)}
    read = deadline(
        "Директор уклонился от получения акта выездной проверки, и инспекция 3 апреля "
        "2025 года отправила акт заказным письмом. До какого числа подать возражения?"
    )
    assert read is not None and read.row_id == "objections_100"
    assert read.event_date == posted_receipts(sent)[0] == date(2025, 4, 11)
    assert "шестой рабочий день" in read.assumptions[0] and "п. 5 ст. 100" in read.assumptions[0]


def test_a_posted_act_counts_from_the_sixth_working_day_when_the_readings_differ() -> None:
    """Sent on Fri 14.03.2025: the calendar readings of «шестой день» would end on
    21.04.2025; the sixth working day (п. 6 ст. 6.1, п. 4 ст. 31) is 24.03.2025 and the
    month ends on 24.04.2025, with the rule named in the assumption line."""
    ends = {compute_deadline(r, 1, "months").end_date for r in posted_receipts(date(2025, 3, 14))}
    assert len(ends) > 1
    read = deadline(
        "Акт выездной проверки инспекция направила заказным письмом 14 марта 2025 года, "
        "директор от получения уклонился. До какого числа представить возражения?"
    )
    assert read is not None and read.row_id == "objections_100"
    assert read.event_date == date(2025, 3, 24)
    line = read.assumptions[0]
    assert "шестой рабочий день" in line and "п. 5 ст. 100" in line and "п. 4 ст. 31" in line
    assert compute_deadline(date(2025, 3, 24), 1, "months").end_date == date(2025, 4, 24)


@pytest.mark.parametrize(
    ("question", "row", "receipt"),
    [
        # ст. 93 says nothing of the post: the general rule of п. 4 ст. 31 (Wed -> Wed)
        (
            "Почтой России заказным письмом инспекция выслала нам требование о "
            "представлении документов 2 июля 2025 года. В какой срок нужно их подать?",
            "documents_93",
            date(2025, 7, 10),
        ),
        # п. 4 ст. 52 words it «по истечении шести дней»: read as the sixth working day
        (
            "Уведомление на уплату налога ИП отправили по почте заказным 5 сентября 2025 г. "
            "Когда крайний срок оплаты по нему?",
            "tax_notice_58",
            date(2025, 9, 15),
        ),
    ],
)
def test_a_posted_document_counts_from_the_sixth_working_day(
    question: str, row: str, receipt: date
) -> None:
    read = deadline(question)
    assert read is not None and read.row_id == row and read.event_date == receipt
    assert "п. 4 ст. 31" in read.assumptions[0]
    assert "в используемом тексте Кодекса отсутствует" in read.assumptions[0]


def test_posted_said_as_zakaznym_or_po_pochte() -> None:
    """«заказным» without «письмом» is registered mail; «по почте» alone is taken as it,
    and the assumption says so (Thu 03.04.2025 -> Fri 11.04.2025)."""
    short = deadline(
        "Акт выездной проверки инспекция отправила заказным 3 апреля 2025 года. До какого "
        "числа подать возражения?"
    )
    assert short is not None and short.event_date == date(2025, 4, 11)
    assert "«по почте»" not in short.assumptions[0]
    post = deadline(
        "Акт выездной проверки инспекция отправила нам по почте 3 апреля 2025 года. До "
        "какого числа подать возражения?"
    )
    assert post is not None and post.event_date == date(2025, 4, 11)
    assert "принято, что заказным" in post.assumptions[0]


def test_the_day_a_posted_document_counts_as_received_is_the_sixth_working_day() -> None:
    """«Когда он считается полученным?» asks the mail rule itself: six working days from
    the sending (Mon 10.03.2025 -> Tue 18.03.2025), the rule named."""
    read = deadline(
        "Акт направили заказным письмом 10 марта 2025 года. Когда он считается полученным?"
    )
    assert read is not None and read.row_id is None
    assert (read.event_date, read.period, read.unit) == (date(2025, 3, 10), 6, "working_days")
    assert compute_deadline(date(2025, 3, 10), 6, "working_days").end_date == date(2025, 3, 18)
    assert any("п. 4 ст. 31" in a for a in read.assumptions)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "Решение о привлечении к ответственности по итогам камеральной проверки "
            "инспекция отправила заказным письмом 1 сентября 2025 г. Когда оно вступит в силу?",
            "decision_in_force_101",
        ),
        (
            "Решение по выездной проверке нам выслали заказным 1 сентября 2025 г. До какого "
            "числа можно подать апелляционную жалобу?",
            "appeal_139_1",
        ),
    ],
)
def test_a_posted_decision_is_handed_over_on_the_sixth_working_day(question: str, row: str) -> None:
    """п. 9 ст. 101: a decision sent by registered mail counts as handed over on the sixth
    day (Mon 01.09.2025 -> Tue 09.09.2025); the audit named in the story is not asked."""
    read = deadline(question)
    assert read is not None and read.row_id == row and read.event_date == date(2025, 9, 9)


def test_a_period_from_a_posted_document_with_no_row_is_asked_back() -> None:
    """No row dates the posted document's period: the receipt rule alone would answer
    another question (the day of receipt, not the period to reply)."""
    req = extract_calc_request(
        "Запрос инспекции по ст. 93.1 (о сделке, вне рамок проверки) отправили нам заказным "
        "письмом 3 февраля 2025 года. До какого дня ответить?",
        TODAY,
    )
    assert req.decline == "registered_mail"


def test_a_later_pickup_does_not_move_the_day_of_receipt() -> None:
    """Sent Thu 24.04.2025: the sixth working day is Tue 06.05.2025 (1-4 May off); a
    pickup on 20 May does not extend the period, and both days are named."""
    read = deadline(
        "Акт выездной проверки инспекция отправила заказным письмом 24 апреля 2025 года, а "
        "получили мы его на почте только 20 мая. До какого числа возражения?"
    )
    assert read is not None and read.event_date == date(2025, 5, 6)
    assert any("20.05.2025 позже" in a for a in read.assumptions)
    fetched = deadline(
        "Акт выездной проверки инспекция отправила заказным письмом 24 апреля 2025 года, а "
        "забрали мы его на почте только 20 мая. До какого числа возражения?"
    )
    assert fetched is not None and fetched.event_date == date(2025, 5, 6)


def test_an_earlier_actual_receipt_counts_and_the_law_s_day_is_named() -> None:
    read = deadline(
        "Акт выездной проверки инспекция отправила заказным письмом 24 апреля 2025 года, а "
        "получили мы его на почте 30 апреля. До какого числа возражения?"
    )
    assert read is not None and read.event_date == date(2025, 4, 30)
    assert any("06.05.2025" in a and "06.06.2025" in a for a in read.assumptions)


def test_a_sending_without_the_way_is_still_asked_back() -> None:
    """«направила» alone says neither registered mail nor ТКС: the receipt is asked."""
    req = extract_calc_request(
        "Дополнение к акту нам направили 11 ноября 2025 г. До какого дня можно возразить?",
        TODAY,
    )
    assert req.decline == "sent_not_received"


def test_a_share_in_a_company_called_an_ooo_elsewhere_is_excluded() -> None:
    assert row_ids(
        "Купили долю 40 % 10.02.2025. Компания — ООО «Вектор». Когда сообщить в налоговую "
        "об участии?"
    ) == ["participation_llc"]
    own = deadline(
        "Наше ООО 10.02.2025 стало акционером АО «Вектор» с долей 40 %. Когда сообщить в "
        "налоговую об участии?"
    )
    assert own is not None and own.row_id == "participation_23"


def test_a_foreign_party_acting_here_is_read_under_the_code() -> None:
    """Not another country's rules: a foreign organisation's division is registered by
    the rules of ст. 83-84 (declined row), not by подп. 3 п. 2 ст. 23 (Russian
    organisations); its audit's periods are computed."""
    division = (
        "Латвийская компания открыла у нас обособленное подразделение 10 февраля 2025 г. "
        "До какого числа сообщить в налоговую?"
    )
    assert row_ids(division) == ["registration_foreign_84"]
    abroad = extract_calc_request(
        "Латвийская компания открыла в Риге подразделение 10 февраля 2025 г. До какого "
        "числа сообщить в налоговую?",
        TODAY,
    )
    assert abroad.decline is not None and abroad.decline.startswith("jurisdiction:")
    audit = deadline(
        "Латвийской компании, которая работает у нас через филиал, вручили акт выездной "
        "проверки 10 февраля 2025 года. До какого числа подать возражения?"
    )
    assert audit is not None and audit.row_id == "objections_100"


def test_a_filing_dated_instead_of_its_receipt_is_stated() -> None:
    read = deadline(
        "Мы подали уведомление об исчисленных суммах 25.04.2025, оно не прошло контрольные "
        "соотношения. Когда инспекция должна нам сообщить?"
    )
    assert read is not None and read.event_date == date(2025, 4, 25)
    assert any("дана дата его представления" in a for a in read.assumptions)
    other = deadline(
        "Представили пояснения 10.03.2025 по требованию. До какого числа представить документы?"
    )
    assert other is None or not any("дана дата его представления" in a for a in other.assumptions)


def test_the_period_of_the_mail_rule_itself_is_computed_from_the_sending() -> None:
    """«Когда истекают шесть дней, по истечении которых уведомление считается
    полученным?»: the asked period is stated, counted in working days from the sending."""
    read = deadline(
        "Налоговое уведомление сыну отправили заказным письмом 3 апреля 2025 года. Какого "
        "числа истекают шесть дней, после которых оно считается полученным?"
    )
    assert read is not None and read.row_id is None
    assert (read.event_date, read.period, read.unit) == (date(2025, 4, 3), 6, "working_days")
    assert any("от даты отправки" in a for a in read.assumptions)


@pytest.mark.parametrize(
    "question",
    [
        # 289-ФЗ: a customs authority's decision, the act named in the story
        "Таможня вынесла решение о доначислении ввозного НДС 10 марта 2025 года. До какого "
        "числа его можно обжаловать по НК?",
        # КоАП: a ruling imposing an administrative fine
        "Постановление о назначении административного штрафа за несвоевременную сдачу "
        "отчетности вручено 3 апреля 2025. Когда истекает срок на обжалование?",
        # 129-ФЗ: a refusal of state registration
        "Отказ в государственной регистрации изменений устава получили 14.05.2025. До "
        "какого дня можно обжаловать по налоговому кодексу?",
        # 229-ФЗ: a bailiff's ruling
        "Судебный пристав вынес постановление о взыскании исполнительского сбора 5 июня "
        "2025. В какой срок можно его оспорить?",
    ],
)
def test_contesting_an_act_of_another_law_is_declined(question: str) -> None:
    assert extract_calc_request(question, TODAY).decline == OTHER_LAW


@pytest.mark.parametrize(
    "question",
    [
        "НДС при ввозе товаров уплатили на таможне. Решение по камеральной проверке "
        "декларации по НДС нам вручили 10 июня 2025 года. До какого числа его можно обжаловать?",
        "Решение о привлечении к ответственности вручили 3 марта 2025 года; ранее судебный "
        "пристав списал долг. До какого числа обжаловать решение?",
    ],
)
def test_another_law_named_aside_does_not_decline_a_code_appeal(question: str) -> None:
    """The other law's authority is a side remark, not the dated, contested act."""
    read = deadline(question)
    assert read is not None and read.row_id == "appeal_139_1"


def test_contesting_told_in_the_story_leaves_the_asked_code_procedure() -> None:
    """The owner contests the cadastral value (story); the asked complaint about the
    recalculation is the Code's (п. 8 ст. 48)."""
    read = deadline(
        "Собственник дома оспаривает кадастровую стоимость и просил пересчитать налог; "
        "сообщение инспекции об отказе в перерасчете сформировано 2 июня 2025 года. До "
        "какого числа можно подать жалобу на этот отказ?"
    )
    assert read is not None and read.row_id == "complaint_recalculation_48"


def test_a_procedure_of_another_law_asked_under_the_code_is_declined() -> None:
    req = extract_calc_request(
        "Уведомление о новой кадастровой стоимости квартиры пришло 4 марта 2025. До какого "
        "числа по НК РФ можно оспорить кадастровую стоимость?",
        TODAY,
    )
    assert req.decline == OTHER_LAW


def test_a_day_told_of_another_event_does_not_end_an_earlier_period() -> None:
    """A row that runs from the end of an earlier period (the review after the month for
    objections) is not dated by a day the question tells of another event («решение
    вынесено»): the event's date is asked, naming it."""
    req = extract_calc_request(
        "Решение о приостановлении операций по счетам вынесено 12 мая 2025. Когда банк "
        "должен его исполнить?",
        TODAY,
    )
    assert "event_date" in req.missing and req.event_date is None
    chained = deadline("Акт выездной проверки получили 12 мая 2025. Когда вынесут решение?")
    assert chained is not None and chained.request.chain_from == "objections_100"


def test_another_countrys_authority_is_declined_despite_a_russian_angle() -> None:
    req = extract_calc_request(
        "Мы, российское ООО, получили требование от налоговой службы Казахстана 5 марта "
        "2025. До какого числа ответить?",
        TODAY,
    )
    assert req.decline == "jurisdiction:Казахстан"
    ours = deadline(
        "Акт выездной проверки ИФНС России № 5 по г. Москве вручили 5 марта 2025. Когда "
        "подать возражения?"
    )
    assert ours is not None and ours.row_id == "objections_100"


def test_a_due_date_the_document_states_is_not_another_event_to_drop() -> None:
    """«срок в уведомлении 1 декабря»: the notice names its own due date (п. 6 ст. 58 gives
    a month only when it names none), so nothing is computed; before, that day was dropped
    as an excluded event and a month from the receipt was claimed."""
    req = extract_calc_request(
        "Налоговое уведомление на земельный налог получила 14 октября. До какого числа "
        "платить, если срок в уведомлении 1 декабря 2025?",
        TODAY,
    )
    assert req.decline == "tax_notice_own_due_date"


def test_a_day_told_only_of_another_document_is_not_the_rows_event() -> None:
    """«справку вручили 30 мая ... когда вручить акт?»: the delivery of an act runs from
    the act's date, which the question does not give; the day of the справка is not it."""
    req = extract_calc_request(
        "Выездная проверка окончена, справку вручили 16 июня 2025. Акт пока не составлен. "
        "До какого числа инспекция должна вручить акт?",
        TODAY,
    )
    assert "event_date" in req.missing and req.event_date is None
    asked = deadline(
        "Налоговая запросила пояснения по декларации 29.10.2025 в рамках камералки. "
        "Какой последний день ответа?"
    )
    assert asked is not None and asked.event_date == date(2025, 10, 29)
