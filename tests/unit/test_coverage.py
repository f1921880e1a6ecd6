"""What the evidence must name before a value is stated: the question's names, document
numbers and dates, and each specific attribute asked (invented documents)."""

from __future__ import annotations

import asyncio
from datetime import date

from finagent.answering.abstention import scope_abstention
from finagent.answering.coverage import coverage_abstention, undated
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)


def _doc(text: str, title: str = "Акт сверки") -> Chunk:
    return Chunk(id=title, text=text, source="user_docs", title=title)


ACT = _doc(
    "Поставщик: ООО «Глобус-Ресурс», ИНН 7700000001, КПП 770001001, адрес: г. Тверь, "
    "ул. Лесная, д. 3. Счёт № 48 от 12.05.2025 на сумму 64 000 руб."
)
STATEMENT = _doc(
    "Остаток на 30.04.2025: 150 000,00 руб. Получатель: ООО «Зенит-Опт», ИНН 7700000002.",
    "Выписка по счёту",
)


def _abstains(question: str, chunks: list[Chunk], documents: bool = True) -> str | None:
    found = coverage_abstention(build_question(question, TODAY), chunks, [], documents)
    return found.kind if found else None


def test_an_attribute_no_passage_names_is_declined() -> None:
    assert _abstains("Какой ОГРН у ООО «Глобус-Ресурс»?", [ACT]) == "attribute"


def test_an_attribute_a_passage_names_is_answered() -> None:
    assert _abstains("Какой КПП у ООО «Глобус-Ресурс»?", [ACT]) is None


def test_the_attribute_must_be_in_the_passages_of_the_named_company() -> None:
    # the КПП of another company is not the one asked
    assert _abstains("Подскажите КПП ООО «Зенит-Опт»", [ACT, STATEMENT]) == "attribute"


def test_an_abbreviation_names_its_full_form() -> None:
    payroll = _doc("ФОТ за июнь 2025 года составил 1 200 000 руб.", "Справка")
    assert _abstains("Какой фонд оплаты труда за июнь?", [payroll]) is None


def test_a_word_for_a_kind_of_value_is_not_required() -> None:
    # a term is stated without the word «срок»
    rule = _doc("Оплата производится не позднее 5 числа месяца, следующего за отчётным.")
    assert _abstains("Какой срок оплаты?", [rule]) is None


def test_a_company_no_passage_names_is_declined() -> None:
    assert _abstains("Сколько мы должны ООО «Вершина-Строй»?", [ACT, STATEMENT]) == "name"


def test_a_company_in_another_case_is_found() -> None:
    assert _abstains("Сколько мы должны Глобус-Ресурсу по акту?", [ACT]) is None


def test_a_document_number_the_user_does_not_hold_is_declined() -> None:
    assert _abstains("Какая сумма по счёту № 49?", [ACT]) == "number"
    assert _abstains("Какая сумма по счёту № 48?", [ACT]) is None


def test_a_date_no_document_names_is_declined() -> None:
    assert _abstains("Какой остаток был на 31 мая 2025 года?", [STATEMENT]) == "date"
    assert _abstains("Какой остаток был на 30 апреля 2025 года?", [STATEMENT]) is None


def test_dates_and_numbers_are_checked_in_the_users_documents_only() -> None:
    law = Chunk(
        id="nk", text="Налоговая ставка устанавливается в размере 20 процентов.", source="law"
    )
    assert _abstains("Какая ставка на 31 мая 2025 года?", [law], documents=False) is None


def test_a_term_of_an_unloaded_code_is_out_of_scope() -> None:
    law = Chunk(id="nk", text="Штраф взыскивается в размере 5 000 рублей.", source="law")
    question = "Какой административный штраф грозит за парковку на газоне?"
    found = asyncio.run(scope_abstention(question, [law], None))
    assert found is not None and found.kind == "code"
    kb = Chunk(
        id="kb",
        text="Административный штраф за неприменение ККТ — 10 000 руб.",
        source="kb",
        title="ККТ",
    )
    assert asyncio.run(scope_abstention(question, [law, kb], None)) is None


def test_titles_lose_their_dates() -> None:
    assert undated("Счёт-фактура № 87 от 13 марта 2025 г.") == "Счёт-фактура № 87"
    assert undated("Договор поставки № П-5") == "Договор поставки № П-5"


def test_a_kind_of_value_its_adjective_names_must_be_stated() -> None:
    lease = _doc(
        "Помещение в здании с кадастровым номером 69:40:0100001:15 общей площадью 120 кв. м.",
        "Договор аренды",
    )
    valued = _doc("Кадастровая стоимость здания составляет 9 400 000 руб.", "Выписка ЕГРН")
    question = "Какая кадастровая стоимость здания на Лесной, 3?"
    assert _abstains(question, [lease]) == "attribute"
    assert _abstains(question, [valued]) is None
    # a scope («общая») or an adjective the evidence never uses asks the plain value
    assert _abstains("Какая общая сумма по акту?", [ACT]) is None


def test_an_attribute_of_a_company_a_row_names_is_read_in_that_row() -> None:
    statement = _doc(
        "Клиент: ООО «Зенит-Опт», ИНН 7700000002, КПП 770201001\n"
        "| 4 | 12.03.2025 | ООО «Сосна», ИНН 7700000003 | Оплата по счёту № 7 | 5 000,00 |\n"
        "| 5 | 13.03.2025 | ООО «Клён», ИНН 7700000004, КПП 770401001 | Оплата | 900,00 |",
        "Выписка по счёту",
    )
    assert _abstains("Подскажите КПП ООО «Сосна»", [statement]) == "attribute"
    assert _abstains("Подскажите КПП ООО «Клён»", [statement]) is None


