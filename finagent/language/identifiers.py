"""Identifiers: ИНН, КПП, БИК, ОГРН, settlement and correspondent accounts, «№ …» numbers."""

from __future__ import annotations

from finagent.language.numbers import is_digits
from finagent.language.spans import Identifier, IdentifierLabel
from finagent.language.text import Analysed, AnalysedSentence

# label lemma -> (label, allowed digit counts)
CODES: dict[str, tuple[IdentifierLabel, tuple[int, ...]]] = {
    "инн": ("inn", (10, 12)),
    "кпп": ("kpp", (9,)),
    "бик": ("bik", (9,)),
    "огрн": ("ogrn", (13,)),
    "огрнип": ("ogrn", (15,)),
}
# «р/с», «к/с» are three tokens; «расчётный счёт», «корреспондентский счёт» two
_ACCOUNT_CUES: dict[tuple[str, ...], IdentifierLabel] = {
    ("р", "/", "с"): "account",
    ("р", "/", "сч"): "account",
    ("расчётный", "счёт"): "account",
    ("расчетный", "счет"): "account",
    ("к", "/", "с"): "corr_account",
    ("корреспондентский", "счёт"): "corr_account",
    ("корреспондентский", "счет"): "corr_account",
}
_NUMBER_SIGNS = {"№", "n", "no"}
_SKIPPABLE = {":", "/", "-", "—", "продавец", "покупатель", "организация", "банк", "клиент"}
_NUMBER_END = {",", ";", "(", ")", "от", "и", "«", "»"}


def _make(
    sentence: AnalysedSentence, i: int, j: int, label: IdentifierLabel, value: str, of: str | None
) -> Identifier:
    return Identifier(**sentence.located(i, j), label=label, value=value, of=of)


def _codes(sentence: AnalysedSentence, i: int) -> tuple[list[Identifier], int]:
    """«ИНН 7716889042», «ИНН/КПП продавца: 7716889042 / 771601001»."""
    tokens = sentence.tokens
    labels: list[tuple[IdentifierLabel, tuple[int, ...]]] = []
    j = i
    while j < len(tokens) and (tokens[j].lemma in CODES or tokens[j].text == "/"):
        if tokens[j].lemma in CODES:
            labels.append(CODES[tokens[j].lemma])
        j += 1
    found: list[Identifier] = []
    while j < len(tokens) and labels:
        text = tokens[j].text
        if is_digits(text):
            label, sizes = labels.pop(0)
            if len(text) in sizes:
                found.append(_make(sentence, i, j, label, text, None))
        elif tokens[j].lemma not in _SKIPPABLE:
            break
        j += 1
    return found, max(j, i + 1)


def _account(sentence: AnalysedSentence, i: int) -> tuple[Identifier, int] | None:
    lemmas = sentence.lemmas
    for cue, label in _ACCOUNT_CUES.items():
        if lemmas[i : i + len(cue)] == cue:
            j = i + len(cue)
            while j < len(lemmas) and lemmas[j] in (":", "№"):
                j += 1
            if j < len(lemmas) and is_digits(sentence.tokens[j].text):
                if len(sentence.tokens[j].text) == 20:
                    return _make(sentence, i, j, label, sentence.tokens[j].text, None), j + 1
    return None


def _number(sentence: AnalysedSentence, i: int) -> tuple[Identifier, int] | None:
    """«№ А-17/2025», «№ 87»: the value runs to the next space-separated word boundary."""
    tokens = sentence.tokens
    j = i + 1
    if j >= len(tokens) or tokens[j].text in _NUMBER_END:
        return None
    end = j
    while end + 1 < len(tokens) and sentence.gap(end, end + 1) == "":
        if tokens[end + 1].text in _NUMBER_END or tokens[end + 1].text in ".:":
            break
        end += 1
    value = sentence.words(j, end)
    if not any(is_digits(ch) for ch in value):
        return None
    of = next((tokens[k].lemma for k in range(i - 1, -1, -1) if tokens[k].text.isalpha()), None)
    return _make(sentence, i, end, "number", value, of), end + 1


def identifiers_in(analysed: Analysed) -> list[Identifier]:
    found: list[Identifier] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        i = 0
        while i < len(tokens):
            if tokens[i].lemma in CODES:
                codes, i = _codes(sentence, i)
                found.extend(codes)
                continue
            if tokens[i].lemma in _NUMBER_SIGNS:
                number = _number(sentence, i)
                if number is not None:
                    found.append(number[0])
                    i = number[1]
                    continue
            account = _account(sentence, i)
            if account is not None:
                found.append(account[0])
                i = account[1]
                continue
            i += 1
    return found
