"""The table of procedural periods: each row against the Tax Code text, its cues, and
which row a question is read as."""

from __future__ import annotations

import json
import os
import re
from datetime import date
from pathlib import Path

import pytest

from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.period_cues import row_cues
from finagent.legal.periods import period_by_id, period_points, procedural_periods
from finagent.retrieval.legal import parse_code
from finagent.routing.calc_rules import calc_decision
from tests.conftest import skip_without_tax_code
from tests.unit.calc_reading import TODAY, deadline, row_ids

REPO = Path(__file__).resolve().parents[2]
# how the Code writes each period's number («в течение пяти дней», «двух месяцев»)
NUMBER_FORMS = {
    1: r"(одного|один|дня, следующего)",
    2: r"(двух|2)",
    3: r"(трех|3)",
    5: r"(пяти|5)",
    6: r"(шести|6)",
    7: r"(семи|7)",
    8: r"(восьми|8)",
    10: r"(десяти|10)",
    12: r"(двенадцати|12)",
    15: r"(пятнадцати|15)",
    20: r"(двадцати|20)",
    30: r"(тридцати|30)",
}
UNIT_FORMS = {
    "days": r"календарн\w+ дн",
    "working_days": r"(дн|дня)",
    "months": r"месяц",
    "years": r"(лет|года)",
}


def _part_one() -> dict[str, str]:
    env = os.environ.get("FINAGENT_TAXCODE_DIR")
    path = (Path(env) if env else REPO.parent / "shared" / "data" / "tax-code") / (
        "nk-part1-2025.txt"
    )
    if not path.exists():
        skip_without_tax_code(f"Tax Code text not found at {path} (set FINAGENT_TAXCODE_DIR)")
    units = parse_code(path.read_text(encoding="utf-8"), "nk", 1)
    return {u.unit_id: u.text.replace("ё", "е") for u in units}


@pytest.mark.taxcode
def test_every_period_is_in_the_text_of_its_unit() -> None:
    """The unit id exists and its text states the row's number and unit of time."""
    text = _part_one()
    for row in procedural_periods():
        if row.decline:
            continue
        if row.absent:
            # an article the text in use lacks: it really is absent (the answer says so)
            assert not any(u.startswith(row.unit_id.split(".p")[0] + ".") for u in text), row.id
            continue
        assert row.unit_id in text, row.id
        number = NUMBER_FORMS[row.period]
        pattern = rf"{number}[^.;]{{0,25}}?{UNIT_FORMS[row.unit]}"
        if row.unit == "months":  # «в двухмесячный срок»
            pattern += rf"|{number}месячн"
        if row.unit == "working_days" and row.period == 1:
            pattern = number  # «в течение дня, следующего за днем получения»
        assert re.search(pattern, text[row.unit_id]), (row.id, pattern)


@pytest.mark.taxcode
def test_the_points_that_state_periods_are_scanned_from_the_text() -> None:
    """data/period_points.yaml lists, for every article of the table, exactly the points
    whose text states a period «в течение …» (a cited one without a row is asked back)."""
    text = _part_one()
    stated = re.compile(
        r"в течение\s+(?:\S+\s+){0,2}?(?:дн|дня|месяц|лет|года)|в\s+\S+месячный срок", re.I
    )
    articles = {
        re.fullmatch(r"nk1\.ch[\d.-]+\.art([\d.-]+?)\.p[\d.]+", r.unit_id)[1]  # type: ignore[index]
        for r in procedural_periods()
        if not r.decline and not r.absent
    }
    scanned: dict[str, set[str]] = {a: set() for a in articles}
    for unit_id, body in text.items():
        m = re.fullmatch(r"nk1\.ch[\d.-]+\.art([\d.-]+?)\.p([\d.]+)", unit_id)
        if m and m[1] in articles and stated.search(body):
            scanned[m[1]].add(m[2])
    assert {a: set(p) for a, p in period_points().items()} == scanned