def test_a_month_no_document_covers_is_declined() -> None:
    invoice = _doc("Услуги по уборке офиса за май 2025 г. — 48 000 руб.", "Акт № 7")
    assert _abstains("Сколько стоила уборка за июнь 2025?", [invoice]) == "date"
    assert _abstains("Сколько стоила уборка за май 2025?", [invoice]) is None


def test_a_month_is_covered_by_a_date_in_it() -> None:
    assert _abstains("Какой был остаток в апреле 2025?", [STATEMENT]) is None


def test_a_unit_of_measure_is_not_an_asked_attribute() -> None:
    rule = _doc("Площадь уменьшается на 10 м² при расчёте налога на дачу.", "Статья")
    assert _abstains("На сколько квадратных метров уменьшают площадь дачи?", [rule], False) is None
    assert _abstains("Сколько тонн груза принято?", [ACT]) is None


# a bank statement for March whose rows name the counterparties, and a line of its
# footer dated in April (the day it was printed)
MARCH_STATEMENT = _doc(
    "Выписка по счёту за период 01.03.2025 – 31.03.2025\n"
    "№: 4; Дата: 14.03.2025; Контрагент: ООО «Зенит-Опт»; Кредит, руб.: 96 000,00\n"
    "№: 5; Дата: 21.03.2025; Контрагент: ООО «Глобус-Ресурс»; Дебет, руб.: 12 000,00\n"
    "Выписка сформирована 01.04.2025.",
    "Выписка по счёту",
)


def test_a_month_is_that_of_the_named_company_not_of_any_line() -> None:
    # April occurs in the statement, but in no row of the company asked about
    asked = "Сколько нам заплатил «Зенит-Опт» в апреле 2025 года?"
    assert _abstains(asked, [MARCH_STATEMENT]) == "date"
    assert (
        _abstains("Сколько нам заплатил «Зенит-Опт» в марте 2025 года?", [MARCH_STATEMENT]) is None
    )


def test_a_year_no_document_speaks_of_is_declined() -> None:
    payslip = _doc(
        "Работник: Лаптева Ирина Сергеевна. Оклад: 96 000,00 руб. в месяц (с 01.07.2026).",
        "Расчётный листок за октябрь 2026 г.",
    )
    assert _abstains("Какой оклад был у Лаптевой в 2024 году?", [payslip]) == "date"
    assert _abstains("Какой оклад у Лаптевой в 2026 году?", [payslip]) is None


def test_the_period_of_a_heading_is_that_of_every_line() -> None:
    # the person is in a line that names no year; the heading names the year
    certificate = _doc(
        "Получатель дохода: Лаптева Ирина Сергеевна, дата рождения 14.02.1988\n"
        "Общая сумма дохода: 1 326 547,29",
        "Справка о доходах и суммах налога физического лица за 2025 год",
    )
    assert _abstains("Какой общий доход Лаптевой за 2025 год?", [certificate]) is None


def test_titles_lose_their_periods() -> None:
    assert undated("Расчётный листок за октябрь 2026 г.") == "Расчётный листок"
    assert undated("Справка о доходах за 2025 год") == "Справка о доходах"
    assert undated("Договор поставки № ПСК-45/2025") == "Договор поставки № ПСК-45/2025"


def test_who_and_a_role_asks_that_role() -> None:
    # «кто главный бухгалтер»: the role must be named, not the director who signed
    lease = _doc(
        "ООО «Глобус-Ресурс», в лице генерального директора Лаврова И. С., именуемое "
        "«Арендодатель», передаёт помещение.",
        "Договор аренды",
    )
    assert _abstains("Кто главный бухгалтер в ООО «Глобус-Ресурс»?", [lease]) == "attribute"
    assert _abstains("Кто является арендодателем по договору?", [lease]) is None


def test_a_role_is_stated_by_the_noun_of_its_activity() -> None:
    loan = _doc("Исполнение обязательств Заёмщика обеспечивается поручительством Лаврова И. С.")
    assert _abstains("Кто поручитель по займу?", [loan]) is None


def test_a_place_no_held_document_names_is_declined() -> None:
    lease = _doc("Арендная плата за цех в г. Тверь составляет 90 000 руб. в месяц.", "Аренда")
    card = build_card("a", "Аренда", lease.text)
    question = build_question("Сколько мы платим за аренду цеха в Дзержинске?", TODAY)
    found = coverage_abstention(question, [lease], [], True, [card])
    assert found is not None and found.kind == "name"
    question = build_question("Сколько мы платим за аренду цеха в Твери?", TODAY)
    assert coverage_abstention(question, [lease], [], True, [card]) is None


def test_a_possessor_between_the_question_word_and_its_noun_is_read_past() -> None:
    # «какой у нас ОГРН»: «у нас» does not hide the attribute asked
    assert _abstains("Какой у них ОГРН по акту сверки?", [ACT]) == "attribute"
    assert _abstains("Какой у них КПП по акту сверки?", [ACT]) is None


def test_a_balance_asked_for_today_needs_a_source_dated_today() -> None:
    """A statement's balance is that of its own date: «сейчас» asks today's."""
    assert _abstains("Какой сейчас остаток на нашем счёте?", [STATEMENT]) == "date"
    assert _abstains("Есть ли сегодня долг перед ООО «Зенит-Опт»?", [STATEMENT]) == "date"
    today = _doc("Остаток на 27.11.2026: 98 000,00 руб.", "Выписка по счёту")
    assert _abstains("Какой сейчас остаток на нашем счёте?", [today]) is None
    # without «now» the statement's own balance is asked; the law has no «today» of a balance
    assert _abstains("Какой остаток на счёте по выписке?", [STATEMENT]) is None
    assert _abstains("Какой сейчас остаток на счёте?", [STATEMENT], documents=False) is None


