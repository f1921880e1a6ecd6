"""Hard-wrapped plain text read as its sentences, with every offset kept.

A plain-text document wrapped at a fixed width splits a clause over lines («составляет
82 485 (восемьдесят две тысячи» / «четыреста) рублей 00 копеек»); the analyser ends a
sentence at each line, so the amount would lose its currency. A line break inside a
sentence becomes a space (same length, so offsets into the original text hold): the line
does not end a sentence, is no table row, Markdown heading or aligned form line, the next
line opens no numbered clause, list item, heading or table row, and it goes on in lower
case, a figure, a bracket, a quote, «%» or «№» — or with a code and its figure after a
comma («…,» / «ИНН 7842306176»), or with a capital after a long line that ends with a
lower-case word (a form's aligned line goes on only in lower case). The one reader of
wrapped lines: a card reads its document so (:mod:`finagent.cards.build`), and so do a
retrieved passage of a user's document (:func:`finagent.answering.evidence.units_of`'s
caller) and the whole document's sentences
(:func:`finagent.answering.document_sentences.document_sentences`).
"""

from __future__ import annotations

import re

from finagent.cards.tables import grid_rule
from finagent.language.abbreviations import ends_with_dotted

_ENDS = (".", "!", "?", ";", ":")
# a numbered clause («3.1.», «3.1», «2)», «а)»), a list item, a heading or a table row; not
# a date a wrapped line goes on with («31.03.2026 г.», «31 марта 2026 г.»)
_OPENS = re.compile(
    r"^(?:(?!\d{1,2}\.\d{1,2}\.\d{2,4}\b)(?:\d+(?:\.\d+)*[.)]\s|\d+(?:\.\d+)+\s)"
    r"|[а-яa-z]\)\s|[-*•–—#|+])"
)
_ALIGNED = re.compile(r"\S {3,}\S")  # columns of a form laid out with spaces
_WRAPPED_WIDTH = 50  # a line wrapped inside a paragraph is at least this long
# after a comma, a line opening with a code in capitals and its figure goes on: a party's
# requisites wrapped under its name («… (ООО «Альфа»),» / «ИНН 7842306176, КПП …»), the VAT
# of a sum («… 512 400 руб.,» / «НДС 92 400 руб.»); not the next party of a list of
# paragraphs («…(далее — «Товарищ 1»),» / «Индивидуальный предприниматель …»)
_COMMA = ","
_CODE_AND_FIGURE = re.compile(r"^[А-ЯЁA-Z]{2,}\s+\d")
# a line opening so goes on with the line before: «(», a quote, «%» or «№» of a figure
_GOES_ON_WITH = '«("%№'


def continues(previous: str, line: str) -> bool:
    """Whether ``line`` goes on with the sentence ``previous`` leaves open."""
    before, after = previous.strip(), line.strip()
    if not before or not after or "|" in before or "|" in after:
        return False  # a table's row (Markdown, Word) or a form's «label | value»
    if before.startswith("#") or grid_rule(before) or grid_rule(after):
        return False  # a Markdown heading, a grid table's rule: lines of their own
    # «…, в т.ч.» / «НДС …» goes on; «… подписал Гущин А.В.» / «Оплата …» does not
    if before.endswith(_ENDS) and not ends_with_dotted(before, after):
        return False
    if _ALIGNED.search(after) or _OPENS.match(after):
        return False
    # a form's aligned line («Основание:        приказ … «О проведении текущего») goes on
    # only in a lower-case line under it («ремонта кровли склада …»), not in the next label
    if _ALIGNED.search(before) and not after[0].islower():
        return False
    goes_on = after[0].islower() or after[0].isdigit() or after[0] in _GOES_ON_WITH
    goes_on = goes_on or ends_with_dotted(before, after)
    goes_on = goes_on or (before.endswith(_COMMA) and bool(_CODE_AND_FIGURE.match(after)))
    # a capital after a wrapped line of a paragraph («в пользу» / «ООО «Альфа» составляет»),
    # not after a short requisites line («ИНН …, КПП …» / «Р/с …»)
    last = before.rsplit(" ", 1)[-1]
    wrapped = len(before) >= _WRAPPED_WIDTH and last.isalpha() and last.islower()
    return goes_on or wrapped


def joined(text: str) -> str:
    """``text`` with the line breaks inside sentences replaced by spaces."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i + 1 < len(lines):
            out.append(" " if continues(line, lines[i + 1]) else "\n")
    return "".join(out)
