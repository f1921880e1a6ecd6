"""The direct composer: the Краткий вывод opens with one sentence stating the value asked.

«Ставка НДФЛ — 30 % (п. 3 ст. 224 НК РФ) [1].» then the verbatim quote with its ``[n]``.
The value comes from the typed question (answer type, subject) and the winning evidence:
a document card's field (every candidate value, each with its sentence) or the best
sentence of the learned ranker (:mod:`finagent.answering.ranker`). Without a value of the
asked type the best sentence is quoted as the extractive composer quotes it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from finagent.answering.answer_kinds import asked_count_phrases
from finagent.answering.asked_action import of_asked_action
from finagent.answering.asked_extreme import extension_after, of_asked_extreme
from finagent.answering.asked_values import asked_values, value_type
from finagent.answering.card_evidence import CardAnswer
from finagent.answering.card_parts import card_further_parts, card_part_values
from finagent.answering.code_norm import code_norm
from finagent.answering.context import AnswerContext
from finagent.answering.cut_sentences import values_of_year
from finagent.answering.date_bounds import asked_bound, bounded_dates, deadline_dates, event_dates
from finagent.answering.derived_values import derived_values
from finagent.answering.evidence import Candidate
from finagent.answering.extractive import (
    MAX_NORMS,
    clean_sentence,
    compose_key_facts,
    quote_lead,
)
from finagent.answering.further_parts import further_parts
from finagent.answering.listed_values import listed_values
from finagent.answering.part_values import part_values
from finagent.answering.polar_answer import polar_verdict
from finagent.answering.qualified_values import of_asked_case
from finagent.answering.qualifiers import VAT
from finagent.answering.ranker import EXCEPTIONS, asked_conditions
from finagent.answering.row_totals import row_total
from finagent.answering.sentence_profile import profile, shown, values_of
from finagent.answering.table_lookup import table_cell
from finagent.answering.value_phrase import asked_noun, named_shares
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.lemmas import in_genitive, lemma
from finagent.language.synonyms import by_synonym
from finagent.language.text import analyse
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS, TAXES
from finagent.retrieval.retriever import NORM_ONLY

MAX_VALUES = 3  # a sentence listing more values is quoted, not summed up
_EXTENDED = "с продлением"  # the lead's name of a term's extension («… — 4 месяца, 6 месяцев»)
# a quote-only lead adds a second source's sentence this close to the best (logit units)
RUNNER_UP_MARGIN = 0.5
_SUBJECTS = {
    "rate": "Ставка",
    "amount": "Сумма",
    "limit": "Предельный размер",
    "date": "Дата",
    "period": "Срок",
}
_TAX_NAMES = {t.key: t.name for t in TAXES}
_TAX_CUES = {t.key: t.cues for t in TAXES}
# the VAT qualifiers that govern the tax by a preposition before it («с НДС», «без учёта
# НДС»); «в том числе НДС», «НДС включён» in a question may ask the tax itself
_GOVERNING = ("с ", "без ", "включая ", "не включая ")
_QUALIFYING_VAT = tuple(c for cues in VAT.values() for c in cues if c.startswith(_GOVERNING))
# an amount the law sets as a share: a sanction («штраф 40 процентов», «пени 1/300
# ставки»), or a size asked («в каком размере учесть расходы» — «4 процента от …»); the
# lead names what is asked
_SHARE_SUBJECTS = {"штраф": "Штраф", "пеня": "Пени", "пени": "Пени", "неустойка": "Неустойка"}
_SIZE = "размер"
_SIZE_SUBJECT = "Размер"
# a question that asks what a breach costs without a value word («что грозит за …», «какая
# ответственность за …», «чем грозит …»): when the law's sentence names a fine, the lead
# states the fine's sum and share as an amount question's would
_SANCTION_ASKS = frozenset({"грозить", "ответственность", "наказание", "санкция", "наказать"})
_FINE = "штраф"
_FINE_SUBJECT = "Штраф"
_UNTYPED = frozenset({"unknown", "procedure"})
# the answer types a count asked by «сколько <noun>» is typed as; its lead names the count
_COUNTED = frozenset({"amount", "limit"})
_COUNT_SUBJECT = "Количество"
# the clauses of a sentence that may each state a case: «…; …», «…, а в … - …», «…, но …»
_CLAUSES = re.compile(r";|,\s+(?:а|но)\s+")
_FIGURE = re.compile(r"[\d\s.,/]*\d")
# a cell of a table row flattened into a sentence: «Сумма, руб.: 17 700,00»
_CELL = re.compile(r"\s*[^:;]{1,60}:\s")


def _spans(lemmas: list[str], phrases: tuple[str, ...]) -> list[range]:
    """The lemma positions each occurrence of each phrase covers."""
    out = []
    for phrase in phrases:
        size = len(cue_lemmas(phrase))
        at = find_cue(lemmas, phrase)
        while at >= 0:
            out.append(range(at, at + size))
            at = find_cue(lemmas, phrase, at + 1)
    return out


def qualifying_tax(question: Question, tax: str) -> bool:
    """Whether every mention of the tax qualifies the figure asked instead of naming the
    tax asked: «сколько стоят услуги с НДС и без НДС», «тариф с НДС» ask a price, not the
    VAT (its mentions all lie inside a VAT qualifier, :data:`qualifiers.VAT`)."""
    lemmas = list(question.lemmas)
    mentions = _spans(lemmas, _TAX_CUES.get(tax, ()))
    if not mentions:
        return False
    qualifiers = _spans(lemmas, _QUALIFYING_VAT)
    inside = {i for span in qualifiers for i in span}
    return all(set(span) <= inside for span in mentions)


# where the stretch before a value starts: «…, в том числе НДС 22 % — 145 200»
_STRETCH_START = re.compile(r"[,;:(]")


def _lemma_list(text: str) -> list[str]:
    return [t.lemma for s in analyse(text).sentences for t in s.tokens]


def not_the_qualifying_tax(
    question: Question, quote: str, values: tuple[str, ...]
) -> tuple[str, ...]:
    """Of an amount question that names the VAT only to qualify its figure («сколько стоят
    услуги с НДС и без НДС»), the values that are not the VAT's own amount: «805 200 …, в
    том числе НДС 22 % — 145 200» states the price 805 200; 145 200 is the tax. A value
    whose stretch names the tax with a qualifier («без НДС — 1 100 000») is kept; when
    every value is the tax's, all are."""
    if question.answer_type != "amount" or len(values) < 2:
        return values
    if not any(qualifying_tax(question, t) for t in question.taxes if t in _TAX_CUES):
        return values
    cues = _TAX_CUES["vat"]
    kept = []
    for value in values:
        figure = _FIGURE.match(value.strip())
        at = _position(quote, figure.group().strip() if figure else value)
        starts = [m.end() for m in _STRETCH_START.finditer(quote, 0, at)]
        stretch = _lemma_list(quote[starts[-1] if starts else 0 : at])
        names_tax = any(find_cue(stretch, cue) >= 0 for cue in cues)
        qualified = any(find_cue(stretch, cue) >= 0 for cue in _QUALIFYING_VAT)
        if not names_tax or qualified:
            kept.append(value)
    return tuple(kept) or values


