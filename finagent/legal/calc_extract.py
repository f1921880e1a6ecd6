"""The rule extractor: a deadline or пени question read once into a :class:`CalcRequest`.

Offline it is the only reader; with an LLM it is the referee of the LLM's reading. It never
computes a date or an amount: the calculators do (finagent/answering/calc.py).
"""

from __future__ import annotations

from datetime import date

from finagent.legal.calc_lexicon import phrases, word_set
from finagent.legal.calc_request import CalcRequest, Missing
from finagent.legal.calc_text import CalcText, read_question
from finagent.legal.deadline_reading import read_deadline
from finagent.legal.jurisdiction import foreign_authority, foreign_country, foreign_party_only
from finagent.legal.law_scope import OTHER_LAW, other_law
from finagent.legal.penalty_reading import read_penalty
from finagent.legal.period_cues import rank_rows
from finagent.legal.question_days import QuestionDay, question_days
from finagent.legal.question_periods import stated_periods
from finagent.legal.stated_rule import STATED_RULE, stated_rule

PENALTY = ("пеня",)
_RECEIPT = frozenset({"получить", "вручить"})
# from the inspection: named, or its channel (telecommunication channels, «по ТКС», carry
# only the exchange with the tax authority), or a demand (only an authority demands)
_AUTHORITY = frozenset(
    {"инспекция", "ифнс", "фнс", "налоговый", "налоговик", "ткс", "требование", "истребование"}
)
JURISDICTION = "jurisdiction:"
# пени asked by a key rate the Bank of Russia has not set yet
FUTURE_KEY_RATE = "future_key_rate"


def asks_penalty(text: CalcText) -> bool:
    """Whether the question asks for пени: it names them, and its asking part asks for
    them or asks for no date («пени закрыли 5 июня ... Какой последний день для ответа на
    требование?» asks for a date)."""
    if not text.has(PENALTY):
        return False
    asked_penalty = any(w.lemma == PENALTY[0] and w.asked for w in text.words)
    asks_date = any(
        text.words[first].asked and not _asks_delay(text, first + size)
        for first, size in text.asking_phrases
    )
    return asked_penalty or not asks_date


def _asks_delay(text: CalcText, after: int) -> bool:
    """An asking phrase of a count of days followed by a word of delay («Сколько дней
    просрочки и какая пеня?»): it asks the days of the пени's own count, not a period."""
    return after < len(text.words) and text.words[after].lemma in word_set("late_words")


def _asks_amount(text: CalcText) -> bool:
    lemmas = [w.lemma for w in text.words]
    return any(
        tuple(lemmas[i : i + len(p)]) == p
        for p in phrases("asks_amount")
        for i in range(len(lemmas))
    )


def looks_like_calc(question: str) -> bool:
    """The router's cheap check: the question asks for пени with something to count from
    (an amount, a date, «сколько пеней»), or asks for a day (a length only when it gives a
    date) about a period the table knows, one it states, or a dated event. It reads the
    words, not the dates' roles or the amounts."""
    text = read_question(question)
    if asks_penalty(text):
        return _asks_amount(text) or bool(text.days) or text.has(("рубль",))
    if not text.asking_phrases:
        return False
    duration = set(phrases("asks_duration"))
    lemmas = [w.lemma for w in text.words]
    asks_day = any(tuple(lemmas[i : i + n]) not in duration for i, n in text.asking_phrases)
    if not asks_day and not text.days:
        return False
    # a period the table knows or the question states, or a dated event the period must
    # run from («бумагу из инспекции получили 4 августа»: which period is then asked back)
    # (a length asked with the date of a receipt too: «пришло письмо 5 марта, в какой срок
    # ответить?»)
    # (a day asked with no date at all: «Пришло требование из налоговой. До какого числа
    # ответить?» is asked back for the day of receipt, and for the demand's kind)
    dated_event = (
        (asks_day and any(w.event for w in text.words))
        or told_receipt(text)
        or (asks_day and not text.days and told_receipt(text, dated=False))
    )
    return bool(rank_rows(text, [])) or bool(stated_periods(text)) or dated_event