def _abstains_with_cards(question: str, chunks: list[Chunk], texts: dict[str, str]) -> str | None:
    cards = [build_card(name, name, text) for name, text in texts.items()]
    asked = build_question(question, TODAY, cards=cards)
    found = coverage_abstention(asked, chunks, [], True, cards)
    return found.kind if found else None


def test_what_a_value_is_of_must_be_spoken_of_by_the_documents() -> None:
    # a statement shows fees and interest on the balance: no overdraft at all
    text = (
        "Выписка по расчётному счёту № 40702810000000000001 за март 2025 г. "
        "Комиссия за ведение счёта 2 490,00 руб. Проценты на остаток 3 127,00 руб."
    )
    chunks = [_doc(text, "Выписка по расчётному счёту")]
    texts = {"statement": text}
    assert _abstains_with_cards("Какой у нас лимит овердрафта?", chunks, texts) == "attribute"
    assert _abstains_with_cards("Какая сумма комиссии за март 2025?", chunks, texts) is None


def test_a_body_number_and_a_form_code_name_no_document() -> None:
    notice = _doc(
        "Требование № 18-07/4412 о представлении пояснений. Пояснения представить "
        "не позднее 12.08.2025.",
        "Требование о представлении пояснений",
    )
    question = "ИФНС № 16 направила требование. Какой срок представления пояснений?"
    assert _abstains(question, [notice]) is None
    assert _abstains("Какой срок в требовании № 16?", [notice]) == "number"


def test_a_place_written_abbreviated_names_the_town() -> None:
    invoice = _doc("Грузополучатель: ООО «Стеллаж-Про», г. Реутов, ул. Победы, 5.", "Счёт-фактура")
    assert _abstains("В каком городе грузополучатель?", [invoice]) is None
    dated = _doc("Счёт-фактура от 13.03.2025 г. на сумму 64 000 руб.", "Счёт-фактура")
    assert _abstains("В каком городе грузополучатель?", [dated]) == "attribute"


def test_an_item_of_a_list_is_asked_not_required() -> None:
    count = _doc("Выявлена недостача: нитроаммофоска — 12 мешков на сумму 15 840,00 руб.", "Опись")
    assert _abstains("На какую сумму недостача и по какой позиции?", [count]) is None


def test_a_qualified_value_of_the_users_own_word_is_not_declined() -> None:
    # «станок» is the user's word for the «предмет лизинга»; «выкупная» is stated
    text = "3.3. Выкупная стоимость Предмета лизинга — 24 000 рублей."
    chunks = [_doc(text, "Договор лизинга")]
    question = "Какая выкупная стоимость станка по договору лизинга?"
    assert _abstains_with_cards(question, chunks, {"lease": text}) is None


def _waybill(text: str, title: str) -> Chunk:
    return Chunk(
        id=title, text=text, source="user_docs", title="Путевой лист № 51", document_id="w51"
    )


def test_a_relative_adjective_states_the_noun_asked() -> None:
    """«дизельное топливо» speaks of «дизель»; «число» does not state «численность»."""
    fuel = _doc("Топливо: дизельное, расход фактический 31 л.", "Путевой лист № 51")
    assert _abstains("Сколько дизеля ушло по путевому листу № 51?", [fuel]) is None
    staff = _doc("Выплачено 40 000 руб., в том числе премия 5 000 руб.", "Ведомость")
    assert _abstains("Какая численность работников в ведомости?", [staff]) == "attribute"


def test_a_model_is_named_without_its_number_and_in_other_passages() -> None:
    """«МАЗ-6312» is called «Вольво»; the waybill's mileage section speaks of the lorry
    its vehicle section names."""
    vehicle = _waybill("АВТОМОБИЛЬ. Марка: МАЗ-6312, гаражный номер 4.", "a")
    mileage = _waybill("Пробег за смену: 112 км.", "b")
    assert _abstains("Какой пробег у МАЗа по путевому листу?", [vehicle, mileage]) is None
    assert _abstains("Какой пробег у КРАЗа по путевому листу?", [vehicle, mileage]) == "name"


def test_a_payee_in_a_statement_row_does_not_lend_it_the_other_rows() -> None:
    """A statement names a person only in its row: another row's «оклад» is not theirs."""
    rows = [
        Chunk(id=f"s{i}", text=text, source="user_docs", title="Выписка", document_id="s")
        for i, text in enumerate(
            [
                "| 4 | 12.03.2025 | Петров Олег Игоревич | Выдача под отчёт | 9 000,00 |",
                "| 5 | 15.03.2025 | Зарплатный реестр | Оклад за февраль | 310 000,00 |",
            ]
        )
    ]
    assert _abstains("Какой оклад у Петрова Олега Игоревича?", rows) == "attribute"


def test_a_debt_asked_with_owe_for_today_needs_a_source_dated_today() -> None:
    """«сколько мы на сегодняшний день должны» asks today's debt; «должны заплатить» an
    obligation the documents state."""
    assert (
        _abstains("Сколько мы на сегодняшний день должны ООО «Зенит-Опт»?", [STATEMENT]) == "date"
    )
    rule = _doc("Арендатор обязан заплатить 50 000 руб. до 10 числа месяца.", "Договор аренды")
    assert _abstains("Сколько мы сейчас должны заплатить по договору аренды?", [rule]) is None


