"""The calc answer of an ambiguous question: every reading computed, none claimed."""

from __future__ import annotations

from tests.unit.calc_reading import ask


async def test_ambiguous_question_gets_both_dates_and_no_single_answer() -> None:
    outcome = await ask(
        "Проверка контрагента: 5 мая 2025 года нам пришло требование по ст. 93.1 о документах "
        "по конкретной сделке с ним. До какого числа ответить?",
        penalties=False,
    )
    answer = outcome.markdown
    assert outcome.ok and "Ответ:" not in answer
    assert "Уточните" in answer
    # 5 working days (abz. 1 p. 5 art. 93.1) and 10 working days (abz. 2), from Mon 05.05.2025;
    # 08-11.05.2025 are days off: 06, 07, 12, 13, 14 | ... 15, 16, 19, 20, 21
    assert "абз. 1" in answer and "**14.05.2025**" in answer
    assert "абз. 2" in answer and "**21.05.2025**" in answer
    assert "п. 2 ст. 6.1 НК РФ" in answer and "п. 6 ст. 6.1 НК РФ" in answer


async def test_single_reading_cites_the_norm_and_the_extension() -> None:
    outcome = await ask(
        "Решение о назначении выездной проверки вынесено 10.01.2025, затем срок продлили до "
        "шести месяцев. Когда истекает продлённый срок?",
        penalties=False,
    )
    answer = outcome.markdown
    assert "**Ответ: 10.07.2025**" in answer
    assert "п. 6 ст. 89 НК РФ" in answer and "п. 5 ст. 6.1 НК РФ" in answer
    assert "продления" in answer


def test_a_pensioner_is_not_a_penalty_question() -> None:
    from finagent.legal.calc_extract import asks_penalty
    from finagent.legal.calc_text import read_question

    def is_penalty_question(text: str) -> bool:
        return asks_penalty(read_question(text))

    assert is_penalty_question("Сколько пеней на 100 000 руб.?")
    assert is_penalty_question("Какая пеня за день?")
    assert not is_penalty_question("Пенсионер заплатил налог наличными 26.12.2024")
