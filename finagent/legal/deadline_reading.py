"""A deadline question read for the calculator: the row, the period, the event's date
(and whether it starts a chain), and what was assumed or is missing.

«Акт проверки получен 10.03.2025. Когда вынесут решение?» asks for the review (п. 1
ст. 101), whose period runs from the end of the month for objections: the date given is the
act's receipt, so the request chains the objections row before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from finagent.legal.calc_lexicon import canonical, document_names, lexicon, phrases, word_set
from finagent.legal.calc_request import RoledDate, StatedPeriod
from finagent.legal.calc_text import CalcText, Word
from finagent.legal.calendar import CalendarYearError
from finagent.legal.deadlines import Unit, compute_deadline, plural
from finagent.legal.event_choice import choose_event
from finagent.legal.event_doubt import clause_of, first_outside, in_aside, rivals
from finagent.legal.penalty_reading import date_cues
from finagent.legal.period_cues import (
    cited_not_asked,
    event_objects,
    event_words,
    excluded_case,
    find_rows,
    names_row_in,
    narrowest_row,
    rank_rows,
)
from finagent.legal.periods import ProceduralPeriod, period_by_id
from finagent.legal.question_days import (
    QuestionDay,
    marked_day,
    told_calendar,
    told_of_updated,
)
from finagent.legal.question_periods import PeriodMention, stated_periods

_MONTHS_LIKE = ("months", "years")
# words next to a date that say a document was really received, not sent
_RECEIVED = frozenset({"получить", "вручить", "получать", "получение", "вручение", "вручать"})
# «заказным письмом», «заказным», «по почте»
_REGISTERED = canonical("заказной")
_MAIL = (_REGISTERED, canonical("почта"))
REGISTERED_MAIL = "registered_mail"
SENT_NOT_RECEIVED = "sent_not_received"
# the verbs of sending a document (lexicon ``sending_verbs``): «разместили в личном
# кабинете», «выставили по ТКС» date a sending, not the receipt the period runs from
_SENT = frozenset(map(str, lexicon()["sending_verbs"])) | word_set("sending_verbs")
PERIOD_CONFLICT = "period_conflict"
# the words of an actual pick-up of a posted letter
_PICKED_UP = (("забрать",), ("получить",), ("вручить",))
_DEEMED_REACH = 5  # words after «считается» that may name the receipt it asks
# «в тот же день», «в этот же день»
_THAT = frozenset({"тот", "этот"})
# the text of the asked event derived from a posted document's sending
POSTED_RECEIPT = "шестой день с даты отправки"
# the general rule for a document of the inspection sent by registered mail; ст. 31
# (chapter 5) is not in the Code text in use, so its words are given from its current edition
POSTAL_RULE = "п. 4 ст. 31 НК РФ"
POSTAL_RULE_WORDS = (
    "датой его получения считается шестой рабочий день со дня отправки заказного письма"
)


@dataclass
class DeadlineReading:
    row: ProceduralPeriod | None = None
    variants: list[ProceduralPeriod] = field(default_factory=list)
    chain_from: str | None = None
    period: StatedPeriod | None = None
    dates: list[RoledDate] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    decline: str | None = None
    confidence: float = 0.0
    # the only day is told of another event («решение вынесено 10 марта») than the row's
    event_missing: bool = False
    # the cited article's rows when none is a period for the asked action
    cited: list[ProceduralPeriod] = field(default_factory=list)


def _of_receipt(phrases: Iterable[tuple[str, ...]]) -> bool:
    """A phrase of an event opens with a verb of receipt (``receipt_verbs``): the row runs
    from a document's receipt."""
    verbs = word_set("receipt_verbs")
    return any(phrase[0] in verbs for phrase in phrases)


def _extends(row: ProceduralPeriod, unit: Unit) -> bool:
    """An extension in months («продлили до трех месяцев») is of a period in months: it
    says nothing of a period in days the question asks about (sending the decision), nor
    of a period its norm never extends (the act from the справка after an extended audit)."""
    if row.fixed:
        return False
    return (row.unit in _MONTHS_LIKE) == (unit in _MONTHS_LIKE)


def same_period(row: ProceduralPeriod, stated: PeriodMention) -> bool:
    """Whether a period the question names is the row's («пяти дней» is five working or
    calendar days unless it says which)."""
    if stated.count != row.period:
        return False
    if stated.unit == row.unit:
        return True
    days = ("days", "working_days")
    return not stated.day_kind_given and stated.unit in days and row.unit in days


