"""Two refusals that still tell the reader what applies instead.

- A told rule with a condition the Code lacks (:data:`~finagent.legal.stated_rule.STATED_RULE`):
  the rule is declined, with the Code's own rules on the point; the Code's count of the
  same question without the told rule follows as a separate, labelled reading (never an
  «Ответ:» line: the user asked for another rule's count), or, when that count misses a
  fact, what the Code's count needs.
- пени asked on a contract debt between parties (:data:`~finagent.legal.law_scope.OTHER_LAW`
  with a contract word): the Code's пени (ст. 75 НК РФ) are charged on taxes, levies and
  contributions only; a delay under a contract is civil law (ст. 330, 395 ГК РФ).
  Nothing is computed.
- any other debt or deadline the question ties to another law (``OTHER_LAW`` with a law
  of the lexicon's ``governing_laws``: customs payments, injury contributions, КоАП
  fines, a write-off «для самозанятых»): the refusal names that law and what it governs.
  Nothing is computed and nothing is asked back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from finagent.answering.calc_common import CalcOutcome
from finagent.legal.calc_lexicon import GoverningLaw, phrases
from finagent.legal.calc_text import CalcText

RULE_NOT_IN_CODE = (
    "## Такого правила в НК РФ нет\n"
    "Посчитать срок по названному правилу нельзя: Налоговый кодекс не связывает начало "
    "срока со временем суток, когда получен документ, не переносит его начало на другой "
    "день недели и не добавляет к сроку дней «на отправку». По ст. 6.1 НК РФ срок, "
    "исчисляемый днями, начинается на следующий день после события, которым определено его "
    "начало (п. 2); срок в рабочих днях не включает выходные и нерабочие праздничные дни "
    "(п. 6); если последний день срока нерабочий, срок оканчивается в ближайший следующий "
    "рабочий день (п. 7); действие можно совершить до 24 часов последнего дня срока (п. 8). "
    "Документ, отправленный заказным письмом, считается полученным на шестой рабочий день "
    "со дня отправки (п. 4 ст. 31 НК РФ)."
)
CODE_READING = "## Срок по правилам НК РФ (без названного вами условия)"
CODE_READING_MISSING = "Чтобы посчитать срок по правилам НК РФ, уточните:"

CONTRACT_DEBT = (
    "## Пени по НК РФ здесь не применяются\n"
    "Пени по ст. 75 НК РФ начисляются только на недоимку по налогам, сборам и страховым "
    "взносам. Просрочка по договору между сторонами — долг по гражданскому праву, и "
    "рассчитывать его «как пени по налогам» нельзя. Применяются договор и ГК РФ: неустойка, "
    "если она установлена договором или законом (ст. 330 ГК РФ; для государственных "
    "контрактов — ст. 34 Закона № 44-ФЗ), а при просрочке оплаты без договорной неустойки — "
    "проценты за пользование чужими денежными средствами по ст. 395 ГК РФ (по ключевой "
    "ставке Банка России, действовавшей в соответствующие периоды; если договором "
    "предусмотрена неустойка, проценты по ст. 395 не взыскиваются, если договором не "
    "предусмотрено иное, — п. 4 ст. 395 ГК РФ). Налоговый калькулятор такие суммы не "
    "считает: сверьте условия договора об ответственности за просрочку."
)

OTHER_LAW_HEADING = "## Налоговый кодекс здесь не применяется"


def other_law_refusal(law: GoverningLaw) -> str:
    """The refusal of a question another law governs, naming that law."""
    return (
        f"{OTHER_LAW_HEADING}\n"
        f"- **Применимый закон:** {law.law}.\n"
        f"- **Что он регулирует:** {law.what}.\n\n"
        "Налоговый калькулятор считает только пени по ст. 75 НК РФ и сроки по правилам "
        "ст. 6.1 НК РФ, поэтому эту дату или сумму не рассчитывает: порядок, сроки и "
        "размер ответственности определяются названным законом и документом, которым "
        "начислен долг."
    )


_STRIPPED_HEADINGS = ("## Краткий вывод\n",)


def code_reading(markdown: str) -> str:
    """A computed answer relabelled as the Code's reading: no «Ответ:» line claimed."""
    for heading in _STRIPPED_HEADINGS:
        markdown = markdown.replace(heading, "")
    return markdown.replace("**Ответ: ", "**По НК РФ: ")


async def stated_rule_answer(
    stripped: str, answer: Callable[[str], Awaitable[CalcOutcome]]
) -> CalcOutcome:
    """The refusal of a told rule, then the Code's count of ``stripped`` (the question
    without the told rule) as ``answer`` gives it: computed, asked back, or omitted."""
    parts = [RULE_NOT_IN_CODE]
    debug: dict[str, object] = {"declined": "rule_not_in_code"}
    if stripped.strip():
        outcome = await answer(stripped)
        debug["code_reading"] = outcome.mode
        if outcome.mode in ("answer", "variants") and outcome.ok:
            parts += ["", CODE_READING, code_reading(outcome.markdown)]
        elif outcome.mode == "clarify":
            asked = outcome.markdown.split("\n", 1)[1] if "\n" in outcome.markdown else ""
            if asked:
                parts += ["", CODE_READING_MISSING, asked]
    return CalcOutcome("\n".join(parts), True, debug, "decline")


def contract_debt(text: CalcText) -> bool:
    """The question's debt is a contract's («срок по договору», «поставка», «претензия»)."""
    return any(text.has(p) for p in phrases("contract_debts"))
