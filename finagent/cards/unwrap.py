"""Hard-wrapped plain text read as its sentences, with every offset kept.

A plain-text document wrapped at a fixed width splits a clause over lines («составляет
82 485 (восемьдесят две тысячи» / «четыреста) рублей 00 копеек»); the analyser ends a
sentence at each line, so the amount would lose its currency. A line break inside a
sentence becomes a space (same length, so offsets into the original text hold).

The one reader of wrapped lines (:func:`continues`). A line never goes on in the next
when it ends a sentence (an abbreviation that leaves it open aside: «в т.ч.», «г. Уфа, пр.»
/ «Октября, д. 3»; :func:`finagent.language.abbreviations.leaves_open`), is a table's row
(Markdown, Word), a form's label and value («Срок действия | по 30 июня 2026 г.»), a grid
table's rule or a Markdown heading, or when the next line is one of those or opens a
numbered clause or a list item. Beyond that, two
readers want different things of a line that ends no sentence:

- a card (:mod:`finagent.cards.build`) and a retrieved passage of a user's document read
  each label with its own value, so a line goes on only when the next one visibly
  continues it: in lower case, a figure, a bracket, a quote, «%» or «№»; a code and its
  figure after a comma («… (ООО «Альфа»),» / «ИНН 7842306176, …»); a capital after a long
  line that ends with a lower-case word. A form's aligned line goes on only in lower case,
  and a requisites line, a signature line or a form's next label is a line of its own;
- the whole document's candidate sentences
  (:func:`finagent.answering.document_sentences.document_sentences`, ``unended_goes_on``)
  are ranked by the words they share with a question and must state a value with its
  label: every line that ends no sentence goes on, so a PDF table flattened without cell
  separators keeps its header with its rows («Показатель Сумма Общая сумма дохода
  1 326 547,29») and a signature its role («Исполнитель: … Генеральный директор … К. Л.
  Аверин»). Read as a card reads them, those lines are fragments no question finds
  (stop 44: dev documents 709 → 700).
"""

from __future__ import annotations

import re

from finagent.cards.tables import grid_rule, word_row
from finagent.language.abbreviations import leaves_open

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


def _own_line(line: str) -> bool:
    """A table's row (a Word row, a Markdown row), a grid table's rule or a Markdown
    heading: a line of its own."""
    return word_row(line) or line.startswith(("|", "#")) or grid_rule(line)


def continues(previous: str, line: str, *, unended_goes_on: bool = False) -> bool:
    """Whether ``line`` goes on with the sentence ``previous`` leaves open; with
    ``unended_goes_on``, any line after one that ends no sentence does (the module's
    docstring says which reader wants which)."""
    before, after = previous.strip(), line.strip()
    if not before or not after or _own_line(before) or _own_line(after):
        return False
    if "|" in before or "|" in after:
        return False  # a form's «label | value»: its label and value, a line of its own
    # «…, в т.ч.» / «НДС …», «… г. Уфа, пр.» / «Октября, д. 3» go on; «… подписал Гущин
    # А.В.» / «Оплата …» does not
    if before.endswith(_ENDS) and not leaves_open(before, after):
        return False
    if _OPENS.match(after):
        return False
    if unended_goes_on:
        return True
    if _ALIGNED.search(after):
        return False  # a form's columns laid out with spaces
    # a form's aligned line («Основание:        приказ … «О проведении текущего») goes on
    # only in a lower-case line under it («ремонта кровли склада …»), not in the next label
    if _ALIGNED.search(before) and not after[0].islower():
        return False
    goes_on = after[0].islower() or after[0].isdigit() or after[0] in _GOES_ON_WITH
    goes_on = goes_on or leaves_open(before, after)
    goes_on = goes_on or (before.endswith(_COMMA) and bool(_CODE_AND_FIGURE.match(after)))
    # a capital after a wrapped line of a paragraph («в пользу» / «ООО «Альфа» составляет»),
    # not after a short requisites line («ИНН …, КПП …» / «Р/с …»)
    last = before.rsplit(" ", 1)[-1]
    wrapped = len(before) >= _WRAPPED_WIDTH and last.isalpha() and last.islower()
    return goes_on or wrapped


def joined(text: str, *, unended_goes_on: bool = False) -> str:
    """``text`` with the line breaks inside sentences replaced by spaces
    (:func:`continues`)."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i + 1 < len(lines):
            goes_on = continues(line, lines[i + 1], unended_goes_on=unended_goes_on)
            out.append(" " if goes_on else "\n")
    return "".join(out)