def _receipt_undated(text: CalcText, days: list[QuestionDay], row: ProceduralPeriod) -> str | None:
    """A period that runs from receipt when the question dates only the sending: by
    registered mail (when it counts as received the Code words two ways, the
    ``registered_mail`` row), or sent otherwise (``sent_not_received``). None when a date is
    marked as received, or nothing is marked as sent."""
    words = event_words(row.id)
    receipt = _of_receipt(words)
    if not receipt or any(phrase[0] in _SENT for phrase in words):
        return None  # not from receipt, or the row counts from the sending too
    received = sent = False
    receipts = word_set("receipt_verbs")
    # «прислали заказным письмом 12 августа»: the sender's verb dates the sending
    senders = frozenset(map(str, lexicon()["sender_receipt_verbs"]))
    mail = any(text.has(p) for p in _MAIL)
    for d in days:
        first, last = text.day_words(d.mention)
        start = max(0, first - 4)
        near = [
            w
            for i, w in enumerate(text.words[start : last + 4], start)
            if not w.negated and not _refused(text, i)
        ]
        # «(выставили его 3 марта) пришло нам 6 марта», «получить его смогли 17 апреля»: a
        # verb of receipt in the day's clause, not refused; «направила требование … по ТКС
        # 3 февраля»: a verb of sending in it, however far before the day
        clause = [(i, w) for i, w in _indexed(text, clause_of(text, d)) if not w.negated]
        told = any(
            (w.raw in _RECEIVED or w.lemma in receipts)
            and w.raw not in senders
            and not _refused(text, i)
            for i, w in clause
        )
        if told and mail:
            # a posted letter: only a pick-up before its sixth working day dates the
            # receipt; a later one does not extend it (the mail rule then applies)
            told = _before_posted_receipt(text, days, d)
        received = received or any(w.raw in _RECEIVED for w in near) or acknowledged(text, d)
        received = received or told
        sent = sent or any(
            w.raw in _SENT or w.lemma in _SENT for _, w in [*clause, *enumerate(near)]
        )
    if received or _received_same_day(text):
        return None
    if mail:
        return REGISTERED_MAIL
    return SENT_NOT_RECEIVED if sent else None


def _before_posted_receipt(text: CalcText, days: list[QuestionDay], day: QuestionDay) -> bool:
    """The day falls after the sending of a posted letter and before the sixth working
    day from it: a pick-up that day dates the receipt."""
    sent = _sent_day(text, days)
    if sent is None:
        return False
    try:
        return sent.day < day.day < posted_receipts(sent.day)[0]
    except CalendarYearError:
        return False


def _indexed(text: CalcText, words: list[Word]) -> list[tuple[int, Word]]:
    """Each word of ``words`` (taken from ``text.words``) with its index there."""
    where = {id(w): i for i, w in enumerate(text.words)}
    return [(where[id(w)], w) for w in words]


def _refused(text: CalcText, i: int) -> bool:
    """The word at ``i`` is a receipt avoided or refused, not one that happened: a verb of
    ``receipt_refusals`` stands right before it, «от» between («уклоняемся от получения»,
    «отказался получить акт»), or right after it («получать отказались»)."""
    refusals = word_set("receipt_refusals")
    sentence = text.words[i].sentence
    before = [w for w in text.words[max(0, i - 3) : i] if w.sentence == sentence]
    lemmas = [w.lemma for w in before if w.lemma != "от"]
    after = text.words[i + 1 : i + 2]  # «получать отказались»
    return (bool(lemmas) and lemmas[-1] in refusals) or any(
        w.sentence == sentence and w.lemma in refusals for w in after
    )


def acknowledged(text: CalcText, day: QuestionDay) -> bool:
    """The day the taxpayer sent its receipt of acceptance («квитанцию о приеме отправили
    24 апреля»; not a receipt of payment): in electronic exchange that receipt dates the
    receipt of the document it acknowledges, so the day is the receipt's."""
    first, last = text.day_words(day.mention)
    sentence = text.words[first].sentence
    near = [
        w
        for w in text.words[max(0, first - 8) : last + 4]
        if w.sentence == sentence and not w.negated
    ]
    lemmas = [w.lemma for w in near]
    named = [
        k
        for k, (first, second, third) in enumerate(
            zip(lemmas, lemmas[1:], lemmas[2:], strict=False)
        )
        if first == "квитанция" and second == "о" and third == "прием"
    ]
    # the verb of sending is the receipt's own, in its clause: «требование направили по
    # ТКС 3 февраля, квитанцию о приеме не отправляли» dates the inspection's sending
    return any(any(w.raw in _SENT or w.lemma in _SENT for w in _clause_of(near, k)) for k in named)