def test_a_headcount_asked_for_today_needs_a_source_dated_today() -> None:
    commission = _doc("Приёмку ведёт комиссия в составе не менее двух человек.", "Договор")
    assert _abstains("Сколько человек сейчас работает в компании?", [commission]) == "date"
    # without «now» the count a document states is asked
    assert _abstains("Сколько человек в комиссии по приёмке?", [commission]) is None


def test_a_contact_in_latin_letters_is_an_attribute() -> None:
    demand = _doc(
        "Исполнитель: инспектор Ларионова Дарья Евгеньевна, телефон +7 (495) 400-16-52.",
        "Требование",
    )
    assert _abstains("Какой e-mail у инспектора Ларионовой?", [demand]) == "attribute"
    mailed = _doc("Исполнитель: инспектор Ларионова Д. Е., e-mail: d.larionova@example.ru.")
    assert _abstains("Какой e-mail у инспектора Ларионовой?", [mailed]) is None


def test_an_attribute_named_by_its_adjective_is_stated() -> None:
    waybill = _doc("Топливо: дизельное топливо ДТ-Е-К5; выдано 120 л.", "Путевой лист")
    assert _abstains("Сколько дизеля выдали по путевому листу?", [waybill]) is None
    act = _doc("Монтаж и пусконаладочные работы — до 30.10.2026.", "Акт ОС-15")
    assert _abstains("Какие сроки монтажа и пусконаладки в акте?", [act]) is None
    assert _abstains("Какой пробег по акту?", [act]) == "attribute"


def test_a_make_with_its_model_number_is_called_by_the_make() -> None:
    waybill = _doc("Марка, модель: КАМАЗ-43253. Пробег за смену: 87 км.", "Путевой лист")
    assert _abstains("Какой пробег за смену у КАМАЗа?", [waybill]) is None


def test_a_price_asked_for_today_is_a_market_state() -> None:
    """«почём сейчас продают» asks today's price: a contract states its own deal's price on
    its own date; without «now», or of a document named by its kind, the price is answered."""
    contract = _doc("Цена стеллажа СТ-2 — 18 000 руб. за единицу с НДС.", "Договор поставки")
    assert _abstains("Почём сейчас поставщик продаёт стеллажи?", [contract]) == "date"
    assert _abstains("Какая сегодня цена стеллажа у поставщика?", [contract]) == "date"
    assert _abstains("По какой цене поставщик продаёт стеллажи?", [contract]) is None


def test_a_number_of_a_thing_the_documents_only_speak_about_is_declined() -> None:
    """A contract that obliges to insure states no policy's number; a number of what the
    documents hold is answered (invented trust-management contract)."""
    text = (
        "5.2. Управляющий обязан застраховать склад от пожара на страховую сумму "
        "не менее 9 000 000 рублей. Номер склада по техническому паспорту — 14."
    )
    chunks = [_doc(text, "Договор доверительного управления")]
    texts = {"trust": text}
    question = "Какой номер страхового полиса на склад?"
    assert _abstains_with_cards(question, chunks, texts) == "attribute"
    assert _abstains_with_cards("Какой номер склада по паспорту?", chunks, texts) is None


def test_a_name_asked_by_a_role_needs_the_role_in_the_companys_passages() -> None:
    """«Как зовут главного бухгалтера …»: a role the documents of that company do not name
    is declined; a role they name is answered."""
    act = _doc(
        "Исполнитель: ООО «Кедр-Сервис», в лице генерального директора Зуева П. А. "
        "Заказчик: ООО «Ольха», в лице директора Лунина Е. В.",
        "Акт оказанных услуг",
    )
    contacts = _doc("Главный бухгалтер ООО «Липа» — Серова Н. К.", "Договор подряда")
    accountant = "Как зовут главного бухгалтера ООО «Кедр-Сервис»?"
    assert _abstains(accountant, [act, contacts]) == "attribute"
    assert _abstains("Как зовут главного бухгалтера ООО «Липа»?", [act, contacts]) is None
    director = "Как зовут генерального директора ООО «Кедр-Сервис»?"
    assert _abstains(director, [act, contacts]) is None


def test_a_period_in_a_condition_is_the_case_a_rule_applies_to() -> None:
    """«если опоздаем в декабре 2026» names the event a held rule is applied to; a period
    asked for outside a condition is still checked."""
    rule = _doc(
        "6.1. За просрочку перечисления дохода управляющий уплачивает неустойку 0,2 % от "
        "суммы за каждый день просрочки.",
        "Договор доверительного управления",
    )
    late = "Если управляющий опоздает с перечислением в декабре 2026, какая неустойка в день?"
    assert _abstains(late, [rule]) is None
    assert _abstains("В случае просрочки в марте 2027 года какие пени за день?", [rule]) is None
    assert _abstains("Сколько неустойки управляющий заплатил за декабрь 2026?", [rule]) == "date"


def test_a_number_of_a_thing_only_another_document_speaks_of_is_declined() -> None:
    """A birth certificate in a grant decision is not the ownership certificate of the
    building a gift contract hands over."""
    gift = "2.1. Даритель передаёт Одаряемому склад площадью 120 кв. м, кадастровый номер 50:1:2."
    grant = "Материальная помощь выплачена на основании свидетельства о рождении ребёнка."
    chunks = [_doc(gift, "Договор дарения")]
    texts = {"gift": gift, "grant": grant}
    question = "Какой номер свидетельства о праве собственности на склад?"
    assert _abstains_with_cards(question, chunks, texts) == "attribute"
    assert _abstains_with_cards("Какой кадастровый номер склада?", chunks, texts) is None


