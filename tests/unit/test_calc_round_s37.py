"""Stop 37: hold-out v17's classes (issue #26) — a posted document counts as received on
the sixth working day whatever else the story says of its receipt (avoided, collected
later), and the other dates are named as no start; a speaker who speaks as a party with
duties of its own (a bank, a tax agent) reaches that party's rows; the term of a procedure
asked in other words; a notice duty asked as «сколько дней даётся на …». Wording ours,
not an eval item's."""

from __future__ import annotations

from evals.answers.calc import answer_value
from finagent.legal.calc_extract import looks_like_calc
from finagent.legal.calc_text import read_question
from finagent.legal.periods import period_by_id
from tests.unit.calc_reading import ask, row_ids

# --- a posted document: the sixth working day from the sending -------------------------


async def test_a_refused_decision_sent_by_post_counts_from_the_sixth_working_day() -> None:
    question = (
        "Решение о привлечении к ответственности вынесли 14 марта 2025 года. Мы его "
        "получать отказались, и 20 марта 2025 инспекция направила решение заказным "
        "письмом, а на почту мы сходили только 2 апреля. До какого числа подать "
        "апелляционную жалобу?"
    )
    outcome = await ask(question)
    # 20.03 + six working days = 28.03 (п. 9 ст. 101), + one month = 28.04
    assert answer_value("deadline", outcome.markdown) == "2025-04-28"
    assert "28.03.2025" in outcome.markdown


async def test_avoided_receipt_of_an_act_does_not_date_its_receipt() -> None:
    question = (
        "Акт о выявленных нарушениях (ст. 101.4) датирован 1 июля 2025, отправлен "
        "заказным письмом 4 июля 2025 г. Руководитель уклонялся от получения, письмо "
        "получено 25 июля. До какого числа возражения?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == "2025-08-14"  # 14.07 + 1 month


async def test_the_other_dates_of_a_posted_act_are_named_as_no_start() -> None:
    question = (
        "Акт камеральной проверки составлен 3 февраля 2025. Инспекция выслала его почтой "
        "10.02.2025, письмо забрали 24.02.2025. До какой даты представить возражения на "
        "акт? Или считать от 24 февраля?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == "2025-03-18"  # 18.02 + 1 month
    assert "03.02.2025 из вопроса — не начало срока" in outcome.markdown
    assert "24.02.2025 позже этого дня" in outcome.markdown


def test_a_sentence_that_only_checks_a_start_asks_no_period() -> None:
    question = (
        "Требование о пояснениях отправили заказным письмом 6 октября 2025 г. В какой срок "
        "ответить? Отсчёт с 6 октября?"
    )
    assert row_ids(question) == ["explanations_88"]


# --- the speaker speaks as a party with duties of its own ------------------------------


async def test_a_speaker_speaking_as_a_bank_reaches_the_banks_row() -> None:
    for question, day in (
        (
            "Мы — банк. Клиент закрыл вклад 14 марта 2025 г. В какой срок нам нужно "
            "сообщить в инспекцию?",
            "2025-03-19",
        ),
        (
            "Я юрист кредитной организации. Изменились реквизиты счёта клиента 10.04.2025. "
            "До какого числа мы должны уведомить налоговый орган?",
            "2025-04-15",
        ),
        (
            "Пишу из банка: 5 июня 2025 г. клиент открыл депозит. Когда последний день, "
            "чтобы мы сообщили в налоговую?",
            "2025-06-10",
        ),
    ):
        outcome = await ask(question)
        assert answer_value("deadline", outcome.markdown) == day, question


async def test_a_bank_acting_on_the_speaker_is_not_the_speaker() -> None:
    for question in (
        "Банк открыл нам расчётный счёт 10 марта 2025. До какого числа мы должны сообщить "
        "в налоговую?",
        "Мы открыли счёт в банке 10 марта 2025 года. До какой даты нужно сообщить в инспекцию?",
    ):
        outcome = await ask(question)
        assert answer_value("deadline", outcome.markdown) != "2025-03-13", question


def test_the_bearer_of_a_row_is_data() -> None:
    rows = period_by_id()
    assert rows["bank_account_info_86"].bearer == "bank"
    assert rows["agent_cannot_withhold_24"].bearer == "tax_agent"
    assert rows["objections_100"].bearer == "taxpayer"


async def test_a_tax_agent_speaking_as_such_reaches_the_agents_row() -> None:
    question = (
        "Как агент мы не смогли удержать НДФЛ с выплаты: узнали об этом 20 января 2026 г. "
        "Какой срок отводится на сообщение?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == "2026-02-20"


# --- the term of a procedure asked in other words --------------------------------------


async def test_the_term_of_an_audit_asked_as_a_maximal_end_date() -> None:
    for question, day in (
        (
            "Декларацию по налогу на прибыль подали 20.04.2025. Какая максимальная дата "
            "завершения камеральной проверки без продления?",
            "2025-07-21",
        ),
        (
            "Решение о проведении выездной проверки от 30.06.2025. Какова продолжительность "
            "проверки и дата её окончания, если её не продлевали?",
            "2025-09-01",
        ),
        (
            "Выездную проверку назначили 14 октября 2025 г. Какая крайняя дата её окончания "
            "(без продления и приостановления)?",
            "2025-12-15",
        ),
    ):
        assert looks_like_calc(question), question
        outcome = await ask(question)
        assert answer_value("deadline", outcome.markdown) == day, question


def test_a_negator_denies_the_nouns_coordinated_in_its_case() -> None:
    words = read_question("Без продления и приостановления, но с выемкой.").words
    denied = {w.lemma for w in words if w.negated}
    assert {"продлить", "приостановить"} <= denied
    assert "выемка" not in denied


# --- a notice duty asked as «сколько дней даётся на …» ---------------------------------


async def test_a_period_granted_for_a_notice_is_answered() -> None:
    for question, day in (
        (
            "Обособленное подразделение ликвидировали, деятельность прекращена 24.11.2025. "
            "Сколько дней даётся на сообщение в налоговую и до какого числа?",
            "2025-11-27",
        ),
        (
            "Филиал закрыли: решение о закрытии приняли 10 февраля 2025. Сколько дней у нас "
            "есть на сообщение в налоговую? Какая последняя дата?",
            "2025-02-13",
        ),
    ):
        outcome = await ask(question)
        assert answer_value("deadline", outcome.markdown) == day, question


async def test_a_notice_asked_by_its_noun_is_answered() -> None:
    # «уведомление» also names a document, but as the asked action it is «сообщить»
    question = (
        "Обособленное подразделение закрыто 3 июля 2025 г. Крайний срок уведомления "
        "налогового органа?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == "2025-07-08"