def told_receipt(text: CalcText, dated: bool = True) -> bool:
    """A story sentence tells that a document from the inspection was received («Получили
    из инспекции документ по ТКС 12 ноября 2025, до какого числа ответить?»): the period
    asked then runs from it, whichever document it was (the calc node asks which). With
    ``dated`` the sentence must date it; without, any story sentence counts (the day of
    receipt is then asked back too)."""
    dated_sentences = {text.words[text.day_words(k)[0]].sentence for k in range(len(text.days))}
    told = {
        w.sentence
        for w in text.words
        if (not dated or w.sentence in dated_sentences)
        and w.lemma in _RECEIPT
        and w.pos == "VERB"
        and not w.asked
        and not w.negated
    }
    # from the inspection («из инспекции», «из налоговой»): not a payment or a document a
    # counterparty sent («получили аванс 5 марта»: a Part Two question for the knowledge base)
    return any(w.sentence in told and w.lemma in _AUTHORITY for w in text.words)


def extract_calc_request(question: str, today: date) -> CalcRequest:
    """What the question asks the calculators, with every date's role, what was assumed
    and what is missing. ``today`` gives the year of a date written without one when the
    question has no other dated day."""
    text = read_question(question)
    days = question_days(text, today)
    foreign = foreign_country(question) or foreign_authority(question)
    if asks_penalty(text):
        req = _penalty(text, days, today, foreign)
    else:
        req = _deadline(text, days, foreign, foreign is not None and foreign_party_only(question))
    if req.kind is not None and req.decline is None and stated_rule(text):
        # a told rule with a condition the Code lacks: declined, never computed by it
        return req.model_copy(update={"decline": STATED_RULE})
    return req


def _decline_of(country: str | None) -> str | None:
    return f"{JURISDICTION}{country}" if country else None


def _penalty(
    text: CalcText, days: list[QuestionDay], today: date, foreign: str | None
) -> CalcRequest:
    reading = read_penalty(text, days, today)
    missing: list[Missing] = []
    if not any(a.role == "arrears" for a in reading.amounts):
        missing.append("amount")
    if not any(d.role == "due" for d in reading.dates):
        missing.append("due_date")
    if not any(d.role == "payment" for d in reading.dates):
        missing.append("payment_date")
    if reading.dates_assumed and missing:
        # asked back anyway: the dates only assumed from the days of delay are named too
        missing += ["due_date", "payment_date"]
    if reading.payer is None:
        missing.append("payer")
    confidence = 0.9 if not missing else 0.7 if missing == ["payer"] else 0.3
    return CalcRequest(
        kind="penalty",
        dates=reading.dates,
        amounts=reading.amounts,
        late_days=reading.late_days,
        payer=reading.payer,
        assumptions=reading.assumptions,
        confidence=confidence,
        missing=missing,
        decline=_decline_of(foreign)
        or (OTHER_LAW if other_law(text, row_found=False) else None)
        or (FUTURE_KEY_RATE if reading.future_rate else None),
    )


def in_russia(text: CalcText) -> bool:
    """The story happens here: «у нас» (a place name cannot say it: pymorphy3 tags Russian
    and foreign cities alike)."""
    words = text.words
    return any(
        words[k - 1].lemma == "у" and words[k].lemma == "мы" and not words[k].negated
        for k in range(1, len(words))
    )


def _deadline(
    text: CalcText, days: list[QuestionDay], foreign: str | None, party_only: bool = False
) -> CalcRequest:
    reading = read_deadline(text, days)
    if foreign and party_only and (reading.row is not None or reading.decline):
        # «эстонская фирма открыла у нас подразделение»: a foreign party acting here is
        # under the Russian Code; the rows read its adjective as «иностранный» and decide
        if in_russia(text):
            foreign = None
    missing: list[Missing] = []
    if reading.row is None and reading.period is None and reading.decline is None:
        missing.append("procedure")
    if (not days or reading.event_missing) and reading.decline is None:
        missing.append("event_date")
    asks = bool(text.asking_phrases) or reading.row is not None
    found = reading.row is not None or reading.period is not None
    scope = OTHER_LAW if other_law(text, row_found=found) else None
    return CalcRequest(
        kind="deadline" if asks else None,
        row_id=reading.row.id if reading.row else None,
        variants=[r.id for r in reading.variants],
        cited_rows=[r.id for r in reading.cited],
        chain_from=reading.chain_from,
        period=reading.period,
        dates=reading.dates,
        assumptions=reading.assumptions,
        confidence=reading.confidence,
        missing=missing,
        decline=_decline_of(foreign) or scope or reading.decline,
    )