def test_an_outcome_a_document_only_warns_of_is_declined() -> None:
    """«в итоге», «фактически» with a past verb ask how a case turned out: a letter that
    warns of a sanction («может быть», «за непредставление … — штраф») states none."""
    letter = _doc(
        "3. За непредоставление документов в срок — штраф 200 руб. за каждый документ. "
        "Если нарушение повторится, Фонд вправе заблокировать выплаты. "
        "4. Выявленные ошибки могут повлечь доначисление взносов и пени.",
        "Запрос Социального фонда",
    )
    assert _abstains("Какой штраф нам в итоге выписал Фонд по запросу?", [letter]) == "attribute"
    assert _abstains("Сколько взносов фактически доначислили по запросу Фонда?", [letter]) == (
        "attribute"
    )
    # a rule asked as a rule is answered
    assert _abstains("Какой штраф грозит за непредоставление документов?", [letter]) is None


def test_an_outcome_a_record_states_is_answered() -> None:
    """A record of what happened (an act, a statement) states the outcome in the past or
    in its rows: nothing there is a rule or a warning."""
    act = _doc(
        "Комиссия пересчитала товар на складе. Фактически принято 118 коробок на сумму "
        "354 000 руб.; недостача 2 коробки.",
        "Акт приёмки товара № 12",
    )
    assert _abstains("Сколько коробок в итоге приняли по акту № 12?", [act]) is None
    assert _abstains("На какую сумму фактически приняли товар по акту № 12?", [act]) is None


def _located_chunk(text: str, title: str, document: str) -> Chunk:
    return Chunk(id=document, text=text, source="user_docs", title=title, document_id=document)


def test_a_place_must_be_in_the_document_of_the_kind_asked() -> None:
    """«аренда склада в Озёрске»: a supply contract delivering to Озёрск holds no lease of a
    warehouse there; the lease the user holds is of other premises."""
    lease = "Договор аренды № 4\nАрендатору передаётся офис в г. Коломне, плата 90 000 руб."
    supply = "Договор поставки № 9\nТовар доставляется на склад Покупателя в г. Озёрске."
    texts = {"lease": lease, "supply": supply}
    cards = [build_card(name, name, text) for name, text in texts.items()]
    chunks = [
        _located_chunk(lease, "Договор аренды № 4", "lease"),
        _located_chunk(supply, "Договор поставки № 9", "supply"),
    ]

    def abstains(question: str) -> str | None:
        asked = build_question(question, TODAY, cards=cards)
        found = coverage_abstention(asked, chunks, [], True, cards)
        return found.kind if found else None

    assert abstains("Сколько в месяц стоит аренда склада в Озёрске?") == "name"
    assert abstains("Сколько в месяц стоит аренда офиса в Коломне?") is None
    assert abstains("Куда доставляется товар в Озёрске по договору поставки?") is None


def test_a_street_of_two_words_is_no_place_of_one() -> None:
    """«на Большой Покровской»: the common adjective of a two-word street is not a place
    to look for on its own."""
    from finagent.answering.coverage import _located

    assert not _located("Большой", "Сколько стоит уборка кафе на Большой Покровской?")
    assert _located("Озёрском", "Сколько стоит аренда склада в Озёрском по договору?")


LIABILITY = """ДОГОВОР № МО-4/2026
о полной индивидуальной материальной ответственности

г. Тула                                                  12 января 2026 г.

Общество с ограниченной ответственностью «Бета-Снаб» (ООО «Бета-Снаб»), именуемое в
дальнейшем «Работодатель», в лице директора Никитина Сергея Петровича, действующего на
основании Устава, с одной стороны, и

Семёнов Павел Ильич, паспорт 70 11 123456, занимающий должность кладовщика склада,
именуемый в дальнейшем «Работник», с другой стороны,

заключили настоящий договор о нижеследующем.

2.1. Товары Работник принимает от заведующего складом Лаврентьева Олега Петровича.
2.2. Работник ведёт учёт вверенного ему имущества.

4.1. Справочно: оклад Работника 72 000 руб. в месяц.
"""


def test_an_attribute_of_a_person_is_read_in_their_own_sentences() -> None:
    """A person another person's document names in another role (the warehouse head of a
    storekeeper's liability contract): the salary it states is its party's, not theirs."""
    chunk = Chunk(
        id="mo", text=LIABILITY, source="user_docs", title="Договор № МО-4/2026", document_id="mo"
    )
    texts = {"mo": LIABILITY}
    assert _abstains_with_cards("Какой оклад у заведующего Лаврентьева?", [chunk], texts) == (
        "attribute"
    )
    assert _abstains_with_cards("Какой оклад у Семёнова?", [chunk], texts) is None
    # a street named after a person is an address, not a person
    lease = "Наниматель вносит залог 40 000 руб. за квартиру по адресу: ул. Гоголя, 12."
    flat = Chunk(id="n", text=lease, source="user_docs", title="Договор найма", document_id="n")
    assert (
        _abstains_with_cards(
            "Какой залог по квартире на Гоголя, 12?", [flat, chunk], {"n": lease, "mo": LIABILITY}
        )
        is None
    )


