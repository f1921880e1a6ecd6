"""The typed request a calc question is read into, and the classes of reading it gets right:
a cue word in the story, a distractor event, a year from the other dates, a chain of two
periods, another country, and what is missing asked back."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.calc import answer_request, clarification
from finagent.answering.calc_common import CalcOutcome
from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.calc_request import CalcRequest
from finagent.routing.calc_rules import calc_decision
from finagent.tools.base import ToolContext
from tests.unit.calc_reading import TODAY, calc_tools, deadline


def test_every_field_of_the_request_is_described_for_an_llm() -> None:
    """An LLM with structured output fills the same model: every field says what it is."""
    schema = CalcRequest.model_json_schema()
    missing = [name for name, spec in schema["properties"].items() if not spec.get("description")]
    assert missing == []
    for nested in ("RoledDate", "RoledAmount", "StatedPeriod"):
        props = schema["$defs"][nested]["properties"]
        assert all(spec.get("description") for spec in props.values()), nested


def test_the_request_is_read_once_with_roles_and_round_trips() -> None:
    req = extract_calc_request(
        "Акт проверки от 3 марта 2025 г. получили 10.03.2025. До какого числа подать возражения?",
        TODAY,
    )
    assert req.kind == "deadline" and req.row_id == "objections_100"
    assert [(d.day, d.role) for d in req.dates] == [
        (date(2025, 3, 3), "other_event"),
        (date(2025, 3, 10), "asked_event"),
    ]
    assert CalcRequest.model_validate_json(req.model_dump_json()) == req


def test_a_cue_word_in_the_story_does_not_pick_another_procedure() -> None:
    """«через оператора ЭДО» tells how the declaration went, not what is asked."""
    q = deadline(
        "Декларацию по НДС за 3 квартал 2025 года отправили через оператора ЭДО "
        "24.10.2025. Когда заканчивается камеральная проверка?"
    )
    assert q is not None and q.row_id == "desk_audit_vat_88"


def test_a_distractor_event_does_not_win_over_the_asked_one() -> None:
    """The answer sent on 18 April is another event: the period runs from the receipt."""
    q = deadline(
        "Требование о пояснениях получили 2 апреля 2025 г., ответили на требование 18 апреля. "
        "До какого числа нужно было представить пояснения?"
    )
    assert q is not None and q.row_id == "explanations_88"
    assert q.event_date == date(2025, 4, 2)


def test_a_missing_year_is_near_the_other_dates_not_today() -> None:
    """And the date is the one next to the receipt of what the period is for (the addendum,
    not the act)."""
    q = deadline(
        "Акт выездной проверки вручили 25 декабря 2024 г., а 14 января нам вручили "
        "дополнение к акту. До какого числа подать возражения на дополнение?"
    )
    assert q is not None and q.event_date == date(2025, 1, 14)
    assert any("по другим датам вопроса" in a for a in q.assumptions)


def test_the_decision_after_an_act_chains_the_objection_period() -> None:
    """Ten working days from the end of the month for objections, filed or not."""
    q = deadline(
        "Акт камеральной проверки получили 5 февраля 2025 г., возражения подавать не стали. "
        "До какого числа инспекция должна рассмотреть материалы и вынести решение?"
    )
    assert q is not None and q.row_id == "review_101"
    assert q.request.chain_from == "objections_100" and q.event_date == date(2025, 2, 5)


async def test_the_chain_is_computed_step_by_step() -> None:
    req = extract_calc_request(
        "Акт камеральной проверки получили 5 февраля 2025 г. Когда вынесут решение?", TODAY
    )
    outcome = await _answer(req, "")
    # one month from 05.02.2025: 05.03.2025 (Wed); ten working days from it: 06-07, 10-14,
    # 17-19.03 -> 19.03.2025
    assert "**Ответ: 19.03.2025**" in outcome.markdown
    assert "05.03.2025" in outcome.markdown and "п. 6 ст. 100 НК РФ" in outcome.markdown


async def test_the_act_after_a_desk_audit_chains_the_audits_own_period() -> None:
    req = extract_calc_request(
        "Декларацию по НДС за 3 квартал подали 24.10.2025. Если камеральная проверка "
        "найдёт нарушения, до какого числа составят акт?",
        TODAY,
    )
    assert (req.row_id, req.chain_from) == ("act_desk_100", "desk_audit_vat_88")
    outcome = await _answer(req, "")
    # two months: 24.12.2025; ten working days after it skip 31.12 and 01-11.01.2026
    assert "**Ответ: 19.01.2026**" in outcome.markdown
    profit = extract_calc_request(
        "Декларацию по налогу на имущество подали 14.04.2025. Когда должны составить акт "
        "камеральной проверки, если найдут нарушения?",
        TODAY,
    )
    assert (profit.row_id, profit.chain_from) == ("act_desk_100", "desk_audit_88")


def test_a_period_granted_to_another_case_is_not_the_asked_one() -> None:
    req = extract_calc_request(
        "Мы участник консолидированной группы налогоплательщиков, требование о документах "
        "получили 03.03.2025. Другим дают 10 дней, а нам до какого числа?",
        TODAY,
    )
    assert req.decline is None and req.row_id == "documents_93_kgn"
    assert req.event_date == date(2025, 3, 3)


def test_a_foreign_persons_period_is_read_from_its_cited_registration() -> None:
    req = extract_calc_request(
        "Мы стоим на учёте по п. 4.6 ст. 83 НК РФ. Требование о представлении документов "
        "получили 02.06.2025. До какого числа ответить?",
        TODAY,
    )
    assert req.row_id == "documents_93_foreign"


def test_a_company_named_by_its_countrys_adjective_is_a_foreign_organisation() -> None:
    """«сербская фирма ... в РФ»: Russian law for a foreign organisation, not another
    country's rules."""
    req = extract_calc_request(
        "Сербская фирма начала работать в РФ через обособленное подразделение (не филиал) "
        "14 июля 2025 г. До какого числа подать заявление о постановке на учёт?",
        TODAY,
    )
    assert req.decline is None and req.row_id == "foreign_registration_83"