def _clause_of(words: list[Word], k: int) -> list[Word]:
    """The words of ``words`` around index ``k`` up to a comma or semicolon either side."""
    start = max((i + 1 for i in range(k) if words[i].text in ",;"), default=0)
    stop = next((i for i in range(k, len(words)) if words[i].text in ",;"), len(words))
    return words[start:stop]


def _received_same_day(text: CalcText) -> bool:
    """«направили сообщение 26 декабря, инспекция получила его в тот же день»: a verb of
    receipt with «в тот (этот) же день» dates the receipt by the sending."""
    for i, w in enumerate(text.words):
        if w.negated or w.raw not in _RECEIVED:
            continue
        following = [x.lemma for x in text.words[i + 1 : i + 6] if x.sentence == w.sentence]
        for j in range(len(following) - 2):
            if following[j] in _THAT and following[j + 1] == "же" and following[j + 2] == "день":
                return True
    return False


def _asks_receipt(text: CalcText) -> bool:
    """The asking part asks when a document is received («когда он считается
    полученным?»), not a period that runs from that day («до какого дня ответить?»)."""
    words = text.words
    if any(w.asked and not w.negated and w.raw in _RECEIVED for w in words):
        return True
    # «с какого дня считается, что акт вручен»: the receipt in the clause «считается» opens
    return any(
        w.asked
        and w.lemma == "считаться"
        and any(
            x.raw in _RECEIVED and not x.negated and x.sentence == w.sentence
            for x in words[i + 1 : i + 1 + _DEEMED_REACH]
        )
        for i, w in enumerate(words)
    )


def _posted_receipt(
    text: CalcText, days: list[QuestionDay], row: ProceduralPeriod, event: QuestionDay
) -> date | None:
    """The sixth working day after a registered-mail sending the words of sending mark
    before the day read as the receipt of the row's document; None when no such sending."""
    if row.after is not None or not any(text.has(p) for p in _MAIL):
        return None
    words = event_words(row.id)
    if not _of_receipt(words):
        return None
    marked = marked_day(text, days, [(verb,) for verb in sorted(_SENT)])
    if marked is None or marked[0].day >= event.day:
        return None
    try:
        return posted_receipts(marked[0].day)[0]
    except CalendarYearError:
        return None


def _from_receipt_asked(text: CalcText, days: list[QuestionDay]) -> list[ProceduralPeriod]:
    """When the question asks both when a posted document counts as received and another
    period: the asked rows that run from that receipt (not the mail rule itself, nor the
    inspection's own handing-over counted from the document's date), one per period."""
    rows: dict[tuple[int, str], ProceduralPeriod] = {}
    for c in rank_rows(text, days):
        row = c.row
        if c.asks and _from_receipt(row):
            rows.setdefault((row.period, row.unit), row)
    return list(rows.values())


def _from_receipt(row: ProceduralPeriod) -> bool:
    """A row of the table run from the receipt of a document (not the mail rule, a chain,
    or a declined case)."""
    if row.id == REGISTERED_MAIL or row.after is not None or row.decline:
        return False
    return _of_receipt(event_words(row.id))


def _picked_up_late(
    text: CalcText, days: list[QuestionDay], row: ProceduralPeriod, event: QuestionDay
) -> bool:
    """The day read as the receipt falls after the law's day of receipt of a document
    sent by registered mail."""
    receipt = _posted_receipt(text, days, row, event)
    return receipt is not None and event.day > receipt


def _posted_receipt_later(
    text: CalcText, days: list[QuestionDay], row: ProceduralPeriod, event: QuestionDay
) -> date | None:
    """The law's day of receipt of a posted document when the question dates an earlier
    actual receipt (the period then runs from the actual one, the answer says both)."""
    receipt = _posted_receipt(text, days, row, event)
    return receipt if receipt is not None and receipt > event.day else None


def _sent_day(text: CalcText, days: list[QuestionDay]) -> QuestionDay | None:
    """The day the words of sending mark («отправила акт заказным письмом 24 октября»),
    or the question's only day."""
    marked = marked_day(text, days, [(verb,) for verb in sorted(_SENT)])
    if marked is not None:
        return marked[0]
    return days[0] if len({d.day for d in days}) == 1 else None


def posted_receipts(sent: date) -> list[date]:
    """The readings of «шестой день считая с даты отправки заказного письма»: the sixth
    working day after the sending (п. 2 and п. 6 ст. 6.1: days are working days, counted
    from the next day; п. 4 ст. 31 says «шестой рабочий день» in words), the sixth
    calendar day after it, the sixth counting the sending day. The first is the one
    computed; the others are kept for the LLM referee and the tests."""
    working = compute_deadline(sent, 6, "working_days").nominal_end
    return [working, sent + timedelta(days=6), sent + timedelta(days=5)]