@pytest.mark.taxcode
def test_every_mail_receipt_rule_is_in_the_text_of_its_unit() -> None:
    """A row computed from a document sent by registered mail cites a unit whose text says
    the document counts as received on the sixth day from its sending; the point it cites
    is that unit's."""
    text = _part_one()
    rows = [row for row in procedural_periods() if row.mail_receipt]
    assert rows
    for row in rows:
        assert row.mail_receipt_unit in text, row.id
        unit = " ".join(text[str(row.mail_receipt_unit)].split())
        assert re.search(r"шест\w+ д(ень|ня|ней)[^.]{0,40}(отправ|направл)", unit), row.id
        # the words the answer quotes are the unit's own
        assert row.mail_receipt_words, row.id
        assert row.mail_receipt_words.strip("«»") in unit, row.id
        m = re.fullmatch(r"nk1\.ch[\d.-]+\.art([\d.-]+?)\.p([\d.]+)", str(row.mail_receipt_unit))
        assert m and f"п. {m[2]} ст. {m[1]}" in str(row.mail_receipt), row.id


def test_every_norm_cites_the_point_of_its_unit_id() -> None:
    """«п. 13 ст. 105.17» in `norm` and nk1.ch14.5.art105.17.p13 name the same point."""
    for row in procedural_periods():
        if row.decline:
            continue
        m = re.fullmatch(r"nk1\.ch[\d.-]+\.art([\d.-]+?)\.p([\d.]+)", row.unit_id)
        assert m, row.id
        points = {(a, p) for p, a in re.findall(r"п\. ([\d.]+) ст\. ([\d.-]+)", row.norm)}
        assert (m[1], m[2]) in points, (row.id, row.norm, row.unit_id)


def test_rows_are_well_formed() -> None:
    rows = procedural_periods()
    assert len({r.id for r in rows}) == len(rows)
    for row in rows:
        if not row.decline:
            assert row.period > 0 and row.unit in UNIT_FORMS and "НК РФ" in row.norm, row.id
            assert row.what and row.event and row.unit_id.startswith("nk1."), row.id
        if row.after:
            assert row.after in period_by_id(), row.id


def test_every_row_has_cues_and_every_reading_a_row() -> None:
    """Facts and cues are apart: every computed row is found by some reading, every reading
    names a row of the table and finds it by words (lemmas), not patterns."""
    readings = row_cues()
    table = period_by_id()
    assert all(r.row in table for r in readings.values())
    read_rows = {r.row for r in readings.values()}
    assert {r.id for r in procedural_periods() if not r.decline} <= read_rows
    for reading in readings.values():
        assert reading.cues or reading.when, reading.id
        for phrase in (*reading.cues, *(p for g in reading.when for p in g)):
            assert phrase and all(re.fullmatch(r"[\w.:\-]+", word) for word in phrase), phrase


def _deadline_items(name: str) -> list[dict[str, object]]:
    path = REPO / "evals" / "datasets" / name
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if r["kind"] == "deadline" and r.get("norm_unit")]


@pytest.mark.parametrize("item", _deadline_items("calc_dev_extra.jsonl"), ids=lambda i: i["id"])
def test_dev_extra_questions_find_their_norm(item: dict[str, object]) -> None:
    q = deadline(str(item["question"]))
    assert q is not None and q.row_id is not None and not q.variants
    assert q.event_date is not None
    row = period_by_id()[q.row_id]
    # a chained question tells the first event: the item's event is that period's end,
    # which the calc eval checks end to end (evals/answers/calc.py)
    chained = q.request.chain_from is not None
    assert not chained or q.request.chain_from == row.after
    event = None if chained else q.event_date.isoformat()
    assert (row.unit_id, q.period, q.unit, event) == (
        item["norm_unit"],
        item["period"],
        item["unit"],
        None if chained else item["event_date"],
    )


