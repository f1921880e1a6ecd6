"""Does a question name one concrete document, whatever the user has uploaded?

The classifier's S1 is trusted only on evidence (see ``router._checked_against``). For a
user with documents, naming a type, counterparty or title of theirs is evidence. This
module adds evidence that holds for any user, so that a user with no documents who asks
for a concrete one reaches S1 and is told that nothing is uploaded and how to upload:

- a document word together with a named party («договор с Атлантом», «акт от ООО Старт»,
  «контракт с Shenzhen Trading»), a number («счёт № 145») or a date («акт от 12.03»);
- a question about which document says something («в каком документе указан …»).

Authorities (Минфин, ФНС, Банк России, …) are not counterparties: «письмо от Минфина»
is a rule, not the user's letter.
"""

from __future__ import annotations

import re

from finagent.routing.inventory import doc_types_in
from finagent.text_normalize import normalize

# document words beyond the inventory's canonical types
_MORE_DOCUMENTS = re.compile(
    r"\b(переписк|полис|техзадани|тз\b|коммерческ\w* предложени|прайс|график\w* платеж|"
    r"документ|файл|скан|ттн\b|упд\b|инвойс|кп\b)"
)
_LEGAL_FORM = r"(?:ООО|АО|ПАО|ЗАО|ОАО|ИП|ТОО|НКО|ООО|LLC|Ltd|GmbH|ооо|ао|пао|зао|оао|ип|тоо)"
# «с Атлантом», «от ООО Старт», «с «Ромашкой»», «с Shenzhen Trading»: on the original text,
# a capitalised word that does not start the question
_NAMED_PARTY = re.compile(
    rf"\b(?:с|со|от|у|для)\s+(?:{_LEGAL_FORM}\b|[«\"“]|[A-ZА-ЯЁ][a-zа-яё][\w-]*)"
)
_AUTHORITIES = re.compile(
    r"\b(?:с|со|от|у|для)\s+(?:минфин|фнс|ифнс|цб|центробанк|банк[а-я]* росси|росстат|"
    r"правительств|госдум|президент|министерств|налогов|пфр|сфр|фсс|росфинмониторинг|"
    r"роскомнадзор|суд)"
)
_NUMBER_OR_DATE = re.compile(
    r"(№\s?\d|\bn\s?\d|\bномер\s+\d|\bот\s+\d{1,2}[./]\d{1,2}|\bот\s+\d{1,2}\s+(январ|феврал|"
    r"март|апрел|ма[йя]|июн|июл|август|сентябр|октябр|ноябр|декабр))"
)
_WHICH_DOCUMENT = re.compile(
    r"\bв как(ом|ой|их) (из )?(документ|файл|бумаг|договор|контракт|счет|акт|выписк|"
    r"накладн|спецификац|письм|претензи)"
)


def names_a_document(question: str) -> bool:
    """True when the question names one concrete document (not a kind of document)."""
    text = normalize(question)
    if _WHICH_DOCUMENT.search(text):
        return True
    if not (doc_types_in(text) or _MORE_DOCUMENTS.search(text)):
        return False
    if _NUMBER_OR_DATE.search(text):
        return True
    original = " ".join(question.split())
    return bool(_NAMED_PARTY.search(original)) and not _AUTHORITIES.search(text)
