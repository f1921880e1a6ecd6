"""Totals over a document's table rows and the figure check of computed results
(finagent.answering.row_totals, finagent.answering.figures.computed)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from finagent.answering.evidence import FULL, Candidate
from finagent.answering.figures import check_figures
from finagent.answering.row_totals import asked_months, row_total, shown_sum
from finagent.language.money import digits_of
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)
ROWS = (
    "№: 1; Дата: 02.04.2026; Плательщик: ООО «Берёзка-Опт», ИНН 5401000001; "
    "Назначение: оплата по счёту 15; Приход, руб.: 250 000,00",
    "№: 2; Дата: 09.04.2026; Получатель: ООО «Берёзка-Опт», ИНН 5401000001; "
    "Назначение: возврат излишне полученного; Расход, руб.: 40 000,00",
    "№: 3; Дата: 20.04.2026; Плательщик: ООО «Берёзка-Опт», ИНН 5401000001; "
    "Назначение: оплата по счёту 19; Приход, руб.: 125 500,50",
    "№: 4; Дата: 05.05.2026; Плательщик: ООО «Берёзка-Опт», ИНН 5401000001; "
    "Назначение: оплата по счёту 23; Приход, руб.: 90 000,00",
    "№: 5; Дата: 21.04.2026; Плательщик: ИП Кравец, ИНН 540100000222; "
    "Назначение: оплата по счёту 20; Приход, руб.: 77 000,00",
)


def _register(full: bool = True) -> list[Candidate]:
    text = "\n".join(ROWS)
    meta = {FULL: True} if full else {}
    chunk = Chunk(
        id="reg:full", text=text, source="user_docs", title="Реестр платежей", metadata=meta
    )
    chunk.document_id = "reg"
    return [Candidate(chunk, 2, row, 0, i) for i, row in enumerate(ROWS)]


def test_rows_of_the_party_direction_and_month_are_summed_as_an_equation() -> None:
    question = build_question("сколько всего поступило от Берёзка-Опт в апреле 2026?", TODAY)
    total = row_total(question, _register())
    assert total is not None
    line = total.lines()[0]
    # the outgoing row 2, the May row 4 and the other party's row 5 are left out
    assert line.startswith("Всего — 375 500,50 руб.: 250 000,00 + 125 500,50 = 375 500,50 руб.")
    assert "2 строки" in line and "№ 1, 3" in line
    # the total passes the figure check only as the equation's result
    checked, report = check_figures(line, [*ROWS])
    assert not report.removed and checked == line


def test_the_other_direction_and_a_part_of_a_document_give_no_total() -> None:
    paid = build_question("сколько всего перечислили Берёзка-Опт за апрель 2026?", TODAY)
    total = row_total(paid, _register())
    assert total is not None and total.sums == ("40 000,00",)
    asked = build_question("сколько всего поступило от Берёзка-Опт в апреле 2026?", TODAY)
    assert row_total(asked, _register(full=False)) is None  # retrieved rows may be partial
    no_total = build_question("сколько поступило от Берёзка-Опт 2 апреля 2026?", TODAY)
    assert row_total(no_total, _register()) is None


def test_an_invented_or_miscomputed_figure_is_still_removed() -> None:
    sources = ["Оплачено 250 000,00 руб. и 125 500,50 руб."]
    wrong = "Всего — 385 500,50 руб.: 250 000,00 + 125 500,50 = 385 500,50 руб."
    _, report = check_figures(wrong, sources)
    assert len(report.removed) == 2
    invented = "Всего — 400 000,00 руб.: 250 000,00 + 150 000,00 = 400 000,00 руб."
    _, report = check_figures(invented, sources)  # 150 000,00 is in no source
    assert len(report.removed) == 2
    bare = "Всего — 375 500,50 руб."
    _, report = check_figures(bare, sources)  # a result without its equation
    assert report.removed == ["375 500,50 руб"]
    half = "Доля — 62 750,25 руб.: 125 500,50 / 2 = 62 750,25 руб."
    _, report = check_figures(half, sources)  # the divisor 2 is in no source
    assert len(report.removed) == 2
    _, report = check_figures(half, [*sources, "сколько на каждого из 2 участников?"])
    assert not report.removed


def test_the_evaluations_figure_count_accepts_only_an_equation_that_holds() -> None:
    from evals.direct.figures import unsupported_figures

    sources = ["Поступило 1 284 000,00 руб. и 960 000,00 руб."]
    shown = (
        "## Краткий вывод\nВсего — 2 244 000,00 руб.: 1 284 000,00 + 960 000,00 = 2 244 000,00 руб."
    )
    assert unsupported_figures(shown, sources, "сколько всего?") == []
    bare = "## Краткий вывод\nВсего — 2 244 000,00 руб. [1]."
    assert unsupported_figures(bare, sources, "сколько всего?") == ["2 244 000,00 руб"]
    invented = (
        "## Краткий вывод\nВсего — 2 344 000,00 руб.: "
        "1 284 000,00 + 1 060 000,00 = 2 344 000,00 руб."
    )
    assert len(unsupported_figures(invented, sources, "сколько всего?")) == 2


def test_an_equation_too_long_to_round_is_not_accepted_and_does_not_raise() -> None:
    from finagent.answering.figures import computed

    long = "7" * 31
    shown = f"Всего — {long}5 руб.: {long} + 5 = {long}5 руб."
    assert computed(shown, {long, "5"}) == set()  # Decimal cannot round it to the kopeck


def test_months_joined_by_and_are_listed_a_dash_or_po_makes_a_range() -> None:
    listed = build_question("сколько всего поступило от Берёзка-Опт за апрель и июнь 2026?", TODAY)
    assert asked_months(listed) == ({4, 6}, 2026)
    ranged = build_question("сколько всего поступило от Берёзка-Опт с апреля по июнь 2026?", TODAY)
    assert asked_months(ranged) == ({4, 5, 6}, 2026)
    dashed = build_question("сколько всего перечислили Берёзка-Опт за февраль–апрель?", TODAY)
    assert asked_months(dashed) == ({2, 3, 4}, None)
    # a listed pair sums only the rows of the months named: April's rows, not May's
    total = row_total(
        build_question("сколько всего поступило от Берёзка-Опт за апрель и июнь 2026?", TODAY),
        _register(),
    )
    assert total is not None and total.sums == ("250 000,00", "125 500,50")


def test_a_total_is_shown_with_kopecks_and_its_rows_counted_in_agreement() -> None:
    assert shown_sum(Decimal("3300000")) == "3 300 000,00"
    assert shown_sum(Decimal("77000.5")) == "77 000,50"
    assert digits_of(Decimal("3300000")) == "3 300 000"
    one = row_total(
        build_question("сколько всего поступило от Кравец за апрель?", TODAY), _register()
    )
    assert one is not None and "(1 строка " in one.lines()[0]


def test_a_range_word_counts_only_right_between_the_two_months() -> None:
    # «по» of «по счёту» stands between the months but joins the account, not a range
    listed = build_question("Сколько оплатили за февраль по счёту 17 и за апрель?")
    assert asked_months(listed)[0] == {2, 4}
    assert asked_months(build_question("Сколько оплатили с февраля по апрель?"))[0] == {2, 3, 4}
