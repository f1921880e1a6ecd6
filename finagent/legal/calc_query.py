"""What a deadline or пени question gives: dates, amounts, periods, payer, governing norm.

Used by the offline (rule) path of the ``calc`` intent; the LLM path fills the tools'
arguments itself. Everything here is plain regular expressions over the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from finagent.legal.calendar import CalendarYearError, next_working_day
from finagent.legal.deadlines import Unit, plural
from finagent.legal.periods import ProceduralPeriod, find_norms
from finagent.legal.question_dates import FoundDate, find_dates

NUMBER_WORDS = {
    "одного": 1,
    "один": 1,
    "одна": 1,
    "одну": 1,
    "двух": 2,
    "два": 2,
    "две": 2,
    "трех": 3,
    "три": 3,
    "четырех": 4,
    "четыре": 4,
    "пяти": 5,
    "пять": 5,
    "шести": 6,
    "шесть": 6,
    "семи": 7,
    "десяти": 10,
    "десять": 10,
    "пятнадцати": 15,
    "двадцати": 20,
    "тридцати": 30,
}
# up to three digits: «за 2024 год» is a year, not a period of 2024 years
_NUM = r"(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")"
_PERIOD = re.compile(
    rf"(?<![\d.,])\b{_NUM}\s*(?:-?ти\s*|-?х\s*)?(рабоч\w*\s+|календарн\w*\s+)?"
    r"(дн(?:ей|я)|день|месяц\w*|мес\.|год(?:а|ов)?\b|лет\b)",
    re.IGNORECASE,
)
_BARE_MONTH = re.compile(r"в течение\s+месяца|\bмесячн", re.IGNORECASE)
_AMOUNT = re.compile(
    r"(\d{1,3}(?:[\s\u00a0]\d{3})+|\d+)(?:[.,](\d{1,2}))?\s*"
    # «250 000 руб.», «1,2 млн руб.», and a scale word alone («недоимка 1,2 млн»)
    r"(?:(тыс\.?|тысяч\w*|млн\.?|миллион\w*)\s*(?:руб\w*|₽|р\.|р\b)?|(?:руб|₽|р\.|р\b))",
    re.IGNORECASE,
)
_ORGANIZATION = re.compile(
    r"организаци|\b(ооо|ао|пао|зао|оао|нко|гуп|муп|ано)\b|компани|юрлиц|юридическ\w*\s+лиц"
    r"|фирм|предприяти|учреждени|кооператив|товариществ|\b(тсж|снт|жск|тсн)\b"
    r"|обществ\w*\s+с\s+ограниченн|акционерн\w*\s+обществ|\bобществ(о|а|у|ом)\b",
    re.IGNORECASE,
)
_INDIVIDUAL = re.compile(
    r"\bип\b|предпринимател|физическ\w*\s+лиц|физлиц|\bфиз\.\s*лиц|гражданин|гражданк"
    r"|самозанят|пенсионер|\bя\b|3-ндфл|ндфл\s+по\s+деклараци|адвокат|нотариус|\bкфх\b",
    re.IGNORECASE,
)
# the cue nearest before a lone date says whether it is the payment or the due date
_CUES = re.compile(
    r"(?P<due>срок\w*(?:\s+(?:уплат|оплат|перечислен|исполнен|платеж)\w*)?|не\s+позднее|\bдо\b"
    r"|долж(?:е|н)\w*(?:\s+был\w*)?\s+\w+|(?:надо|нужно|следовало|необходимо)(?:\s+было)?\s+\w+"
    r"|вместо|\bне\s+\w+)"
    r"|(?P<paid>(?:уплат|уплач|оплат|оплач|погас|погаш|перечисл|заплат|заплач|внес|поступ|списа)\w*)",
    re.IGNORECASE,
)
_LATE_DAYS = re.compile(
    r"(?:на|опоздани\w*\s+на|просрочк\w*\s+(?:на\s+|в\s+)?)\s*(\d{1,4})\s*(?:календарн\w*\s+)?"
    r"(?:дн|день)|(\d{1,4})\s*(?:календарн\w*\s+)?(?:дн\w*|день)\s+(?:просрочк|позже|позднее|"
    r"опоздани)|\bчерез\s+(\d{1,4})\s*(?:календарн\w*\s+)?(?:дн\w*|день)",
    re.IGNORECASE,
)


@dataclass
class DeadlineQuery:
    event_date: date
    period: int
    unit: Unit
    norm: ProceduralPeriod | None
    assumptions: list[str] = field(default_factory=list)
    # other readings of an ambiguous question (same event date, other periods)
    alternatives: list[ProceduralPeriod] = field(default_factory=list)


@dataclass
class PenaltyQuery:
    amount: Decimal
    due_date: date
    paid_date: date
    payer: str
    assumptions: list[str] = field(default_factory=list)
    payer_given: bool = True  # False: the answer must show both payer types if they differ


def _clean(text: str) -> str:
    return text.replace("ё", "е").replace("Ё", "Е")


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def find_period(text: str, dates: list[FoundDate]) -> tuple[int, Unit] | None:
    """An explicit period («в течение 10 рабочих дней», «двух месяцев»), not part of a date."""
    for m in _PERIOD.finditer(text):
        if any(d.start <= m.start() < d.end for d in dates):
            continue
        n = _number(m[1])
        kind, word = (m[2] or "").lower(), m[3].lower()
        if word.startswith("д"):
            unit: Unit = "days" if kind.startswith("календарн") else "working_days"
        elif word.startswith("мес"):
            unit = "months"
        else:
            unit = "years"
        if n > 0:
            return n, unit
    if _BARE_MONTH.search(text):
        return 1, "months"
    return None


# «продлили до четырех месяцев» (the new total) or «продлили на два месяца» (added)
_EXTENSION = re.compile(r"продл\w*[^.?!]{0,40}?\b(до|на)\s*$", re.IGNORECASE)


def _extension_period(text: str, dates: list[FoundDate]) -> tuple[int, Unit, str] | None:
    for m in _PERIOD.finditer(text):
        if any(d.start <= m.start() < d.end for d in dates):
            continue
        ext = _EXTENSION.search(text[max(0, m.start() - 60) : m.start()])
        found = find_period(m.group(0), []) if ext else None
        if ext and found:
            return found[0], found[1], ext[1].lower()
    return None


_NOT_RECEIVED = re.compile(r"\bполуча(?:ется|ются|лось|лась)\b|\bполучит(?:ся|ь\s+ся)\b")
_CLAUSE_BREAK = re.compile(r"[,;.!?()—–]|\s(?:а|но|и)\s")


def _event_date(text: str, dates: list[FoundDate], norm: ProceduralPeriod | None) -> FoundDate:
    """The date of the period's event: the first date, or, when the question has several
    dates and the row names its event's words, the date nearest to those words."""
    if norm is None or norm.event_cue is None or len({d.day for d in dates}) < 2:
        return dates[0]
    # «получается 29 декабря» (it comes out as) is not «получили»: masked, same length
    lowered = _NOT_RECEIVED.sub(lambda m: "_" * len(m[0]), text.lower())
    updated = _updated_declaration(lowered, dates, norm)
    if updated is not None:
        return updated
    cue = re.compile(norm.event_cue)
    ordered = sorted(dates, key=lambda d: d.start)
    best: tuple[int, FoundDate] | None = None
    for i, d in enumerate(ordered):
        # the words between the previous date and this one, then a few words after it:
        # «получен 10 марта» (cue before) scores better than «10 марта получили» (after)
        left = lowered[(ordered[i - 1].end if i else 0) : d.start][-50:]
        right_end = ordered[i + 1].start if i + 1 < len(ordered) else len(lowered)
        # «26 декабря 2024 года (четверг) получили»: the year and a bracketed aside go first
        right = re.sub(
            r"^(?:\s*(?:г\.|года))?(?:\s*\([^()]{0,60}\))?", "", lowered[d.end : right_end]
        )
        # words after a clause break belong to what follows: «датировано 19.12, а вручено 20.12»
        right = _CLAUSE_BREAK.split(right[:20], maxsplit=1)[0]
        scores = [len(left) - m.end() for m in cue.finditer(left)]
        scores += [20 + m.start() for m in cue.finditer(right)]
        if scores and (best is None or min(scores) < best[0]):
            best = (min(scores), d)
    return best[1] if best else dates[0]