def _posted_rule(row: ProceduralPeriod | None) -> str:
    """The assumption's words for the rule a posted document's receipt was dated by: the
    row's own article quoted from the text, with the general rule it agrees with, or the
    general rule alone, saying the text in use lacks it."""
    general = f"{POSTAL_RULE} («{POSTAL_RULE_WORDS}»)"
    absent = (
        "ст. 31 в используемом тексте Кодекса отсутствует, правило приведено по его "
        "действующей редакции"
    )
    if row is not None and row.mail_receipt and row.mail_receipt_words:
        return (
            f"по {row.mail_receipt} {row.mail_receipt_words}; дни считаются рабочими "
            f"(п. 6 ст. 6.1 НК РФ), как и в общем правиле {general}; {absent}"
        )
    return f"по {general}; {absent}"


def _posted(
    out: DeadlineReading, text: CalcText, days: list[QuestionDay], row: ProceduralPeriod
) -> bool:
    """A document sent by registered mail («отправили акт заказным письмом 24 апреля»)
    counts as received on the sixth working day from its sending (п. 4 ст. 31, and the
    row's own article where it has one, ``mail_receipt``): the period runs from that day,
    and an assumption line names the rule. False (the day of receipt is then asked) when
    the sending is not dated or the asked period chains from another period."""
    sent = _sent_day(text, days)
    if sent is None or row.after is not None:
        return False
    try:
        receipt = posted_receipts(sent.day)[0]
        compute_deadline(receipt, row.period, row.unit)
    except CalendarYearError:
        return False
    out.dates = [roled(text, d, "other_event") for d in days]
    out.dates.append(
        RoledDate(
            day=receipt,
            role="asked_event",
            text=f"{POSTED_RECEIPT} {sent.day:%d.%m.%Y}",
            year_assumed=not sent.year_given,
        )
    )
    # «отправили по почте» without «заказным»: the inspection posts by registered mail
    how = "" if text.has(_REGISTERED) else " (в вопросе сказано «по почте»: принято, что заказным)"
    out.assumptions.insert(
        0,
        f"документ направлен заказным письмом {sent.day:%d.%m.%Y}{how}; датой его получения "
        f"принят шестой рабочий день со дня отправки — {receipt:%d.%m.%Y}: "
        f"{_posted_rule(row)}",
    )
    picked = marked_day(text, [d for d in days if d.day > receipt], _PICKED_UP)
    if picked is not None:
        # «забрал письмо на почте только 16 мая»: the law's day stands (п. 5 ст. 100)
        out.assumptions.insert(
            1,
            f"фактическое получение письма {picked[0].day:%d.%m.%Y} позже этого дня и срок "
            "не продлевает",
        )
    named = {sent.day, receipt} | ({picked[0].day} if picked is not None else set())
    others = sorted({d.day for d in days} - named)
    if others:
        # «акт датирован 30 мая»: a candidate start the Code's rule does not count from
        told = ", ".join(f"{day:%d.%m.%Y}" for day in others)
        out.assumptions.append(
            f"{'дата' if len(others) == 1 else 'даты'} {told} из вопроса — не начало срока: "
            f"срок считается со дня получения документа ({receipt:%d.%m.%Y})"
        )
    if not sent.year_given:
        out.assumptions.insert(0, sent.year_note)
    out.confidence = 0.8
    return True


def _without_excluded(
    text: CalcText, days: list[QuestionDay], declined: ProceduralPeriod
) -> tuple[ProceduralPeriod, list[QuestionDay]] | None:
    """The wider row and the days of the excluded case, when the question dates both an
    excluded event (participation in an ООО) and another event of the wider row in other
    sentences; None when the whole question is the excluded case."""
    found = excluded_case(text, days, declined.id)
    if found is None:
        return None
    wider, told = found
    sentence = {d.mention: text.words[text.day_words(d.mention)[0]].sentence for d in days}
    dropped = [d for d in days if sentence[d.mention] in told]
    kept = frozenset(sentence[d.mention] for d in days if d not in dropped)
    if not dropped or not kept or not names_row_in(text, wider, kept):
        return None
    # each dropped day is another event of the wider row («а 2 апреля вошли в ООО»), not
    # a fact of the same one («срок в уведомлении 1 декабря»: the notice's own due date)
    if any(cue == "due" for cue in date_cues(text, dropped)):
        return None
    return period_by_id()[wider], dropped


