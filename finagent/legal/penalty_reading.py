"""A пени question read for the calculator: the arrears, the due and payment dates, the
days of delay and who pays.

Two dates: the earlier is the due date («просрочка с 29 июля по 15 октября» is the overdue
range itself: the due date is the day before). Three or more: only a date the words mark
as due («срок уплаты», «до», «вместо») and one they mark as paid («уплачено», «погасили»).
One date and days of delay give the other; no date at all is paid today.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache

from finagent.language.lemmas import future_verb, past_singular_person
from finagent.language.money import money_in
from finagent.legal.calc_lexicon import canonical, lexicon, phrases, word_set
from finagent.legal.calc_request import Payer, RoledAmount, RoledDate
from finagent.legal.calc_text import CalcText, Word
from finagent.legal.calendar import CalendarYearError, next_working_day
from finagent.legal.question_days import QuestionDay
from finagent.legal.question_periods import stated_periods

DOCUMENT = "document"  # the cue of the date of a procedural document: context
_CUE_REACH = 8  # words before a date that may say what it is
_AMOUNT_REACH = 2  # words before an amount that may make it a threshold or the rest
_LATE_REACH = 3
_PHRASE_LEAD = 2  # words a cue phrase may reach back past the start of a window


@dataclass
class PenaltyReading:
    amounts: list[RoledAmount] = field(default_factory=list)
    dates: list[RoledDate] = field(default_factory=list)
    late_days: int | None = None
    payer: Payer | None = None
    assumptions: list[str] = field(default_factory=list)
    # neither date is told: both come from the days of delay, paid «today»
    dates_assumed: bool = False
    # the question asks for a key rate the Bank of Russia has not set yet
    future_rate: bool = False


def _has_word(words: Sequence[Word], key: str) -> bool:
    wanted = phrases(key)
    lemmas = [w.lemma for w in words]
    return any(tuple(lemmas[i : i + len(p)]) == p for p in wanted for i in range(len(lemmas)))


def _amounts(text: CalcText) -> list[RoledAmount]:
    """Every amount; the arrears is the first that is not a threshold («свыше 300 тыс.»),
    or the one the words call the rest still unpaid («оставшиеся 200 000 руб.»)."""
    # a sum in words too: «недоимка — триста двенадцать тысяч рублей»
    found = [m for m in money_in(text.analysed, scale_alone=True, words=True) if m.amount > 0]
    before = [_words_before(text, m.start) for m in found]
    rest = [i for i, words in enumerate(before) if _has_word(words, "rest_words")]
    debts = [i for i, words in enumerate(before) if not _has_word(words, "threshold_words")]
    candidates = debts or list(range(len(found)))
    chosen = rest[0] if len(rest) == 1 else (candidates[0] if candidates else None)
    return [
        RoledAmount(value=m.amount, role="arrears" if i == chosen else "other", text=m.text)
        for i, m in enumerate(found)
    ]


def _words_before(text: CalcText, offset: int) -> list[Word]:
    """The words right before an amount, back to a number («свыше 300 тыс. — 85 тыс.»:
    «свыше» is before 300 тыс. only)."""
    words = text.before(offset, _AMOUNT_REACH)
    numbers = [k for k, w in enumerate(words) if any(ch.isdigit() for ch in w.text)]
    return words[numbers[-1] + 1 :] if numbers else words


def _late_days(text: CalcText) -> int | None:
    """Days of delay: «на 40 дней позже срока», «просрочка 60 дней», «через 60 дней»."""
    late = word_set("late_words")
    for p in stated_periods(text):
        if p.unit not in ("days", "working_days"):
            continue
        around = text.words[max(0, p.first - _LATE_REACH) : p.last + 1 + _LATE_REACH]
        # «задержало уплату на 60 дней»: «на N дней» in a пени question is the delay
        by = p.first > 0 and text.words[p.first - 1].lemma == "на"
        if by or any(w.lemma in late for w in around):
            return p.count
    return None


def _cue_before(text: CalcText, day: QuestionDay, previous_end: int) -> str | None:
    """«due», «paid» or «document» (:func:`_document_day`): what the nearest cue before a
    day says it is («срок уплаты» is due though it holds «уплата»: the longer phrase
    wins); none near the day, the nearest in its sentence («заплатила НДС за 2 квартал
    2025 с опозданием, 3 сентября»)."""
    first, _ = text.day_words(day.mention)
    if _document_day(text, previous_end, first):
        return DOCUMENT
    reach = max(previous_end, first - _CUE_REACH)
    near = _cue_in(text, reach, first, min(_PHRASE_LEAD, reach - previous_end))
    if near is not None:
        return near
    sentence = text.words[first].sentence
    start = first
    while start > previous_end and text.words[start - 1].sentence == sentence:
        start -= 1
    return _cue_in(text, start, first)


_CLAUSE_BREAKS = frozenset({",", ";", "а", "но", "и"})
_VERBS = frozenset({"VERB", "INFN", "PRTS", "PRTF", "GRND"})


def _document_day(text: CalcText, previous_end: int, first: int) -> bool:
    """The clause right before a day names a procedural document of the inspection and no
    verb of paying: the document's date («требование пришло 10.08», «решение о взыскании
    — 05.09»), context, neither due nor paid; «оплатили по требованию 12.09» ties the
    day to the payment, and a due date the document states stays due."""
    words = text.words
    start = first
    while (
        start > previous_end
        and words[start - 1].sentence == words[first].sentence
        and words[start - 1].lemma not in _CLAUSE_BREAKS
    ):
        start -= 1
    clause = words[start:first]
    if any(w.pos in _VERBS and w.lemma in word_set("payment_verbs") for w in clause):
        return False
    if _cue_in(text, start, first) == "due":
        return False  # «срок в уведомлении — 1 декабря»: the due date the document states
    lemmas = [w.lemma if not w.negated else "" for w in clause]
    return any(
        tuple(lemmas[i : i + len(p)]) == p
        for p in phrases("procedural_documents")
        for i in range(len(lemmas))
    )


def _cue_in(text: CalcText, start: int, first: int, lead: int = 0) -> str | None:
    """The kind of the cue nearest the end of words ``start``..``first``; a phrase may
    begin up to ``lead`` words before ``start`` when it ends after it («срок уплаты» cut
    by the reach of a long amount in between reads as the due date, not a payment)."""
    lead = min(lead, start)
    start -= lead
    window = [w for w in text.words[start:first]]
    lemmas = [w.lemma if not w.negated or w.lemma == "не" else "" for w in window]
    due, paid = phrases("due_words"), phrases("paid_words")
    for end in range(len(lemmas), lead, -1):
        best: tuple[int, str] | None = None
        for kind, options in (("due", due), ("paid", paid)):
            for p in options:
                if len(p) <= end and tuple(lemmas[end - len(p) : end]) == p:
                    if best is None or len(p) > best[0]:
                        best = (len(p), kind)
        if best is not None:
            opens = start + end - best[0]
            if best[1] == "paid" and _obliged(
                [w.lemma for w in text.words[max(0, opens - 3) : opens]]
            ):
                return "due"  # «должна была уплатить 28 июля»: the day it was due
            return best[1]
    return None


# the modal words that make a verb of payment the duty, not the act
_MODALS = frozenset({"должный", "обязанный", "обязать", "надо", "нужно", "необходимо", "следовать"})


def _obliged(before: list[str]) -> bool:
    """A modal right before a verb of payment («должны были уплатить», «нужно было
    перечислить»): the payment was due, not made."""
    words = [lemma for lemma in before[-3:] if lemma != "быть"]
    return bool(words) and words[-1] in _MODALS


def date_cues(text: CalcText, days: list[QuestionDay]) -> list[str | None]:
    """«due», «paid», «document» or None for each day: what the words between it and the
    day before call it."""
    out: list[str | None] = []
    previous_end = 0
    for d in days:
        out.append(_cue_before(text, d, previous_end))
        previous_end = text.day_words(d.mention)[1] + 1
    return out


def _marked(text: CalcText, days: list[QuestionDay]) -> tuple[date | None, date | None]:
    """With three or more dates: the one the words call due and the one they call paid,
    each only when exactly one date is so marked."""
    due: set[date] = set()
    paid: set[date] = set()
    for d, cue in zip(days, date_cues(text, days), strict=True):
        if cue == "paid":
            paid.add(d.day)
        elif cue == "due":  # «срок 28.09 (вс), перенесен на 29.09» is one due date
            due.add(due_on_working_day(d.day))
    return (
        next(iter(due)) if len(due) == 1 else None,
        next(iter(paid)) if len(paid) == 1 else None,
    )


def _paid_early(text: CalcText, days: list[QuestionDay], distinct: list[date]) -> bool:
    """The words call every mention of the earlier day the payment and every mention of
    the later one the due date («срок 28 апреля, уплатили 20 апреля»)."""
    cues: dict[date, set[str | None]] = {}
    for d, cue in zip(days, date_cues(text, days), strict=True):
        cues.setdefault(d.day, set()).add(cue)
    return cues.get(distinct[0]) == {"paid"} and cues.get(distinct[1]) == {"due"}


def due_on_working_day(stated: date) -> date:
    """A due date the question states that falls on a day off moves to the next working
    day (п. 7 ст. 6.1 НК РФ); a year the calendar does not cover keeps the stated date."""
    try:
        return next_working_day(stated)
    except CalendarYearError:
        return stated


def payer_of(text: CalcText) -> Payer | None:
    """Organisation words («ООО», «компания», «ТСЖ»), else person words («ИП», «физлицо»,
    «я», «пенсионер»), else НДФЛ the payer pays himself; words the question denies («Я
    ИП, не организация») do not count, and neither does the standard of a comparison («Я
    ИП … Для ИП ставка как у организаций?»): a payer type the question measures the rule
    against is not the one who pays."""
    payers = _payer_words()
    for payer in ("organization", "individual"):
        if any(_names_payer(text, p) for p in payers[payer]):
            return payer  # type: ignore[return-value]
    if text.has(("ндфл",)) and not (text.has(("агент",)) or text.has(("удержать",))):
        return "individual"
    if any(_speaker_paid(text, i) for i in range(len(text.words))):
        return "individual"
    return None


def _names_payer(text: CalcText, phrase: tuple[str, ...]) -> bool:
    """Some mention of ``phrase`` the question does not deny names the payer: not one
    that is only the standard of a comparison."""
    if len(phrase) > 1:
        found = text.find(phrase)
        return found is not None and not _comparison_standard(text, min(found))
    return any(
        text.words[i].lemma == phrase[0]
        and not text.words[i].negated
        and not _comparison_standard(text, i)
        for i in text.content
    )


def _comparison_standard(text: CalcText, index: int) -> bool:
    """The word at ``index`` is what a rule is compared with: a comparison word
    (lexicon ``comparison_words``, «чем») then a preposition right before it, in its
    sentence («как у организаций», «или как для юрлиц», «чем у ИП»). Without the
    preposition the word is a role the payer has («мы как организация платим …»)."""
    if index < 2:
        return False
    marker, preposition = text.words[index - 2], text.words[index - 1]
    markers = word_set("comparison_words") | {"чем"}
    return (
        marker.sentence == text.words[index].sentence
        and preposition.pos == "PREP"
        and marker.lemma in markers
    )


# the verbs of a payment a speaker tells of himself
_PAYING = frozenset({"уплатить", "заплатить", "оплатить", "перечислить", "погасить"})


def _speaker_paid(text: CalcText, index: int) -> bool:
    """«Заплатил 20 января»: a verb of payment opening its sentence in the masculine or
    feminine singular past has the speaker, one person, as its dropped subject."""
    w = text.words[index]
    opens = index == 0 or text.words[index - 1].sentence != w.sentence
    return (
        opens
        and not w.negated
        and (w.raw in _PAYING or w.lemma in _PAYING)
        and past_singular_person(w.text)
    )


@cache
def _payer_words() -> dict[str, tuple[tuple[str, ...], ...]]:
    return {
        key: tuple(canonical(str(word)) for word in words)
        for key, words in lexicon()["payers"].items()
    }


def _range_start(text: CalcText, day: QuestionDay) -> bool:
    """«просрочка с 29 июля по 15 октября»: the first day of an overdue range."""
    first, _ = text.day_words(day.mention)
    before = text.words[max(0, first - 2) : first]
    return bool(before) and _has_word(before[-1:], "range_words")


def read_penalty(text: CalcText, days: list[QuestionDay], today: date) -> PenaltyReading:
    out = PenaltyReading(amounts=_amounts(text), late_days=_late_days(text), payer=payer_of(text))
    due: date | None = None
    paid: date | None = None
    stated = True  # the due date is one the question gives, not derived from others
    # the dates of the inspection's documents are context, neither due nor paid (a day
    # told otherwise as well keeps its other mentions)
    cues = date_cues(text, days)
    told = [(d, cue) for d, cue in zip(days, cues, strict=True) if cue != DOCUMENT]
    distinct = sorted({d.day for d, _ in told})
    if len(distinct) == 2 and _paid_early(text, days, distinct):
        paid, due = distinct  # the words call the earlier day the payment: no arrears
    elif len(distinct) == 2:  # пени accrue only after the due date: the earlier one is due
        due, paid = distinct
        first = min((d for d in days if d.day == due), key=lambda d: d.mention)
        if _range_start(text, first):
            stated = False
            due = first.day - timedelta(days=1)
            out.assumptions.append(
                f"{first.day:%d.%m.%Y} принят первым днём просрочки, срок уплаты — {due:%d.%m.%Y}"
            )
    elif len(distinct) > 2:
        due, paid = _marked(text, days)
    elif distinct and {"due", "paid"} <= {cue for _, cue in told}:
        due = paid = distinct[0]  # «срок … 28 апреля, уплатили 28 апреля»: paid on time
    elif distinct:
        if told[0][1] == "paid":
            paid = distinct[0]
        else:
            due = distinct[0]
    if due is not None and stated:
        moved = due_on_working_day(due)
        if moved != due:
            out.assumptions.append(
                f"срок уплаты {due:%d.%m.%Y} приходится на нерабочий день: по п. 7 ст. 6.1 "
                f"НК РФ последний день уплаты — {moved:%d.%m.%Y}"
            )
            due = moved
    late = out.late_days
    if due is None and paid is not None and late:
        due = paid - timedelta(days=late)
    if paid is None and due is not None and late:
        paid = due + timedelta(days=late)
    if due is None and paid is None and late:
        paid, due = today, today - timedelta(days=late)
        out.dates_assumed = True
        out.assumptions.append(
            f"даты не указаны: принято, что недоимка погашена сегодня ({today:%d.%m.%Y}), "
            f"срок уплаты — {due:%d.%m.%Y}"
        )
    if any(not d.year_given for d in days):
        years = sorted({d.day.year for d in days if not d.year_given})
        source = next((d.year_basis for d in days if d.year_basis), "")
        out.assumptions.append(f"год не указан: принят {', '.join(map(str, years))} год{source}")
    out.future_rate = _future_rate_asked(text, [d for d in (due, paid) if d], today)
    if due is not None:
        out.dates.append(RoledDate(day=due, role="due"))
    if paid is not None:
        out.dates.append(RoledDate(day=paid, role="payment"))
    return out


# words that make a key rate one not set yet («будущая ставка», «прогноз ставки»)
_FUTURE_WORDS = frozenset({"будущий", "прогноз", "прогнозный", "ожидаемый", "предстоящий"})
_RATE = "ставка"


def _future_rate_asked(text: CalcText, dated: list[date], today: date) -> bool:
    """The question asks to use a key rate not set yet: a sentence naming the rate with a
    verb in the future tense or a word of the future («ставку возьмите ту, что ЦБ установит
    в 2027 году»), while the arrears run past today (a date or a year after it)."""
    later = any(d > today for d in dated) or any(
        w.text.isdigit() and len(w.text) == 4 and int(w.text) > today.year for w in text.words
    )
    if not later:
        return False
    rated = {w.sentence for w in text.words if w.lemma == _RATE and not w.negated}
    return any(
        w.sentence in rated and (w.lemma in _FUTURE_WORDS or future_verb(w.text))
        for w in text.words
        if not w.negated
    )
