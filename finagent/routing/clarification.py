"""Clarifying questions built from what is unclear about a question."""

from __future__ import annotations

import re

from finagent.prompts import routing_messages as texts

_WORD = re.compile(r"[a-zа-я0-9]+")
_FIND_VERB = r"^(найди|найти|открой|покажи|достань|проверь|посмотри|глянь|подними)\b"
_AMOUNT = r"\b(сколько|посчитай|рассчитай|расчет|сумм|какой срок|до какого|когда)"
_ACTION_ONLY = r"^(сделай|подготовь|составь|оформи|заполни|отправь|сравни|выбери|разберись)\b"
_DOCUMENT_WORDS = r"договор|счет|акт|выписк|документ|файл|накладн|справк|уведомлени|требовани"


def clarifying_questions(
    text: str, runner_up: tuple[str, str] | None = None, meaningful_words: int | None = None
) -> list[str]:
    """1-3 Russian questions: what is missing (object, period, action) or which way to go.

    ``runner_up`` is the pair of labels the classifier hesitated between, if any.
    """
    text = " ".join(text.lower().replace("ё", "е").split())
    words = _WORD.findall(text)
    questions: list[str] = []
    if re.search(_FIND_VERB, text) and not re.search(_DOCUMENT_WORDS, text):
        questions.append(texts.ASK_WHICH_DOCUMENT)
    elif re.search(_ACTION_ONLY, text):
        questions.append(texts.ASK_ACTION)
    if runner_up is not None:
        between = texts.BETWEEN.get(frozenset(runner_up))
        if between and between not in questions:
            questions.append(between)
    short = (meaningful_words if meaningful_words is not None else len(words)) <= 3
    if short or not questions:
        questions.insert(0, texts.ASK_SUBJECT)
    if re.search(_AMOUNT, text):
        questions.append(texts.ASK_PERIOD)
    if len(questions) < 2:
        questions.append(texts.ASK_SCOPE)
    return list(dict.fromkeys(questions))[:3]