def test_a_foreign_organisation_outside_point_4_6_gets_the_general_desk_audit() -> None:
    """Six months (п. 2 ст. 88) are for a foreign person registered under п. 4.6 ст. 83;
    a foreign organisation acting through a division has the general three months."""
    req = extract_calc_request(
        "Словенская компания через обособленное подразделение в РФ подала декларацию по "
        "налогу на имущество 11.03.2025. Когда закончится камеральная проверка?",
        TODAY,
    )
    assert req.row_id == "desk_audit_88"


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "Декларацию по налогу на имущество сдали 18.03.2025. Коллега говорит, что по НДС "
            "камеральная идёт два месяца, но у нас другой налог. Когда закончится проверка?",
            "desk_audit_88",
        ),
        (
            "Слышал, что по прибыли камералка длится три месяца, а мы подали декларацию по НДС "
            "21.07.2025. Когда закончится камеральная проверка?",
            "desk_audit_vat_88",
        ),
    ],
)
def test_the_tax_of_the_users_dated_filing_decides(question: str, row: str) -> None:
    """Another tax's rule told in passing does not narrow the row of the user's filing."""
    assert extract_calc_request(question, TODAY).row_id == row


def test_an_excluded_participation_drops_only_its_own_event() -> None:
    req = extract_calc_request(
        "10 февраля 2025 г. мы приобрели 25% акций АО «Заря». Кроме того, 14 февраля 2025 г. "
        "стали участником ООО «Маяк». До какого числа сообщить в инспекцию об участии?",
        TODAY,
    )
    assert req.decline is None and req.row_id == "participation_23"
    assert req.event_date == date(2025, 2, 10)
    assert any("14 февраля 2025" in a and "не учтено" in a for a in req.assumptions)
    alone = extract_calc_request(
        "14 февраля 2025 г. стали участником ООО «Маяк». До какого числа сообщить об участии?",
        TODAY,
    )
    assert alone.decline == "participation_llc"


@pytest.mark.parametrize(
    ("question", "row"),
    [
        # the act told as done and dated: the recipient's next act is asked
        (
            "Нам вручили дополнение к акту проверки 04.08.2025. Когда крайний срок?",
            "objections_addendum_101",
        ),
        ("Акт выездной проверки нам вручили 19.09.2025. Когда последний день?", "objections_100"),
        (
            "Дополнение к акту получили 04.08.2025. Можно не соглашаться письменно, до какого "
            "числа?",
            "objections_addendum_101",
        ),
        # the act still to be done stays the inspection's
        (
            "Дополнение к акту датировано 04.08.2025. До какого числа его должны вручить?",
            "addendum_delivery_101",
        ),
    ],
)
def test_the_asked_event_is_the_users_next_act(question: str, row: str) -> None:
    assert extract_calc_request(question, TODAY).row_id == row