@pytest.mark.parametrize(
    ("question", "row_id"),
    [
        # a period that merely frames the question does not replace the asked one
        (
            "Месячный срок на возражения по акту истек 24 апреля 2025 года. До какого числа "
            "руководитель должен вынести решение?",
            "review_101",
        ),
        # the expiry of a demand for payment is a collection period, not the audit review
        (
            "Срок исполнения требования об уплате задолженности для ООО истек 28.02.2025. "
            "До какого дня инспекция вправе вынести решение о взыскании?",
            "collection_decision_46",
        ),
        # a demand for documents during a desk audit is art. 93, not the audit's length
        (
            "В ходе камеральной проверки 3 февраля 2025 года получили требование о "
            "представлении документов. До какого числа их представить?",
            "documents_93",
        ),
        (
            "Возражения на дополнение к акту: дополнение получено 03.02.2025.",
            "objections_addendum_101",
        ),
        ("Закрыли филиал 30 апреля 2025 года, решение принято в тот же день.", "branch_closed_23"),
        # the part that asks names the situation; the story before it does not
        (
            "Справку о проведенной выездной проверке нам составили и вручили 14.07.2025. "
            "Не позднее какого дня инспекторы должны составить акт?",
            "act_field_100",
        ),
        (
            "Камеральную проверку декларации по НДС продлевали, окончена она 05.05.2025, "
            "нарушения найдены. До какой даты должен быть составлен акт?",
            "act_desk_100",
        ),
        (
            "После рассмотрения возражений назначили дополнительные мероприятия, дополнение "
            "к акту мы получили 11.08.2025. Какой последний день подать возражения на "
            "дополнение?",
            "objections_addendum_101",
        ),
        # «попросить продление» is what the notice is for, not an extension granted
        (
            "Требование о представлении документов получили 02.06.2025, за 10 дней не "
            "успеваем, хотим уведомить инспектора о невозможности и попросить продление. "
            "До какого дня подать уведомление?",
            "documents_93_notice",
        ),
        # «зачет встречных требований» is no demand for documents of a foreign person
        (
            "Мы налоговый агент иностранной компании, оплатили роялти зачетом встречных "
            "требований и 31.03.2025 поняли, что удержать налог невозможно. Когда сообщить?",
            "agent_cannot_withhold_24",
        ),
        # an act on a violation found outside an audit is ст. 101.4 in any words
        (
            "Инспекция вне рамок проверки составила акт о выявленном нарушении (опоздали с "
            "сообщением), акт получили 12.03.2025. До какого числа подать возражения на акт?",
            "objections_101_4",
        ),
        # «вне рамок проверки» said outright decides between the two periods of art. 93.1
        (
            "Мы поставщик проверяемого лица; инспекция вне рамок налоговой проверки запросила "
            "у нас документы по конкретной сделке, требование получено 04.06.2025. Срок?",
            "documents_93_1_deal",
        ),
        (
            "Банк списал с нашего счета налог 10.02.2025, но в бюджет деньги не перечислил. "
            "ИФНС выявила это и составила документ 03.03.2025. До какого дня она должна "
            "направить банку требование о перечислении задолженности?",
            "bank_claim_60",
        ),
        ("Закрыли обособленное подразделение (не филиал) 10.06.2025.", "division_closed_23"),
    ],
)
def test_the_most_specific_situation_wins(question: str, row_id: str) -> None:
    assert row_ids(question) == [row_id]


def test_ambiguous_question_offers_both_periods() -> None:
    question = (
        "Проверка контрагента: 5 мая 2025 года нам пришло требование по ст. 93.1 о документах "
        "по конкретной сделке с ним. До какого числа ответить?"
    )
    assert sorted(row_ids(question)) == ["documents_93_1_audit", "documents_93_1_deal"]
    q = deadline(question)
    assert q is not None and len(q.variants) == 1