def subject_of(question: Question) -> str | None:
    """«Ставка НДФЛ», «Срок», «Предельный размер», the asked value's own noun phrase
    («Налоговый бонус», «Суточные»); None for types with no single value. A tax the
    question names only to qualify its figure («с НДС», «без НДС») is not the subject."""
    if question.unit:
        return "Величина"
    if question.head:  # «Налоговый бонус — 10 000 руб.», not «Сумма НПД»
        return question.head[:1].upper() + question.head[1:]
    base = _SUBJECTS.get(question.answer_type)
    if base is None:
        return None
    named = next((t for t in question.taxes if not qualifying_tax(question, t)), None)
    tax = _TAX_NAMES.get(named or "")
    return f"{base} {in_genitive(tax)}" if tax else base


def _is_sum(subject: str | None) -> bool:
    """The plain sum's label, with or without its tax («Сумма», «Сумма НДФЛ»)."""
    return subject is not None and subject.split(" ")[0] == _SUBJECTS["amount"]


def _reference(candidate: Candidate) -> str:
    chunk = candidate.chunk
    citation = chunk.metadata.get("citation")
    return str(citation) if citation else f"«{chunk.title}»" if chunk.title else ""


def stated_values(question: Question, quote: str) -> tuple[str, ...]:
    """The values of the asked type the sentence states; of a date question's, those of
    the asked end of the term («до какого числа»: «по 31 мая», not «с 1 марта») and never
    the date of a document it mentions («№ 3 от …»); a period question's clause may set a
    deadline date instead («не позднее 15 июля»); of a value derived from another («…,
    значит 1,5 МРОТ = 33 660 руб.»), the derived one (:mod:`derived_values`)."""
    values = asked_values(profile(quote), question)
    if question.answer_type == "date":
        bound = asked_bound(question)
        chosen = bounded_dates(quote, bound) if bound is not None else []
        chosen = chosen or event_dates(quote)
        values = tuple(dict.fromkeys(" ".join(d.split()) for d in chosen)) or values
    elif question.answer_type == "period" and not values:
        values = tuple(dict.fromkeys(" ".join(d.split()) for d in deadline_dates(quote)))
    values = derived_values(quote, values, frozenset(question.topic) - STOP_LEMMAS)
    return values_of_year(quote, values, {y.year for y in question.years})