def _event_day(
    text: CalcText, days: list[QuestionDay], row: ProceduralPeriod | None
) -> tuple[QuestionDay, bool, bool]:
    """The day the period runs from, whether it is the event of the row before it in a
    chain (``row.after``), and whether words of the event marked it."""
    distinct = {d.day for d in days}
    if row is None:
        return days[0], False, False
    own = event_words(row.id)
    if "декларация" in canonical(row.event) and text.has(("уточнить",)):
        updated = [d for d in days if told_of_updated(text, d)]
        if len({d.day for d in updated}) == 1:
            return updated[-1], False, True
    if row.after is None and _of_receipt(own):
        # the day the receipt of acceptance was sent is the day of receipt
        acknowledged_days = [d for d in days if acknowledged(text, d)]
        if len({d.day for d in acknowledged_days}) == 1:
            return acknowledged_days[-1], False, True
    objects = event_objects(row.id)
    found = marked_day(text, days, objects) if objects else None
    if found is None and objects and len(distinct) > 1:
        elided = _elided_day(text, days, objects[0][-1])
        if elided is not None:
            return elided, False, True
    if found is None or len(distinct) < 2:
        found = marked_day(text, days, own) if own else None
    chained = marked_day(text, days, event_words(row.after)) if row.after else None
    if found is not None and (chained is None or found[1] <= chained[1]):
        return found[0], False, True
    if chained is not None:
        return chained[0], True, True
    if len(distinct) == 1:
        return days[0], False, False
    return days[0], False, False


_DASHES = ("—", "–", "-")
_VERB_TAGS = frozenset({"VERB", "INFN", "PRTS", "PRTF", "GRND"})


def _elided_day(text: CalcText, days: list[QuestionDay], noun: str) -> QuestionDay | None:
    """The one day whose clause names the row's document with its verb left out and a
    dash in its place («акт получили 10 марта, а дополнение к акту — 20 апреля»): the
    verb of the clause before is meant; None when no such day, or more than one."""
    found = []
    words = text.words
    for d in days:
        first, _ = text.day_words(d.mention)
        if first == 0 or words[first - 1].text not in _DASHES:
            continue
        clause = []
        for w in reversed(words[: first - 1]):
            if w.sentence != words[first].sentence or w.text in ",;" or w.lemma in ("а", "и"):
                break
            clause.append(w)
        names = {name for w in clause if not w.negated for name in document_names(w.lemma)}
        if noun in names and not any(w.pos in _VERB_TAGS for w in clause):
            found.append(d)
    return found[0] if len({d.day for d in found}) == 1 else None


def _kind_unknown(text: CalcText) -> bool:
    """The question says it does not know what its document is about («пришло требование,
    там что-то про представление»): the word after the vague pronoun names no row."""
    lemmas = tuple(w.lemma for w in text.words)
    return any(
        lemmas[i : i + len(p)] == p for p in phrases("kind_unknown") for i in range(len(lemmas))
    )


