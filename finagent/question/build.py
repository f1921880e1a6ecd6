"""``build_question``: read a question once per turn into a typed ``Question``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import cache
from importlib import resources

from finagent.cards.fields import ALL as ALL_FIELDS
from finagent.cards.fields import BY_KEY as FIELDS_BY_KEY
from finagent.cards.model import DocumentCard
from finagent.language.compounds import compounded
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.dates import as_of, dates_in, months_in, period_years, years_in
from finagent.language.identifiers import identifiers_in
from finagent.language.lemmas import (
    best_parse,
    can_be,
    first_person,
    genitive,
    in_nominative,
    nominative,
    part_of_speech,
    past_verb,
    plural_interrogative,
    predicate,
)
from finagent.language.measures import DIMENSIONS, SYMBOLS
from finagent.language.money import money_in
from finagent.language.organisations import organisations_in
from finagent.language.percents import percents_in
from finagent.language.periods import periods_in
from finagent.language.text import Analysed, analyse
from finagent.moscow_time import moscow_today
from finagent.question.asked import asked_attributes, proper_names
from finagent.question.conditions import asks_event, asks_realised, done_in_passive
from finagent.question.documents import named_documents
from finagent.question.model import Question
from finagent.question.parts import (
    QUESTION_WORDS,
    AskedPart,
    asked_parts,
    coordinated_parts,
    elliptic_case,
)
from finagent.question.party_of import qualifies_other_noun
from finagent.question.polar import asks_polar
from finagent.question.revision import asked_revision, with_revisions
from finagent.question.tables import (
    ANSWER_CUES,
    BREACH,
    GENERIC_HEADS,
    HEAD_STRENGTH,
    HEAD_VALUES,
    LIST_STRENGTH,
    QUESTION_FIELD_CUES,
    REQUISITES,
    ROLE_STRENGTH,
    SANCTIONS,
    STANDARD_HEADS,
    STOP_LEMMAS,
    TAXES,
    AnswerType,
)
from finagent.question.which_head import which_head
from finagent.yaml_data import load_yaml


def _positions(lemmas: Sequence[str], phrases: Sequence[str]) -> list[int]:
    return [at for phrase in phrases if (at := find_cue(lemmas, phrase)) >= 0]


def _compound_positions(words: Sequence[str], phrases: Sequence[str]) -> list[int]:
    """Where a word is the compound short form of a phrase («сельхозналога»)."""
    return [at for at, _ in compounded(words, [p for p in phrases if " " in p])]


def _form_positions(words: Sequence[str], phrases: Sequence[str]) -> list[int]:
    """Where a hyphenated form's name has a one-word cue as a part: «6-НДФЛ», «3-НДФЛ»
    name the tax of the report they are."""
    cues = {p.casefold() for p in phrases if " " not in p}
    return [
        at
        for at, word in enumerate(words)
        if "-" in word and cues & {part.casefold() for part in word.split("-")}
    ]


# «по договору поставки», «в договоре субаренды»: the word after these names the document,
# it does not ask for the field («какой гарантийный срок в договоре поставки?»)
_DOCUMENT_WORDS = frozenset({"договор", "контракт", "соглашение"})
# what a record of an act done states: its day and its sum («когда перечислили», «сколько
# заплатили»)
_EVENT_VALUES = frozenset({"date", "amount"})


def _governs(phrase: str, words: Sequence[str], at: int) -> bool:
    """A cue whose last word is a genitive complement («дата договора», «срок оплаты») is
    the phrase only when the question's word is one too: «с какой даты договор считается
    расторгнутым» names the contract as the subject, not its date."""
    cue = phrase.split()
    if len(cue) < 2 or not words or not genitive(cue[-1]):
        return True
    last = at + len(cue_lemmas(phrase)) - 1
    return last < len(words) and genitive(words[last])


def _field_positions(
    lemmas: Sequence[str],
    phrases: Sequence[str],
    not_after: frozenset[str] = frozenset(),
    words: Sequence[str] = (),
) -> list[int]:
    found = []
    skip = _DOCUMENT_WORDS | not_after
    for phrase in phrases:
        at = find_cue(lemmas, phrase)
        while at >= 0 and ((at > 0 and lemmas[at - 1] in skip) or not _governs(phrase, words, at)):
            at = find_cue(lemmas, phrase, at + 1)
        if at >= 0:
            found.append(at)
    return found


# tokens after a cue a figure it names may stand: «по ставке 5 %», «тариф взносов 15 %»
STATED_REACH = 3
CLEAR_CUE = 3  # a cue this strong asks its type by itself («сколько», «сумма», «срок»)


def _stated(analysed: Analysed) -> dict[AnswerType, set[int]]:
    """Positions (in the question's lemmas) of the percentages and sums it states."""
    tokens = [token for sentence in analysed.sentences for token in sentence.tokens]
    spans: dict[AnswerType, list[tuple[int, int]]] = {
        "rate": [(p.start, p.end) for p in percents_in(analysed)],
        "amount": [(m.start, m.end) for m in money_in(analysed, words=True)],
    }
    return {
        kind: {i for i, t in enumerate(tokens) if any(a <= t.start < b for a, b in found)}
        for kind, found in spans.items()
    }


def _given(cue_at: int, length: int, stated: set[int]) -> bool:
    """Whether a figure of the cue's kind stands in or right after the cue: the question
    states that value («перешёл на НДС по ставке 5 %»), it does not ask it."""
    return any(i in stated for i in range(cue_at, cue_at + length + STATED_REACH))


def _asking_clause(lemmas: Sequence[str]) -> int:
    """Where the clause of the question's first question word starts: what a question
    states before it («досудебный порядок обязателен — в какой срок …?») is its context,
    not what it asks."""
    first = next((i for i, lm in enumerate(lemmas) if lm in QUESTION_WORDS), None)
    if first is None:
        return 0
    return next((i + 1 for i in range(first - 1, -1, -1) if lemmas[i] in _CLAUSE_ENDS), 0)


def asked_clause_span(lemmas: Sequence[str]) -> tuple[int, int] | None:
    """Where the clause of the question's first question word starts and ends (token
    positions, the end excluded); None without a question word."""
    first = next((i for i, lm in enumerate(lemmas) if lm in QUESTION_WORDS), None)
    if first is None:
        return None
    end = next((i for i in range(first + 1, len(lemmas)) if lemmas[i] in _CLAUSE_ENDS), None)
    return _asking_clause(lemmas), len(lemmas) if end is None else end


def asked_clause_words(lemmas: Sequence[str], words: Sequence[str]) -> list[str]:
    """The words of the clause of the question's first question word (what a question
    states before it is its context)."""
    span = asked_clause_span(lemmas)
    if span is None or len(words) != len(lemmas):
        return []
    return list(words[span[0] : span[1]])


def asks_of_record(lemmas: Sequence[str], words: Sequence[str]) -> tuple[bool, bool, bool, bool]:
    """Whether the asking clause speaks of the speaker's own affairs (a first-person word:
    «кто ведёт нашу камералку», «кому мы отгрузили») or of an act already done (a finite
    verb in the past: «под какой процент банк начислил», «на какую сумму инспекция
    нашла») — a fact of the user's records, not a rule — and whether it does both, an act
    of the speaker's own («сколько мы заплатили …», «какой налог у нас вышел»); third,
    whether it speaks in the first person at all. What a question states before its
    asking clause («затребовала у нас документы — сколько дней на ответ?») is context and
    does not count. Fourth, whether it asks of an act already done at all."""
    clause = asked_clause_words(lemmas, words)
    own = any(first_person(word) for word in clause)
    done = any(past_verb(word) for word in clause)
    return own or done, own and done, own, done


def _cues(
    lemmas: Sequence[str],
    stated: dict[AnswerType, set[int]],
    start: int = 0,
    skip: frozenset[int] = frozenset(),
) -> list[tuple[int, int, AnswerType]]:
    """(-strength, position, type) of each cue from ``start``, but those whose value is
    ``stated`` and those at a ``skip`` position (a later occurrence counts then)."""
    found: list[tuple[int, int, AnswerType]] = []
    for cue in ANSWER_CUES:
        at = find_cue(lemmas, cue.phrase, start)
        given = stated.get(cue.answer_type, set())
        while at >= 0 and (_given(at, len(cue_lemmas(cue.phrase)), given) or at in skip):
            at = find_cue(lemmas, cue.phrase, at + 1)
        if at >= 0:
            found.append((-cue.strength, at, cue.answer_type))
    return found


# «с какой суммы», «до какого размера дохода», «при какой выручке», «с какой части
# зарплаты»: a preposition of a bound, «какой» and, within two words, a noun of a quantity
# of money or things ask the threshold (a sum, or a share when the question states its
# own percentage), whatever «часть» or «сумма» alone would ask. «При какой доле участия»
# asks a share, as «доля» does by itself; «до какого числа», «с какого момента», «при
# каких условиях» name no quantity. A bound asked by a later part («какой вычет и до
# какого дохода он даётся?») does not lead: the first part's type does.
_BOUND_PREPOSITIONS = frozenset({"с", "со", "от", "до", "при", "свыше", "сверх"})
_QUANTITY_NOUNS = frozenset(
    "сумма стоимость размер доход выручка часть величина объём объем количество цена "
    "площадь оборот численность выплата зарплата заработок".split()
)
BOUND_STRENGTH = 5


def _bound_at(lemmas: Sequence[str]) -> int:
    """Position of a bound asked by quantity («с какой суммы …»), or -1."""
    for i, lemma in enumerate(lemmas[:-2]):
        if lemma in _BOUND_PREPOSITIONS and lemmas[i + 1] == "какой":
            if any(lm in _QUANTITY_NOUNS for lm in lemmas[i + 2 : i + 5]):
                return i
    return -1


# «до какого надо подать?», «по какое нужно платить?»: «до какого» or «по какое» with
# no noun after it (a verb, a modal word or the end follows) leaves out «числа», and asks
# a date, whatever the period the question names («за 9 месяцев», «за квартал»)
_DATE_PREPOSITIONS = frozenset({"до", "по"})
_NOMINALS = frozenset({"NOUN", "ADJF", "PRTF", "NUMR"})
ELIDED_DATE_STRENGTH = 6  # stronger than a period or a sum the question names
_CUT_OFF_DATE = "до"  # a question ending with it leaves out «какого числа»


def _elided_date_at(lemmas: Sequence[str], words: Sequence[str]) -> int:
    """Position of a «до какого» / «по какое» whose noun is left out and which no other
    question word precedes, or of a «до» the question ends with («земельный налог
    физлицо платит до?»: the question word itself is left out), or -1."""
    if len(words) != len(lemmas):
        return -1
    # the last word or number: «до 18?» bounds a value, only a bare final «до» cuts a date
    last = max((i for i, lm in enumerate(lemmas) if any(c.isalnum() for c in lm)), default=-1)
    if last > 0 and lemmas[last] == _CUT_OFF_DATE:
        return -1 if any(lm in QUESTION_WORDS for lm in lemmas[:last]) else last
    for i, lemma in enumerate(lemmas[:-1]):
        if lemma in _DATE_PREPOSITIONS and lemmas[i + 1] == "какой":
            after = words[i + 2] if i + 2 < len(words) else ""
            if not after.isalpha() or part_of_speech(after) not in _NOMINALS:
                # after another asked value («какая ставка и до какого её снизить?») the
                # left-out noun may be that value's: only a leading one asks a date
                asked_before = any(lm in QUESTION_WORDS for lm in lemmas[:i])
                return -1 if asked_before else i
    return -1


DURATION_REACH = 3  # lemmas between «сколько» and the verb (modal words, the subject)


@cache
def _duration_verbs() -> dict[str, frozenset[str]]:
    """``lasting`` and ``staying`` verbs (``data/duration_verbs.yaml``)."""
    text = resources.files("finagent.question").joinpath("data/duration_verbs.yaml")
    data = load_yaml(text.read_text("utf-8"))
    return {key: frozenset(str(w) for w in words) for key, words in data.items()}


def _duration_at(lemmas: Sequence[str], words: Sequence[str]) -> int:
    """Position of a «сколько» that asks a duration, or -1: a lasting verb in reach, or a
    staying verb with no counted noun between (such a noun is what «сколько» counts)."""
    verbs = _duration_verbs()
    for i, lemma in enumerate(lemmas):
        if lemma != "сколько":
            continue
        reach = range(i + 1, min(len(lemmas), i + 2 + DURATION_REACH))
        if any(lemmas[j] in verbs["lasting"] for j in reach):
            return i
        if len(words) != len(lemmas):
            continue
        for j in reach:
            if lemmas[j] in verbs["staying"]:
                return i
            if _counted_noun(words[j]):
                break
    return -1


def _counted_noun(word: str) -> bool:
    """A noun «сколько» may count or have as its subject (one that can be in the genitive
    or the nominative: «денег», «НДС»), not one in another case («иностранцу»)."""
    return part_of_speech(word) == "NOUN" and (can_be(word, "gent") or can_be(word, "nomn"))


def _timed_kind_at(lemmas: Sequence[str], words: Sequence[str]) -> int:
    """Position of a noun of the kind of value whose genitive complement is a duration
    («норматив времени реакции», «норма времени», «лимит продолжительности»), or -1: the
    value asked is a span of time, whatever the kind noun alone asks (``data/term_nouns.yaml``
    ``durations``)."""
    if len(words) != len(lemmas):
        return -1
    durations = _term_words()["durations"]
    for i in range(len(lemmas) - 1):
        kind = lemmas[i] in GENERIC_HEADS or lemmas[i] in STANDARD_HEADS
        if kind and lemmas[i + 1] in durations and genitive(words[i + 1]):
            return i
    return -1


_WHEN = "когда"
CIRCUMSTANCE_REACH = 3  # lemmas between «когда» and its verb («когда у ИП применяется»)
CIRCUMSTANCE_STRENGTH = 4  # as strong as «когда» itself: the earlier of it and another cue leads


def _circumstance_at(lemmas: Sequence[str]) -> int:
    """Position of a «когда» that asks the cases a rule applies in, not a day, or -1: a
    verb of applying, arising or being taxed (``data/term_nouns.yaml``: «когда
    применяется 0 %», «когда возникает право на вычет», «когда не облагается») in reach
    after it. «Когда платить», «когда подать» ask a date."""
    verbs = _term_words()["circumstance_verbs"]
    for i, lemma in enumerate(lemmas):
        if lemma != _WHEN:
            continue
        reach = lemmas[i + 1 : i + 2 + CIRCUMSTANCE_REACH]
        for after in reach:
            if after in verbs:
                return i
            if after in _CLAUSE_ENDS or after in QUESTION_WORDS:
                break
    return -1


@cache
def _term_words() -> dict[str, frozenset[str]]:
    """``nouns`` of a term and the ``verbs`` its question may have (``data/term_nouns.yaml``)."""
    text = resources.files("finagent.question").joinpath("data/term_nouns.yaml")
    data = load_yaml(text.read_text("utf-8"))
    return {key: frozenset(str(w) for w in words) for key, words in data.items()}


_VERB_TAGS = frozenset({"VERB", "INFN"})


def _clause_of(lemmas: Sequence[str], at: int) -> range:
    """The positions of the clause (between ``_CLAUSE_ENDS``) the position ``at`` is in."""
    start = next((i + 1 for i in range(at - 1, -1, -1) if lemmas[i] in _CLAUSE_ENDS), 0)
    end = next((i for i in range(at + 1, len(lemmas)) if lemmas[i] in _CLAUSE_ENDS), len(lemmas))
    return range(start, end)


def _term_subject_at(lemmas: Sequence[str], words: Sequence[str]) -> int:
    """Position of a «сколько» that asks how long a term lasts by its subject, or -1: a
    noun of a term (``data/term_nouns.yaml``: «гарантия», «отсрочка», «отпуск») in the
    nominative or accusative, not after a preposition, in the clause of «сколько», which
    counts no noun of its own (the word after it is no noun) and has no verb but one of
    granting or lasting («сколько стоит командировка» asks a sum)."""
    if len(words) != len(lemmas):
        return -1
    terms = _term_words()
    for i, lemma in enumerate(lemmas):
        if lemma != "сколько":
            continue
        following = lemmas[i + 1] if i + 1 < len(lemmas) else ""
        if part_of_speech(words[i + 1] if following else "") == "NOUN" and (
            following not in terms["nouns"]
        ):
            continue  # «сколько дней отпуска»: the counted noun says what is asked
        clause = _clause_of(lemmas, i)
        if any(
            part_of_speech(words[j]) in _VERB_TAGS and lemmas[j] not in terms["verbs"]
            for j in clause
        ):
            continue
        if any(
            lemmas[j] in terms["nouns"]
            and (nominative(words[j]) or can_be(words[j], "accs"))
            and not (j > 0 and part_of_speech(words[j - 1]) == "PREP")
            for j in clause
        ):
            return i
    return -1


# «сколько у нас дней на ответ?», «сколько всего лет хранить?», «сколько ещё месяцев
# ждать?»: «сколько» counting units of time (the genitive plural of a count), with no noun
# or verb between them (a pronoun, a preposition, an adverb), asks a span; «сколько налога
# за год» counts the tax, «сколько в месяц платим» a sum per month
_TIME_UNITS = frozenset("день неделя месяц квартал год".split())
_BETWEEN_COUNT = frozenset({"NPRO", "PREP", "ADVB", "PRCL"})


def _counted_span_at(lemmas: Sequence[str], words: Sequence[str]) -> int:
    """Position of a «сколько» counting units of time beyond the next word, or -1 (the
    next word itself is the «сколько дней» cue's)."""
    if len(words) != len(lemmas):
        return -1
    for i, lemma in enumerate(lemmas):
        if lemma != "сколько":
            continue
        for j in range(i + 1, min(len(lemmas), i + 2 + DURATION_REACH)):
            if lemmas[j] in _TIME_UNITS and j > i + 1:
                counted = "plur" in best_parse(words[j]).tag and genitive(words[j])
                return i if counted else -1
            if part_of_speech(words[j]) not in _BETWEEN_COUNT:
                break
    return -1


# «какой минимальный срок владения», «на какой максимальный срок»: an asked bound of a
# duration asks the duration, a period; the bound word asks a limit of a sum or a share
# («раньше минимального срока» asks nothing: it sets a condition)
_BOUND_WORDS = frozenset({"максимальный", "минимальный", "предельный"})
_DURATION_NOUNS = frozenset({"срок", "период"})


def _bounded_duration(lemmas: Sequence[str]) -> set[int]:
    """Positions of the asked bound words that qualify a duration («какой минимальный
    срок»)."""
    return {
        i
        for i, lemma in enumerate(lemmas[:-1])
        if i > 0
        and lemmas[i - 1] == "какой"
        and lemma in _BOUND_WORDS
        and lemmas[i + 1] in _DURATION_NOUNS
    }


@cache
def _bounded_rate_words() -> tuple[frozenset[str], frozenset[str]]:
    """The rate nouns and bound nouns of ``data/bounded_rates.yaml``."""
    text = resources.files("finagent.question").joinpath("data/bounded_rates.yaml")
    data = load_yaml(text.read_text("utf-8")) or {}
    return (
        frozenset(str(w) for w in data.get("rate_nouns", [])),
        frozenset(str(w) for w in data.get("bound_nouns", [])),
    )


def _bounded_rate(lemmas: Sequence[str]) -> set[int]:
    """Positions of the asked bound words that qualify a rate: a bound's adjective before a
    rate noun («минимальная ставка», «максимальный тариф»), or a bound noun asked by «до
    какого» in a question naming a rate («до какого минимума снизить ставку»). Such a bound
    asks a percentage, as a bounded duration asks a period."""
    rates, bounds = _bounded_rate_words()
    out = {
        i for i, lemma in enumerate(lemmas[:-1]) if lemma in _BOUND_WORDS and lemmas[i + 1] in rates
    }
    if rates & set(lemmas):
        out |= {
            i
            for i, lemma in enumerate(lemmas)
            if i > 1 and lemma in bounds and lemmas[i - 1] == "какой" and lemmas[i - 2] == "до"
        }
    return out


HEAD_REACH = 3  # words after «какой» a measured noun is looked for in («какая общая площадь»)


def _head_of(lemmas: Sequence[str], words: Sequence[str], start: int = 0) -> tuple[int, int]:
    """Positions of the asking clause's «какой» and of its head (the noun, or the last
    adjective when no noun follows: «какие суточные»), or (-1, -1)."""
    if len(words) != len(lemmas):
        return -1, -1
    at = next((i for i in range(start, len(lemmas)) if lemmas[i] in QUESTION_WORDS), -1)
    if at < 0 or lemmas[at] != "какой":
        return -1, -1
    head, _ = which_head(words, at)
    return (at, head) if head >= 0 else (-1, -1)


def _head_type(
    lemmas: Sequence[str], words: Sequence[str], start: int = 0
) -> tuple[int, int, AnswerType] | None:
    """What the head noun of the asking clause's «какой» asks, as (-strength, position,
    type): a value when it names a sum or a span of time (:data:`HEAD_VALUES`: «какой
    налоговый бонус» — an amount), a list when «какие» asks a countable noun in the plural
    («какие премии не облагаются» — which kinds). A plural-only noun or a substantivised
    adjective of an allowance («какие суточные не облагаются», no noun after it) is one
    value. None when no «какой» opens the clause or its head names no such value (a plural
    of another noun, «какие документы», is a list by «какие» itself)."""
    at, head = _head_of(lemmas, words, start)
    kind = HEAD_VALUES.get(lemmas[head]) if head >= 0 else None
    if kind is None:
        return None
    noun = part_of_speech(words[head]) == "NOUN"
    if noun and plural_interrogative(words[at]) and not can_be(words[head], "Pltm"):
        return (-LIST_STRENGTH, at, "procedure")
    return (-HEAD_STRENGTH, at, kind)


def _asked_head(lemmas: Sequence[str], words: Sequence[str], kind: AnswerType) -> str | None:
    """The noun phrase of the value asked, in the nominative («налоговый бонус»,
    «суточные»), when its head names the asked type: the lead names it instead of a
    generic «Сумма»."""
    start = _asking_clause(lemmas)
    head = _head_type(lemmas, words, start)
    if head is None or head[2] != kind or kind == "procedure":
        return None
    at, end = _head_of(lemmas, words, start)
    return in_nominative(" ".join(words[at + 1 : end + 1]).lower())


def _open_head(lemmas: Sequence[str], words: Sequence[str], kind: AnswerType) -> str | None:
    """The noun phrase after the asking clause's «какой» in the nominative («гарантия»,
    «безусловная франшиза») when the question asks no value type by its words (procedure
    or unknown) and «какой» is singular: one thing whose value the evidence may state.
    Not after a preposition: «с какого момента», «по какому основанию» ask a point or a
    ground, not a value of the noun."""
    if kind not in ("procedure", "unknown"):
        return None
    at, end = _head_of(lemmas, words, _asking_clause(lemmas))
    if at < 0 or plural_interrogative(words[at]) or part_of_speech(words[end]) != "NOUN":
        return None
    if at and part_of_speech(words[at - 1].lower()) == "PREP":
        return None
    return in_nominative(" ".join(words[at + 1 : end + 1]).lower())


def _asked_cues(
    lemmas: Sequence[str],
    stated: dict[AnswerType, set[int]],
    start: int,
    skip: frozenset[int] = frozenset(),
) -> list[tuple[int, int, AnswerType]]:
    """The cues of the asking clause, or of the whole question when that clause names no
    type beyond «какой» (a cue that some value is asked)."""
    found = _cues(lemmas, stated, start, skip) if start else []
    if any(-strength > _WEAK for strength, _, _ in found):
        return found
    return _cues(lemmas, stated, 0, skip)


def _answer_types(
    lemmas: Sequence[str],
    fields: list[tuple[int, str]],
    stated: dict[AnswerType, set[int]] | None = None,
    words: Sequence[str] = (),
) -> list[AnswerType]:
    """Every answer type asked, strongest first (ties: earliest), then the others by
    position; a cue whose value the question states itself (``stated``) asks nothing,
    unless nothing else is clearly asked («ставка 20 % или 10 %?» asks which)."""
    start = _asking_clause(lemmas)
    condition = frozenset(_condition(lemmas, words))
    found = _asked_cues(lemmas, stated or {}, start, condition)
    if not any(-strength >= CLEAR_CUE for strength, _, _ in found):
        found = _asked_cues(lemmas, {}, start, condition)
    if not any(-strength >= 2 for strength, _, _ in found):
        # a question whose only cues lie in its condition keeps them
        found = _asked_cues(lemmas, stated or {}, start)
        if not any(-strength >= CLEAR_CUE for strength, _, _ in found):
            found = _asked_cues(lemmas, {}, start)
    roles = {field.key for field in ALL_FIELDS if field.kind == "party"}
    found.extend((-ROLE_STRENGTH, at, "party") for at, key in fields if key in roles)
    # the head noun speaks when no cue of the clause clearly asks a type, and for the
    # question only when it asks one thing (a later part's question word: its parts are
    # typed each on its own, «какой вычет и до какого дохода …»)
    head = _head_type(lemmas, words, start)
    alone = head is not None and not any(lm in QUESTION_WORDS for lm in lemmas[head[1] + 1 :])
    if head is not None and alone and not any(-strength >= CLEAR_CUE for strength, _, _ in found):
        found.append(head)
    circumstance = _circumstance_at(lemmas)
    if circumstance >= 0:
        # «когда применяется 0 %»: the cases, not the date «когда» alone asks
        found = [f for f in found if not (f[1] == circumstance and f[2] == "date")]
        found.append((-CIRCUMSTANCE_STRENGTH, circumstance, "procedure"))
    durations = _bounded_duration(lemmas)
    rates = _bounded_rate(lemmas)
    found = [
        (strength, at, "period" if kind == "limit" and at in durations else kind)
        for strength, at, kind in found
    ]
    found = [
        (strength, at, "rate" if kind == "limit" and at in rates else kind)
        for strength, at, kind in found
    ]
    # a lasting verb, a counted span, a term's subject, a timed kind: each asks a period
    for period_at in (_duration_at, _counted_span_at, _term_subject_at, _timed_kind_at):
        at = period_at(lemmas, words)
        if at >= 0:
            found.append((-BOUND_STRENGTH, at, "period"))
    elided = _elided_date_at(lemmas, words)
    if elided >= 0:
        found.append((-ELIDED_DATE_STRENGTH, elided, "date"))
    bound = _bound_at(lemmas)
    later = any(lm in QUESTION_WORDS for lm in lemmas[: max(bound, 0)])
    if bound >= 0 and not later:
        found.append((-BOUND_STRENGTH, bound, "limit"))
    if not found:
        return ["unknown"]
    primary = min(found)[2]
    # a type named by several cues counts once, at its strongest cue
    others = sorted(
        (at, kind) for strength, at, kind in found if kind != primary and -strength >= 2
    )
    ordered: list[AnswerType] = [primary]
    for _, kind in others:
        if kind not in ordered:
            ordered.append(kind)
    if bound >= 0 and later and "limit" not in ordered:
        ordered.append("limit")
    return ordered


def role_acts(words: Sequence[str], at: int) -> bool:
    """A role word that acts or is acted with, not one asked for: «какой срок подрядчик
    дал», «заказчик должен рассчитаться с исполнителем», «сделки покупателями»."""
    if at >= len(words):
        return False
    following = [w for w in words[at + 1 : at + 3] if w.isalpha()]
    return not nominative(words[at]) or any(predicate(w) for w in following[:1])


def _complement(lemmas: Sequence[str], words: Sequence[str], at: int) -> bool:
    """A value field's word in the genitive after a noun that names no kind of value is
    that noun's complement: «фонд оплаты труда» asks the fund, not the payment's term
    («срок оплаты», «дата оплаты» do ask it). So is one after «на» and a noun: «проценты
    на остаток» asks the interest, the balance is what it is charged on."""
    if 1 < at < min(len(words), len(lemmas)) and lemmas[at - 1] == "на":
        return part_of_speech(words[at - 2]) == "NOUN"
    if not 0 < at < len(words) or at >= len(lemmas) or not genitive(words[at]):
        return False
    head = lemmas[at - 1]
    if head in GENERIC_HEADS or head in REQUISITES or head in _DOCUMENT_WORDS:
        return False
    return part_of_speech(head) == "NOUN"


_WITHOUT = "без"


def _absent(lemmas: Sequence[str], at: int) -> bool:
    """A value's noun right after «без» names a condition, not the value asked: «за
    сколько часов можно снять бронь без штрафа» asks a period, «без комиссии» no fee."""
    return 0 < at <= len(lemmas) and lemmas[at - 1] == _WITHOUT


def _fields(lemmas: Sequence[str], words: Sequence[str]) -> list[tuple[int, str]]:
    hits: dict[str, int] = {}
    for field in ALL_FIELDS:
        cues = field.cues + QUESTION_FIELD_CUES.get(field.key, ())
        # «сумма без НДС», «с НДС»: the qualifier of an amount, not the tax asked for
        not_after = frozenset(lm for word in field.not_after for lm in cue_lemmas(word))
        positions = _field_positions(lemmas, cues, not_after, words)
        if field.kind == "party":
            positions = [
                at
                for at in positions
                if not role_acts(words, at) and not qualifies_other_noun(lemmas, words, at)
            ]
        else:
            positions = [
                at
                for at in positions
                if not _complement(lemmas, words, at) and not _absent(lemmas, at)
            ]
        if positions:
            hits[field.key] = min(positions)
    found = sorted((at, key) for key, at in hits.items())
    # «какой потолок неустойки, если они сорвут сроки поставки?»: the condition names
    # what happens, the main clause what is asked
    condition = _condition(lemmas, words)
    # «сколько перечислить с учётом зачёта обеспечительного платежа»: what the figure
    # takes into account is not what is asked
    found = [(at, key) for at, key in found if at not in _inside(lemmas, _QUALIFYING)]
    asked = [(at, key) for at, key in found if at not in condition]
    return asked or found


_OWN_FIELDS = frozenset({"signed", "number"})
_CONDITIONS = ("если", "в случае", "при условии")
_QUALIFYING = ("с учётом", "без учёта", "за вычетом", "за исключением", "помимо", "кроме")
_CLAUSE_ENDS = frozenset({",", "?", ".", ";", "—"})


def _condition(lemmas: Sequence[str], words: Sequence[str] = ()) -> set[int]:
    """Positions of the question's conditional clauses («если …» up to its comma) and of
    the breach a sanction is charged for (:func:`_breach`)."""
    return _inside(lemmas, _CONDITIONS) | _breach(lemmas, words)


_BREACH_ENDS = _CLAUSE_ENDS | QUESTION_WORDS | {"и"}


def _participle_follows(words: Sequence[str], comma: int) -> bool:
    """A participial phrase follows the comma («за каждый документ, не представленный в
    срок»): it goes on naming the breach."""
    at = comma + 1
    if at < len(words) and words[at].lower() == "не":
        at += 1
    return at < len(words) and "PRTF" in best_parse(words[at]).tag


def _breach(lemmas: Sequence[str], words: Sequence[str] = ()) -> set[int]:
    """Positions of the breach after a sanction's noun («штраф налоговому агенту за
    неперечисление налога в срок»: «срок» names the breach, not a term asked): from the
    first «за» after the noun up to the clause's end, the next question word or «и» (what
    follows «и» may be asked beside the sanction: «неустойка за просрочку и ограничение»);
    a participial phrase after a comma goes on («за документ, не представленный в срок»)
    when the question's ``words`` align with its lemmas."""
    aligned = len(words) == len(lemmas)
    inside: set[int] = set()
    for at, lm in enumerate(lemmas):
        if lm not in SANCTIONS:
            continue
        for i in range(at + 1, len(lemmas)):
            if lemmas[i] in _CLAUSE_ENDS or lemmas[i] in QUESTION_WORDS:
                break
            if lemmas[i] == BREACH:
                end = i
                while True:
                    end = next(
                        (j for j in range(end + 1, len(lemmas)) if lemmas[j] in _BREACH_ENDS),
                        len(lemmas),
                    )
                    if not (aligned and end < len(lemmas) and lemmas[end] == ","):
                        break
                    if not _participle_follows(words, end):
                        break
                inside.update(range(i, end))
                break
    return inside


def _inside(lemmas: Sequence[str], cues: Sequence[str]) -> set[int]:
    """Positions from each cue up to the end of its clause."""
    inside: set[int] = set()
    for cue in cues:
        at = find_cue(lemmas, cue)
        while at >= 0:
            end = next((i for i in range(at + 1, len(lemmas)) if lemmas[i] in _CLAUSE_ENDS), None)
            end = len(lemmas) if end is None else end
            inside.update(range(at, end))
            at = find_cue(lemmas, cue, end)
    return inside


# the answer type a document field of each kind states
_FIELD_ANSWER: dict[str, AnswerType] = {
    "amount": "amount",
    "rate": "rate",
    "date": "date",
    "term": "period",
}
_WEAK = 1  # «какие» alone: a cue that only says some value is asked


def _strongest(lemmas: Sequence[str]) -> int:
    return max((c.strength for c in ANSWER_CUES if find_cue(lemmas, c.phrase) >= 0), default=0)


def _field_type(lemmas: Sequence[str], words: Sequence[str] = ()) -> AnswerType | None:
    """The type a part asks by its document field alone: «какой аванс», «какой НДС в ней
    указан» ask only «какой» (a cue that some value is asked) and name a field."""
    if _strongest(lemmas) > _WEAK:
        return None
    head = _head_type(lemmas, words, _asking_clause(lemmas))
    if head is not None:
        return head[2]
    for _, key in _fields(lemmas, words):
        kind = FIELDS_BY_KEY[key].kind if key in FIELDS_BY_KEY else None
        if kind in _FIELD_ANSWER:
            return _FIELD_ANSWER[kind]
    return None


def _with_parts(
    answer_types: list[AnswerType],
    parts: Sequence[AskedPart],
    lemmas: Sequence[str] = (),
    words: Sequence[str] = (),
) -> list[AnswerType]:
    """The types asked, with those parts ask by their field alone: «какой аванс и в какой
    срок его внести?» asks the amount first, though only «срок» is a cue of a type; so
    does a question of one part («какой оклад у бариста?» asks an amount)."""
    by_field = [t for p in parts if (t := _field_type(p.own)) is not None]
    first = _field_type(parts[0].own) if parts else _field_type(lemmas, words)
    if first is None or first in answer_types:
        extra = [t for t in dict.fromkeys(by_field) if t not in answer_types]
        return [*answer_types, *extra]
    known = [t for t in answer_types if t != "unknown"]
    return list(dict.fromkeys([first, *known, *by_field]))


# a physical quantity measured in one unit whatever the document: «какая площадь офиса»
# asks square metres (a sum of money is never an area)
_MEASURED = {"площадь": "метр"}


def _asked_unit(lemmas: Sequence[str], first: Sequence[str] | None = None) -> str | None:
    """The unit of measure right after «сколько» («сколько квадратных метров», «на
    сколько тонн»): a count in that unit is asked; so does «какой» before the noun of a
    physical quantity («какая площадь», «какова общая площадь») in the ``first`` part
    (the whole question when it asks one thing: «Сколько без НДС … и какой площади
    стенд?» asks a sum first)."""
    asking = lemmas if first is None else first
    for i, lm in enumerate(asking):
        if lm in ("какой", "каков", "каковой") and i + 1 < len(asking):
            nouns = [n for n in asking[i + 1 : i + 1 + HEAD_REACH] if n in _MEASURED]
            if nouns:
                return _MEASURED[nouns[0]]
    at = find_cue(lemmas, "сколько")
    while at >= 0:
        j = at + 1
        if j < len(lemmas) and lemmas[j] in DIMENSIONS:
            j += 1
        if j < len(lemmas) and lemmas[j] in SYMBOLS:
            return lemmas[j]
        at = find_cue(lemmas, "сколько", at + 1)
    return None


_VALUE_PARTS = frozenset({"rate", "amount", "limit", "period", "date"})


def _part_words(parts: Sequence[AskedPart], analysed: Analysed) -> list[list[str]]:
    """Each part's words as written (the parts are consecutive slices of the question's
    lemmas), so its head noun's number can be read; no words where they do not align."""
    lemmas = [lemma for sentence in analysed.sentences for lemma in sentence.lemmas]
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    found: list[list[str]] = []
    at = 0
    for part in parts:
        n = len(part.own)
        start = next(
            (i for i in range(at, len(lemmas) - n + 1) if lemmas[i : i + n] == part.own), -1
        )
        if start < 0 or len(words) != len(lemmas):
            found.append([])
            continue
        found.append(words[start : start + n])
        at = start + n
    return found


def _part_type(part: AskedPart, words: Sequence[str]) -> AnswerType:
    return _field_type(part.own, words) or _answer_types(part.own, [], None, words)[0]


def _typed_parts(analysed: Analysed) -> list[AskedPart]:
    """The asked parts, each with the answer type its own words ask (an elliptic part
    («А за отказ…?») asks what the part before it asked)."""
    parts = asked_parts(analysed)
    for i, (part, words) in enumerate(zip(parts, _part_words(parts, analysed), strict=True)):
        kind = _part_type(part, words)
        elliptic = kind == "unknown" and i > 0 and part.own[:1] in (["а"], ["и"])
        part.answer_type = parts[i - 1].answer_type if elliptic else kind
    if parts:
        return parts
    # «какой лимит … и ставки налога?»: a coordinated noun phrase is a part of its own
    # when its own words ask a value
    coordinated = coordinated_parts(analysed)
    for part, words in zip(coordinated, _part_words(coordinated, analysed), strict=True):
        part.answer_type = _part_type(part, words)
    if coordinated and elliptic_case(coordinated[-1]):
        # «… в пределах базы и сверх неё?»: another case of the first part's ask
        coordinated[-1].answer_type = coordinated[0].answer_type
    if coordinated and coordinated[-1].answer_type in _VALUE_PARTS:
        return coordinated
    return []


# the types a later part asks that do not lead a question whose first part asks a sum
_AFTER_A_SUM = frozenset({"date", "yes_no"})


def _outside_yes_no(
    parts: Sequence[AskedPart], size: int, found: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    """``found`` (position, key) without those inside a later yes/no part (the parts run
    to the question's end, ``size`` lemmas)."""
    spans = []
    end = size
    for part in reversed(parts[1:]):
        start = end - len(part.own)
        if part.answer_type == "yes_no":
            spans.append(range(start, end))
        end = start
    return [(at, key) for at, key in found if not any(at in span for span in spans)]


def build_question(
    text: str, today: date | None = None, cards: Sequence[DocumentCard] = ()
) -> Question:
    """``today`` defaults to today in Moscow; ``cards`` are the user's document cards."""
    today = today or moscow_today()
    analysed = analyse(text)
    lemmas = [lemma for sentence in analysed.sentences for lemma in sentence.lemmas]
    words = [token.text for sentence in analysed.sentences for token in sentence.tokens]
    fields = _fields(lemmas, words if len(words) == len(lemmas) else [])
    taxes = sorted(
        (min(positions), tax.key)
        for tax in TAXES
        if (
            positions := _positions(lemmas, tax.cues)
            + _compound_positions(words, tax.cues)
            + _form_positions(words, tax.cues)
        )
    )
    when = as_of(analysed, today)
    identifiers = identifiers_in(analysed)
    numbers = [i.value for i in identifiers if i.label == "number"]
    numbers += [token for token in lemmas if any(ch.isdigit() for ch in token)]
    parts = _typed_parts(analysed)
    answer_types = _with_parts(
        _answer_types(
            lemmas, fields, _stated(analysed), words if len(words) == len(lemmas) else []
        ),
        parts,
        lemmas,
        words if len(words) == len(lemmas) else [],
    )
    if parts and parts[0].answer_type == "amount":
        # «Сколько стоит … и нужно ли начислять НДС?»: a yes/no part after a sum asks
        # whether, not a value; its «НДС» is neither the field nor the tax of the sum
        fields, taxes = (
            _outside_yes_no(parts, len(lemmas), fields),
            _outside_yes_no(parts, len(lemmas), taxes),
        )
        if answer_types[0] in _AFTER_A_SUM and any(
            p.answer_type == answer_types[0] for p in parts[1:]
        ):
            # «Сколько … и до какого числа?», «Сколько стоит … и облагается ли …?»: the
            # first part's sum leads, the date or the yes/no follows
            answer_types = ["amount", *(t for t in answer_types if t != "amount")]
    if _elided_date_at(lemmas, words) >= 0:
        # «уведомление по авансу за 9 месяцев до какого сдать?»: the first thing asked is
        # a date, whatever the field or period the question names
        answer_types = list(dict.fromkeys(["date", *answer_types]))
    unit = _asked_unit(lemmas, parts[0].own if parts else None)
    if unit and answer_types[0] in ("procedure", "unknown"):
        # «какая площадь офиса»: a count in the unit is asked, not a procedure
        answer_types = list(dict.fromkeys(["amount", *answer_types[1:]]))
    aligned = words if len(words) == len(lemmas) else []
    head = _asked_head(lemmas, aligned, answer_types[0]) if aligned else None
    # «какие суточные»: a plural-only value is one value, not several
    several = any(plural_interrogative(word) for word in words) and head is None
    revision = asked_revision(lemmas)
    attributes = asked_attributes(words, lemmas) if len(words) == len(lemmas) else []
    asked = frozenset(lm for a in attributes for lm in (a.head, *a.lemmas))
    years = period_years(analysed)
    record = asks_of_record(lemmas, words)
    acted = record[3] or done_in_passive(asked_clause_words(lemmas, words))
    documents = named_documents(lemmas, text, numbers, cards, asked, years)
    # the date it was signed, its number are a document's own, whatever amends it
    if not {key for _, key in fields} & _OWN_FIELDS:
        documents = with_revisions(documents, cards, revision)
    return Question(
        text=text,
        answer_type=answer_types[0],
        answer_types=answer_types,
        taxes=[key for _, key in taxes],
        fields=[key for _, key in fields],
        as_of=when.value,
        as_of_source=when.source,
        asked_on=today,
        lemmas=lemmas,
        topic=[lemma for lemma in lemmas if lemma.isalpha() and lemma not in STOP_LEMMAS],
        money=money_in(analysed),
        percents=percents_in(analysed),
        periods=periods_in(analysed),
        dates=dates_in(analysed),
        months=[m for m in months_in(analysed) if m.year is not None],
        years=years_in(analysed),
        identifiers=identifiers,
        organisations=organisations_in(analysed),
        documents=documents,
        revision=revision,
        attributes=attributes,
        names=proper_names([[t.text for t in sentence.tokens] for sentence in analysed.sentences]),
        several=several,
        head=head,
        open_head=_open_head(lemmas, aligned, answer_types[0]) if aligned else None,
        parts=parts,
        unit=unit,
        of_record=record[0],
        own_act=record[1],
        own_asked=record[2],
        done=record[3],
        realised=acted and asks_realised(lemmas),
        event=acted and answer_types[0] in _EVENT_VALUES and asks_event(lemmas),
        polar=asks_polar(text, lemmas, aligned),
    )
