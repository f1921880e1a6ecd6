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


def _justified_gap(sentence: AnalysedSentence, i: int) -> set[str]:
    """The wide gap of a justified line a PDF's text keeps («запиской  24  000  рублей»):
    when the number is set off from the word before it by two or more spaces, groups
    set off by the same gap join it; in a line spaced singly two spaces part two numbers."""
    if i == 0:
        return set()
    gap = sentence.gap(i - 1, i)
    return {gap} if len(gap) > 1 and not gap.strip(" ") else set()


def read_number(sentence: AnalysedSentence, i: int) -> tuple[Decimal, int] | None:
    """The number starting at token ``i`` and the index after it.

    Digit groups of three separated by one space join the first token («297 200»), or by
    the wide gap of a justified line; only the last group may carry a decimal part
    («1 846 315,20»)."""
    tokens = sentence.tokens
    first = _plain(tokens[i].text)
    if first is None:
        return None
    text = tokens[i].text
    j = i + 1
    gaps = _GROUP_GAPS | _justified_gap(sentence, i)
    if is_digits(text) and len(text) <= 3:
        while j < len(tokens) and sentence.gap(j - 1, j) in gaps:
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


# the Russian cardinal numerals by lemma (a closed class: every case form reads through
# pymorphy3's lemma, «трех» -> «три», «двухсот» -> «двести»)
NUMERALS: dict[str, Decimal] = {
    word: Decimal(value)
    for value, word in enumerate(
        (
            "ноль один два три четыре пять шесть семь восемь девять десять одиннадцать "
            "двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать "
            "восемнадцать девятнадцать"
        ).split()
    )
}
NUMERALS |= {
    word: Decimal(10 * (i + 2))
    for i, word in enumerate(
        "двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто".split()
    )
}
NUMERALS |= {
    word: Decimal(100 * (i + 1))
    for i, word in enumerate(
        "сто двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот".split()
    )
}
NUMERALS["полтора"] = Decimal("1.5")
SCALES = {
    "тысяча": Decimal(1000),
    "миллион": Decimal(1_000_000),
    "миллиард": Decimal(1_000_000_000),
}

# number words for periods («трёх месяцев», «двенадцати месяцев»): lemma -> value
NUMBER_WORDS = {word: int(value) for word, value in NUMERALS.items() if value == int(value)}


def read_number_words(sentence: AnalysedSentence, i: int) -> tuple[Decimal, int] | None:
    """A number written in words from token ``i`` («трех тысяч», «двухсот», «одного
    миллиона»; a scale alone is one of it: «тысячи рублей») and the index after it."""
    tokens = sentence.tokens
    total = Decimal(0)
    current: Decimal | None = None
    j = i
    while j < len(tokens) and (tokens[j].lemma in NUMERALS or tokens[j].lemma in SCALES):
        word = tokens[j].lemma
        if word in SCALES:
            total += (current if current is not None else Decimal(1)) * SCALES[word]
            current = None
        else:
            current = (current or Decimal(0)) + NUMERALS[word]
        j += 1
    if j == i:
        return None
    return total + (current or Decimal(0)), j


def read_quantity(
    sentence: AnalysedSentence, i: int, words: bool = False
) -> tuple[Decimal, int] | None:
    """A number in digits at token ``i``; with ``words``, also one written in words."""
    number = read_number(sentence, i)
    if number is None and words:
        return read_number_words(sentence, i)
    return number
