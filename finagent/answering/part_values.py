"""The value of each further part of a document question, named in the lead.

«Какой аванс по лизингу и в какой срок его надо было внести?»: the value line names the
first part's value («Сумма — 2 928 000 рублей»); the clause that states it, or the
sentence chosen for the further part (:mod:`further_parts`), states the other part's
value («в течение 5 рабочих дней»). Each part of a value type other than the lead's is
named in the same line with its own value and source number («; срок — 5 рабочих дн.
[1]»), so the reader sees both values and which is which, instead of the second only in a
quote. The same for the Code and the knowledge base («Какая ставка УСН и до какого числа
платить аванс?» — «Ставка — 6 % […] [1]; дата — 28-го числа [2].»), each value from a
sentence of the same kind of source as the lead's (never a worked example's figure), with
its own source number. When no sentence answers the further parts at all, a part whose
value is missing is named as not found («дата — нет в найденных источниках»), so the
reader knows what is missing; a document's part with no value is left out as before.

A further part no value of another type answers may ask a value of the lead's own type
(«Сколько длится выездная проверка и до скольких её могут продлить?», «какой штраф, а
если повторно?»): the sentence chosen for it (never the best one, whose values the lead
names) states the other case's values, and they are named after the lead's with the
lead's own subject («срок — до четырех месяцев, до шести месяцев [1]»), at most
:data:`MAX_SAME` of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from finagent.answering.asked_values import number_of, own_numbers
from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.sentence_profile import shown
from finagent.question.model import Question

NAMES = {"rate": "ставка", "amount": "сумма", "date": "дата", "period": "срок"}
NOT_FOUND = "нет в найденных источниках"
_BY_NUMBER = frozenset({"amount", "limit", "rate"})  # a value named again by its number alone
MAX_SAME = 3  # a further sentence stating more values of the lead's type is left quoted


def part_values(
    question: Question,
    top: Candidate,
    more: Sequence[Candidate],
    stated: Sequence[str],
    values_for: Callable[[Question, str], tuple[str, ...]],
    subject: str | None = None,
) -> list[str]:
    """«срок — 5 рабочих дн. [1]» for each part of a value type other than the lead's,
    read from the best sentence, else from a further part's sentence; then the values of
    the further parts of the lead's own type (:func:`same_type_values`);
    ``stated``: the values the line names already; ``values_for(question, quote)``: the
    values of the question's answer type a quote states (the lead's own reading);
    ``subject``: the lead's subject («Штраф»), naming the same type's further values."""
    if len(question.parts) < 2:
        return []
    document = top.chunk.source == "user_docs"
    named = set(stated)
    own = own_numbers(question)
    out: list[str] = []
    for part in question.parts:  # the lead's type may be a later part's («сколько и до когда»)
        kind = part.answer_type
        if kind not in NAMES or kind == question.answer_type:
            continue
        asked = question.model_copy(update={"answer_type": kind})
        found_any = False
        for candidate in [top, *more]:
            if (candidate.chunk.source == "user_docs") != document:
                continue
            if not document and candidate.example:
                continue  # a worked example's figure is not the rule's value
            quote = clean_sentence(candidate.sentence)
            found = [
                shown(v)
                for v in values_for(asked, quote)
                if shown(v) not in named and number_of(v) not in own
            ]
            if found:
                out.append(f"{NAMES[kind]} — {found[0]} [{candidate.number}]")
                named.add(found[0])
                found_any = True
                break
        if not found_any and not document and not more:
            out.append(f"{NAMES[kind]} — {NOT_FOUND}")
    left = len(question.parts) - 1 - len(out)  # the parts no other type's value answers
    return out + same_type_values(question, top, more, named, values_for, left, subject)


def same_type_values(
    question: Question,
    top: Candidate,
    more: Sequence[Candidate],
    named: set[str],
    values_for: Callable[[Question, str], tuple[str, ...]],
    left: int,
    subject: str | None = None,
) -> list[str]:
    """«срок — до четырех месяцев [2]» for each of the ``left`` further parts no value of
    another type answers (of the lead's own type, or typed apart from it: «какой штраф, и
    какой — если повторно?»), from a further part's sentence of the lead's kind of source
    that states values of that type the line does not name yet (not the question's own
    figures, not a worked example's); ``named`` grows with the values named."""
    name = subject or NAMES.get(question.answer_type, "")
    name = name[:1].lower() + name[1:]
    if left < 1 or not name:
        return []
    document = top.chunk.source == "user_docs"
    own = own_numbers(question)
    out: list[str] = []

    def is_named(value: str) -> bool:
        """Named already, as written or (a sum or a share) by its number: «10 000 руб.»
        of «десяти тысяч рублей» is the «10 000 руб» of another sentence."""
        if value in named:
            return True
        number = number_of(value)
        if number is None or question.answer_type not in _BY_NUMBER:
            return False
        return number in {number_of(n) for n in named}

    for candidate in more:
        if len(out) >= left:
            break
        if (
            candidate.sentence == top.sentence
            or (candidate.chunk.source == "user_docs") != document
        ):
            continue
        if not document and candidate.example:
            continue
        found = list(
            dict.fromkeys(
                shown(v)
                for v in values_for(question, clean_sentence(candidate.sentence))
                if not is_named(shown(v)) and number_of(v) not in own
            )
        )
        if found and len(found) <= MAX_SAME:
            out.append(f"{name} — {', '.join(found)} [{candidate.number}]")
            named.update(found)
    return out
