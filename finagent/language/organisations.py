"""Organisations by legal form: «ООО «Ромашка-Трейд»», «Акционерное общество «…»»,
«АО «КБ «Вектор-Финанс»»», «ИП Соколова Анна Петровна»."""

from __future__ import annotations

import json
from pathlib import Path

from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import part_of_speech
from finagent.language.spans import Organisation
from finagent.language.text import Analysed, AnalysedSentence

# legal forms written as abbreviations («ООО», «ИП», «МБУ», «ТСЖ»): one list, shipped as data
ABBREVIATIONS: frozenset[str] = frozenset(
    json.loads((Path(__file__).with_name("data") / "legal_forms.json").read_text("utf-8"))[
        "abbreviations"
    ]
)
# «Муниципальное общеобразовательное учреждение «…»»: adjectives naming its kind before
# «учреждение»; the legal form is their initials («МОУ», «ФГБУ»)
_INSTITUTION = "учреждение"
_MAX_KIND_WORDS = 4
# full forms, lemmatised on first use; longest first so «публичное акционерное общество» wins
FULL_FORMS = (
    ("общество с ограниченной ответственностью", "ООО"),
    ("публичное акционерное общество", "ПАО"),
    ("непубличное акционерное общество", "АО"),
    ("закрытое акционерное общество", "ЗАО"),
    ("открытое акционерное общество", "ОАО"),
    ("акционерное общество", "АО"),
    ("автономная некоммерческая организация", "АНО"),
    ("индивидуальный предприниматель", "ИП"),
)
_OPEN, _CLOSE = '«“"', '»”"'
_MAX_NAME = 80


def _quoted(text: str, at: int) -> tuple[str, int] | None:
    """The name in quotes starting at or just after ``at``, and its end.

    Russian typography merges closing quotes: «КБ «Вектор-Финанс», — the name is closed
    when a closing quote is not followed by another one, and gets its inner quote back."""
    while at < len(text) and text[at] in " \u00a0*":
        at += 1
    if at >= len(text) or text[at] not in _OPEN:
        return None
    depth, i = 0, at
    while i < len(text) and i - at <= _MAX_NAME:
        ch = text[i]
        if ch == "«" or (ch == '"' and i == at):
            depth += 1
        elif ch in _CLOSE and i > at:
            depth -= 1
            following = text[i + 1 : i + 2]
            if depth <= 0 or following not in _CLOSE:
                return text[at + 1 : i].strip() + "»" * max(depth, 0), i + 1
        i += 1
    return None


def _person_name(sentence: AnalysedSentence, j: int) -> tuple[str, int] | None:
    """«Соколова Анна Петровна», «Петров П. П.» after «ИП»: up to three capitalised words."""
    tokens = sentence.tokens
    words: list[int] = []
    k = j
    while k < len(tokens) and len(words) < 3:
        text = tokens[k].text
        if text[:1].isupper() and text.isalpha():
            words.append(k)
            k += 1
            if k < len(tokens) and tokens[k].text == "." and len(text) == 1:
                k += 1
        else:
            break
    if not words:
        return None
    base = sentence.sentence.start
    end = tokens[k - 1].end
    return sentence.sentence.text[tokens[j].start - base : end - base], end


def _form_at(sentence: AnalysedSentence, i: int) -> tuple[str, int] | None:
    """The legal form starting at token ``i`` and the index after it."""
    token = sentence.tokens[i]
    if token.lemma in ABBREVIATIONS and token.text.isupper():
        return token.text.upper(), i + 1
    for phrase, short in FULL_FORMS:
        cue = cue_lemmas(phrase)
        if sentence.lemmas[i : i + len(cue)] == cue:
            return short, i + len(cue)
    return _institution_at(sentence, i)


def _institution_at(sentence: AnalysedSentence, i: int) -> tuple[str, int] | None:
    """«Муниципальное бюджетное учреждение», capitalised, as «МБУ», and the index after it."""
    tokens = sentence.tokens
    if not tokens[i].text[:1].isupper():
        return None
    k = i
    while k < len(tokens) and k - i < _MAX_KIND_WORDS:
        if sentence.lemmas[k] == _INSTITUTION:
            break
        if part_of_speech(tokens[k].text) not in {"ADJF", "PRTF"}:
            return None
        k += 1
    if k == i or k >= len(tokens) or sentence.lemmas[k] != _INSTITUTION:
        return None
    initials = "".join(t.text[0] for t in tokens[i:k]).upper()
    return initials + "У", k + 1


def organisations_in(analysed: Analysed) -> list[Organisation]:
    found: list[Organisation] = []
    text = analysed.text
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        i = 0
        while i < len(tokens):
            form = _form_at(sentence, i)
            if form is None:
                i += 1
                continue
            legal_form, j = form
            start = tokens[i].start
            name_end: tuple[str, int] | None
            if legal_form == "ИП":
                name_end = _person_name(sentence, j) if j < len(tokens) else None
            else:
                after = tokens[j - 1].end
                name_end = _quoted(text, after)
            if name_end is None or not name_end[0]:
                i = j
                continue
            name, end = name_end
            found.append(
                Organisation(
                    text=text[start:end],
                    start=start,
                    end=end,
                    sentence=sentence.sentence,
                    name=name,
                    legal_form=legal_form,
                )
            )
            while i < len(tokens) and tokens[i].start < end:
                i += 1
    return found