def read_deadline(text: CalcText, days: list[QuestionDay]) -> DeadlineReading:
    """The row (or a stated period), the event's date and the assumptions of a deadline
    question; ``decline`` when the calculator must not answer it."""
    out = DeadlineReading()
    # a day told as a kind of calendar day is no event («если 2 ноября рабочая суббота»)
    days = [d for d in days if not told_calendar(text, d)] or days
    rows = find_rows(text, days)
    if rows and _kind_unknown(text):
        rows = []  # «там что-то про представление»: which demand it is, is asked back
    if (
        rows
        and not _from_receipt(rows[0])
        and _asks_receipt(text)
        and any(text.has(p) for p in _MAIL)
    ):
        # «с какого дня акт считается врученным и до какого числа возражения?»: the day of
        # receipt is the first step of the asked period that runs from it
        rows = _from_receipt_asked(text, days) or rows
    if not rows:
        out.cited = cited_not_asked(text, days)
    mail_rule = None
    if rows and rows[0].id == REGISTERED_MAIL and asked_periods(text):
        # «когда истекают шесть дней, по истечении которых уведомление считается
        # полученным?»: the period of the mail rule itself is asked, from the sending
        rows = []
        out.assumptions.append("срок отсчитан от даты отправки заказного письма")
    elif (
        rows
        and rows[0].id == REGISTERED_MAIL
        and days
        and _asks_receipt(text)
        and _sent_day(text, days) is not None
    ):
        # «акт отправили заказным письмом 10 марта. Когда он считается полученным?»: the
        # day of receipt itself is asked, the sixth working day from the sending
        rows = []
        mail_rule = StatedPeriod(count=6, unit="working_days")
        out.assumptions.append(
            "документ, направленный заказным письмом, считается полученным на шестой "
            "рабочий день со дня отправки (ответ — этот день, последний из шести рабочих "
            f"дней): {_posted_rule(None)}"
        )
    if rows and rows[0].decline:
        kept = _without_excluded(text, days, rows[0])
        if kept is None:
            out.decline = rows[0].id
            out.dates = [roled(text, d, "other_event") for d in days]
            return out
        rows, dropped = [kept[0]], kept[1]
        days = [d for d in days if d not in dropped]
        told = ", ".join(text.days[d.mention].text for d in dropped)
        out.assumptions.append(
            f"событие от {told} не учтено: это случай, исключенный нормой ({rows[0].norm}), "
            "срок для него не исчисляется"
        )
    periods = stated_periods(text)
    extension = next((p for p in periods if p.extension), None)
    stated = next((p for p in periods if not p.extension), None)
    row = rows[0] if rows else None
    out.row, out.variants = row, rows[1:]
    if row is not None and extension is not None and _extends(row, extension.unit):
        count = extension.count
        if extension.extension == "на":  # «продлили на два месяца»: added to the row's
            if extension.unit != row.unit:
                out.decline = PERIOD_CONFLICT
                return out
            count += row.period
        out.period = StatedPeriod(
            count=count,
            unit=extension.unit,
            how="extended_to" if extension.extension == "до" else "extended_by",
        )
        out.variants = []
        out.assumptions.append(
            f"срок принят с учетом продления, указанного в вопросе: {plural(count, extension.unit)}"
        )
    elif row is not None:
        asked = asked_periods(text, periods)
        if asked and not same_period(row, asked[0]):
            # «последний день семидневного срока»: the question asks about another period
            out.decline = PERIOD_CONFLICT
            return out
    elif mail_rule is not None:
        out.period = mail_rule
    elif stated is not None:
        out.period = StatedPeriod(count=stated.count, unit=stated.unit)
        if stated.unit == "working_days" and not stated.day_kind_given:
            out.assumptions.append(
                "срок указан в днях: по п. 6 ст. 6.1 НК РФ дни считаются рабочими, "
                "если срок не установлен в календарных днях"
            )
    if not days:
        return out
    undated = _receipt_undated(text, days, row) if row is not None else None
    if undated == REGISTERED_MAIL and row is not None and _posted(out, text, days, row):
        return out
    if undated is not None:
        out.decline = undated
        out.dates = [roled(text, d, "other_event") for d in days]
        return out
    candidates = days
    if row is not None and row.after is None:
        verbs = frozenset(phrase[0] for phrase in event_words(row.id))
        if verbs & word_set("receipt_verbs"):
            choice = choose_event(text, days, row, verbs)
            if choice.ambiguous:
                # two documents of the row's kind and nothing says which: asked back
                out.event_missing = True
                out.dates = [
                    roled(text, d, "asked_event" if d in choice.ambiguous else "other_event")
                    for d in days
                ]
                return out
            candidates = [choice.picked] if choice.picked else choice.candidates
            for d in choice.closed:
                told = text.days[d.mention].text
                out.assumptions.append(
                    f"документ от {told} описан как уже исполненный: срок от него не считается"
                )
    event, chained, marked = _event_day(text, candidates, row)
    if row is not None and not chained and not marked and len({d.day for d in candidates}) > 1:
        # no words of the row's event mark any day: the first is a weak pick, an aside is
        # no pick at all, and a day whose clause tells the event contests it
        if in_aside(text, event):
            event = first_outside(text, candidates) or event
        contested = rivals(text, candidates, event, row)
        if contested:
            out.event_missing = True
            out.dates = [
                roled(text, d, "asked_event" if d is event or d in contested else "other_event")
                for d in days
            ]
            return out
    if (
        row is not None
        and not chained
        and _picked_up_late(text, days, row, event)
        and _posted(out, text, days, row)
    ):
        # «отправили заказным 24 апреля, а забрали с почты 14 мая»: the law's day of
        # receipt came first, and the period runs from it
        out.assumptions.append(
            f"фактическое получение {event.day:%d.%m.%Y} позже этого дня и срок не продлевает"
        )
        return out
    early = _posted_receipt_later(text, days, row, event) if row is not None else None
    if early is not None and row is not None:
        end = compute_deadline(early, row.period, row.unit).end_date
        out.assumptions.append(
            f"документ отправлен заказным письмом и получен {event.day:%d.%m.%Y}, раньше "
            f"шестого рабочего дня со дня отправки ({early:%d.%m.%Y}, п. 4 ст. 31 НК РФ): "
            f"срок считается от фактического получения; от {early:%d.%m.%Y} он истек бы "
            f"{end:%d.%m.%Y}"
        )
    if (
        row is not None
        and not chained
        and (
            (not marked and row.after and _told_of_other_event(text, event, row))
            # a day marked by the bare verb of another document («Запрос по ст. 93.1
            # получили 2 июня. Когда подать возражения?»: not the act's receipt)
            or _of_another_document(text, event, row, marked)
            or (not marked and _of_another_stage(text, event, row))
            or (not marked and _told_over(text, event, row))
        )
    ):
        out.event_missing = True
        out.dates = [roled(text, d, "other_event") for d in days]
        return out
    if chained and row is not None and row.after is not None:
        if _of_another_document(text, event, period_by_id()[row.after], marked=True):
            # the chain's first event is another document's («требование получили
            # 2 июня. Когда вынесут решение?»: not the act the objections count from)
            out.event_missing = True
            out.dates = [roled(text, d, "other_event") for d in days]
            return out
        out.chain_from = narrowest_row(text, days, row.after)
    out.dates = [roled(text, d, "asked_event" if d is event else "other_event") for d in days]
    if not event.year_given:
        out.assumptions.insert(0, event.year_note)
    if row is not None and not chained and _filed_not_received(text, event, row):
        out.assumptions.append(
            f"срок считается со дня получения документа налоговым органом ({row.event}); в "
            f"вопросе дана дата его представления ({event.day:%d.%m.%Y}) — принято, что "
            "документ получен в тот же день (передача по ТКС или через личный кабинет)"
        )
    out.confidence = _confidence(out, marked, len({d.day for d in days}))
    return out