@pytest.mark.parametrize(
    "question",
    [
        "Жалобу в вышестоящий налоговый орган подали 5 мая 2025 г. До какого числа ее рассмотрят?",
        # the inspection's own period to send a demand (ст. 70) is not in the table
        "Инспекция выставила требование об уплате задолженности; недоимка возникла 1 декабря "
        "2024 г. До какого числа она должна его направить?",
        "Требование получено 3 февраля 2025 года. До какого числа его исполнить?",
        "Наше ООО 1 марта 2025 года приобрело долю 30 % в другом ООО. До какого числа "
        "сообщить в налоговую об участии?",
        "Налоговое уведомление направлено 1 октября 2025 г. До какого числа платить?",
        "Мы продали квартиру и не подали декларацию 3-НДФЛ; срок уплаты налога истек "
        "15 июля 2025 года. Когда закончится камеральная проверка?",
        "Декларацию подали 25 апреля 2025 года. До какого числа можно подать уточненную?",
        "Когда нужно представить документы для вычета, квартиру купили 3 февраля 2025 года?",
        "Жалобу на решение, вступившее в силу, хотим подать; решение вручено 10 января "
        "2025. До какого числа можно?",
    ],
)
def test_situations_not_computed_get_no_date(question: str) -> None:
    """Declined, or missing what the calculator needs: no computed date (the calc node
    then asks for the missing piece or leaves the question to the knowledge base)."""
    assert deadline(question) is None


@pytest.mark.parametrize(
    ("question", "event"),
    [
        (
            "Решение вынесено 14 марта 2025 года, вручили 20 марта 2025 года. Когда оно "
            "вступит в силу?",
            date(2025, 3, 20),
        ),
        (
            "10 марта 2025 года получили акт проверки, датированный 3 марта 2025. До какого "
            "числа подать возражения?",
            date(2025, 3, 10),
        ),
        (
            "Акт проверки составлен 3 марта 2025 г., получен нами 10 марта 2025 г. До какого "
            "числа подать возражения?",
            date(2025, 3, 10),
        ),
    ],
)
def test_the_event_date_is_the_one_the_period_runs_from(question: str, event: date) -> None:
    q = deadline(question)
    assert q is not None and q.event_date == event


def test_the_review_after_an_act_runs_from_the_end_of_the_objection_period() -> None:
    """A chain: the decision is due ten working days after the month for objections,
    whether or not objections were filed, so the act's receipt starts the month first."""
    q = deadline("Акт получен 3 марта 2025 года. В какой срок будет вынесено решение?")
    assert q is not None and q.row_id == "review_101"
    assert q.request.chain_from == "objections_100" and q.event_date == date(2025, 3, 3)
    direct = deadline("Срок на возражения по акту истек 3 апреля 2025 года. Когда вынесут решение?")
    assert direct is not None and direct.request.chain_from is None


def test_an_extension_stated_in_the_question_replaces_the_norm_period() -> None:
    q = deadline(
        "Решение о назначении выездной проверки вынесено 10.01.2025, затем срок продлили до "
        "шести месяцев. Когда истекает продлённый срок?"
    )
    assert q is not None and q.row_id == "field_audit_89"
    assert (q.period, q.unit) == (6, "months")


def test_every_row_has_a_dev_item() -> None:
    """A new row of the table comes with a worked dev item (calc_dev_extra.jsonl)."""
    covered = set()
    for item in _deadline_items("calc_dev_extra.jsonl"):
        found = row_ids(str(item["question"]))
        if len(found) == 1:
            covered.add(found[0])
    assert {r.id for r in procedural_periods() if not r.decline} <= covered


@pytest.mark.parametrize(
    ("question", "period"),
    [
        ("Выездную проверку, назначенную 10.01.2025, продлили на два месяца. Когда она "
         "должна закончиться?", 4),  # «на»: added to the two months of п. 6 ст. 89
        ("Выездная проверка назначена 10.01.2025, приостановлений не было. Когда она должна "
         "закончиться?", 2),
    ],
)  # fmt: skip
def test_field_audit_extension_and_no_suspension(question: str, period: int) -> None:
    q = deadline(question)
    assert q is not None and q.row_id == "field_audit_89"
    assert (q.period, q.unit) == (period, "months")


