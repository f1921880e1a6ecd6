"""A clarifying question that repeats the orchestrator prompt's examples is no question."""

from finagent.routing.llm_router import copies_prompt

PROMPT = (
    "5 — вопрос нельзя понять без уточнения: например «сколько стоит доставка груза в "
    "Казань весом 40 тонн» — задай 1–3 уточняющих вопроса."
)


def test_a_copied_example_is_caught_and_a_real_question_passes() -> None:
    query = "Как учесть расходы?"
    assert copies_prompt("Сколько стоит доставка груза в Казань весом 40 тонн?", PROMPT, query)
    assert not copies_prompt("Какие именно расходы вы хотите учесть?", PROMPT, query)


def test_the_users_own_words_do_not_count_as_copied() -> None:
    query = "Сколько стоит доставка груза в Казань?"
    assert not copies_prompt("Сколько стоит доставка груза в Казань: на какую дату?", PROMPT, query)