def _updated_declaration(
    lowered: str, dates: list[FoundDate], norm: ProceduralPeriod
) -> FoundDate | None:
    """«первичную сдали 28.03.2024, а уточненную — 29.11.2024»: a period that runs from a
    declaration runs from the updated one the question names (a new desk audit starts)."""
    if "деклараци" not in norm.event or "уточненн" not in lowered:  # ё is already е
        return None
    marked = [d for d in dates if _tells_updated(lowered[max(0, d.start - 150) : d.start])]
    return marked[-1] if len({d.day for d in marked}) == 1 else None


def _tells_updated(before: str) -> bool:
    """Whether the clause before a date is about the updated declaration, not the first."""
    clause = re.split(r"[;!?]|\.\s", before)[-1]
    at = clause.rfind("уточненн")
    return at >= 0 and "первичн" not in clause[at:]


def _extends(norm: ProceduralPeriod, unit: Unit) -> bool:
    """An extension in months («продлили до трех месяцев») is of a period in months: it says
    nothing of a period in days the question asks about (sending the extension decision)."""
    months_like = ("months", "years")
    return (norm.unit in months_like) == (unit in months_like)


def parse_deadline(text: str, today: date) -> DeadlineQuery | None:
    """The event date and period of a deadline question, or None when one is missing.

    The period of a known situation wins over a period merely mentioned in the question
    («месячный срок на возражения истек ...» asks about the next period), except an
    extension the question states («срок продлили до четырех месяцев»). A question that
    matches a situation the calculator must not guess at (a ``decline`` row) gives None.
    """
    text = _clean(text)
    dates = find_dates(text, today)
    if not dates:
        return None
    rows = find_norms(text)
    if any(row.decline for row in rows):
        return None
    explicit = find_period(text, dates)
    extension = _extension_period(text, dates)
    assumptions: list[str] = []
    norm: ProceduralPeriod | None = rows[0] if rows else None
    alternatives = rows[1:]
    if extension is not None and norm is not None and _extends(norm, extension[1]):
        period, unit, how = extension
        if how == "на":  # «продлили на два месяца»: added to the period of the norm
            if unit != norm.unit:
                return None
            period += norm.period
        alternatives = []
        assumptions.append(
            f"срок принят с учетом продления, указанного в вопросе: {plural(period, unit)}"
        )
    elif norm is not None:
        period, unit = norm.period, norm.unit
    elif explicit is not None:
        period, unit = explicit
    else:
        return None
    event = _event_date(text, dates, norm)
    if not event.year_given:
        assumptions.append(f"год не указан: принят {event.day.year} год")
    if norm is None and unit == "working_days" and not re.search(r"рабоч", text, re.I):
        assumptions.append(
            "срок указан в днях: по п. 6 ст. 6.1 НК РФ дни считаются рабочими, "
            "если срок не установлен в календарных днях"
        )
    return DeadlineQuery(event.day, period, unit, norm, assumptions, alternatives)


