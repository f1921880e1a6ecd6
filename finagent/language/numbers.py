"""Numbers as written in Russian texts: «297 200», «1 846 315,20», «1,5», «2.5»."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from finagent.language.text import AnalysedSentence

_GROUP_GAPS = {" ", "\u00a0", "\u202f", "\u2009"}
# ordinal words by lemma: «второй этап» is «Этап 2», «восьмого апреля» the 8th
ORDINALS = {
    "первый": 1,
    "второй": 2,
    "третий": 3,
    "четвертый": 4,
    "пятый": 5,
    "шестой": 6,
    "седьмой": 7,
    "восьмой": 8,
    "девятый": 9,
    "десятый": 10,
    "одиннадцатый": 11,
    "двенадцатый": 12,
    "тринадцатый": 13,
    "четырнадцатый": 14,
    "пятнадцатый": 15,
    "шестнадцатый": 16,
    "семнадцатый": 17,
    "восемнадцатый": 18,
    "девятнадцатый": 19,
    "двадцатый": 20,
    "тридцатый": 30,
}


def is_digits(text: str) -> bool:
    """ASCII digits only: «¹» and other Unicode digits are not numbers of a document."""
    return text.isascii() and text.isdigit()


def _plain(text: str) -> Decimal | None:
    if not text or not is_digits(text[0]) or not is_digits(text.replace(",", "").replace(".", "")):
        return None
    if text.count(",") + text.count(".") > 1:
        return None
    try:
        return Decimal(text.replace(",", "."))
    except InvalidOperation:
        return None


def read_number(sentence: AnalysedSentence, i: int) -> tuple[Decimal, int] | None:
    """The number starting at token ``i`` and the index after it.

    Digit groups of three separated by one space join the first token («297 200»); only the
    last group may carry a decimal part («1 846 315,20»)."""
    tokens = sentence.tokens
    first = _plain(tokens[i].text)
    if first is None:
        return None
    text = tokens[i].text
    j = i + 1
    if is_digits(text) and len(text) <= 3:
        while j < len(tokens) and sentence.gap(j - 1, j) in _GROUP_GAPS:
            group = tokens[j].text
            head = group.split(",")[0]
            if not (is_digits(head) and len(head) == 3 and _plain(group) is not None):
                break
            text += group
            j += 1
            if "," in group:
                break
    value = _plain(text)
    return (value, j) if value is not None else None


def skip_parenthetical(sentence: AnalysedSentence, i: int, limit: int = 16) -> int:
    """Index after «(двести девяносто семь тысяч двести)» at ``i``, or ``i``."""
    tokens = sentence.tokens
    if i < len(tokens) and tokens[i].text == "(":
        for j in range(i + 1, min(len(tokens), i + limit)):
            if tokens[j].text == ")":
                return j + 1
    return i


# small number words for periods («трёх месяцев», «одного года»): lemma -> value
NUMBER_WORDS = {
    "один": 1,
    "два": 2,
    "три": 3,
    "четыре": 4,
    "пять": 5,
    "шесть": 6,
    "семь": 7,
    "восемь": 8,
    "девять": 9,
    "десять": 10,
    "пятнадцать": 15,
    "двадцать": 20,
    "тридцать": 30,
    "сорок": 40,
    "шестьдесят": 60,
    "девяносто": 90,
    "сто": 100,
}