def test_a_realised_result_a_contract_only_schedules_is_declined() -> None:
    """«фактически перечислил» asks what happened: a contract's term in the present or the
    future («перечисляется», «перечислит») states no payment made; a record does."""
    term = _doc(
        "5.3. Финансирование перечисляется Клиенту в течение 3 рабочих дней после "
        "получения реестра. 7.2. За нарушение срока перечисления средств Фактор уплачивает "
        "пени 0,1 % в день.",
        "Договор факторинга № Ф-12/2026",
    )
    record = _doc(
        "Финансирование по реестру № 2 перечислено Клиенту 14.04.2026.", "Уведомление фактора"
    )
    question = "Когда фактор фактически перечислил нам финансирование?"
    assert _abstains(question, [term]) == "attribute"
    assert _abstains(question, [record]) is None
    assert _abstains("Когда фактор перечислит нам финансирование?", [term]) is None


def _lease_and_statement() -> tuple[list[Chunk], dict[str, str]]:
    lease = (
        "Договор субаренды склада № С-4/2026\n"
        "ООО «Онега-Склад» (Арендодатель) и ООО «Волна» (Арендатор) заключили договор.\n"
        "4.1. Гарантийный взнос 80 000 рублей Арендатор перечисляет до 20 февраля 2026 г.\n"
        "4.2. За просрочку платежа предусмотрена неустойка 0,1 % за каждый день."
    )
    statement = (
        "Выписка по расчётному счёту ООО «Волна» за март 2026 г.\n"
        "№: 1; Дата: 03.03.2026; Контрагент: ООО «Онега-Склад», ИНН 7700000003; "
        "Назначение платежа: Арендная плата за март 2026 г.; Дебет: 120 000,00\n"
        "№: 2; Дата: 05.03.2026; Контрагент: Работники по реестру; "
        "Назначение платежа: Перечисление заработной платы за февраль 2026 г.; "
        "Дебет: 300 000,00\n"
        "№: 3; Дата: 06.03.2026; Контрагент: ООО «Кедр», ИНН 7700000004; "
        "Назначение платежа: Оплата по счёту № 15; Кредит: 50 000,00"
    )
    chunks = [
        Chunk(id="l", text=lease, source="user_docs", title="Договор субаренды", document_id="l"),
        Chunk(id="s", text=statement, source="user_docs", title="Выписка", document_id="s"),
    ]
    return chunks, {"l": lease, "s": statement}


def test_a_realised_payment_a_contract_only_schedules_is_declined() -> None:
    """«фактически перечислили» of a deposit the lease schedules and no row records: a
    payroll row speaks of «перечисление», but of no deposit and not to the landlord."""
    chunks, texts = _lease_and_statement()
    question = "Сколько гарантийного взноса мы фактически перечислили Онега-Складу?"
    assert _abstains_with_cards(question, chunks, texts) == "attribute"
    # «уже» with a short participle: a penalty the lease only provides for
    question = "Сколько неустойки уже выплачено Онега-Складу?"
    assert _abstains_with_cards(question, chunks, texts) == "attribute"
    # the rent the statement's row records is answered
    question = "Сколько мы фактически заплатили Онега-Складу за март 2026?"
    assert _abstains_with_cards(question, chunks, texts) is None


def test_a_bank_account_must_stand_beside_the_party() -> None:
    """A statement's title names the client's account; a payee's row has only its ИНН."""
    chunks, texts = _lease_and_statement()
    question = "Какой расчётный счёт у ООО «Кедр»?"
    assert _abstains_with_cards(question, chunks, texts) == "attribute"
    question = "Какой номер расчётного счёта у ООО «Волна»?"
    assert _abstains_with_cards(question, chunks, texts) is None


def test_the_pay_of_a_person_asked_by_a_verb_of_earning() -> None:
    """«сколько получает Ковалёв»: a director who signs an act has no pay stated there."""
    act = _doc(
        "Акт № 9 от 31.03.2026. Исполнитель: ООО «Кедр» в лице директора Ковалёва Ильи "
        "Петровича. Услуги оказаны на сумму 50 000 руб.",
        "Акт № 9",
    )
    assert _abstains("Сколько в месяц получает Ковалёв Илья Петрович?", [act]) == "attribute"
    payslip = _doc(
        "Расчётный листок за март 2026 г. Работник: Ковалёв Илья Петрович. Оклад 70 000 руб.",
        "Расчётный листок",
    )
    assert _abstains("Сколько в месяц получает Ковалёв Илья Петрович?", [payslip]) is None


def test_a_hyphenated_company_inflected_in_both_parts_is_named() -> None:
    # «на Глобусе-Ресурс» is «Глобус-Ресурс»: only the first part is inflected, which
    # the forms of the whole word (its last part inflected) do not read
    assert _abstains("Какой счёт выставлен на Глобусе-Ресурс и на какую сумму?", [ACT]) is None
    assert _abstains("Какой остаток у Зенита-Опт на 30.04.2025?", [STATEMENT]) is None
    # a hyphenated company no passage names is still declined
    assert _abstains("Какой счёт выставлен на Зените-Опте?", [ACT]) == "name"


def test_a_requisite_stands_beside_its_own_party() -> None:
    """A letter names its sender with ИНН and КПП and its addressee with an ИНН only: the
    sender's КПП is not the addressee's, the addressee's ИНН is answered."""
    letter = (
        "Коммерческое предложение № 14 от 2 марта 2026 г.\n"
        "ООО «Сосна-Проект»\n"
        "ИНН 7700000011, КПП 770001011, г. Москва, ул. Лесная, д. 3.\n"
        "Кому: ООО «Река-Порт», ИНН 7700000012, генеральному директору.\n"
        "Предлагаем поставку насосов на сумму 900 000 руб."
    )
    chunks = [Chunk(id="k", text=letter, source="user_docs", title="КП № 14", document_id="k")]
    texts = {"k": letter}
    assert _abstains_with_cards("Какой КПП у ООО «Река-Порт»?", chunks, texts) == "attribute"
    assert _abstains_with_cards("КПП у Река-Порт какой?", chunks, texts) == "attribute"
    assert _abstains_with_cards("Какой ИНН у ООО «Река-Порт»?", chunks, texts) is None
    assert _abstains_with_cards("Какой КПП у ООО «Сосна-Проект»?", chunks, texts) is None