def test_a_suspended_field_audit_is_not_computed() -> None:
    question = (
        "Выездную проверку, назначенную 10.01.2025, приостанавливали на месяц. Когда она "
        "закончится?"
    )
    assert deadline(question) is None


@pytest.mark.parametrize(
    ("question", "row_id", "period", "unit"),
    [
        # подп. 7 п. 3.4 ст. 23: «в течение одного месяца со дня наделения ... полномочиями»
        ("ОП наделили правом начислять зарплату сотрудникам 10 марта 2025 года. В какой срок "
         "уведомить инспекцию?", "division_payments_powers_23", 1, "months"),
        ("Филиал лишили полномочий по начислению выплат физлицам 1 апреля 2025. До какого "
         "числа сообщить в ИФНС?", "division_payments_powers_23", 1, "months"),
        # подп. 1 п. 4 ст. 24.1: «не позднее пяти дней со дня заключения указанного договора»
        ("Управляющий товарищ: договор инвестиционного товарищества расторгнут 2 июня 2025 г. "
         "До какого числа сообщить о прекращении?", "investment_partnership_24_1", 5,
         "working_days"),
        # п. 4 ст. 83: «не позднее 30 календарных дней со дня начала осуществления деятельности»
        ("Иностранная организация начала работать в РФ через обособленное подразделение "
         "1 апреля 2025 года. До какого числа встать на учет?", "foreign_registration_83", 30,
         "days"),
        # п. 4 ст. 83: «не позднее 15 календарных дней со дня прекращения ею деятельности»
        ("Иностранная компания прекратила деятельность в России 30 июня 2025. Когда крайний "
         "срок подачи заявления о снятии с учета?", "foreign_deregistration_83", 15, "days"),
        # п. 4.6 ст. 83: «не позднее 30 календарных дней со дня начала (прекращения) оказания»
        ("Иностранная компания, продающая электронные услуги физлицам в России, начала "
         "оказывать услуги 1 марта 2025. До какого числа встать на учет?",
         "foreign_services_83_4_6", 30, "days"),
        # п. 1.1 ст. 86: «в течение трех дней со дня соответствующего события»
        ("Банк открыл счет ИП 3 марта 2025 года. До какого числа банк обязан сообщить в "
         "налоговую об открытии счета?", "bank_account_info_86", 3, "working_days"),
        # п. 2 ст. 86: «в течение трех дней со дня получения мотивированного запроса»
        ("Мотивированный запрос инспекции о справке об остатках на счетах поступил в банк "
         "3 марта 2025. Крайний срок ответа банка?", "bank_statements_86", 3, "working_days"),
        # п. 2 ст. 88: «в срок, не превышающий трех дней с даты принятия такого решения»
        ("Решение о продлении КНП вынесено 12 марта 2025. Когда нам должны его направить?",
         "desk_audit_extension_notice_88", 3, "working_days"),
        # абз. 2 п. 6.2 ст. 101: КГН, «в течение пятнадцати дней со дня получения дополнения»
        ("Возражения на дополнение к акту проверки КГН: дополнение вручено 7 апреля 2025. До "
         "какого числа?", "objections_addendum_kgn_101", 15, "working_days"),
        # абз. 4 п. 6.1 ст. 101: КГН, «в течение десяти дней с даты этого дополнения вручается»
        ("Когда должны вручить дополнение к акту проверки КГН, если оно датировано 2 июня 2025?",
         "addendum_delivery_kgn_101", 10, "working_days"),
        # п. 3 ст. 105.15: «в течение 30 дней со дня получения соответствующего требования»
        ("Требование о представлении документации по трансфертному ценообразованию поступило "
         "16 июня 2025 года. Когда крайний срок?", "tp_documentation_105_15", 30,
         "working_days"),
        # п. 3 ст. 105.16-3: «в течение трех месяцев со дня получения такого требования»
        ("Получили 1 июля 2025 требование о глобальной документации МГК. Крайний срок?",
         "global_documentation_105_16_3", 3, "months"),
        # п. 4 ст. 105.16-2: «не позднее восьми месяцев с даты окончания отчетного периода»
        ("Когда подать уведомление об участии в международной группе компаний, если отчетный "
         "период материнской компании закончился 31 декабря 2024?",
         "mne_participation_notice_105_16_2", 8, "months"),
        # п. 2 ст. 105.16-3: «не позднее двенадцати месяцев с даты окончания отчетного периода»
        ("Страновой отчет за отчетный период, закончившийся 31 декабря 2024 года: до какого "
         "числа его подать?", "country_report_105_16_3", 12, "months"),
        # п. 13 ст. 105.17: «в течение 20 дней со дня получения акта»
        ("Возражения по акту проверки цен по контролируемым сделкам: акт вручен 4 августа "
         "2025 г. До какого числа?", "price_check_objections_105_17", 20, "working_days"),
        # п. 12 ст. 105.18: «в течение одного месяца с даты получения указанного уведомления»
        ("Обратные корректировки: уведомление инспекции пришло 15 сентября 2025. До какого "
         "числа их сделать?", "reverse_adjustment_105_18", 1, "months"),
        # п. 3 ст. 105.22: «в течение 10 дней со дня получения соответствующего запроса»
        ("Запрос ФНС о документах по заявлению о заключении соглашения о ценообразовании "
         "получен 6 октября 2025. До какого числа ответить?", "apa_documents_105_22", 10,
         "working_days"),
        # п. 5 ст. 105.29: «в течение десяти дней со дня получения соответствующего требования»
        ("Налоговый мониторинг: требование о пояснениях пришло 3 марта 2025. До какого числа "
         "ответить?", "monitoring_documents_105_29", 10, "working_days"),
        # абз. 3 п. 2.1 ст. 105.29: «в течение пятнадцати дней со дня получения уведомления»
        ("10 февраля 2025 получили уведомление о наличии оснований для составления "
         "мотивированного мнения. До какого числа дать пояснения?",
         "monitoring_grounds_explanations_105_29", 15, "working_days"),
        # п. 5 ст. 105.30: «в течение одного месяца со дня получения указанного запроса»
        ("Запрос о мотивированном мнении направили в инспекцию 14 мая 2025 г. Когда должны "
         "ответить?", "motivated_opinion_request_105_30", 1, "months"),
        # п. 8 ст. 105.30: «в течение одного месяца со дня его получения представляет разногласия»
        ("Не согласны с мотивированным мнением, полученным 20 июня 2025 г. До какого числа "
         "заявить разногласия?", "motivated_opinion_response_105_30", 1, "months"),
        # periods the blind dev sets asked about that the table lacked
        # абз. 2 п. 4 ст. 52: «не позднее пяти дней со дня получения ... заявления о выдаче»
        ("Попросил выдать налоговое уведомление на бумажном носителе, заявление подал в ИФНС "
         "3 марта 2025 г. Когда мне его обязаны передать?", "paper_notice_52", 5, "working_days"),
        # п. 4.2 ст. 58: «в течение пяти дней со дня их приема подлежат внесению в банк»
        ("Администрация поселения приняла от жителя наличные в уплату налога 2 июня 2025 г. "
         "До какого числа сдать их в банк?", "cash_payment_transfer_58", 5, "working_days"),
        # п. 6 ст. 47: «в двухмесячный срок со дня возбуждения ... исполнительного производства»
        ("Судебный пристав возбудил исполнительное производство 10 апреля 2025 г. по "
         "постановлению о взыскании налога за счет имущества. Когда истекает его срок?",
         "bailiff_47", 2, "months"),
        # подп. 1 п. 8 ст. 48: «в течение тридцати дней со дня формирования ... сообщения об отказе»
        ("Сообщение об отказе в перерасчете транспортного налога сформировано 3 марта 2025 г. "
         "Какой последний день подать жалобу?", "complaint_recalculation_48", 30, "working_days"),
        # п. 2 ст. 101.3: «в течение трех дней со дня вступления в силу»
        ("Вышестоящий налоговый орган 5 мая 2025 г. оставил апелляционную жалобу без "
         "удовлетворения. Когда вступившее в силу решение направят в инспекцию, вынесшую его?",
         "appeal_decision_transfer_101_3", 3, "working_days"),
        # п. 4 ст. 93.1: «в течение пяти дней со дня получения поручения ... направляет требование»
        ("Инспекция получила поручение об истребовании документов 12 мая 2025 г. До какого "
         "числа она должна выставить требование?", "assignment_93_1", 5, "working_days"),
        # подп. 2 п. 10 ст. 48: «в течение шести месяцев со дня принятия ... решения по жалобе»
        ("Физлицо обжаловало решение о привлечении к ответственности; решение по жалобе принято "
         "10 марта 2025 г., долг 50 тыс. руб. Когда истекает срок на административный иск?",
         "court_after_appeal_48", 6, "months"),
        # абз. 2 п. 2 ст. 105.17: «не позднее двух лет со дня представления ... уточненной»
        ("Уточненка с симметричной корректировкой по прибыли подана 15.03.2024. До какой даты "
         "ФНС вправе решить проверить сделку?", "symmetric_adjustment_check_105_17", 2, "years"),
        # подп. 7 п. 4 ст. 24.1: «в течение пяти дней с даты внесения уточнений»
        ("Мы управляющий товарищ. В расчет финансового результата инвестиционного товарищества "
         "внесли уточнения 14 апреля 2026 года. До какого числа сдать уточненный расчет?",
         "partnership_recalc_24_1", 5, "working_days"),
        # абз. 4 п. 4 ст. 46: «в течение шести дней после изменения в реестре ... суммы»
        ("Сумма долга по решению о взыскании выросла, инспекция внесла изменение в реестр "
         "2 марта 2026. Когда нам должны сообщить?", "collection_increase_46", 6, "working_days"),
        # п. 4.4 ст. 58: «не позднее трех месяцев со дня выявления не перечисленной ... суммы»
        ("Почта приняла от гражданина наличные в счет налога, но не перечислила их в бюджет; "
         "инспекция выявила это 10 февраля 2026 года. До какого числа она должна направить "
         "требование о перечислении?", "local_claim_58", 3, "months"),
        # п. 9 ст. 58: «не позднее дня, следующего за днем получения» (электронно)
        ("Уведомление об исчисленных суммах НДФЛ инспекция получила 22 июля 2026 года. Если там "
         "ошибка по контрольным соотношениям, до какого дня налоговая должна сообщить?",
         "payment_notice_rejected_58", 1, "working_days"),
        # п. 9 ст. 58: «по почте заказным письмом не позднее 10 дней, следующих за днем получения»
        ("Уведомление об исчисленных суммах подали на бумаге, инспекция получила его 24 июля "
         "2026 г. До какого дня нам сообщат, если оно не прошло контрольные соотношения?",
         "payment_notice_rejected_paper_58", 10, "working_days"),
        # п. 8.8 ст. 88: пояснения об инвестиционном налоговом вычете «в течение пяти дней»
        ("Требование о пояснениях по инвестиционному налоговому вычету в декларации по прибыли "
         "получили 5 октября 2026 г. В какой срок ответить?", "explanations_investment_88", 5,
         "working_days"),
    ],
)  # fmt: skip
def test_rows_from_the_coverage_scan(question: str, row_id: str, period: int, unit: str) -> None:
    """Periods added by the coverage scan of the shipped chapters or after blind dev misses,
    asked in other words."""
    q = deadline(question)
    assert q is not None and not q.variants, question
    assert (q.row_id, q.period, q.unit) == (row_id, period, unit)
    assert calc_decision(question) is not None


