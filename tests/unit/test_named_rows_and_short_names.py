"""A statement's row picked by the day or month the question names and by an abbreviation
the row writes out; a numbered row by the ordinal of its noun; a Word table's rows read with
their column labels; a CamelCase company named by its leading segments (own wordings)."""

from __future__ import annotations

from datetime import date

from finagent.answering.coverage import coverage_abstention
from finagent.answering.document_sentences import document_sentences, rerank_document_sentences
from finagent.answering.evidence import Candidate, sentences_of
from finagent.answering.named_words import dated_words, ordinal_words, row_number, spelled_out
from finagent.answering.sentence_profile import profile
from finagent.cards.build import build_card
from finagent.language.lemmas import leading_names
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)

STATEMENT = """Выписка по расчётному счёту № 40702810000000000077
Клиент: ООО «Лесная Поляна», ИНН 6671000001
| № | Дата | Контрагент | Назначение платежа | Дебет, руб. |
| 1 | 03.04.2026 | ООО «ТеплоСетьСервис» | Оплата отопления за апрель 2026 г. | 41 300,00 руб. |
| 2 | 14.04.2026 | ООО «Канцлер» | Бумага по счёту № 77 за апрель 2026 г. | 9 800,00 руб. |
| 3 | 28.04.2026 | Казначейство России | Единый налоговый платёж. | 233 150,00 руб. |
| 4 | 16.04.2026 | ООО «ТеплоСетьСервис» | Пени по отоплению за март 2026 г. | 1 120,00 руб. |
"""


def _first_row(question: str) -> str:
    card = build_card("st", "statement", STATEMENT)
    chunk = Chunk(id="c", text=STATEMENT, source="user_docs", title=card.title, document_id="st")
    rows = [line for line in STATEMENT.splitlines() if line.startswith("| ")][1:]
    ranked = [Candidate(chunk, 1, s, 0, i, score=float(i)) for i, s in enumerate(rows)]
    asked = build_question(question, TODAY, cards=[card])
    return rerank_document_sentences(asked, ranked)[0].sentence


def test_an_abbreviation_and_a_month_pick_the_row_that_writes_them_out() -> None:
    # «ЕНП» is «Единый налоговый платёж»; «в апреле» is the row dated 28.04.2026, which
    # names no month by its name while the other rows do
    assert "233 150,00" in _first_row("сколько перечислили ЕНП в апреле по выписке?")


def test_a_named_day_picks_the_row_of_that_day() -> None:
    row = _first_row("какую сумму списали в пользу ООО «ТеплоСетьСервис» 16 апреля 2026 года?")
    assert "1 120,00" in row


def test_dated_and_spelled_out_words() -> None:
    row = profile("| 3 | 28.04.2026 | Единый налоговый платёж | 233 150,00 |")
    day = build_question("что ушло 28 апреля 2026 г.?", TODAY)
    assert dated_words(day, {"апрель"}, row) == 2  # the day and its month
    month = build_question("что ушло в апреле?", TODAY)
    assert dated_words(month, {"апрель"}, row) == 1
    assert dated_words(month, {"май"}, row) == 0
    # a day without its year names no calendar date, and its month is no month alone
    assert dated_words(build_question("что ушло 28 апреля?", TODAY), {"апрель"}, row) == 0
    assert spelled_out({"енп"}, row) == 1
    assert spelled_out({"енс"}, row) == 0  # «единый налоговый счёт» is not written out


def test_leading_segments_of_a_camelcase_name() -> None:
    assert "теплосеть" in leading_names("ТеплоСетьСервис")
    assert leading_names("ТеплоСеть") == frozenset()  # two segments: no shortening
    assert leading_names("Тепло-Сеть-Сервис") == frozenset()


def test_a_camelcase_company_shortened_and_inflected_is_named() -> None:
    chunk = Chunk(
        id="c",
        text=STATEMENT,
        source="user_docs",
        title="Выписка по расчётному счёту",
        document_id="st",
    )
    named = build_question("сколько ушло ТеплоСети за отопление?", TODAY)
    assert coverage_abstention(named, [chunk], [], True) is None
    other = build_question("сколько ушло ГорВодоКаналу за воду?", TODAY)
    found = coverage_abstention(other, [chunk], [], True)
    assert found is not None and found.kind == "name"


SCHEDULE = """Соглашение о рассрочке № Р-9/2026
2.1. Долг погашается четырьмя платежами по графику;
проценты уплачиваются с каждым платежом по графику.
| № | Срок платежа | Сумма платежа, руб. |
|---|---|---|
| 1 | 10.02.2026 | 50 000,00 |
| 2 | 10.03.2026 | 70 000,00 |
| 3 | 10.04.2026 | 70 000,00 |
| 4 | 11.05.2026 | 70 000,00 |
"""


def _schedule_first(question: str) -> str:
    card = build_card("sch", "schedule", SCHEDULE)
    chunk = Chunk(id="c", text=SCHEDULE, source="user_docs", title=card.title, document_id="sch")
    units = sentences_of(SCHEDULE)
    ranked = [Candidate(chunk, 1, s, 0, i, score=0.0) for i, s in enumerate(units)]
    return rerank_document_sentences(build_question(question, TODAY, cards=[card]), ranked)[
        0
    ].sentence


def test_an_ordinal_picks_the_numbered_row_of_its_noun() -> None:
    assert "11.05.2026" in _schedule_first("когда заключительный платёж по рассрочке?")
    assert "10.03.2026" in _schedule_first("до какой даты внести второй платёж по рассрочке?")


def test_an_ordinal_of_another_noun_names_no_row() -> None:
    rows = [(2, "платеж")]
    assert ordinal_words(2, rows, frozenset({"платеж", "срок"}), 4) == 2
    assert ordinal_words(2, [(2, "квартал")], frozenset({"платеж", "срок"}), 4) == 0
    assert ordinal_words(4, [(None, "платеж")], frozenset({"платеж"}), 4) == 2
    assert row_number("№: 3; Срок платежа: 10.04.2026") == 3
    assert row_number("3.1. Платёж вносится") is None
    assert row_number("№ взноса: 2; Срок уплаты: не позднее 10.04.2026") == 2
    assert row_number("Этап: 3; Срок окончания: 30.09.2026") == 3
    assert row_number("Срок: 10 рабочих дней") is None


def test_a_word_table_row_is_a_unit_with_its_column_labels() -> None:
    text = (
        "Генеральный директор ____ А. Р. Туманов\n"
        "Этап | Доля | Сумма с НДС, руб. | Срок\n"
        "Первый этап | 30 % | 120 000,00 | в течение 5 рабочих дней\n"
        "Второй этап | 70 % | 280 000,00 | в течение 10 рабочих дней"
    )
    units = document_sentences(text)
    assert "Этап: Второй этап; Доля: 70 %; Сумма с НДС, руб.: 280 000,00" in units[-1]
    assert units[0].endswith("Туманов")


def test_a_document_date_names_no_row() -> None:
    row = profile("| 3 | 28.04.2026 | Единый налоговый платёж | 233 150,00 руб. |")
    named = build_question("кто подписал акт № 4 от 28.04.2026?", TODAY)
    assert dated_words(named, set(), row) == 0