def test_the_date_of_an_event_a_contract_only_schedules_is_declined() -> None:
    """«когда зарегистрировали» asks a record: a contract's term that the right passes on
    registration states no registration done."""
    contract = _doc(
        "Право на программу переходит к Покупателю с момента регистрации в Роспатенте "
        "договора. Вознаграждение 300 000 руб. уплачивается в течение 10 дней.",
        "Договор об отчуждении права",
    )
    assert _abstains("Когда Роспатент зарегистрировал договор?", [contract]) == "attribute"
    record = _doc(
        "Уведомление. Договор зарегистрирован Роспатентом 12.05.2026 за № 2026Д0012.",
        "Уведомление Роспатента",
    )
    assert _abstains("Когда Роспатент зарегистрировал договор?", [record]) is None


def test_a_sum_paid_that_only_a_demand_and_a_term_speak_of_is_declined() -> None:
    """«сколько мы заплатили» of an invoice a demand lists and a contract schedules: no
    payment recorded; a statement's row of the payment answers."""
    demand = _doc(
        "Требование № 5. Счёт-фактура № 31 от 11.04.2026 на сумму 240 000 руб. "
        "Оплата производится покупателем в течение 5 дней.",
        "Требование № 5",
    )
    question = "Сколько мы заплатили Онеге по счёту-фактуре № 31?"
    assert _abstains(question, [demand]) == "attribute"
    row = _doc(
        "Выписка. 15.04.2026 Онега, оплата по счёту-фактуре № 31, дебет 240 000,00 руб.",
        "Выписка",
    )
    assert _abstains(question, [demand, row]) is None


def test_a_word_for_money_is_not_a_missing_attribute() -> None:
    # «сколько денег», «сколько средств» ask the sum, whatever the document calls it
    loan = _doc("Займодавец передаёт Заёмщику заём в размере 900 000 руб.", "Договор займа")
    assert _abstains("сколько денег даёт займодавец по договору займа?", [loan]) is None
    assert _abstains("сколько средств передаётся по договору займа?", [loan]) is None


def test_a_clipped_compound_is_named_by_its_full_words() -> None:
    # «соцвыплата» is «социальная выплата» (the glossary teaches «соц-» by «соцвычет»)
    order = _doc("Работнику назначается социальная выплата к отпуску — 12 000 руб.", "Положение")
    assert _abstains("какая соцвыплата к отпуску?", [order]) is None
    # a compound the passage does not name is still declined
    assert _abstains("какая соцвыплата к отпуску?", [ACT]) == "attribute"


def test_money_on_an_account_asked_now_is_its_balance() -> None:
    question = "Сколько сейчас денег на счёте в Зенит-Банке?"
    assert _abstains(question, [STATEMENT]) == "date"


def test_the_verb_a_noun_is_made_of_states_the_noun_asked() -> None:
    """«отгрузка» is stated as «отгружено», «задержка» as «задержана»; a noun sharing only
    a short start with a verb («прибавка» — «прибыть») is not."""
    register = _doc(
        "Партия № 7 отгружена 14.09.2026 в адрес ООО «Полюс-Снаб» на 318 400,00 руб.",
        "Реестр отгрузок",
    )
    assert _abstains("Какая отгрузка была в адрес ООО «Полюс-Снаб»?", [register]) is None
    salary = _doc("Заработная плата за август задержана на 6 дней.", "Справка")
    assert _abstains("Какая задержка зарплаты за август по справке?", [salary]) is None
    arrival = _doc("Монтажник прибыл на объект 12.08.2026.", "Справка")
    assert _abstains("Какая прибавка монтажнику в справке?", [arrival]) == "attribute"


def test_a_name_the_question_gives_after_a_slash_may_state_the_attribute() -> None:
    """«отгул / ДО»: the timesheet states the code, not the word."""
    sheet = _doc("Кузьмин О. Д.: 08.09.2026 — ДО, 09.09.2026 — 8.", "Табель")
    assert _abstains("табель: у кого отгул / ДО и когда?", [sheet]) is None
    assert _abstains("табель: у кого отгул и когда?", [sheet]) == "attribute"


def test_only_a_participle_of_the_verb_states_the_noun_made_of_it() -> None:
    """«просрочена», «просроченная» state a «просрочка»; the infinitive or another form of
    a verb sharing its letters («установить», «поставить на учёт») names no «установка» or
    «поставка», and the document's own participle («договор подписан») no «подписка»."""
    debt = _doc("Задолженность покупателя просрочена на 45 дней.", "Справка о расчётах")
    assert _abstains("Какая просрочка по задолженности покупателя?", [debt]) is None
    overdue = _doc("Дебиторская задолженность — 910 000 руб., в т.ч. просроченная 215 000 руб.")
    assert _abstains("Какая просрочка дебиторки?", [overdue]) is None
    fitting = _doc("Подрядчик обязуется установить оборудование в течение 10 дней.", "Договор")
    assert _abstains("Какая установка оборудования указана в договоре?", [fitting]) == "attribute"
    signed = _doc("Договор подписан сторонами 03.02.2026.", "Договор оказания услуг № 5")
    assert _abstains("Какая подписка оформлена по договору?", [signed]) == "attribute"
    registration = _doc("Организация обязана поставить кассу на учёт в ИФНС.", "Положение")
    assert _abstains("Какая поставка указана в положении?", [registration]) == "attribute"