@pytest.mark.parametrize(
    ("question", "row_id"),
    [
        # «прислала» is receipt, like «пришло»
        ("Инспекция прислала налоговое уведомление 1 октября 2025. До какого числа платить?",
         "tax_notice_58"),
        ("Уведомление по транспортному налогу получено 1 октября 2025. До какого числа "
         "заплатить?", "tax_notice_58"),
        ("Нам выставили требование о представлении пояснений 3 февраля 2025. До какого числа "
         "ответить?", "explanations_88"),
        ("3 февраля 2025 года по ТКС пришло требование представить пояснения по 6-НДФЛ. "
         "Крайний срок?", "explanations_88"),
        ("Уточненку сдали 10 марта 2025 года. Когда закончится камералка?", "desk_audit_88"),
        # «не согласны с актом» are objections; «требование пояснить» the п. 3 ст. 88 demand
        ("Не согласны с актом проверки, который получили 10 марта 2025. До какого числа "
         "заявить несогласие?", "objections_100"),
        ("Не согласны с дополнением к акту, полученным 9 февраля 2026. До какого числа?",
         "objections_addendum_101"),
        ("Получили требование пояснить убыток 3 февраля 2025 г. Когда крайний срок?",
         "explanations_88"),
        ("Срок ответа на требование о пояснениях, полученное 03.02.2025?", "explanations_88"),
        # «когда поставят / снимут» asks the authority's period
        ("Заявление о постановке на учет подали 3 марта 2025 г. Когда нас поставят на учет?",
         "registration_84"),
        ("Заявление о снятии с учета подано 3 марта 2025. Когда снимут с учета?",
         "registration_84"),
        # the new rows do not take the questions of the older ones
        ("Требование о представлении документов при выездной проверке КГН получено 10 марта "
         "2025. До какого числа представить?", "documents_93_kgn"),
        ("Решение о продлении камеральной проверки декларации по НДС принято 12 марта 2025 г., "
         "декларацию сдали 20 января 2025. Когда закончится камеральная проверка?",
         "desk_audit_vat_extended_88"),
    ],
)  # fmt: skip
def test_ordinary_paraphrases_find_their_row(question: str, row_id: str) -> None:
    q = deadline(question)
    assert q is not None and q.row_id == row_id and not q.variants
    assert calc_decision(question) is not None


