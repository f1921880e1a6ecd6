"""The days a question names: each one's year (stated, shared with the other dates of the
question, or this year), and which day the words of an event stand next to.

«Акт от 3 марта получили 10.03.2025»: «получили» stands right before 10.03.2025, so that is
the day of receipt; «от» before 3 марта marks the act's own date.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from finagent.language.dates import MONTHS
from finagent.legal.calc_lexicon import word_set
from finagent.legal.calc_text import CalcText, Word

# how many words on each side of a day may name its event
_LEFT = 8
_RIGHT = 3
# a word after the day counts as far as this many words more before it
_RIGHT_PENALTY = 3
_VERBS = frozenset({"VERB", "INFN", "PRTS", "PRTF", "GRND"})
_FINITE = frozenset({"VERB", "PRTS"})
_YEAR_WORDS = frozenset({"год", "г"})
# a reporting period before a year: «за 4 кв. 2023», «за 2 квартал 2025 года», «за 9 месяцев»
_QUARTER = frozenset({"квартал", "кв"})
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
_PERIOD_REACH = 4  # words between «за» and the year
# words before «<year> год» that name the whole year as a period («календарный 2024 год»)
_YEAR_KINDS = frozenset({"календарный", "отчетный", "налоговый", "финансовый"})
FROM_DATES = " (по другим датам вопроса)"
FROM_PERIOD = " (по отчетному периоду, названному в вопросе: первая такая дата после его окончания)"
FROM_YEAR = " (по году, названному в вопросе)"


@dataclass(frozen=True)
class QuestionDay:
    """A day of the question with its year resolved."""

    mention: int  # index into CalcText.days
    day: date
    year_given: bool
    year_from_question: bool = False  # the year was taken from another date of the question
    year_basis: str = ""  # where an assumed year came from, for the assumption line

    @property
    def year_note(self) -> str:
        """The assumption line of a day written without a year."""
        return f"год не указан: принят {self.day.year} год{self.year_basis}"


def _resolved(text: CalcText, today: date) -> list[QuestionDay]:
    out: list[QuestionDay | None] = []
    for n, m in enumerate(text.days):
        if m.year is None:
            out.append(None)
            continue
        out.append(QuestionDay(n, date(m.year, m.month, m.day), True))
    dated = [d for d in out if d is not None]
    named = named_years(text)
    for n in range(len(text.days)):
        if out[n] is None:
            out[n] = _with_year(text, n, dated, named, today)
    return [d for d in out if d is not None]


def _with_year(
    text: CalcText,
    n: int,
    dated: list[QuestionDay],
    named: tuple[date | None, int | None],
    today: date,
) -> QuestionDay | None:
    """A day written without a year: the year of the dated day right after it («с 29 июля по
    15 октября 2024 года»), else the year that puts it nearest in time to the closest dated
    day of the question, else the first such day after the end of a reporting period the
    question names («декларация за 4 кв. 2023 ... получили 24 апреля»: 24.04.2024), else a
    year it names on its own («в 2025 году»), else this year."""
    m = text.days[n]
    following = [d for d in dated if d.mention == n + 1]
    if following and _adjacent(text, n, n + 1):
        nxt = following[0].day
        year = nxt.year if (m.month, m.day) <= (nxt.month, nxt.day) else nxt.year - 1
        return _day(n, year, m.month, m.day, FROM_DATES)
    if dated:
        ref = min(dated, key=lambda d: abs(d.mention - n)).day
        options = [
            option
            for year in (ref.year - 1, ref.year, ref.year + 1)
            if (option := _day(n, year, m.month, m.day, FROM_DATES)) is not None
        ]
        if options:
            return min(options, key=lambda d: abs((d.day - ref).days))
    period_end, year_named = named
    if period_end is not None:
        after = (m.month, m.day) > (period_end.month, period_end.day)
        # «2024 год закончился 31.12»: the day the period ends on is that end itself
        ends = (m.month, m.day) == (period_end.month, period_end.day) and _ends_period(text, n)
        year = period_end.year if after or ends else period_end.year + 1
        return _day(n, year, m.month, m.day, FROM_PERIOD)
    if year_named is not None:
        return _day(n, year_named, m.month, m.day, FROM_YEAR)
    return _day(n, today.year, m.month, m.day, "")


def _ends_period(text: CalcText, n: int) -> bool:
    """Whether the words next to day ``n`` say a period ends on it («закончился 31.12»)."""
    ends = word_set("end_verbs")
    return any(w.lemma in ends for w in [*_left(text, n)[:3], *_right(text, n)])


def _day(n: int, year: int, month: int, day: int, basis: str) -> QuestionDay | None:
    try:
        return QuestionDay(n, date(year, month, day), False, bool(basis), basis)
    except ValueError:  # 29 February of a common year
        return None


def named_years(text: CalcText) -> tuple[date | None, int | None]:
    """The latest end of a reporting period the question names with its year («за 4 кв.
    2023», «за 2 квартал 2025 года», «за 9 месяцев 2024», «за июнь 2025», «за 2024 год»,
    «за 2021-2023 годы»), and a year it names alone («в 2025 году»), outside its dates."""
    ends: list[date] = []
    alone: set[int] = set()
    words = text.words
    for i, w in enumerate(words):
        # «2024», and the last year of a range written as one token («2021-2023»)
        last = w.text.replace("–", "-").split("-")[-1]
        if w.day is not None or not (last.isdigit() and len(last) == 4):
            continue
        year = int(last)
        if not 1990 <= year <= 2100:
            continue
        back = words[max(0, i - _PERIOD_REACH) : i]
        za = [k for k, b in enumerate(back) if b.lemma == "за"]
        nxt = words[i + 1].lemma if i + 1 < len(words) else ""
        if not za and back and back[-1].lemma in _YEAR_KINDS and nxt in _YEAR_WORDS:
            ends.append(date(year, 12, 31))  # «отчетный период — календарный 2024 год»
            continue
        if not za:
            if back and back[-1].lemma == "в" and nxt in _YEAR_WORDS:
                alone.add(year)
            continue
        ends.append(_period_end(back[za[-1] + 1 :], year))
    return (max(ends) if ends else None, next(iter(alone)) if len(alone) == 1 else None)


def _period_end(words: Sequence[Word], year: int) -> date:
    """The last day of the period «за ... <year>» names (the year's end when it names none)."""
    lemmas = {w.lemma for w in words}
    number = next((_ordinal(w.text) for w in words if _ordinal(w.text)), None)
    month = 12
    if lemmas & _QUARTER and number and number <= 4:
        month = 3 * number
    elif "полугодие" in lemmas:
        month = 6 * (number or 1) if (number or 1) <= 2 else 12
    elif "месяц" in lemmas and number and number <= 12:
        month = number
    else:
        named = [MONTHS[w.lemma] for w in words if w.lemma in MONTHS]
        month = named[-1] if named else 12
    return date(year, month, monthrange(year, month)[1])


def _ordinal(token: str) -> int | None:
    """«4», «1-й», «II» as a number."""
    head = token.lower().split("-")[0]
    if head.isdigit():
        return int(head)
    return _ROMAN.get(head)


def _adjacent(text: CalcText, a: int, b: int) -> bool:
    """Whether days ``a`` and ``b`` are a pair («с 29 июля по 15 октября 2024», «28 декабря
    или 15 января 2025»): one sentence, nothing but short function words between them
    («14 марта, декларацию подали 20 февраля 2025» tells two events, not a pair)."""
    _, last_a = text.day_words(a)
    first_b, _ = text.day_words(b)
    between = text.words[last_a + 1 : first_b]
    same = text.words[last_a].sentence == text.words[first_b].sentence
    return same and len(between) <= 4 and not any(w.content for w in between)


def question_days(text: CalcText, today: date) -> list[QuestionDay]:
    """Every day of the question in order, its year resolved."""
    return sorted(_resolved(text, today), key=lambda d: d.mention)


def _left(text: CalcText, day: int) -> list[Word]:
    """The words before a day, back to the previous day or the sentence's start, past a
    bracketed aside («создано подразделение (рабочие места оборудованы) 30 января»)."""
    first, _ = text.day_words(day)
    sentence = text.words[first].sentence
    out: list[Word] = []
    j = first - 1
    depth = 0
    while j >= 0 and text.words[j].sentence == sentence and text.words[j].day is None:
        w = text.words[j]
        depth += (w.text == ")") - (w.text == "(")
        if depth <= 0 and w.text != "(" and any(ch.isalnum() for ch in w.text):
            out.append(w)
        if len(out) == _LEFT:
            break
        j -= 1
    return out  # nearest first


def _right(text: CalcText, day: int) -> list[Word]:
    """The words after a day, past its year and a bracketed aside («26 декабря 2024 года
    (четверг) получили»), up to a clause break."""
    _, last = text.day_words(day)
    words = text.words
    j = last + 1
    while j < len(words) and words[j].lemma in _YEAR_WORDS:
        j += 1
    if j < len(words) and words[j].text == "(":
        close = next((k for k in range(j, min(len(words), j + 12)) if words[k].text == ")"), None)
        j = close + 1 if close is not None else j
    out: list[Word] = []
    while j < len(words) and len(out) < _RIGHT and words[j].day is None:
        w = words[j]
        # «датирован 27.01.2025 и вручён 31.01»: a conjunction starts the next clause
        if not any(ch.isalnum() for ch in w.text) or w.lemma in ("а", "но", "и"):
            break
        out.append(w)
        j += 1
    return out


def _distance(side: Sequence[Word], phrase: Sequence[str], before: bool) -> int | None:
    """How far from the day the phrase's nearest word stands (0: next to it), when all its
    lemmas are on that side (nearest first) and not denied. Another verb standing between
    claims the day for its own event («акт датирован 27.01, получен 31.01»: 27.01 is the
    act's date), unless joined by «и» («составлена и вручена 30 июня») or a verb of ability
    (``ability_verbs``: «забрать смогли 7 мая» dates the infinitive's event); a participle does
    so only right next to the day («акт, датированный 3 марта»). «срок представления
    25.04» is the deadline of a filing, not a filing."""
    seen = [w.lemma if not w.negated else "" for w in side]
    if not all(lemma in seen for lemma in phrase):
        return None
    wanted = set(phrase)
    for n, w in enumerate(side):
        if w.lemma in wanted and not w.negated:
            if before:
                governing = side[n + 1] if n + 1 < len(side) else None
            else:
                governing = side[n - 1] if n else None
            if governing is not None and governing.lemma == "срок" and "срок" not in wanted:
                return None
            return n
        # «получить его смогли 7 мая»: a verb of ability governs the infinitive before it
        modal = w.lemma in word_set("ability_verbs")
        blocks = not modal and (w.pos in _FINITE or (w.pos in _VERBS and n == 0))
        joined = before and n + 1 < len(side) and side[n + 1].lemma in ("и", "или")
        if blocks and not w.negated and not joined:
            return None
    return None


def marked_day(
    text: CalcText, days: Sequence[QuestionDay], phrases: Sequence[Sequence[str]]
) -> tuple[QuestionDay, int] | None:
    """The day the words of ``phrases`` stand nearest to, and how near (lower is nearer):
    words before a day count as they are, words after it five further."""
    best: tuple[QuestionDay, int] | None = None
    for d in days:
        left, right = _left(text, d.mention), _right(text, d.mention)
        for phrase in phrases:
            scores = []
            before = _distance(left, phrase, True)
            if before is not None:
                scores.append(before)
            after = _distance(right, phrase, False)
            if after is not None:
                scores.append(_RIGHT_PENALTY + after)
            if scores and (best is None or min(scores) < best[1]):
                best = (d, min(scores))
    return best


def told_of_updated(text: CalcText, day: QuestionDay) -> bool:
    """Whether the clause before a day is about an updated declaration («а уточненную —
    29.11.2024»), not the first one («первичную подавали 20.03.2025»)."""
    first, _ = text.day_words(day.mention)
    sentence = text.words[first].sentence
    before = [w for w in text.words[:first] if w.sentence == sentence]
    cut = max((i for i, w in enumerate(before) if w.text == ";"), default=-1)
    clause = [w.lemma for w in _outside_asides(before[cut + 1 :]) if not w.negated]
    if "уточнить" not in clause:
        return False
    at = len(clause) - 1 - clause[::-1].index("уточнить")
    return not word_set("first_return") & set(clause[at:])


def _outside_asides(words: list[Word]) -> list[Word]:
    """The words of a clause that bear on the day after it: a day inside a parenthesis
    belongs to the parenthesis only («(первичку сдавали 24 октября)»), and a closed
    parenthesis before a day is an aside about something else («Уточненную декларацию
    (первичку сдавали 24 октября) отправили 23 декабря»)."""
    kept: list[Word] = []
    inside: list[Word] = []
    depth = 0
    for w in words:
        if w.text == "(":
            if depth == 0:
                inside = []
            depth += 1
        elif w.text == ")" and depth:
            depth -= 1
        elif depth:
            inside.append(w)
        else:
            kept.append(w)
    return inside if depth else kept


def told_calendar(text: CalcText, day: QuestionDay) -> bool:
    """The day is told as a kind of calendar day, not as an event: its clause, right after
    it (past its year and a dash or «это»), is a calendar day's name with no verb («если
    2 ноября рабочая суббота», «5 мая — выходной»). «получили 5 мая в субботу» tells an
    event (a preposition comes first)."""
    _, last = text.day_words(day.mention)
    words = text.words
    j = last + 1
    while j < len(words) and (words[j].lemma in _YEAR_WORDS or words[j].text in ("—", "–", "-")):
        j += 1
    if j < len(words) and words[j].lemma in ("это", "быть"):
        j += 1
    clause: list[Word] = []
    while j < len(words) and words[j].day is None and words[j].sentence == words[last].sentence:
        w = words[j]
        if not any(ch.isalnum() for ch in w.text) or w.lemma in ("а", "но", "и"):
            break
        clause.append(w)
        j += 1
    calendar = word_set("calendar_days")
    return bool(clause) and clause[0].lemma in calendar and not any(w.pos in _VERBS for w in clause)
