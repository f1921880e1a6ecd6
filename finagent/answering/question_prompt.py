"""The typed question and the card values as the LLM's prompt states them."""

from __future__ import annotations

from finagent.answering.card_evidence import CardAnswer
from finagent.answering.direct import subject_of
from finagent.question.model import Question

_TYPE_NAMES = {
    "rate": "ставка или процент",
    "amount": "сумма",
    "date": "дата",
    "period": "срок",
    "party": "сторона или название",
    "limit": "лимит или предел",
    "yes_no": "да или нет",
    "procedure": "порядок или перечень",
    "definition": "определение",
    "unknown": "не определён",
}


def question_brief(question: Question, cards: list[CardAnswer]) -> str:
    """Lines for the prompt: what is asked, about what, as of when, and card values."""
    lines = [
        f"- Что спрашивают: {', '.join(_TYPE_NAMES[t] for t in question.answer_types)}",
        f"- Дата, на которую нужен ответ: {question.as_of.strftime('%d.%m.%Y')}",
    ]
    subject = subject_of(question)
    if subject:
        lines.append(f"- Первая фраза начинается так: «{subject} — …»")
    if question.documents:
        named = ", ".join(f"«{d.title}»" for d in question.documents)
        lines.append(f"- Документы, о которых вопрос: {named}")
    for answer in cards:
        for value in answer.values:
            lines.append(
                f"- Из карточки документа «{answer.title}» [{answer.number}]: {answer.name} — "
                f"{value.value}; предложение: «{value.sentence}»"
            )
    return "\n".join(lines)
