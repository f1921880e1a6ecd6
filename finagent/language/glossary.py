"""Accountants' professional slang and the official terms it stands for: «камералка» is
«камеральная налоговая проверка». Retrieval adds the term to its query, the ranker to the
question's topic; cues are written as ordinary words and matched as lemmas (several when
the analyser reads the slang word's forms differently)."""

from __future__ import annotations

from razdel import tokenize

from finagent.language.cues import has_any
from finagent.language.lemmas import lemma

GLOSSARY: tuple[tuple[tuple[str, ...], str], ...] = (
    (("камералка",), "камеральная налоговая проверка"),
    (("выездная проверка", "выездная налоговая"), "выездная налоговая проверка"),
    (("первичка",), "первичные учетные документы"),
    (("матпомощь",), "материальная помощь"),
    (("сф", "счет-фактура"), "счет-фактура"),
    (("допник", "допника", "допсоглашение"), "дополнительное соглашение"),
    (("уточненка",), "уточненная налоговая декларация"),
    (("зп", "зарплата"), "заработная плата"),
    (("больничный", "больничные"), "пособие по временной нетрудоспособности"),
    (("отпускные",), "оплата отпуска"),
    (("декретные",), "пособие по беременности и родам"),
    (("командировочные", "суточные"), "суточные расходы на командировки"),
    (("ОС",), "основные средства"),
    (("НМА",), "нематериальные активы"),
    (("дебиторка",), "дебиторская задолженность"),
    (("кредиторка",), "кредиторская задолженность"),
)


def glossary_terms(question: str) -> list[str]:
    """The official terms of the slang words a question uses («камералка» -> «камеральная
    налоговая проверка»)."""
    lemmas = [lemma(t.text) for t in tokenize(question)]
    return [term for cues, term in GLOSSARY if has_any(lemmas, cues)]