# «взносы 1 % с доходов свыше 300 тыс. — 85 тыс. руб.»: a threshold is not the debt
_THRESHOLD_BEFORE = re.compile(
    r"(?:свыше|более|больше|превыша\w*|не\s+менее|не\s+более|порог\w*|лимит\w*)\s*$",
    re.IGNORECASE,
)


_REST_BEFORE = re.compile(
    r"(?:оставш\w*|остат\w*|недоплат\w*|неуплачен\w*|доплат\w*)(?:\s+\w+)?\s*$", re.IGNORECASE
)


def find_amount(text: str) -> Decimal | None:
    """The debt of a пени question: the first amount that is not a threshold."""
    matches = list(_AMOUNT.finditer(text))
    # «в срок внесли 120 000 руб., оставшиеся 200 000 руб. перечислили позже»: the rest
    rest = [m for m in matches if _REST_BEFORE.search(text[max(0, m.start() - 30) : m.start()])]
    if len(rest) == 1:
        matches = rest
    debts = [
        m for m in matches if not _THRESHOLD_BEFORE.search(text[max(0, m.start() - 25) : m.start()])
    ]
    for m in debts or matches:
        whole = re.sub(r"[\s\u00a0]", "", m[1])
        try:
            value = Decimal(f"{whole}.{m[2]}" if m[2] else whole)
        except InvalidOperation:
            continue
        scale = (m[3] or "").lower()
        if scale.startswith("тыс"):
            value *= 1000
        elif scale.startswith(("млн", "миллион")):
            value *= 1_000_000
        if value > 0:
            return value
    return None


# «Я ИП, не организация»: a payer type the question rules out
_NEGATED_PAYER = re.compile(
    r"\b(?:не|а\s+не|но\s+не)\s+(?:являюсь\s+|является\s+)?(?:организаци\w*|юрлиц\w*"
    r"|юридическ\w+\s+лиц\w*|ип\b|индивидуальн\w+\s+предпринимател\w*|физлиц\w*"
    r"|физическ\w+\s+лиц\w*|компани\w*|фирм\w*)",
    re.IGNORECASE,
)