def _told_of_other_event(text: CalcText, day: QuestionDay, row: ProceduralPeriod) -> bool:
    """For a row that runs from the end of an earlier period (``after``), the verb right
    next to the day tells another event than either period's: «Решение вынесено
    10 марта. Когда банк должен исполнить?» dates neither the end of the period for
    objections nor the receipt of the act."""
    first, last = text.day_words(day.mention)
    verbs = [
        w
        for j in (first - 1, last + 1)
        if 0 <= j < len(text.words)
        for w in (text.words[j],)
        if w.event and not w.negated
    ]
    if not verbs:
        return False
    known = {lemma for phrase in event_words(row.id) for lemma in phrase}
    if row.after:
        known |= {lemma for phrase in event_words(row.after) for lemma in phrase}
    return all(w.lemma not in known and w.raw not in known for w in verbs)


def _of_another_document(
    text: CalcText, day: QuestionDay, row: ProceduralPeriod, marked: bool = False
) -> bool:
    """The row counts from a document's date or receipt (its ``event`` names one), and the
    verb next to the day tells the event of another document of the procedure («справку
    вручили 30 мая»: not the act the delivery period counts from)."""
    documents = word_set("procedure_documents")
    own = {name for lemma in canonical(row.event) for name in document_names(lemma)} & documents
    if not own:
        return False
    first, last = text.day_words(day.mention)
    words = text.words
    for j in (first - 1, last + 1):
        if not (0 <= j < len(words)) or not words[j].event or words[j].negated:
            continue
        around = [
            w
            for w in words[max(0, j - 2) : j + 3]
            if w.sentence == words[j].sentence and w.day is None and w.pos == "NOUN"
        ]
        # a day the row's own event words mark: only the verb's subject or object, also
        # past a citation («Запрос по ст. 93.1 получили 2 июня»), tells another document;
        # a complement («требование о пояснениях по декларации получено») does not
        named = _names(_clause_objects(words, j) if marked else around) & documents
        if named and not named & own:
            return True
    return False


def _of_another_stage(text: CalcText, day: QuestionDay, row: ProceduralPeriod) -> bool:
    """The verb next to the day, not one of the row's event words, has a stage of the
    procedure that is not the row's event (``procedure_stages``) as its subject or object
    and names no document: «Проверка началась 3 февраля. Когда подать возражения на акт?»
    dates the audit, not the receipt of the act."""
    stages = word_set("procedure_stages")
    own_nouns = {lemma for phrase in event_objects(row.id) for lemma in phrase[1:]}
    own_verbs = {phrase[0] for phrase in event_words(row.id)}
    documents = word_set("procedure_documents")
    first, last = text.day_words(day.mention)
    words = text.words
    for j in (first - 1, last + 1):
        if not (0 <= j < len(words)) or not words[j].event or words[j].negated:
            continue
        if words[j].lemma in own_verbs or words[j].raw in own_verbs:
            continue
        objects = _clause_objects(words, j)
        lemmas = {w.lemma for w in objects}
        if _names(objects) & documents:
            continue
        if lemmas & stages and not lemmas & own_nouns:
            return True
    return False


