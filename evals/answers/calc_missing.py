"""What a clarify item says is missing, as the request's codes.

Items name it with codes (``event_date``, ``amount`` ...) or, as some blind writers did,
in a Russian phrase («дата получения требования», «сумма недоимки»). A phrase is read by
its lemmas: the kind of fact it names, not its wording.
"""

from __future__ import annotations

import re

from finagent.language.text import analyse

CODES = frozenset(
    {"event_date", "procedure", "amount", "due_date", "payment_date", "payer", "receipt"}
)
# a phrase's words -> the piece of the request it names (checked in this order)
_AMOUNT = frozenset({"сумма", "размер", "недоимка"})
_SUM = frozenset({"сумма", "размер"})
_PAYMENT = frozenset({"уплата", "оплата", "погашение", "перечисление"})
_PAYER = frozenset({"плательщик", "организация", "ип", "физлицо"})
_PROCEDURE = frozenset({"процедура", "документ", "действие", "какой", "вид"})
_DAY = frozenset({"дата", "день", "число"})


def _codes_of_phrase(phrase: str) -> set[str]:
    # a parenthesis gives examples of what is missing («вид требования (документы по
    # ст. 93 — 10 дней …)»), not the missing thing itself
    phrase = re.sub(r"\([^()]*\)", " ", phrase)
    # a spaced dash after the missing thing gives why it matters («тип плательщика — от
    # этого зависит ставка после 30 дней просрочки»), not another missing thing
    phrase = re.split(r"\s[—–]\s", phrase, maxsplit=1)[0]
    words = {w for sentence in analyse(phrase).sentences for w in sentence.lemmas}
    if "срок" in words and words & _PAYMENT:
        return {"due_date"}
    if words & _DAY and words & _PAYMENT:
        return {"payment_date"}
    if words & _SUM:  # «сумма недоимки и точных дат»: the sum is named first
        return {"amount"}
    if words & _DAY:
        return {"event_date"}
    if words & _AMOUNT:
        return {"amount"}
    if words & _PAYER:
        return {"payer"}
    if words & _PROCEDURE:
        return {"procedure"}
    return set()


def missing_codes(missing: str | list[str]) -> set[str]:
    """The request codes an item's ``missing`` names (a list of codes, or a phrase)."""
    if isinstance(missing, list):
        return {str(m) for m in missing}
    if missing in CODES:
        return {missing}
    return _codes_of_phrase(missing)
