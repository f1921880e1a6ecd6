"""A deadline or пени question read once: its words as canonical lemmas, which of them the
question denies, which part asks, and the days it names.

Tokens and sentences come from razdel, lemmas and parts of speech from pymorphy3
(:mod:`finagent.language`); the words are then read through the lexicon
(data/calc_lexicon.yaml). Cue phrases are matched on these words, unordered within a short
window of one sentence: «требование о представлении документов» and «документы по
требованию представить» both hold «требование представить документ».
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache, cached_property

from finagent.language.countries import country_of_adjective
from finagent.language.dates import days_in
from finagent.language.lemmas import grammatical_case, part_of_speech
from finagent.language.numbers import is_digits
from finagent.language.spans import DayMention
from finagent.language.text import Analysed, analyse
from finagent.legal.calc_lexicon import (
    canonical as canonical_phrase,
)
from finagent.legal.calc_lexicon import (
    canonical_spans,
    document_names,
    lexicon,
    phrases,
    readings,
    word_set,
)
from finagent.legal.periods import procedural_periods

# parts of speech that carry no meaning of a situation (prepositions, conjunctions, particles)
_FUNCTION = frozenset({"PREP", "CONJ", "PRCL", "INTJ"})
_VERBS = frozenset({"VERB", "INFN", "PRTS", "PRTF", "GRND"})
_NOUN_GROUP = frozenset({"NOUN", "ADJF", "PRTF", "NUMR", "ADJS"})
_QUOTES = frozenset({"«", "»", '"', "'", "„", "“", "”"})
_NOT_NAMING = frozenset({"NPRO", "ADVB", "PRED", "NUMR", "COMP"})
_CONTRAST = frozenset({"а", "но", "однако"})
_JOIN = frozenset({"и", "или", "либо"})
# how far a cue's words may lie apart (content words) beyond the cue's own length
_WINDOW = 3
CUE_WINDOW = _WINDOW
_TERM_WINDOW = 0
_HEADS = frozenset({"NOUN", "VERB", "INFN", "PRTS"})
_BACK_GROUP = 6


def content_lemma(lemma: str, pos: str | None) -> bool:
    """Whether a lemma can name a situation: a word or a number, not punctuation or a
    function word (negators count: cues may hold them)."""
    if not any(ch.isalnum() for ch in lemma):
        return False
    return pos not in _FUNCTION or lemma in word_set("negators")


def content_phrase(lemmas: Sequence[str], prepositions: bool = False) -> tuple[str, ...]:
    """The lemmas of a cue that are matched: its content words («дополнение к акту» is
    «дополнение акт»); with ``prepositions``, a word a preposition governs keeps it as
    «к:акт» (a term: «документы о контрагенте» is not «договоры с контрагентами»)."""
    out: list[str] = []
    before: str | None = None
    for lemma in lemmas:
        pos = part_of_speech(lemma)
        if content_lemma(lemma, pos):
            out.append(f"{before}:{lemma}" if prepositions and before else lemma)
            before = None
        elif pos == "PREP":
            before = lemma
    return tuple(out)


@dataclass
class Word:
    """One token of the question after the lexicon (a phrase read as one concept keeps
    the offsets of the tokens it replaced)."""

    lemma: str
    text: str
    raw: str  # the lemma before the lexicon («прислать», read as «получить»)
    start: int
    end: int
    sentence: int
    pos: str | None
    case: str | None = None  # pymorphy3's most probable case of the written word
    forms: frozenset[str] = frozenset()  # every reading's lemma, read through the lexicon
    day: int | None = None  # the index of the day mention the token belongs to
    negated: bool = False
    asked: bool = False
    frame: bool = False  # in the frame of the question («в рамках камеральной проверки»)
    event: bool = False  # the verb of a dated event («вручено 7 апреля»): story, not asked

    @property
    def content(self) -> bool:
        """A word that can name a situation: not punctuation, a number, a date or a
        function word (negators count: cues may hold them)."""
        if self.day is not None:
            return False
        return content_lemma(self.lemma, self.pos)


@dataclass
class CalcText:
    """The question, its words and days, and where the asking part is."""

    text: str
    words: list[Word]
    days: list[DayMention]
    analysed: Analysed
    asked_from: int = 0  # index of the first word of the asking part
    asks: bool = False  # whether an asking phrase was found at all
    asking_phrases: tuple[tuple[int, int], ...] = ()  # (first word, size) of each one
    head: int | None = None  # the asked action: the first naming verb (or noun) asked
    # a party the speaker speaks as («наш банк») when no first-person pronoun stands for
    # it: its noun's lemma and the word naming it; the actor of an asked action with none
    speaker_party: dict[str, int] = field(default_factory=dict)

    @cached_property
    def content(self) -> list[int]:
        """Indices of the content words."""
        return [i for i, w in enumerate(self.words) if w.content]

    def lemmas(self, indices: Iterable[int] | None = None) -> list[str]:
        chosen = range(len(self.words)) if indices is None else indices
        return [self.words[i].lemma for i in chosen]

    def find(
        self, phrase: Sequence[str], *, ordered: bool = False, window: int | None = None
    ) -> set[int] | None:
        """The words that hold ``phrase``: its lemmas within a short window of one sentence
        (in its order when ``ordered``). A phrase without a negator sees only words the
        question does not deny; one with a negator («без суда», «вне проверки») sees all."""
        found = self.match(phrase, ordered=ordered, loose=False, window=window)
        return found[0] if found else None

    def match(
        self,
        phrase: Sequence[str],
        *,
        ordered: bool = False,
        loose: bool = True,
        window: int | None = None,
    ) -> tuple[set[int], bool] | None:
        """Like :meth:`find`, and, when ``loose``, also the phrase's words anywhere in the
        question when the asking part holds its first word (a cue whose object is a
        pronoun: «Акт получен 10.03. Когда его вручат?» holds «вручить акт»): the match
        with most words in the asking part wins, then a tight one.
        Returns the words and whether they lie within one window."""
        if not phrase:
            return None
        negators = word_set("negators")
        sees_denied = any(lemma.split(":")[-1] in negators for lemma in phrase)
        visible = [i for i in self.content if sees_denied or not self.words[i].negated]
        if sees_denied:  # «уточненку не подавали» denies the updated declaration only
            visible = [i for i in visible if not self._narrowed(i, phrase)]
        by_sentence: dict[int, list[int]] = {}
        for i in visible:
            by_sentence.setdefault(self.words[i].sentence, []).append(i)
        # a term («решение о взыскании») allows only adjectives between its words, a cue
        # three words
        if window is None:
            window = _TERM_WINDOW if ordered else _WINDOW
        strict = _closest(
            self.words, by_sentence.values(), phrase, ordered and window == _TERM_WINDOW, window
        )
        spread = (
            _closest(self.words, [visible], phrase, ordered, window=None)
            if loose and len(phrase) > 1
            else None
        )
        if spread is not None and not self._asks_for(spread, phrase):
            spread = None
        if spread is not None and (strict is None or self._asked(spread) > self._asked(strict)):
            return spread, False
        if strict is None:
            return self._implied_actor(phrase, ordered=ordered, window=window)
        return strict, True

    def _implied_actor(
        self, phrase: Sequence[str], *, ordered: bool, window: int | None
    ) -> tuple[set[int], bool] | None:
        """A phrase opening with the party the speaker speaks as («банк сообщить») whose
        action the asking part holds with no actor of its own: «Наш банк открыл счет …
        Когда крайний срок для сообщения?» (the speaker's party is the actor left out)."""
        party = self.speaker_party.get(phrase[0])
        if party is None or len(phrase) < 2:
            return None
        rest = self.match(phrase[1:], ordered=ordered, loose=False, window=window)
        if rest is None and len(phrase) == 2 and self.head is not None:
            # «срок для уведомления налоговой»: a document's noun asked as the action
            verbs: dict[str, str] = lexicon()["action_nouns"]
            verb = verbs.get(self.words[self.head].lemma)
            if verb is not None and canonical_phrase(verb) == (phrase[1],):
                rest = ({self.head}, True)
        if rest is None or not all(self.words[i].asked for i in rest[0]):
            return None
        actors = word_set("actors")
        if any(
            w.asked
            and w.case == "nomn"
            and w.lemma in actors
            and not (k and self.words[k - 1].pos == "PREP")  # «сообщить в ИФНС»
            for k, w in enumerate(self.words)
        ):
            return None  # «когда инспекция должна сообщить»: another actor is named
        return rest[0] | {party}, True

    def _narrowed(self, i: int, phrase: Sequence[str]) -> bool:
        """Whether word ``i`` is qualified by a narrowing word the phrase does not hold
        (lexicon ``narrowing``: «уточненная декларация», «уточненка»): a denial of the
        narrower thing is not a denial of the wider one the phrase names."""
        narrowing = word_set("narrowing") - {lemma.split(":")[-1] for lemma in phrase}
        word = self.words[i]
        same = [w for w in self.words if w.start == word.start and w is not word]
        previous = self.words[i - 1] if i else None
        if previous is not None and previous.pos in ("ADJF", "PRTF"):
            same.append(previous)
        return any(w.lemma in narrowing for w in same)

    def _asks_for(self, spread: set[int], phrase: Sequence[str]) -> bool:
        """Whether a phrase spread over the question is what it asks: its first word is in
        the asking part, and the object that word governs there is a pronoun («его
        вручить») or the phrase's own noun, not another noun («подать уведомление» is
        not «представить документ» told in the story)."""
        for i in spread:
            if not (self.words[i].asked and self.words[i].lemma == phrase[0]):
                continue
            around = self.words[max(0, i - 3) : i + 3]
            if any(w.pos == "NPRO" and w.asked for w in around):
                return True  # «до какого числа его должны вручить»
            j = i + 1
            while j < len(self.words) and self.words[j].pos in ("PREP", "ADJF", "PRTF"):
                j += 1
            following = self.words[j] if j < len(self.words) else None
            if (
                following is None
                or following.pos != "NOUN"
                or following.lemma in phrase
                or following.case not in ("accs", "nomn", "gent")
            ):
                return True
        return False

    def _asked(self, indices: set[int]) -> int:
        return sum(self.words[i].asked for i in indices)

    def has(self, phrase: Sequence[str]) -> bool:
        return self.find(phrase) is not None

    def before(self, offset: int, count: int) -> list[Word]:
        """The ``count`` words (not punctuation) that end before character ``offset`` in its
        sentence, nearest last."""
        ahead = [w for w in self.words if w.end <= offset and any(ch.isalnum() for ch in w.text)]
        if not ahead:
            return []
        sentence = ahead[-1].sentence
        return [w for w in ahead if w.sentence == sentence][-count:]

    def day_words(self, day: int) -> tuple[int, int]:
        """The first and last word index of day mention ``day``."""
        indices = [i for i, w in enumerate(self.words) if w.day == day]
        return indices[0], indices[-1]


def _is(words: list[Word], i: int, wanted: str) -> bool:
    """Whether word ``i`` is ``wanted``: a lemma of one of its readings («наличными» is
    «наличные» and «наличный»), or «о:контрагент» (that lemma right after that
    preposition)."""
    preposition, _, lemma = wanted.rpartition(":")
    if words[i].lemma != lemma and lemma not in words[i].forms:
        return False
    if not preposition:
        return True
    # «о нашем контрагенте», «в другом ООО», «(информации) о контрагенте»: the preposition
    # within two words before, no other preposition between
    j, seen = i - 1, 0
    while j >= 0 and seen <= 2:
        if words[j].lemma == preposition:
            return True
        if words[j].pos == "PREP" or (_breaks(words[j]) and words[j].text not in "()"):
            return False
        seen += words[j].text not in "()"
        j -= 1
    return False


def _closest(
    words: list[Word],
    groups: Iterable[list[int]],
    phrase: Sequence[str],
    ordered: bool,
    window: int | None = _WINDOW,
) -> set[int] | None:
    """The best set of word indices, within one of ``groups``, holding every lemma of
    ``phrase`` (within ``len(phrase) - 1 + window`` content words unless ``window`` is
    None): the one with most words in the asking part, then the tightest."""
    best: set[int] | None = None
    best_key = (0, 0)
    for indices in groups:
        order = {i: n for n, i in enumerate(indices)}
        spots = [[i for i in indices if _is(words, i, lemma)] for lemma in phrase]
        if not all(spots):
            continue
        for anchor in spots[0]:
            chosen = [anchor]
            for options in spots[1:]:
                if ordered:
                    options = [i for i in options if order[i] > order[chosen[-1]]]
                free = [i for i in options if i not in chosen]
                if not free:
                    break
                near = min(abs(order[i] - order[anchor]) for i in free)
                nearest = [i for i in free if abs(order[i] - order[anchor]) == near]
                chosen.append(max(nearest, key=lambda i: words[i].asked))
            else:
                span = max(order[i] for i in chosen) - min(order[i] for i in chosen)
                if ordered:  # a term: adjectives may stand between its words, nouns not
                    inside = range(min(order[i] for i in chosen), max(order[i] for i in chosen))
                    span = (
                        len(phrase)
                        - 1
                        + sum(
                            1
                            for n in inside
                            if indices[n] not in chosen and words[indices[n]].pos in _HEADS
                        )
                    )
                if window is not None and span > len(phrase) - 1 + window:
                    continue
                key = (-sum(words[i].asked for i in chosen), span)
                if best is None or key < best_key:
                    best, best_key = set(chosen), key
    return best


def read_question(text: str) -> CalcText:
    """The question read once: words, denials, the asking part and the days."""
    folded = text.replace("ё", "е").replace("Ё", "Е")
    analysed = analyse(folded)
    days = sorted([*days_in(analysed), *_short_days(analysed)], key=lambda d: d.start)
    words: list[Word] = []
    for n, sentence in enumerate(analysed.sentences):
        raw = sentence.tokens
        lemmas = [_FOREIGN if country_of_adjective(t.text) else t.lemma for t in raw]
        for first, after, canonical in canonical_spans(lemmas):
            start, end = raw[first].start, raw[after - 1].end
            written = folded[start:end]
            for lemma in canonical:
                single = after - first == 1 and len(canonical) == 1
                # «О продлении»: a capital letter alone is no abbreviation
                pos = part_of_speech(written if len(written) > 1 else written.lower())
                raw_lemma = " ".join(lemmas[first:after])
                words.append(
                    Word(
                        lemma,
                        written,
                        raw_lemma,
                        start,
                        end,
                        n,
                        pos if single else part_of_speech(lemma),
                        grammatical_case(written) if single else None,
                        _names_of(readings(written) | {lemma} if single else {lemma}),
                    )
                )
    for index, day in enumerate(days):
        for w in words:
            if day.start <= w.start and w.end <= day.end:
                w.day = index
    _split_after_abbreviations(words)
    _mark_grants(words)
    _mark_speaker_workplace(words)
    party = _mark_speaker_role(words)
    out = CalcText(folded, words, days, analysed, speaker_party=party)
    _mark_denied(out)
    _mark_asked(out)
    _mark_frames(out)
    _mark_events(out)
    return out


def _short_days(analysed: Analysed) -> list[DayMention]:
    """Days written «ДД.ММ» without a year («направила 18.02», «закончился 31.12»): two
    digits on each side, a real day of the month, no point or article word before it
    («п. 10.12») and no unit after it («12.50 руб.»). The year is the reader's
    (question_days.py)."""
    before, after = word_set("not_day_before"), word_set("not_day_after")
    found: list[DayMention] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            parts = token.text.rstrip(",.;:").split(".")
            if len(parts) != 2 or not all(len(p) == 2 and is_digits(p) for p in parts):
                continue
            back = [t.lemma for t in tokens[max(0, i - 2) : i] if t.text != "."]
            nxt = tokens[i + 1].lemma if i + 1 < len(tokens) else ""
            if (back and back[-1] in before) or nxt in after:
                continue
            try:
                date(2000, int(parts[1]), int(parts[0]))  # 29.02: a leap year's day
            except ValueError:
                continue
            located = sentence.located(i, i)
            found.append(DayMention(**located, day=int(parts[0]), month=int(parts[1]), year=None))
    return found


_SPEAKERS = frozenset({"я", "мы"})
_WORKING = frozenset({"работать", "трудиться", "служить"})


def _mark_speaker_workplace(words: list[Word]) -> None:
    """«Я работаю в банке. … мы обязаны сообщить»: the speaker speaks for the place he
    works at, so a first-person pronoun of another sentence is read as that place too
    (its noun joins the pronoun's forms) and a cue «банк сообщить» finds «мы сообщить»."""
    places: set[str] = set()
    for k, w in enumerate(words):
        if w.lemma not in _WORKING or w.negated:
            continue
        ahead = words[k + 1 : k + 4]
        for j, v in enumerate(ahead[:-1]):
            if v.lemma in ("в", "на") and ahead[j + 1].pos == "NOUN":
                if ahead[j + 1].sentence == w.sentence:
                    places.add(ahead[j + 1].lemma)
                break
    if not places:
        return
    for w in words:
        if w.lemma in _SPEAKERS:
            w.forms = w.forms | places


_POSSESSIVES = frozenset({"наш", "мой"})
_FROM = frozenset({"от", "из"})
_LINKS = frozenset({"—", "–", "-", ",", "как", "являться", "быть", "тоже", "же"})


@cache
def _bearer_nouns() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(the noun the cues use, a phrase naming the party) for each party that bears a
    duty of the period table other than the taxpayer (its ``bearer``)."""
    bearers = {row.bearer for row in procedural_periods()}
    named: dict[str, list[str]] = lexicon()["bearer_nouns"]
    return tuple(
        (canonical_phrase(str(nouns[0]))[-1], canonical_phrase(str(noun)))
        for bearer, nouns in named.items()
        if bearer in bearers
        for noun in nouns
    )


def _mark_speaker_role(words: list[Word]) -> dict[str, int]:
    """«Вопрос от банка: … мы обязаны сообщить», «Мы — банк», «наш банк открыл счет», «я
    юрист банка», «как агент мы удержали»: the speaker speaks as a party that bears duties
    of its own (a row's ``bearer``), named anywhere in the question, so its first-person
    pronouns take that party's noun and the actor cues («банк сообщить») find the speaker.
    Not when the party acts on the speaker («банк открыл нам счет», «от банка пришло»).
    Without a first-person pronoun the party's noun and the word naming it are returned:
    the actor an asked action leaves out (``CalcText.speaker_party``)."""
    speakers = [w for w in words if w.lemma in _SPEAKERS]
    lemmas = [w.lemma for w in words]
    roles: dict[str, int] = {}
    for noun, phrase in _bearer_nouns():
        for i in range(len(words) - len(phrase) + 1):
            if tuple(lemmas[i : i + len(phrase)]) == phrase and _speaks_as(words, i):
                roles.setdefault(noun, i + len(phrase) - 1)
    if not speakers:
        return roles
    for w in speakers:
        w.forms = w.forms | set(roles)
    return {}


def _speaks_as(words: list[Word], i: int) -> bool:
    """Whether the party named at ``i`` is the speaker: a possessive («наш банк», «у нас в
    банке», «у себя в банке»), a first-person subject linked to it («мы — банк», «мы как
    банк», «как агент мы»), a sender («Вопрос от банка», «пишу из банка», «от имени
    банка») or a staff noun («сотрудник банка»); and it does not act on the speaker in its
    sentence (a first-person pronoun in an oblique case, a verb of receipt after «от»)."""
    sentence = [w for w in words if w.sentence == words[i].sentence]
    at = sentence.index(words[i])
    oblique = any(
        w.lemma in _SPEAKERS
        and w.case not in (None, "nomn")
        and (k == 0 or sentence[k - 1].lemma != "у")
        for k, w in enumerate(sentence)
    )
    if oblique or words[i].negated:
        return False
    before = [w.lemma for w in sentence[max(0, at - 3) : at]]
    prev = before[-1] if before else ""
    if prev in _POSSESSIVES or before[-3:] in (["у", "мы", "в"], ["у", "себя", "в"]):
        return True
    subject = [
        k
        for k in range(max(0, at - 3), at)
        if sentence[k].lemma in _SPEAKERS
        and sentence[k].case == "nomn"
        and all(w.lemma in _LINKS for w in sentence[k + 1 : at])
    ]
    if subject:
        return True
    if prev == "как":
        return any(w.lemma in _SPEAKERS and w.case == "nomn" for w in sentence)
    if prev == "имя" and len(before) > 1:
        prev = before[-2]
    if prev in _FROM:
        receipt = word_set("receipt_verbs")
        return not any(w.lemma in receipt for w in sentence)
    return prev in word_set("staff_nouns") and words[i].case == "gent"


def _names_of(forms: frozenset[str] | set[str]) -> frozenset[str]:
    """A word's readings with every other name of the document it names («запрос» is
    read as «требование» too)."""
    return frozenset(name for form in forms for name in document_names(form))


_FOREIGN = "иностранный"  # «кипрская компания» is a foreign organisation to the Code


_PERIOD_NOUNS = frozenset({"срок", "время", "день", "неделя", "месяц", "год"})


def _mark_grants(words: list[Word]) -> None:
    """«дают 10 дней», «дали месяц»: a verb that grants a period is not a filing («дать
    пояснения» still is «представить»)."""
    grants = word_set("grants")
    for i, w in enumerate(words):
        if w.raw not in grants:
            continue
        following = [x for x in words[i + 1 : i + 4] if x.content]
        if following and any(x.lemma in _PERIOD_NOUNS for x in following[:2]):
            w.lemma = w.raw
            w.forms = frozenset({w.raw})


def _mark_events(text: CalcText) -> None:
    """The verb right next to a date tells what happened that day («дополнение вручено
    7 апреля», «акт, полученный 10.03»): the story's event, even inside the asking part."""
    words = text.words
    for k in range(len(text.days)):
        first, last = text.day_words(k)
        for j in (first - 1, last + 1):
            if 0 <= j < len(words) and words[j].pos in _VERBS:
                words[j].event = True


def _mark_frames(text: CalcText) -> None:
    """The noun group after «в рамках», «в ходе», «при», «по итогам»: the frame a question
    sets («в рамках выездной проверки»), not what it asks; and a genitive that qualifies
    the noun before it («акт выездной проверки»: the act, of a field audit)."""
    words = text.words
    for k in range(1, len(words)):
        w, before = words[k], words[k - 1]
        if w.case == "gent" and w.pos in _NOUN_GROUP and before.pos in _NOUN_GROUP:
            if before.pos == "NOUN" or before.frame:
                w.frame = True
    lemmas = [w.lemma for w in words]
    for frame in phrases("frames"):
        size = len(frame)
        for i in range(len(lemmas) - size + 1):
            if tuple(lemmas[i : i + size]) != frame:
                continue
            j = i + size
            while j < len(words) and not _breaks(words[j]):
                w = words[j]
                if w.pos not in _NOUN_GROUP and w.pos != "PREP":
                    break
                w.frame = True
                j += 1
                if w.pos == "NOUN" and (j >= len(words) or words[j].case != "gent"):
                    break


def _split_after_abbreviations(words: list[Word]) -> None:
    """razdel keeps «... 2025 г. До какого числа ...» in one sentence (an abbreviation's
    dot); a dot followed by a capital letter ends a sentence here. The other way round,
    razdel ends a sentence after an abbreviation it does not know («по подп. 3 п. 2 ст. 23»):
    a dot after a short lower-case word followed by a digit or a lower-case word does not
    end one."""
    shift = 0
    for k, w in enumerate(words):
        w.sentence += shift
        following = words[k + 1] if k + 1 < len(words) else None
        if w.text != "." or following is None:
            continue
        if following.sentence + shift == w.sentence and following.text[:1].isupper():
            shift += 1
        elif (
            following.sentence + shift > w.sentence
            and k > 0
            and _abbreviation(words[k - 1].text)
            and (following.text[:1].isdigit() or following.text[:1].islower())
        ):
            shift -= 1


def _abbreviation(text: str) -> bool:
    """A short lower-case word that may be cut with a dot («подп», «абз», «руб»)."""
    return 1 <= len(text) <= 5 and text.isalpha() and text.islower()


def _verb_like(w: Word) -> bool:
    return w.pos in _VERBS or w.lemma in word_set("auxiliaries") or w.pos == "PRED"


def _breaks(w: Word) -> bool:
    """Punctuation (not quotes), «а», «но», or a date: where a clause ends."""
    punctuation = not any(ch.isalnum() for ch in w.text) and w.text not in _QUOTES
    return punctuation or w.lemma in _CONTRAST or w.day is not None


def _mark_denied(text: CalcText) -> None:
    """Words a negator denies: the verb or noun group after it («не КГН», «без
    дополнения», «не подали возражения»), and, when a clause ends with the denied verb, the
    noun group before it («дополнение к акту не составлялось», «продлений не было»)."""
    words = text.words
    negators = word_set("negators")
    auxiliaries = word_set("auxiliaries")
    for i, w in enumerate(words):
        if w.lemma not in negators:
            continue
        j = i + 1
        if j < len(words) and words[j].lemma in word_set("not_denied"):
            continue  # «не позднее», «не более»: a limit, not a denial
        while (
            j < len(words)
            and (words[j].lemma in auxiliaries or words[j].pos in ("NPRO", "PREP"))
            and not _breaks(words[j])
        ):
            j += 1
        verb_end = j
        if j < len(words) and words[j].pos in _VERBS and not _breaks(words[j]):
            # a denied action: «не будет продлевать камералку» denies the extension, not
            # the audit, so the verb's object stays
            words[j].negated = True
            verb_end = j + 1
        else:
            _deny_group_after(words, j)
        keeps = verb_end > i + 1 and words[verb_end - 1].lemma in word_set("keeps_object")
        if w.lemma == "нет" or (_clause_ends(words, verb_end) and not keeps):
            _deny_group_before(words, i)


def _deny_group_after(words: list[Word], j: int) -> None:
    """The noun group from ``j``: adjectives, prepositions and coordinated words up to and
    including its first noun («камеральной или выездной проверки»), and the nouns
    coordinated with it in its case («без продления и приостановления»; not «без продления,
    но с приостановлением»)."""
    while j < len(words) and not _breaks(words[j]):
        w = words[j]
        if w.pos in ("VERB", "INFN", "GRND") or w.pos == "PRED":
            return
        if w.pos in _NOUN_GROUP or w.pos in ("PREP", "NPRO") or w.lemma in _JOIN:
            w.negated = w.pos not in ("PREP",) and w.lemma not in _JOIN
            if w.pos == "NOUN" and not _coordinated(words, j):
                return
        else:
            return
        j += 1


def _coordinated(words: list[Word], j: int) -> bool:
    """Whether the noun at ``j`` is followed by «и»/«или» and a noun group whose noun is in
    its case («продления и приостановления»)."""
    if j + 1 >= len(words) or words[j + 1].lemma not in _JOIN or words[j].case is None:
        return False
    for w in words[j + 2 : j + 5]:
        if _breaks(w) or w.pos not in _NOUN_GROUP:
            return False
        if w.pos == "NOUN":
            return w.case == words[j].case
    return False


def _clause_ends(words: list[Word], j: int) -> bool:
    """Whether nothing but function words follow ``j`` up to the clause's end."""
    while j < len(words) and not _breaks(words[j]):
        if words[j].content:
            return False
        j += 1
    return True


def _deny_group_before(words: list[Word], i: int) -> None:
    """The noun group ending before ``i``: nouns, adjectives, infinitives («жалобу подавать
    не будем») back to a finite verb, a date or a clause break. A genitive that depends on
    the noun before it stays («продления камеральной проверки не было» denies the
    extension, not the audit)."""
    j = i - 1
    group: list[Word] = []
    while j >= 0 and len(group) < _BACK_GROUP and not _breaks(words[j]):
        w = words[j]
        if w.pos in ("VERB", "PRTS", "GRND") and w.lemma not in word_set("auxiliaries"):
            break
        group.append(w)
        j -= 1
    group.reverse()
    previous: Word | None = None
    for w in group:
        if w.pos == "PREP":
            previous = w
            continue
        if w.lemma in _JOIN:
            previous = None  # «продлений и приостановлений»: both are heads
            continue
        if not w.content:
            continue
        dependent = (
            previous is not None
            and previous.pos in _NOUN_GROUP
            and w.pos in _NOUN_GROUP
            and w.case == "gent"
        )
        if not dependent:
            w.negated = True
        previous = w


def _names(w: Word) -> bool:
    """A word that names what is asked: not an asking word («срок», «последний день»), a
    pronoun or an adverb."""
    return w.content and w.pos not in _NOT_NAMING and w.lemma not in word_set("asking_words")


def _mark_asked(text: CalcText) -> None:
    """The asking part: in the last sentence that asks (an asking phrase, or a question
    mark) and names something, the clause from the asking phrase to the next clause break
    («До какого числа подать возражения, если акт вручен 10.03?» asks about objections),
    else that whole sentence. When no asking sentence names anything («... Подскажите
    точную дату.»), the whole question."""
    words = text.words
    hits = _asking_hits([w.lemma for w in words], words)
    text.asking_phrases = tuple(h for h in hits if h[1])
    if not hits:
        for w in words:
            w.asked = True
        return
    text.asks = True
    sentences = sorted({words[start].sentence for start, _ in hits}, reverse=True)
    for sentence in sentences:
        own = [h for h in hits if words[h[0]].sentence == sentence]
        # an asking phrase, else the question mark (a hit of no words at the start)
        first, size = min([h for h in own if h[1]] or own)
        in_sentence = [i for i, w in enumerate(words) if w.sentence == sentence]
        end = next(
            (
                i
                for i in in_sentence
                if i >= first + size and _clause_break(words[i]) and not _relative(words, i)
            ),
            in_sentence[-1] + 1,
        )
        if sentence != sentences[-1] and (
            _checks_start(words, in_sentence) or _checks_calendar(words, in_sentence)
        ):
            continue  # «Считать от 24 февраля?»: an earlier sentence asks the period
        for start, stop in ((first, end), (in_sentence[0], in_sentence[-1] + 1)):
            named = [i for i in range(start, stop) if i not in range(first, first + size)]
            if any(_names(words[i]) for i in named):
                text.asked_from = start
                for i, w in enumerate(words):
                    w.asked = start <= i < stop
                text.head = _head(words, [i for i in named if _names(words[i])])
                for i in _later_asked_clauses(words, own, stop, in_sentence[-1] + 1):
                    words[i].asked = True
                return
    for w in words:
        w.asked = True


def _checks_start(words: list[Word], sentence: list[int]) -> bool:
    """A sentence that dates a candidate start and names nothing but counting
    («Или считать от 24 февраля?», «Отсчёт с 19.06?»): it checks where a period begins,
    the period asked is named elsewhere."""
    named = [words[i] for i in sentence if _names(words[i])]
    dated = any(words[i].day is not None for i in sentence)
    return dated and all(w.lemma in word_set("count_verbs") for w in named)


def _checks_calendar(words: list[Word], sentence: list[int]) -> bool:
    """A sentence that names nothing but the calendar («Не сдвигают ли его новогодние
    каникулы?», «Праздники учитываются?»): it checks how the days count, the period asked
    is named elsewhere."""
    named = [words[i] for i in sentence if _names(words[i])]
    checks = word_set("calendar_checks")
    calendar = [w for w in named if w.lemma not in word_set("negators")]
    return bool(calendar) and all(w.lemma in checks for w in calendar)


def _later_asked_clauses(
    words: list[Word], hits: list[tuple[int, int]], stop: int, sentence_end: int
) -> list[int]:
    """The words of each later clause of the asking sentence that opens with an asking
    phrase of its own («С какого дня акт считается врученным, и до какого числа подать
    возражения?»: both clauses ask), up to its own clause break."""
    out: list[int] = []
    for first, size in sorted(h for h in hits if h[1] and h[0] >= stop):
        end = next(
            (i for i in range(first + size, sentence_end) if _clause_break(words[i])),
            sentence_end,
        )
        out += range(first, end)
    return out


def _head(words: list[Word], named: list[int]) -> int | None:
    """The asked action: the first naming verb of the asking part (not an aside: «насколько
    понимаю, надо сообщить»; not a verb granting the period: «сколько дней даётся на
    сообщение»), or noun that the
    lexicon reads as a verb («подать возражения», «срок подачи заявления», «для сообщения в
    налоговый орган»), else its first naming noun («срок камеральной проверки»)."""
    auxiliaries = word_set("auxiliaries") | word_set("aside_verbs")
    granting = frozenset(str(verb) for verb in lexicon()["period_granting"])
    actions = [
        i
        for i in named
        if words[i].lemma not in auxiliaries
        and words[i].raw not in granting
        and (words[i].pos in _VERBS or part_of_speech(words[i].lemma) == "INFN")
    ]
    nouns = [
        i for i in named if words[i].pos == "NOUN" and words[i].lemma not in word_set("actors")
    ]
    found = actions or nouns
    return found[0] if found else None


def _relative(words: list[Word], i: int) -> bool:
    """Whether the clause after the break at ``i`` describes what is asked («срок, по
    истечении которого решение вступит в силу»), not the story («если акт вручен …»)."""
    return any(w.lemma == "который" for w in words[i + 1 : i + 4])


def _clause_break(w: Word) -> bool:
    """A comma, semicolon, dash or bracket: where a subordinate clause or an aside begins."""
    return w.text in (",", ";", "(", "—", "–", ":")


# a demonstrative inside an asking phrase points back, it names nothing: «Какой это день?»
# asks as «Какой день?» (and «Какая максимальная дата?» as «Какая дата?», asking_modifiers)
_POINTING = frozenset({"это", "этот"})


def _phrase_span(lemmas: list[str], i: int, phrase: tuple[str, ...]) -> int | None:
    """How many words from ``i`` hold ``phrase`` in order, a demonstrative or a sharpening
    word («какая максимальная дата») between its words allowed, or None."""
    j = i
    skipped = _POINTING | word_set("asking_modifiers")
    for k, wanted in enumerate(phrase):
        if k and j < len(lemmas) and lemmas[j] in skipped and wanted not in skipped:
            j += 1
        if j >= len(lemmas) or lemmas[j] != wanted:
            return None
        j += 1
    return j - i


def _asking_hits(lemmas: list[str], words: list[Word]) -> list[tuple[int, int]]:
    """Where an asking phrase starts and how many words it has (contiguous lemmas), and
    terse question sentences: «Срок подачи возражений?», «Когда камеральная?»."""
    hits: list[tuple[int, int]] = []
    for i in range(len(lemmas)):
        for phrase in phrases("asks_date"):
            span = _phrase_span(lemmas, i, phrase)
            if span is not None:
                hits.append((i, span))
                break
    intent = word_set("asks_intent")
    terse = word_set("asks_terse")
    for sentence in {w.sentence for w in words}:
        indices = [i for i, w in enumerate(words) if w.sentence == sentence]
        question = "?" in words[indices[-1]].text
        if question:  # a question sentence asks as a whole
            hits.append((indices[0], 0))
        for k, i in enumerate(indices):
            # «Когда решение вступит в силу?», «когда у инспекции заканчивается срок»
            ahead = [words[j] for j in indices[k + 1 : k + 5]]
            if words[i].lemma == "когда" and (question or any(w.pos in _VERBS for w in ahead)):
                hits.append((i, 1))
        first = next((i for i in indices if words[i].content), None)
        if question and first is not None and words[first].lemma in terse:
            hits.append((first, 1))  # «Срок исполнения?», «Срок подачи возражений?»
        if question and any(words[i].lemma == "или" for i in indices):
            hits += [  # «это до 28 февраля или до 3 марта?»
                (i, 1)
                for i in indices[:-1]
                if words[i].lemma == "до" and words[i + 1].day is not None
            ]
        # «Хотим подать возражения.»: what the asker means to do, when the question
        # itself names nothing («Последний день?»)
        hits += [(i, 0) for i in indices if words[i].lemma in intent]
    return sorted(set(hits))