def test_a_stop_word_after_a_slash_is_no_other_name() -> None:
    """«оклад / в месяц»: the preposition after the slash names no attribute."""
    order = _doc("Работник принят в отдел снабжения с 01.02.2026.", "Приказ о приёме")
    assert _abstains("Какой оклад / в месяц у работника по приказу?", [order]) == "attribute"
    fine = _doc("За нарушение срока поставки начисляются пени 0,1 % в день.", "Договор")
    assert _abstains("какая неустойка/пени за нарушение срока?", [fine]) is None


def _priced_chunk(text: str, title: str, document: str) -> Chunk:
    return Chunk(id=document, text=text, source="user_docs", title=title, document_id=document)


def test_the_thing_a_price_is_asked_of_must_be_one_the_documents_speak_of() -> None:
    """«сколько стоит банкет»: a venue's price list names only its halls, so no price of a
    banquet is the user's; a hall it lists is answered, and so is a thing the contract names
    far from the passage with its price (the held document speaks of it)."""
    venue = (
        "Договор на проведение мероприятий № 12\n"
        "1. Исполнитель предоставляет залы для деловых встреч и трансфер участников.\n"
        "2. Стоимость аренды малого зала — 5 000 руб. в час, большого зала — 9 000 руб. в час."
    )
    cards = [build_card("venue", "Договор № 12", venue)]
    prices = _priced_chunk(venue.split("\n")[2], "Договор № 12", "venue")

    def abstains(question: str) -> str | None:
        asked = build_question(question, TODAY, cards=cards)
        found = coverage_abstention(asked, [prices], [], True, cards)
        return found.kind if found else None

    assert abstains("сколько стоит банкет по договору?") == "attribute"
    assert abstains("Сколько стоит большой зал в час?") is None
    # «трансфер» is named in the contract's first clause, not in the passage with prices
    assert abstains("сколько стоит трансфер по договору?") is None
    # a pronoun or a name is no priced thing of its own; the Code is not checked this way
    assert abstains("Сколько он стоит по договору?") is None
    asked = build_question("сколько стоит банкет по договору?", TODAY, cards=cards)
    assert coverage_abstention(asked, [prices], [], False, cards) is None


def test_a_thing_priced_in_the_plural_or_the_future_is_checked_too() -> None:
    """«сколько стоят …», «сколько будет стоить …»: the verb is «стоить» in any form (the
    plural's likeliest reading is «стоять»), so the priced thing is checked as «стоит» is."""
    text = (
        "Договор на техническое обслуживание № 4\n"
        "1. Исполнитель проводит осмотр лифтов и замену тросов.\n"
        "2. Стоимость осмотра — 7 000 руб., замены тросов — 30 000 руб."
    )
    cards = [build_card("lift", "Договор № 4", text)]
    prices = _priced_chunk(text.split("\n")[2], "Договор № 4", "lift")

    def abstains(question: str) -> str | None:
        asked = build_question(question, TODAY, cards=cards)
        found = coverage_abstention(asked, [prices], [], True, cards)
        return found.kind if found else None

    assert abstains("Сколько стоят покраска кабин по договору?") == "attribute"
    assert abstains("Сколько будет стоить покраска кабин по договору?") == "attribute"
    assert abstains("Сколько будет стоить замена тросов по договору?") is None


def test_a_clipped_compound_priced_is_not_checked() -> None:
    """«бухобслуживание» clipped by the user is written in full by the contract."""
    text = "Договор № 8\nБухгалтерское обслуживание — 9 000 руб. в месяц."
    cards = [build_card("acc", "Договор № 8", text)]
    asked = build_question("Сколько стоит бухобслуживание по договору?", TODAY, cards=cards)
    chunk = _priced_chunk(text, "Договор № 8", "acc")
    assert coverage_abstention(asked, [chunk], [], True, cards) is None


def test_a_qualified_value_asked_by_a_noun_phrase_alone_is_checked() -> None:
    """«залоговая стоимость станка?» with no question word asks the value as «какая
    залоговая стоимость станка?» does: a card naming only the «залоговый билет» states no
    such value; one that states it answers."""
    ledger = _doc("Станок передан по залоговому билету № 7. Цена поставки — 640 000 руб.", "Акт")
    assert _abstains("залоговая стоимость станка?", [ledger]) == "attribute"
    assert _abstains("какая залоговая стоимость станка?", [ledger]) == "attribute"
    stated = _doc("Залоговая стоимость станка — 590 000 руб.", "Акт")
    assert _abstains("залоговая стоимость станка?", [stated]) is None
    # the law is not checked this way
    assert _abstains("залоговая стоимость станка?", [ledger], documents=False) is None


def test_the_clipped_fiks_is_covered_by_a_fixed_amount() -> None:
    # accountants' «фикс» names what a source calls «фиксированный»; a passage without
    # either still leaves it unnamed
    fixed = _doc("Фиксированный платёж по договору составляет 12 000 руб. в месяц.", "Договор")
    other = _doc("Платёж по договору вносится до 5-го числа месяца.", "Договор")
    assert _abstains("какой фикс по договору?", [fixed]) is None
    assert _abstains("какой фикс по договору?", [other]) == "attribute"