def test_a_modal_past_payment_marks_the_due_date() -> None:
    req = extract_calc_request(
        "Земельный налог я должна была уплатить 01.12.2025, а заплатила 09.12.2025. "
        "Недоимка 8 000 руб. Сколько пени?",
        TODAY,
    )
    roles = {d.role: d.day for d in req.dates}
    assert roles == {"due": date(2025, 12, 1), "payment": date(2025, 12, 9)}


async def _answer(req: CalcRequest, question: str) -> CalcOutcome:
    return await answer_request(
        req, question, calc_tools(penalties=False), ToolContext(user_id="u")
    )


async def test_another_countrys_deadline_is_declined() -> None:
    question = "Акт проверки получен 10.03.2025. До какого числа возражения по законам Казахстана?"
    req = extract_calc_request(question, TODAY)
    assert req.decline == "jurisdiction:Казахстан"
    outcome = await _answer(req, question)
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    assert "нет оснований для ответа" in outcome.markdown and "Казахстан" in outcome.markdown


@pytest.mark.parametrize(
    ("question", "law"),
    [
        # a civil debt under a cited code
        (
            "Арендатор должен был внести 120 000 руб. до 05.03.2025, внёс 02.04.2025. "
            "Сколько процентов по ст. 395 ГК РФ?",
            "Гражданский кодекс",
        ),
        # a loan and a housing debt: no tax named
        (
            "Заём 300 000 руб. вернули 20.06.2025 вместо 01.05.2025. Сколько пени по займу?",
            "Гражданский кодекс",
        ),
        (
            "Долг за квартплату 9 000 руб., срок 10.02.2025, оплатили 15.05.2025. Сколько пени?",
            "Жилищный кодекс",
        ),
        # a deadline of another code, no row of the table
        ("Протокол по КоАП получили 02.06.2025. До какого числа обжаловать?", "КоАП РФ"),
    ],
)
async def test_another_branch_of_law_is_declined_naming_the_law(question: str, law: str) -> None:
    req = extract_calc_request(question, TODAY)
    assert req.decline == "other_law"
    outcome = await _answer(req, question)
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    assert "Применимый закон" in outcome.markdown and law in outcome.markdown


def test_a_tax_debt_under_a_contract_is_still_the_codes() -> None:
    req = extract_calc_request(
        "НДС по договору 150 000 руб. организация уплатила 20.05.2025 вместо 28.04.2025. "
        "Сколько пеней?",
        TODAY,
    )
    assert req.kind == "penalty" and req.decline is None and req.arrears == 150000


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # the procedure is known, its event's date is not
        ("До какого числа подать возражения на акт выездной проверки?", "получения акта"),
        # a date, but nothing says which period runs from it
        ("Документ получили 10 марта 2025 г. До какого числа ответить?", "О каком сроке речь"),
        # пени without the arrears
        ("Сколько пеней, если срок уплаты 28.04.2025, а заплатили 10.06.2025?", "сумма недоимки"),
        # пени without the dates
        ("Сколько пеней на 80 000 руб., организация?", "срок уплаты"),
    ],
)
async def test_a_missing_piece_is_asked_back(question: str, named: str) -> None:
    req = extract_calc_request(question, TODAY)
    asked = clarification(req)
    assert asked is not None and asked.startswith("Чтобы ответить точно, уточните")
    assert named in asked
    outcome = await _answer(req, question)
    assert outcome.mode == "clarify" and "Ответ:" not in outcome.markdown


@pytest.mark.parametrize(
    ("question", "claimed"),
    [
        ("До какого числа подать возражения на акт проверки?", True),  # then asked back
        ("Сколько пеней?", True),
        ("Акт получен 10.03.2025, когда истекает срок на возражения?", True),
        # a length of a rule, without a date: the knowledge base answers
        ("Какой срок камеральной проверки?", False),
        ("что такое пени и как они считаются", False),
        ("Хочу перейти на УСН с 1 января. До какого числа подать уведомление?", False),
    ],
)
def test_routing_only_checks_for_a_calc_cue(question: str, claimed: bool) -> None:
    assert (calc_decision(question) is not None) is claimed