def _told_over(text: CalcText, day: QuestionDay, row: ProceduralPeriod) -> bool:
    """The verb next to the day tells something is over («дополнительные мероприятия
    закончились 2 мая») and the row does not run from an end: the day is no start of the
    row («провести мероприятия» runs from the decision to hold them)."""
    ends = word_set("end_verbs")
    own = {phrase[0] for phrase in event_words(row.id)}
    if own & ends:
        return False
    first, last = text.day_words(day.mention)
    words = text.words
    return any(
        0 <= j < len(words) and words[j].event and not words[j].negated and words[j].lemma in ends
        for j in (first - 1, last + 1)
    )


def _names(words: list[Word]) -> set[str]:
    return {name for w in words for name in document_names(w.lemma)}


def _clause_objects(words: list[Word], j: int) -> list[Word]:
    """The nouns up to six words before verb ``j`` in its sentence that can be its subject
    or object: nominative or accusative, not right after a preposition."""
    out = []
    for k in range(j - 1, max(-1, j - 7), -1):
        w = words[k]
        if w.sentence != words[j].sentence or w.text in ",;":
            break
        before = words[k - 1] if k > 0 else None
        if (
            w.pos == "NOUN"
            and w.day is None
            and w.case in ("nomn", "accs")
            and (before is None or before.pos != "PREP")
        ):
            out.append(w)
    return out


def _filed_not_received(text: CalcText, day: QuestionDay, row: ProceduralPeriod) -> bool:
    """The row counts from the receipt of a document the user files («уведомление не
    прошло контрольные соотношения»: from its receipt by the inspection), and the question
    dates its filing («подали уведомление 25.04.2025»), not its receipt."""
    event = canonical(row.event)
    if not word_set("receipt_verbs") & set(event):
        return False
    documents = set(event) - word_set("receipt_verbs") - {"день", "налоговый", "орган"}
    first, last = text.day_words(day.mention)
    sentence = text.words[first].sentence
    before = [
        w for w in text.words[max(0, first - 8) : first] if not w.negated and w.sentence == sentence
    ]
    after = [w for w in text.words[last + 1 : last + 4] if not w.negated]
    lemmas = {w.lemma for w in before}
    filed = "представить" in lemmas and bool(documents & lemmas)
    received = any(w.raw in _RECEIVED or w.lemma in _RECEIVED for w in before + after)
    return filed and not received


def asked_periods(
    text: CalcText, periods: list[PeriodMention] | None = None
) -> list[PeriodMention]:
    """The periods the asking part names itself («последний день семидневного срока»),
    not an extension and not one told of another case before «а»/«но»."""
    periods = stated_periods(text) if periods is None else periods
    return [
        p
        for p in periods
        if not p.extension and text.words[p.first].asked and not _contrasted(text, p)
    ]


def _contrasted(text: CalcText, mention: PeriodMention) -> bool:
    """A period told of another case before the sentence turns to the asked one
    («обычным компаниям дают 10 дней, а нам сколько?»): a contrast word stands between it
    and the sentence's asking phrase."""
    words = text.words
    sentence = words[mention.first].sentence
    asking = [i for i, _ in text.asking_phrases if words[i].sentence == sentence]
    after = [i for i in asking if i > mention.last]
    if not after:
        return False
    contrasts = word_set("contrasts")
    return any(words[k].lemma in contrasts for k in range(mention.last + 1, after[0]))


def _confidence(out: DeadlineReading, marked: bool, distinct: int) -> float:
    if out.row is None and out.period is None:
        return 0.0
    score = 0.9 if out.row is not None else 0.8
    if out.variants:
        score -= 0.3
    if distinct > 1 and not marked:
        score -= 0.2
    return round(score, 2)


def roled(text: CalcText, day: QuestionDay, role: str) -> RoledDate:
    """A day of the question as a date of the request, with its role."""
    return RoledDate.model_validate(
        {
            "day": day.day,
            "role": role,
            "text": text.days[day.mention].text,
            "year_assumed": not day.year_given,
        }
    )


def row_of(row_id: str | None) -> ProceduralPeriod | None:
    return period_by_id().get(row_id) if row_id else None