def share_subject(question: Question) -> str | None:
    """«Штраф», «Пени», «Размер»: the subject of an amount question a share of a base may
    answer (see :data:`_SHARE_SUBJECTS`); None for other questions."""
    if value_type(question) != "amount":
        return None
    lemmas = set(question.lemmas)
    named = next((v for k, v in _SHARE_SUBJECTS.items() if k in lemmas), None)
    named = named or (_FINE_SUBJECT if _SANCTION_ASKS & lemmas else None)
    return named or (_SIZE_SUBJECT if _SIZE in lemmas else None)


def shared_values(question: Question, quote: str) -> tuple[str, ...]:
    """The shares a sentence states for an amount question a share answers, when it states
    no sum («…влекут взыскание штрафа в размере 40 процентов…»)."""
    values = asked_values(profile(quote), question, "rate")
    return values_of_year(quote, values, {y.year for y in question.years})


def of_asked_condition(question: Question, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """Of a sentence's values, those of the clause naming most of the conditions the
    question asks («…: 20 % от неуплаченной суммы; 40 % — если нарушение совершено
    умышленно» for «если докажут умысел»), when that clause states some but not all of
    them; else all of them. A question of several parts («какой штраф, а если повторно?»)
    asks the other cases too."""
    asked = asked_conditions(question.lemmas)
    if not asked or len(values) < 2 or len(question.parts) > 1:
        return values
    best: tuple[int, tuple[str, ...]] = (0, values)
    for clause in _CLAUSES.split(quote):
        named = len({EXCEPTIONS[lm] for lm in profile(clause).lemmas if lm in EXCEPTIONS} & asked)
        kept = tuple(v for v in values if v in clause)
        if named > best[0] and kept and len(kept) < len(values):
            best = (named, kept)
    return best[1]


def of_asked_head(question: Question, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """Of a sentence's values, those of the one clause naming the asked value's noun
    («…; компенсации в пределах норм — суточные до 700 руб. … и до 2 500 руб. …;
    материальная помощь до 4 000 руб. …» for «какие суточные»), when one clause alone names
    it; else all of them."""
    if not question.head or len(values) < 2:
        return values
    noun = lemma(question.head.split()[-1])
    naming = [c for c in _CLAUSES.split(quote) if noun in profile(c).lemmas]
    if len(naming) != 1:
        return values
    kept = tuple(v for v in values if _states_figure(naming[0], v))
    return kept or values


def of_asked_clauses(
    question: Question, top: Candidate, quote: str, values: tuple[str, ...]
) -> tuple[str, ...]:
    """Of a document sentence's values, those of the clauses naming most of the question's
    words (:func:`_asked_clause`: «какой гарантийный срок на рамы и балки» — the clause of
    the racks of a sentence with a term for each kind of goods), when they state some."""
    if top.chunk.source != "user_docs" or len(values) < 2:
        return values
    clause = _asked_clause(question, quote)
    kept = tuple(v for v in values if _states_figure(clause, v))
    return kept or values


def _figure(value: str) -> str:
    """The number a value opens with, as a quote writes it before its unit («1 458 000» of
    «1 458 000 рублей», quoted as «1 458 000 (один миллион …) рублей»)."""
    found = _FIGURE.match(value)
    return found.group().strip() if found else value


def _states_figure(clause: str, value: str) -> bool:
    """Whether the clause states the value's number as a number of its own, not as the
    end of a longer one («6» is not stated by «36 месяцев»)."""
    figure = re.escape(_figure(value))
    return re.search(rf"(?<![\d.,])(?<!\d\s){figure}(?!\d|\s\d{{3}}(?!\d))", clause) is not None


def _position(quote: str, value: str) -> int:
    at = quote.find(value)
    return at if at >= 0 else len(quote)


# the kinds of value a sentence may state for a thing asked by name («какая гарантия»)
_OPEN_KINDS = ("period", "amount", "rate")
_STEM = 5  # a noun's stem this long names it in a derived word («гаранти-йный»)


def _asked_clause(question: Question, quote: str) -> str:
    """The clauses of a sentence naming most of the question's content words («24 месяца
    — для металлоконструкций стеллажей (рамы, балки…)» of a sentence listing a value for
    each kind of goods, asked «на рамы и балки»; both clauses asked «на металлоконструкции
    и на мебель»), when not every clause does; else the sentence."""
    clauses = [c for c in _CLAUSES.split(quote) if c.strip()]
    if len(clauses) < 2 or 2 * sum(bool(_CELL.match(c)) for c in clauses) >= len(clauses):
        return quote  # a table row's «label: value» cells are one item, not clauses
    topic = set(question.topic) - STOP_LEMMAS
    # a clause names a word itself or by a synonym («на юристов» — «услуг представителя»);
    # not by a word of its root: «металлический» would name «металлоконструкция»
    scores = [
        len(topic & (lemmas := profile(c).lemmas)) + len(by_synonym(topic, lemmas)) for c in clauses
    ]
    best = max(scores)
    if not best or scores.count(best) == len(clauses):
        return quote
    return "; ".join(c for c, score in zip(clauses, scores, strict=True) if score == best)


def _head_segment(question: Question, clause: str) -> str:
    """Of a clause, the comma-separated segment that names the thing asked and states a
    value («гарантия изготовителя — 5 (пять) лет…», not «…каждые 10 000 км или 12
    месяцев» of the same sentence); else the clause."""
    noun = lemma((question.open_head or "").split()[-1]) if question.open_head else ""
    for segment in clause.split(", "):
        p = profile(segment)
        if noun in p.lemmas and any(values_of(p, kind, False) for kind in _OPEN_KINDS):
            return segment
    return clause


def _names_head(head: str, lemmas: frozenset[str]) -> bool:
    """Whether a sentence names the thing asked: every word of its modifiers («основное»
    of «основное вознаграждение»: a sentence on the additional one does not answer), and
    its noun or a word of the noun's stem («гарантийный срок» for «гарантия»)."""
    *modifiers, noun = [lemma(word) for word in head.split()]
    if any(m not in lemmas for m in modifiers):
        return False
    stem = noun[:-1]
    return noun in lemmas or (len(stem) >= _STEM and any(lm.startswith(stem) for lm in lemmas))


def open_values(question: Question, top: Candidate, quote: str) -> tuple[str, ...]:
    """The values a document sentence states for a thing the question asks by name with
    no value type of its own («какая гарантия на рамы» — «24 месяца», «какая франшиза» —
    «50 000 рублей»): those of the clause naming the question's words, when they are all
    of one kind (a span of time, a sum or a share); else none, and the sentence is quoted."""
    if not question.open_head or top.chunk.source != "user_docs":
        return ()
    if not _names_head(question.open_head, profile(quote).lemmas):
        return ()
    clause = _head_segment(question, _asked_clause(question, quote))
    kinds = [
        found
        for kind in _OPEN_KINDS
        if (found := asked_values(profile(clause), question, kind, days=False))
    ]
    return kinds[0] if len(kinds) == 1 else ()


def as_fine(question: Question, top: Candidate, quote: str) -> Question | None:
    """A sanction question with no value type of its own («что грозит за ведение бизнеса без
    постановки на учёт?») read as an amount question about the fine, when the best sentence
    is the law's or the knowledge base's and names a fine; None otherwise."""
    if question.answer_type not in _UNTYPED or top.chunk.source == "user_docs":
        return None
    if not _SANCTION_ASKS & set(question.lemmas) or _FINE not in profile(quote).lemmas:
        return None
    return question.model_copy(update={"answer_type": "amount", "answer_types": ["amount"]})


@dataclass(frozen=True)
class ValueLine:
    """«Срок — 24 месяца (…) [1].» as its parts: the subject, the values as shown, where
    the sentence stands, its source number; and the sentence quoted under it."""

    subject: str
    values: tuple[str, ...]
    where: str  # « (ст. 93 НК РФ)» or nothing
    number: int
    quote: str

    def lines(self, further: Sequence[str] = ()) -> list[str]:
        """The line, with the ``further`` parts' values after the lead's, and the quote."""
        named = f"{self.subject} — {', '.join(self.values)}{self.where} [{self.number}]"
        return ["; ".join([named, *further]) + ".", f"«{self.quote}» [{self.number}]"]


def sentence_lead(question: Question, top: Candidate) -> list[str]:
    """The value line and the quote of the best sentence, or just the quote."""
    lead = lead_of(question, top)
    return lead.lines() if isinstance(lead, ValueLine) else [lead]


def lead_of(question: Question, top: Candidate) -> ValueLine | str:
    """The value line of the best sentence, or the line quoting it."""
    quote = clean_sentence(top.sentence)
    fine = as_fine(question, top, quote)
    question = fine or question
    subject = _FINE_SUBJECT if fine else subject_of(question)
    counts = () if fine or question.unit else asked_count_phrases(question, quote)
    if question.answer_type in _COUNTED and counts:
        # «сколько аварийных выездов входит …» — «Количество — не более 2 аварийных выездов»
        return _value_line(_COUNT_SUBJECT, counts, top, quote)
    if subject is None and (named := open_values(question, top, quote)):
        return _value_line(question.open_head or "", named, top, quote)
    values = stated_values(question, quote) if subject else ()
    share = share_subject(question)
    shares = shared_values(question, quote) if share else ()
    # a sanction states its share and its floor or cap together («20 процентов, но не
    # менее 1 000 рублей»): the lead names both, in the sentence's order
    if shares and (not values or share != _SIZE_SUBJECT):
        values = tuple(sorted({*values, *shares}, key=lambda v: _position(quote, v)))
        subject = share
    elif share and share != _SIZE_SUBJECT and values and _is_sum(subject):
        subject = share  # «Штраф — 10 тысяч рублей», not «Сумма — …» nor «Сумма НДФЛ — …»
    if top.chunk.source != "user_docs":
        values = of_asked_extreme(question, values)
    values = of_asked_condition(question, quote, values)
    values = of_asked_action(question, quote, values)
    values = of_asked_head(question, quote, values)
    values = of_asked_case(question, quote, values)
    values = of_asked_clauses(question, top, quote, values)
    values = not_the_qualifying_tax(question, quote, values)
    if not values and top.chunk.source != "user_docs":
        # «какой доход берут» answered by «доход принимается равным 70 % кадастровой
        # стоимости»: the asked noun and its share of the named quantity
        if (shares := named_shares(question, quote)) and (noun := asked_noun(question)):
            subject, values = noun, shares
    if not subject or not values or len(values) > MAX_VALUES:
        return f"{quote_lead(top)} «{quote}» [{top.number}]"
    return _value_line(subject, values, top, quote)


def _restates(part: str, values: Sequence[str]) -> bool:
    """Whether a further part's line («ставка НДС — 10 % [1]») names only ``values``."""
    named = part.split(" — ", 1)[-1].rsplit(" [", 1)[0]
    return all(v.strip() in values for v in named.split(", "))


def _value_line(
    subject: str, values: tuple[str, ...], top: Candidate, quote: str
) -> ValueLine | str:
    """«Срок — 24 месяца (…) [1].»; the line quoting the sentence when there are too many
    values."""
    if len(values) > MAX_VALUES:
        return f"{quote_lead(top)} «{quote}» [{top.number}]"
    reference = _reference(top)
    return ValueLine(
        subject=subject[:1].upper() + subject[1:],
        values=tuple(dict.fromkeys(shown(v) for v in values)),
        where=f" ({reference})" if reference else "",
        number=top.number,
        quote=quote,
    )


def card_lead(answers: list[CardAnswer], further: Sequence[str] = ()) -> list[str]:
    """One first sentence with every asked field («Арендодатель — …; арендная плата — …»)
    and the ``further`` parts' values no field answers, before the documents' titles; then
    each value's sentence quoted; two values of a field are both shown."""
    parts: list[str] = []
    for i, a in enumerate(answers):
        name = a.name[:1].upper() + a.name[1:] if i == 0 else a.name
        values = " или ".join(v.value for v in a.values)
        parts.append(f"{name} — {values} [{a.number}]")
    titles = list(dict.fromkeys(a.title for a in answers))
    line = "; ".join([*parts, *further]) + f" (документ «{'», «'.join(titles)}»)."
    quotes: list[str] = []
    for a in answers:
        several = len(a.values) > 1
        for v in a.values:
            sentence = clean_sentence(v.sentence) or v.sentence
            name = f"{a.name} ({v.label})" if v.label else a.name
            label = f"{name}, вариант «{v.value}»: " if several else f"{name}: "
            quotes.append(f"- {label}«{sentence}» [{a.number}]")
    if any(len(a.values) > 1 or a.more for a in answers):
        line += " В документе несколько значений — проверьте, какое применяется."
    more = [f"{a.name}: ещё значений в документе — {a.more}" for a in answers if a.more]
    if more:
        quotes.append("- " + "; ".join(more))
    return [line, "\n".join(quotes)]


def compose_direct(
    question: Question,
    ctx: AnswerContext,
    ranked: list[Candidate],
    cards: list[CardAnswer],
    warning: str | None = None,
    note: str | None = None,
    after_lead: str | None = None,
    norms: Sequence[Candidate] = (),
) -> str:
    """The offline answer in the answer format, led by the value asked; ``after_lead``
    stands right after the lead (the first line when there is no lead); ``norms``: more
    Code sentences only «Норма НК РФ» may quote, after ``ranked``'s."""
    lead: list[str] = []
    first: ValueLine | str | None = None  # the best sentence's own lead (no card)
    more: list[Candidate] = []
    extension: Candidate | None = None  # the extension of the best sentence's term
    if cards:  # the parts no card field answers get sentences of their own
        more = card_further_parts(question, cards, ranked)
        lead = card_lead(cards, card_part_values(question, cards, more, stated_values))
    else:
        quotable = [c for c in ranked if clean_sentence(c.sentence)]
        if quotable:
            top = quotable[0]
            first = lead_of(question, top)
            lead = first.lines() if isinstance(first, ValueLine) else [first]
            extension = extension_after(question, top, quotable)
            runner_up = next((c for c in quotable[1:] if c.number != top.number), None)
            if len(lead) == 1 and runner_up and runner_up.score >= top.score - RUNNER_UP_MARGIN:
                quote = clean_sentence(runner_up.sentence)
                lead.append(f"{quote_lead(runner_up)} «{quote}» [{runner_up.number}]")
        more = further_parts(question, ranked) if lead else []
    if len(lead) == 2 and first is not None:  # name each further part's value too
        top = next(c for c in ranked if clean_sentence(c.sentence))
        named = first.values if isinstance(first, ValueLine) else ()
        subject = first.subject if isinstance(first, ValueLine) else None
        parts = part_values(question, top, more, named, stated_values, subject)
        if isinstance(first, ValueLine):
            # «какие ставки НДС»: the values the source's other sentences list join the lead
            listed = listed_values(question, top, ranked, first.values, stated_values)
            if listed:
                values = first.values + tuple(shown(v) for new, _ in listed for v in new)
                first = replace(first, values=tuple(dict.fromkeys(values)))
                more = [c for _, c in listed] + [
                    c for c in more if all(c is not x for _, x in listed)
                ]
                # a further part whose values the list names already adds nothing
                parts = [p for p in parts if not _restates(p, first.values)]
            lead[0] = first.lines(parts)[0]
        elif parts:  # after the quote's line (a runner-up's quote follows)
            lead[0] = f"{lead[0]}; {'; '.join(parts)}."

    if extension is not None:  # «… может быть продлен до четырех месяцев …» after the rule
        quote = clean_sentence(extension.sentence)
        if quote and not any(quote in line for line in lead):
            if isinstance(first, ValueLine) and lead[0] == first.lines()[0]:
                periods = values_of(profile(extension.sentence), "period")
                longer = ", ".join(dict.fromkeys(shown(v) for v in periods))
                lead[0] = first.lines([f"{_EXTENDED} — {longer} [{extension.number}]"])[0]
            lead.append(f"{quote_lead(extension)} «{quote}» [{extension.number}]")

    total = row_total(question, ranked)
    if total is not None:  # a sum over a table's rows, shown as its equation
        lead, more = total.lines(), []
    cell = table_cell(question, ranked) if total is None and not cards else None
    if cell is not None:  # the cell at the row and the column the question names
        lead, more = cell.lines(), []
    verdict = polar_verdict(question, ranked) if total is None else None
    if verdict is not None:
        # the verdict settles the question: another value the lead named would not
        lead = [verdict.line()]

    asked: list[int] = []
    legs = {str(c.chunk.metadata.get(NORM_ONLY)) for c in norms}

    def norm(candidates: list[Candidate], shown: list[str]) -> Candidate | None:
        # the turn's candidates fill MAX_NORMS quotes as before; one more per Code-only
        # search that brought passages (retriever.code_extra: dense, lexical), each chosen
        # from all of their passages: the Code point the knowledge base crowded out
        asked.append(1)
        return code_norm(question, candidates, shown, norms, extra_only=len(asked) > MAX_NORMS)

    return compose_key_facts(
        ctx,
        ranked,
        warning,
        note,
        lead=lead or None,
        more=more,
        norm=None if cards else norm,
        max_norms=MAX_NORMS + len(legs),
        after_lead=after_lead,
    )