@pytest.mark.parametrize(
    "question",
    [
        # п. 5 ст. 89.1: two months plus one per participant, which the question does not give
        "Выездная проверка КГН назначена 10 января 2025 года. Когда она закончится?",
        # an organisation no longer reports its own accounts; п. 1.1 ст. 86 is the bank's duty
        "Мы открыли счет в банке 3 марта 2025, до какого числа сообщить в налоговую?",
    ],
)
def test_new_declines(question: str) -> None:
    assert deadline(question) is None


def test_a_cited_article_alone_gives_its_periods() -> None:
    req = extract_calc_request(
        "Требование по ст. 93.1 получено 10.06.2025. До какого числа ответить?", TODAY
    )
    rows = [period_by_id()[r] for r in (req.row_id, *req.variants) if r]
    assert {(r.period, r.unit) for r in rows} == {(5, "working_days"), (10, "working_days")}


def test_an_asking_part_that_names_nothing_leaves_the_whole_question() -> None:
    from finagent.legal.calc_text import read_question

    story = "Акт датирован 03.03.2025 и вручен 05.03.2025. "
    whole = read_question(story + "До какого числа?")
    assert all(w.asked for w in whole.words)
    asked = read_question(story + "До какого числа подать возражения на акт?")
    assert [w.lemma for w in asked.words if w.asked and w.content][-2:] == ["возражение", "акт"]
    assert not any(w.asked for w in asked.words if w.lemma == "датировать")
