"""The output checks on an LLM answer: empty, cut, tool-call text, copied prompt or context."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from finagent.answering.output_checks import (
    COPIED_CONTEXT_SHARE,
    note_for,
    prompt_scaffold,
    reply_problem,
    reply_shares,
    was_cut,
)

SYSTEM = (
    "Ты — помощник бухгалтера. Отвечай только по источникам из контекста, ставь ссылки [n] "
    "после каждого факта и не придумывай цифр, которых нет в источниках."
)
TEMPLATE = "Контекст (пронумерованные источники):\n\n{context}\n\nВопрос пользователя: {question}"
PASSAGE = (
    "Организация вправе уменьшить налог на сумму расходов на обучение работников, если "
    "обучение проводится по договору с образовательной организацией, имеющей лицензию, и "
    "работник заключил трудовой договор не позднее трёх месяцев после окончания обучения."
)
CONTEXT = f"### Общие сведения\nСегодня: 2025-04-01.\n\n### База знаний\n[1] Расходы\n{PASSAGE}"
SCAFFOLD = prompt_scaffold(SYSTEM, TEMPLATE, CONTEXT)


def problem(text: str, cut: bool = False) -> str | None:
    return reply_problem(text, cut, SCAFFOLD, CONTEXT)


def test_an_answer_that_quotes_and_explains_passes() -> None:
    answer = (
        "## Краткий вывод\nРасходы на обучение уменьшают налог, если у учебного заведения "
        f"есть лицензия [1]: «{PASSAGE}» [1].\n\n## Подробный анализ\nВажно, чтобы работник "
        "остался в компании: договор с ним подписывают в пределах трёх месяцев [1]."
    )
    assert problem(answer) is None


def test_copies_of_the_prompt_or_the_context_are_caught() -> None:
    assert problem(f"Контекст (пронумерованные источники):\n{CONTEXT}\n{SYSTEM}") == (
        "copied_prompt"
    )
    assert problem(f"Ответ: {PASSAGE}") == "copied_context"


def test_the_shares_are_measured_whether_or_not_a_check_fires() -> None:
    """What the lane tunes the thresholds on: a genuine answer's unquoted words are its
    own, a copied passage's are the context's."""
    genuine = reply_shares(
        f"## Краткий вывод\nРасходы на обучение уменьшают налог при лицензии [1]: «{PASSAGE}» [1].",
        SCAFFOLD,
        CONTEXT,
    )
    copied = reply_shares(f"Ответ: {PASSAGE}", SCAFFOLD, CONTEXT)
    assert genuine["context"] < COPIED_CONTEXT_SHARE <= copied["context"]
    assert copied["words"] == len(PASSAGE.split()) + 1 and 0 <= copied["prompt"] < 0.3


def test_empty_tool_text_and_cut_replies_are_caught() -> None:
    assert problem("  \n") == "empty"
    assert problem('{"name": "search_kb", "arguments": {"query": "обучение"}}') == (
        "tool_call_text"
    )
    assert problem("<tool_call>\n</tool_call>") == "tool_call_text"
    assert problem("## Краткий вывод\nРасходы на обучение уменьшают", cut=True) == "cut"
    cut = AIMessage("…", response_metadata={"finish_reason": "length"})
    assert was_cut(cut) and not was_cut(AIMessage("…", response_metadata={"finish_reason": "stop"}))


def test_the_note_says_why_in_russian() -> None:
    note = note_for("copied_context")
    assert "скопировала" in note and "найденных фрагментов" in note


def test_a_reply_that_keeps_the_formats_placeholders_is_a_copy() -> None:
    """The first-line pattern is written with placeholders, never with a real example a
    small model could repeat as its answer; a placeholder left in a reply is a copy."""
    from finagent.prompts import load_prompt

    fmt = load_prompt("answer_format")
    first_line_rule = next(line for line in fmt.splitlines() if "по образцу" in line)
    pattern = first_line_rule.split("по образцу «", 1)[1].split("»", 1)[0]
    assert not any(ch.isdigit() for ch in pattern)  # no figure to repeat
    scaffold = prompt_scaffold(f"{SYSTEM}\n{fmt}", TEMPLATE, CONTEXT)
    copied = f"## Краткий вывод\n{pattern.replace('[n]', '[1]')} «{PASSAGE}» [1]."
    assert reply_problem(copied, False, scaffold, CONTEXT) == "copied_prompt"
    filled = (
        "## Краткий вывод\nРасходы на обучение уменьшают налог — при лицензии учебного "
        f"заведения (договор с ним) [1]. «{PASSAGE}» [1]."
    )
    assert reply_problem(filled, False, scaffold, CONTEXT) is None
