"""Amounts of money: «297 200 рублей 00 копеек», «1,5 млн рублей», «150 000 ₽», a payment
form's «Сумма 2546000-00», and with ``words`` sums written in words, as the Tax Code writes
its fines: «трех тысяч рублей»."""

from __future__ import annotations

import re
from decimal import Decimal

from finagent.language.numbers import read_number, read_quantity, skip_parenthetical
from finagent.language.spans import Money
from finagent.language.text import Analysed, AnalysedSentence, analyse

MULTIPLIERS = {
    "тысяча": Decimal(1000),
    "тыс": Decimal(1000),
    "млн": Decimal(1_000_000),
    "миллион": Decimal(1_000_000),
    "млрд": Decimal(1_000_000_000),
    "миллиард": Decimal(1_000_000_000),
}
CURRENCIES = {
    "рубль": "RUB",
    "руб": "RUB",
    "р": "RUB",
    "₽": "RUB",
    "rub": "RUB",
    "доллар": "USD",
    "usd": "USD",
    "$": "USD",
    "евро": "EUR",
    "eur": "EUR",
    "€": "EUR",
    "юань": "CNY",
    "cny": "CNY",
}
_KOPECKS = {"копейка", "коп"}


def _kopeck_word(token_text: str, lemma: str) -> bool:
    """«копеек», «коп.»: pymorphy3 lemmatises the abbreviation «коп» as «копа» (a heap), so
    the abbreviation is read by its text."""
    return lemma in _KOPECKS or token_text.lower() in _KOPECKS


def _money_at(
    sentence: AnalysedSentence, i: int, scale_alone: bool = False, words: bool = False
) -> tuple[Money, int] | None:
    number = read_quantity(sentence, i, words)
    if number is None:
        return None
    amount, j = number
    tokens = sentence.tokens
    j = skip_parenthetical(sentence, j)
    scaled = j < len(tokens) and tokens[j].lemma in MULTIPLIERS
    if scaled:
        amount *= MULTIPLIERS[tokens[j].lemma]
        j += 1
        if j < len(tokens) and tokens[j].text == ".":
            j += 1
    if j >= len(tokens) or tokens[j].lemma not in CURRENCIES:
        if scaled and scale_alone:  # «недоимка 1,2 млн»: roubles understood
            return Money(**sentence.located(i, j - 1), amount=amount, currency="RUB"), j
        return None
    currency = CURRENCIES[tokens[j].lemma]
    j += 1
    # the point of «руб.» is the abbreviation's; that after «рублей» ends the sentence
    if j < len(tokens) and tokens[j].text == "." and len(tokens[j - 1].text) <= 3:
        j += 1
    kopecks = read_number(sentence, j) if j < len(tokens) else None
    if (
        kopecks is not None
        and kopecks[1] < len(tokens)
        and _kopeck_word(tokens[kopecks[1]].text, tokens[kopecks[1]].lemma)
    ):
        amount += kopecks[0] / 100
        j = kopecks[1] + 1
        if j < len(tokens) and tokens[j].text == "." and tokens[j - 1].text.lower() == "коп":
            j += 1
    return Money(**sentence.located(i, j - 1), amount=amount, currency=currency), j


# a payment form writes roubles and kopecks with a hyphen («2546000-00»), under a label
_FORM_AMOUNT = re.compile(r"^(\d{3,})-(\d{2})$")
FORM_LABELS = frozenset({"сумма", "ндс", "итого", "всего"})
_LABEL_REACH = 4  # tokens before the figure where its label may stand («НДС 22 % 459114-75»)


def _form_amount(sentence: AnalysedSentence, i: int) -> Money | None:
    """«Сумма 2546000-00», «в т. ч. НДС 22 % 459114-75»: a figure in the form's notation
    with a money label just before it."""
    found = _FORM_AMOUNT.match(sentence.tokens[i].text)
    if found is None:
        return None
    before = {t.lemma for t in sentence.tokens[max(0, i - _LABEL_REACH) : i]}
    if not before & FORM_LABELS:
        return None
    amount = Decimal(f"{found.group(1)}.{found.group(2)}")
    return Money(**sentence.located(i, i), amount=amount, currency="RUB")


def money_in(analysed: Analysed, scale_alone: bool = False, words: bool = False) -> list[Money]:
    """Amounts with a currency; with ``scale_alone``, also a number with «тыс.» or «млн»
    and no currency («недоимка 1,2 млн»), read as roubles; with ``words``, also a sum
    written in words («в размере трех тысяч рублей»)."""
    found: list[Money] = []
    for sentence in analysed.sentences:
        i = 0
        while i < len(sentence.tokens):
            hit = _money_at(sentence, i, scale_alone, words)
            if hit is None:
                form = _form_amount(sentence, i)
                if form is not None:
                    found.append(form)
                i += 1
                continue
            found.append(hit[0])
            i = hit[1]
    return found


# how a sum in digits names its currency («3 000 руб.»)
CURRENCY_SIGNS = {"RUB": "руб.", "USD": "долл.", "EUR": "евро", "CNY": "юаней"}


def digits_of(amount: Decimal, kopecks: bool = False) -> str:
    """«3 000», «1 500 000», «59 241,60»: grouped by thousands, a decimal comma; with
    ``kopecks``, a whole sum too shows its two zeros («3 000,00»)."""
    whole, _, fraction = f"{amount:f}".partition(".")
    grouped = f"{int(whole):,}".replace(",", " ")
    fraction = fraction if kopecks else fraction.rstrip("0")
    return f"{grouped},{fraction.ljust(2, '0')}" if fraction or kopecks else grouped


def in_digits(text: str) -> str | None:
    """A sum written wholly in words («трех тысяч рублей») as digits («3 000 руб.»); None
    when ``text`` is not one such sum."""
    found = money_in(analyse(text), words=True)
    if len(found) != 1 or any(ch.isdigit() for ch in found[0].text):
        return None
    money = found[0]
    return f"{digits_of(money.amount)} {CURRENCY_SIGNS.get(money.currency, money.currency)}"


# a currency written as a word after a word, not after digits: where a sum in words ends
_WORDED_CURRENCY = re.compile(r"(?<=[^\W\d])\s+(?:рубл|доллар|евро|юан)\w*", re.IGNORECASE)
_WORDED_REACH = 120  # characters before the currency a sum in words may take


def worded_amounts(text: str) -> list[Decimal]:
    """The sums ``text`` writes in words («в размере десяти тысяч рублей» -> 10000); only
    the stretches before a currency word are analysed, so long passages stay cheap."""
    found: list[Decimal] = []
    for match in _WORDED_CURRENCY.finditer(text):
        window = text[max(0, match.start() - _WORDED_REACH) : match.end()]
        found += [
            m.amount
            for m in money_in(analyse(window), words=True)
            if not any(ch.isdigit() for ch in m.text)
        ]
    return found
