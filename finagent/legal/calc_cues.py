"""The router's cheap check whether a question is one for the calculators (deadlines, пени).

Split from :mod:`finagent.legal.calc_extract` so that routing every question imports only
the words it reads (the question's text, the period table's cues); the full reading and its
lexicons (:func:`~finagent.legal.calc_extract.extract_calc_request`) are imported only for
the questions this check sends to the calculators.
"""

from __future__ import annotations

from finagent.legal.calc_lexicon import phrases, word_set
from finagent.legal.calc_text import CalcText, read_question
from finagent.legal.period_cues import rank_rows
from finagent.legal.question_periods import stated_periods

PENALTY = ("пеня",)
_RECEIPT = frozenset({"получить", "вручить"})
# from the inspection: named, or its channel (telecommunication channels, «по ТКС», carry
# only the exchange with the tax authority), or a demand (only an authority demands)
_AUTHORITY = frozenset(
    {"инспекция", "ифнс", "фнс", "налоговый", "налоговик", "ткс", "требование", "истребование"}
)


def asks_penalty(text: CalcText) -> bool:
    """Whether the question asks for пени: it names them, and its asking part asks for
    them or asks for no date («пени закрыли 5 июня ... Какой последний день для ответа на
    требование?» asks for a date)."""
    if not text.has(PENALTY) and not names_penalty_fraction(text):
        return False
    fractions = word_set("penalty_fractions")
    asked_penalty = any(
        (w.lemma == PENALTY[0] or w.lemma in fractions) and w.asked for w in text.words
    )
    asks_date = any(
        text.words[first].asked and not _asks_delay(text, first + size)
        for first, size in text.asking_phrases
    )
    return asked_penalty or not asks_date


def names_penalty_fraction(text: CalcText) -> bool:
    """The question names a share of the key rate art. 75 counts пени at («1/150»)."""
    fractions = word_set("penalty_fractions")
    return any(w.lemma in fractions and not w.negated for w in text.words)


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
        or (asks_day and asks_reply(text))
    )
    return bool(rank_rows(text, [])) or bool(stated_periods(text)) or dated_event


def asks_reply(text: CalcText) -> bool:
    """The asked action is a reply («ответить», ``replies``) and the story names the
    inspection or its demand («Требование по ст. 93.1 ... До какого числа ответить?»): a
    period counted from the demand, whichever it is (the calc node asks which)."""
    if text.head is None or text.words[text.head].lemma not in word_set("replies"):
        return False
    return any(w.lemma in _AUTHORITY and not w.asked and not w.negated for w in text.words)


def told_receipt(text: CalcText, dated: bool = True) -> bool:
    """A story sentence tells that a document from the inspection was received («Получили
    из инспекции документ по ТКС 12 ноября 2025, до какого числа ответить?»): the period
    asked then runs from it, whichever document it was (the calc node asks which). With
    ``dated`` the sentence must date it; without, any story sentence counts (the day of
    receipt is then asked back too)."""
    dated_sentences = {text.words[text.day_words(k)[0]].sentence for k in range(len(text.days))}
    # a sentence before the one that asks is story even when a terse asking part («Сколько
    # дней и до какой даты?») leaves the whole question asked
    asking = min((text.words[i].sentence for i, _ in text.asking_phrases), default=None)
    told = {
        w.sentence
        for w in text.words
        if (not dated or w.sentence in dated_sentences)
        and w.lemma in _RECEIPT
        and w.pos == "VERB"
        and (not w.asked or (asking is not None and w.sentence < asking))
        and not w.negated
    }
    # from the inspection («из инспекции», «из налоговой»): not a payment or a document a
    # counterparty sent («получили аванс 5 марта»: a Part Two question for the knowledge base)
    return any(w.sentence in told and w.lemma in _AUTHORITY for w in text.words)