def find_payer(text: str) -> str | None:
    # «она не ИП» still speaks of a person; «я ИП, не организация» drops the organization
    text = _NEGATED_PAYER.sub(
        lambda m: " физлицо " if re.search(r"ип\b|предпринимател", m[0], re.I) else " ", text
    )
    if _ORGANIZATION.search(text):
        return "organization"
    if _INDIVIDUAL.search(text):
        return "individual"
    # НДФЛ the payer pays himself («продала квартиру, НДФЛ к уплате»), not withheld by an agent
    if re.search(r"\bндфл\b", text, re.I) and not re.search(r"агент|удерж", text, re.I):
        return "individual"
    return None


def _is_payment_date(before: str) -> bool:
    cues = list(_CUES.finditer(before))
    return bool(cues) and cues[-1].group("paid") is not None


_RANGE_FROM = re.compile(r"(?:\bс|\bначиная\s+с|\bпросрочк\w*\s+с)\s*$", re.IGNORECASE)


def _marked_dates(text: str, dates: list[FoundDate]) -> tuple[date | None, date | None]:
    """With three or more dates: the one the words call the due date and the one they call
    the payment date, each only when exactly one date is so marked."""
    due: set[date] = set()
    paid: set[date] = set()
    previous_end = 0
    for d in sorted(dates, key=lambda f: f.start):
        before = text[max(previous_end, d.start - 60) : d.start]
        cues = list(_CUES.finditer(before))
        if cues and cues[-1].group("paid"):
            paid.add(d.day)
        elif cues:  # «срок 28.09 (вс), перенесен на 29.09» is one due date
            due.add(_due_on_working_day(d.day))
        previous_end = d.end
    return (
        next(iter(due)) if len(due) == 1 else None,
        next(iter(paid)) if len(paid) == 1 else None,
    )


def _due_on_working_day(stated: date) -> date:
    """A due date the question states that falls on a day off moves to the next working
    day (п. 7 ст. 6.1 НК РФ); a year the calendar does not cover keeps the stated date."""
    try:
        return next_working_day(stated)
    except CalendarYearError:
        return stated


def parse_penalty(text: str, today: date) -> PenaltyQuery | None:
    """Amount, due and payment dates and payer of a пени question, or None."""
    text = _clean(text)
    amount = find_amount(text)
    if amount is None:
        return None
    assumptions: list[str] = []
    dates = find_dates(text, today)
    late = _LATE_DAYS.search(text)
    late_days = int(late[1] or late[2] or late[3]) if late else None
    due: date | None = None
    paid: date | None = None
    stated = True  # the due date is one the question gives, not one derived from others
    distinct = sorted({d.day for d in dates})
    if len(distinct) == 2:  # пени accrue only after the due date: the earlier one is due
        due, paid = distinct
        first = min(dates, key=lambda d: (d.day, d.start))
        if _RANGE_FROM.search(text[max(0, first.start - 20) : first.start]):
            # «просрочка с 29 июля по 15 октября»: the range is the overdue days themselves
            stated = False
            due = first.day - timedelta(days=1)
            assumptions.append(
                f"{first.day:%d.%m.%Y} принят первым днём просрочки, срок уплаты — {due:%d.%m.%Y}"
            )
    elif len(distinct) > 2:  # only the dates the words mark as due and as paid
        due, paid = _marked_dates(text, dates)
    elif distinct:
        if _is_payment_date(text[max(0, dates[0].start - 60) : dates[0].start]):
            paid = distinct[0]
        else:
            due = distinct[0]
    if due is not None and stated:
        moved = _due_on_working_day(due)
        if moved != due:
            assumptions.append(
                f"срок уплаты {due:%d.%m.%Y} приходится на нерабочий день: по п. 7 ст. 6.1 "
                f"НК РФ последний день уплаты — {moved:%d.%m.%Y}"
            )
            due = moved
    if due is None and paid is not None and late_days:
        due = paid - timedelta(days=late_days)
    if paid is None and due is not None and late_days:
        paid = due + timedelta(days=late_days)
    if due is None and paid is None and late_days:
        paid = today
        due = today - timedelta(days=late_days)
        assumptions.append(
            f"даты не указаны: принято, что недоимка погашена сегодня ({today:%d.%m.%Y}), "
            f"срок уплаты — {due:%d.%m.%Y}"
        )
    if due is None or paid is None:
        return None
    if any(not d.year_given for d in dates):
        assumptions.append(f"год не указан: принят {today.year} год")
    payer = find_payer(text)
    return PenaltyQuery(
        amount, due, paid, payer or "individual", assumptions, payer_given=payer is not None
    )
