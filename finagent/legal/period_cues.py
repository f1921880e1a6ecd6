"""Which row of the period table a question asks about: lemma cues (data/period_cues.yaml)
ranked by how much of the question they cover, the asking part three times the story.

A row is a candidate when one of its cues is found and every one of its ``when`` groups is;
its score is the question's words its phrases cover, each word of the asking part counting
three, a word of the story before it one. A row that narrows another (``extends``) carries
the other's cues too, so it wins exactly when its own qualifier is there. Rows tied at the
top with different periods are variants; a question that cites a point or article prefers
the rows of that norm. A citation attached to the document the question's event is about
(«требование по ст. 93.1 ..., получено 29.12.2025») gives that article's rows, which win
over rows the story alone names; a citation attached to another noun («состоящая на
учете по п. 4.6 ст. 83») describes the story and decides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from itertools import pairwise
from typing import Any

from finagent.language.lemmas import done, grammatical_case, part_of_speech
from finagent.legal.calc_lexicon import canonical, document_names, lexicon, phrases, word_set
from finagent.legal.calc_text import CUE_WINDOW, CalcText, Word, content_phrase
from finagent.legal.periods import (
    ProceduralPeriod,
    period_by_id,
    period_points,
    procedural_periods,
)
from finagent.legal.question_days import QuestionDay, marked_day
from finagent.legal.references import find_references
from finagent.yaml_data import load_yaml

Phrase = tuple[str, ...]
ASKED_WEIGHT = 3
STORY_WEIGHT = 1
EVENT_WEIGHT = 1.0  # the event told next to a date counts as one asked word of this weight
_TIE = 1e-6
# nouns of an event's wording that name no document: «день», «срок», «дата»
_GENERIC = frozenset({"день", "срок", "дата", "налоговый", "орган", "инспекция"})


@dataclass(frozen=True)
class RowCues:
    id: str  # the reading's name
    row: str  # the row of the period table it reads
    cues: tuple[Phrase, ...]
    when: tuple[tuple[Phrase, ...], ...]
    event: tuple[Phrase, ...]
    heads: frozenset[str] = frozenset()  # the asked actions it answers, when it says
    event_row: str = ""  # the row whose `event` gives the words next to its date
    extends: str | None = None  # the wider reading this one narrows
    condition: tuple[Phrase, ...] = ()  # the circumstance the Code makes the row depend on


@dataclass(frozen=True)
class Candidate:
    row: ProceduralPeriod
    score: float
    covered: frozenset[int]
    asks: bool  # one of its cues names a word of the asking part
    names_head: bool  # one of its cues names the asked action itself
    done: bool = False  # its action is told as done in the story («нам вручили дополнение»)


def _phrases(items: list[Any], terms: bool = False) -> tuple[Phrase, ...]:
    """Cue phrases as canonical lemmas; ``terms`` keep their prepositions («о:контрагент»)."""
    return tuple(p for p in (content_phrase(canonical(str(item)), terms) for item in items) if p)


@cache
def row_cues() -> dict[str, RowCues]:
    """The cues of every row, a narrowing row's with those of the row it extends."""
    raw: dict[str, dict[str, Any]] = load_yaml(
        files("finagent.legal").joinpath("data/period_cues.yaml").read_text("utf-8")
    )

    def resolve(row_id: str, seen: tuple[str, ...] = ()) -> RowCues:
        if row_id in seen:
            raise ValueError(f"period_cues.yaml: {row_id} extends itself")
        data = raw[row_id]
        borrowed = resolve(data["cues_of"], (*seen, row_id)).cues if "cues_of" in data else ()
        own = RowCues(
            row_id,
            data.get("row", row_id),
            tuple(dict.fromkeys((*borrowed, *_phrases(data.get("cues", []))))),
            tuple(_phrases(group, terms=True) for group in data.get("when", [])),
            _phrases(data.get("event", [])),
            frozenset(lemma for p in _phrases(data.get("heads", [])) for lemma in p),
            data.get("row", row_id),
            condition=_phrases(data.get("condition", [])),
        )
        parent_id = data.get("extends")
        if parent_id is None:
            return own
        parent = resolve(parent_id, (*seen, row_id))
        return RowCues(
            row_id,
            own.row,
            tuple(dict.fromkeys((*parent.cues, *own.cues))),
            (*parent.when, *own.when),
            own.event or parent.event,
            own.heads or parent.heads,
            own.event_row if period_by_id()[own.event_row].event else parent.event_row,
            parent_id,
            own.condition or parent.condition,
        )

    return {row_id: resolve(row_id) for row_id in raw}


@cache
def _event_kinds() -> tuple[tuple[str, tuple[Phrase, ...]], ...]:
    kinds: dict[str, list[str]] = lexicon()["event_kinds"]
    return tuple((canonical(k)[0], _phrases(v)) for k, v in kinds.items())


def event_words(row_id: str) -> tuple[Phrase, ...]:
    """The words that stand next to the date of a row's event: its own ``event`` cues, else
    those of the kind its event is («день получения …» → «получили», «вручено»)."""
    own = [c.event for c in row_cues().values() if c.row == row_id and c.event]
    if own:
        return own[0]
    event = canonical(period_by_id()[row_id].event)
    for lemma in event:
        for kind, words in _event_kinds():
            if lemma == kind:
                return words
    return ()


def event_objects(row_id: str) -> tuple[Phrase, ...]:
    """The row's event words with what the event is of («день получения дополнения к акту»
    → «получили дополнение», «дополнение вручено»), tried before the bare words: a date next
    to «вручили акт» is not the one next to «вручили дополнение»."""
    noun = _event_noun(row_id)
    if noun is None:
        return ()
    return tuple((*phrase, noun) for phrase in event_words(row_id) if noun not in phrase)


def _event_noun(row_id: str) -> str | None:
    """The first naming noun of a row's event («день получения дополнения к акту»:
    «дополнение»)."""
    event = content_phrase(canonical(period_by_id()[row_id].event))
    nouns = [lemma for lemma in event if part_of_speech(lemma) == "NOUN" and lemma not in _GENERIC]
    return nouns[0] if nouns else None


def _event_document(row_id: str) -> str | None:
    """The procedure document a row's event is of: the first document its event names
    («день получения поручения об истребовании документов» is of the поручение, not of the
    требование its complement names; «день получения налоговым органом заявления о выдаче
    налогового уведомления» of the заявление, not of the уведомление)."""
    documents = word_set("procedure_documents")
    for lemma in canonical(period_by_id()[row_id].event):
        if document_names(lemma) & documents:
            return lemma
    return None


def _told_done(text: CalcText, phrase: Phrase, hit: set[int]) -> bool:
    """The phrase's action verb is a past form in a sentence that dates it («нам вручили
    дополнение к акту 12.05»): an act already done, not the one asked about."""
    dated = {w.sentence for w in text.words if w.day is not None}
    return any(
        text.words[i].lemma == phrase[0]
        and text.words[i].sentence in dated
        and done(text.words[i].text)
        for i in hit
    )


def _score(
    text: CalcText,
    cues: RowCues,
    days: list[QuestionDay],
    own: frozenset[Phrase] | None = None,
) -> tuple[float, frozenset[int], bool, bool, bool] | None:
    """``own``: :func:`_own_taxes` of ``text`` when the caller has it (one question, every
    row)."""
    if cues.heads and text.head is not None and not _head_lemmas(text) & cues.heads:
        return None  # it asks for another action («подать заявление», not «поставить на учет»)
    covered: set[int] = set()
    own = _own_taxes(text) if own is None else own
    for group in cues.when:
        hits = [
            hit
            for hit in (
                _find_qualifier(text, p)
                for p in group
                if not _other_tax(p, own) and not _only_own_form(text, p)
            )
            if hit is not None
        ]
        if not hits:
            return None
        covered |= max(hits, key=len)
    asks = False
    found = False
    told_done = False
    cue_hits: list[set[int]] = []
    asking = word_set("asking_words")
    for phrase in cues.cues:
        matched = text.match(phrase)
        if matched is None:
            continue
        hit, strict = matched
        found = True
        told_done = told_done or _told_done(text, phrase, hit)
        cue_hits.append(hit)
        covered |= hit
        # a phrase whose words lie in different sentences asks when its head does
        # («Акт датирован 9 июня. Когда его вручат?»: «вручить акт»)
        heads = hit if strict else {i for i in hit if text.words[i].lemma == phrase[0]}
        asks = asks or any(
            _weight(text.words[i]) == ASKED_WEIGHT
            for i in heads
            if text.words[i].lemma not in asking
        )
    if cues.cues and not found:
        return None
    score = float(sum(_weight(text.words[i]) for i in covered))
    names_head = text.head is not None and any(text.head in hit for hit in cue_hits)
    if names_head:
        score += ASKED_WEIGHT  # it names the asked action itself
    row = period_by_id()[cues.row]
    told = [cues.event or event_words(cues.event_row), event_words(row.after) if row.after else ()]
    if any(phrases and marked_day(text, days, phrases) for phrases in told):
        score += ASKED_WEIGHT * EVENT_WEIGHT  # the question gives the event the period runs from
    return score, frozenset(covered), asks, names_head, told_done


def _head_lemmas(text: CalcText) -> set[str]:
    """The asked action's lemma, and the verb of a noun that also names a document when it
    is the asked action («срок уведомления налогового органа»: «сообщить»)."""
    assert text.head is not None
    lemma = text.words[text.head].lemma
    verbs: dict[str, str] = lexicon()["action_nouns"]
    return {lemma, *canonical(verbs[lemma])} if lemma in verbs else {lemma}


def _find_qualifier(text: CalcText, phrase: Phrase) -> set[int] | None:
    """A qualifier of a row: a term («решение о взыскании») with only adjectives between its
    words; a verb with its object («открыть счет») as loosely as a cue, since the verb's
    other complements may stand between («открыл клиенту расчетный счет»)."""
    found = text.find(phrase, ordered=True)
    if found is None and len(phrase) > 1 and _infinitive(phrase[0]):
        found = text.find(phrase, ordered=True, window=CUE_WINDOW)
    return found


@cache
def _infinitive(lemma: str) -> bool:
    return part_of_speech(lemma) == "INFN"


def _only_own_form(text: CalcText, phrase: Phrase) -> bool:
    """A qualifier that is an organisational form («ООО») named only as the user's own
    («Наше ООО стало акционером АО»): it says nothing of the other party it qualifies."""
    if not set(phrase) <= word_set("org_forms"):
        return False
    words = text.words
    named = [k for k, w in enumerate(words) if w.lemma in phrase and not w.negated]
    return bool(named) and all(k > 0 and words[k - 1].lemma in ("наш", "свой") for k in named)


def _tax_at(text: CalcText, i: int) -> Phrase | None:
    """The tax named from word ``i`` on («налогу на прибыль», «НДС»), longest first."""
    words = text.words
    for name in phrases("tax_names"):
        if words[i].lemma == name[0] and tuple(w.lemma for w in words[i : i + len(name)]) == name:
            return name
    return None


def _own_taxes(text: CalcText) -> frozenset[Phrase]:
    """The taxes named in the sentences that date an event: the user's own filing («подали
    декларацию по налогу на прибыль 12.03»), not a rule of another tax told in passing."""
    dated = {w.sentence for w in text.words if w.day is not None}
    found = (
        _tax_at(text, i) for i, w in enumerate(text.words) if w.sentence in dated and not w.negated
    )
    return frozenset(name for name in found if name)


def _other_tax(phrase: Phrase, own: frozenset[Phrase]) -> bool:
    """A qualifier naming a tax other than the one of the user's dated filing."""
    return bool(own) and phrase in phrases("tax_names") and phrase not in own


def excluded_case(
    text: CalcText, days: list[QuestionDay], row_id: str
) -> tuple[str, frozenset[int]] | None:
    """A declined row that narrows a computable one («участие в ООО» of the duty to report
    participation), told in sentences of its own: (the wider row, those sentences). The
    question may date another event of the wider row elsewhere («купили акции АО
    29 марта ..., а 2 апреля вошли в ООО»); only the excluded event is dropped."""
    cues = row_cues()
    for reading in cues.values():
        if reading.row != row_id or reading.extends is None:
            continue
        wider = cues[reading.extends]
        if period_by_id()[wider.row].decline or _score(text, wider, days) is None:
            continue
        told: set[int] = set()
        for group in reading.when[len(wider.when) :]:
            for phrase in group:
                hit = text.find(phrase, ordered=True)
                told |= {text.words[i].sentence for i in hit or ()}
        if told:
            return wider.row, frozenset(told)
    return None


def names_row_in(text: CalcText, row_id: str, sentences: frozenset[int]) -> bool:
    """Whether a cue of the row is found wholly inside ``sentences``."""
    for reading in row_cues().values():
        if reading.row != row_id:
            continue
        for phrase in reading.cues:
            hit = text.find(phrase)
            if hit and all(text.words[i].sentence in sentences for i in hit):
                return True
    return False


def _weight(w: Word) -> int:
    """A word of the asking part counts three, of the story one; so does the question's
    frame («в рамках камеральной проверки») and a dated event's verb («вручено 7 апреля»)
    inside the asking part."""
    return ASKED_WEIGHT if w.asked and not w.frame and not w.event else STORY_WEIGHT


def _narrows(reading: str, wider: str) -> bool:
    cues = row_cues()
    current: str | None = reading
    while current is not None:
        if current == wider:
            return True
        current = cues[current].extends
    return False


def narrowest_row(text: CalcText, days: list[QuestionDay], row_id: str) -> str:
    """The narrowest reading of ``row_id`` whose conditions the question meets (a chain
    from a desk audit of a VAT declaration runs two months, not three); ``row_id`` when
    none narrower holds or two narrower ones tie."""
    cues = row_cues()
    met = [
        c
        for c in cues.values()
        if c.id != row_id and _narrows(c.id, row_id) and _score(text, c, days) is not None
    ]
    if not met:
        return row_id
    deepest = max(len(c.when) for c in met)
    best = {c.row for c in met if len(c.when) == deepest}
    return best.pop() if len(best) == 1 else row_id


def rank_rows(text: CalcText, days: list[QuestionDay]) -> list[Candidate]:
    """Every candidate row, the best first. When some row's cues name what the asking part
    asks, rows that name only the story are not candidates."""
    table = period_by_id()
    out = []
    own = _own_taxes(text)
    for cues in row_cues().values():
        scored = _score(text, cues, days, own)
        if scored is not None:
            out.append(Candidate(table[cues.row], *scored))
    if any(c.asks for c in out):
        out = [c for c in out if c.asks]
    if out and all(c.done for c in out):
        # the asked event is the user's next act, not the inspection's act already done:
        # the rows whose event that act is («вручили дополнение» -> objections to it)
        out = _next_acts(text, days) or out
    return sorted(_told_chains(text, out), key=lambda c: -c.score)


def _chain_document(row: ProceduralPeriod) -> str | None:
    """The document whose receipt starts a chain row's first period (review after the
    objections to the act: the act; after those to the addendum: the addendum)."""
    return _event_document(row.after) if row.after else None


def _names_document(text: CalcText, document: str) -> bool:
    names = document_names(document)
    return any(not w.negated and document_names(w.lemma) & names for w in text.words)


def _told_chains(text: CalcText, out: list[Candidate]) -> list[Candidate]:
    """A row run from the end of another period is chained from that period's event: of
    the chain rows, those whose first event's document the question names win over those
    whose document it never names («акт вручили …, до какой даты решение (или решение о
    доп. мероприятиях)?»: the review after the objections to the act, not to an addendum
    nobody received)."""
    chains = [(c, _chain_document(c.row)) for c in out]
    told = [c for c, doc in chains if doc is not None and _names_document(text, doc)]
    if not told:
        return out
    return [c for c, doc in chains if doc is None or _names_document(text, doc)]


def _next_acts(text: CalcText, days: list[QuestionDay]) -> list[Candidate]:
    """Rows whose event's words with their document mark a day of the question and whose
    conditions hold; only when they all give one period (else nothing is guessed)."""
    table = period_by_id()
    out = []
    for cues in row_cues().values():
        row = table[cues.row]
        objects = event_objects(cues.row)
        if row.decline or not objects or marked_day(text, days, objects) is None:
            continue
        if _score(text, replace(cues, cues=(), heads=frozenset()), days) is None:
            continue
        out.append(Candidate(row, 0.0, frozenset(), False, False))
    for cues in row_cues().values():
        # a declined reading narrows one of them and its conditions hold (a foreign
        # organisation's division is not the Russian one's of подп. 3 п. 2 ст. 23)
        if not table[cues.row].decline or not any(_narrows(cues.id, c.row.id) for c in out):
            continue
        if _score(text, replace(cues, cues=(), heads=frozenset()), days) is not None:
            return []
    narrowest = [
        c for c in out if not any(_narrows(o.row.id, c.row.id) and o is not c for o in out)
    ]
    return narrowest if len({(c.row.period, c.row.unit) for c in narrowest}) == 1 else []


def _article_point(norm: str) -> tuple[str | None, str | None]:
    refs = find_references(norm)
    return (refs[0].article, refs[0].point) if refs else (None, None)


def _cites(row: ProceduralPeriod, points: set[tuple[str, str | None]], articles: set[str]) -> bool:
    article, point = _article_point(row.norm)
    return (article, point) in points or article in articles


def _citations(text: CalcText) -> tuple[set[tuple[str, str | None]], set[str]]:
    refs = [r for r in find_references(text.text) if r.code in (None, "nk")]
    return {(r.article, r.point) for r in refs if r.point}, {r.article for r in refs}


def _anchor(text: CalcText, start: int) -> Word | None:
    """The noun a citation starting at character ``start`` is attached to: the nearest
    naming word before it in its sentence, past function words, brackets, a number or a
    date of the document and a compound preposition («требование по ст. 93.1», «решение
    (ст. 101)», «требование № 12 от 03.03.2025 в соответствии со ст. 93.1»). None when a
    word of another kind stands there («состоящая на учете по п. 4.6 ст. 83»: a noun, but
    no document, is returned and rejected by the caller) or the citation opens its
    sentence."""
    after = [w for w in text.words if w.start >= start]
    if not after:
        return None
    sentence = after[0].sentence
    before = [w for w in text.words if w.end <= start and w.sentence == sentence]
    joining = word_set("citation_prepositions")
    documents = word_set("procedure_documents")
    for k in range(len(before) - 1, max(-1, len(before) - 9), -1):
        w = before[k]
        if not w.content or not any(ch.isalpha() for ch in w.text):
            continue  # punctuation, a function word, a date, «№ 123»
        if w.lemma in joining and k > 0 and before[k - 1].pos == "PREP":
            continue  # «в соответствии со», «на основании»
        # a phrase read as one concept («налогового органа») has the case of its last word
        case = w.case or grammatical_case(w.text.split()[-1])
        if w.pos == "NOUN" and case == "gent" and not _document(w, documents):
            continue  # the document's genitive complement: «требование инспекции по ст.»
        return w if w.pos == "NOUN" else None
    return None


def _document(w: Word, documents: frozenset[str]) -> frozenset[str]:
    """The names of the procedure document ``w`` names («запрос»: «требование», «запрос»,
    «истребование»), empty when it names none."""
    names = document_names(w.lemma)
    return names if names & documents else frozenset()


def _qualifier_met(text: CalcText, reading: RowCues, days: list[QuestionDay]) -> bool:
    """The question meets the conditions a reading adds to the one it narrows («проверка
    контрагента» for documents about a counterparty), whatever its cues."""
    wider = row_cues()[reading.extends].when if reading.extends else ()
    own = tuple(group for group in reading.when if group not in wider)
    if not own:
        return False
    bare = replace(reading, cues=(), heads=frozenset(), when=own)
    return _score(text, bare, days) is not None


def _narrow_all(narrower: list[ProceduralPeriod], rows: list[ProceduralPeriod]) -> bool:
    """Every row of ``rows`` is a wider reading of some row of ``narrower``."""
    readings = row_cues().values()
    return all(
        any(
            _narrows(c.id, row.id) and c.row != row.id
            for c in readings
            for n in narrower
            if c.row == n.id
        )
        for row in rows
    )


def _condition(text: CalcText, row_id: str) -> bool | None:
    """Whether the question states the circumstance a row depends on (``condition``: «не
    успеваем представить» for the notice of inability); None for a row with none."""
    conditions = [c.condition for c in row_cues().values() if c.row == row_id and c.condition]
    if not conditions:
        return None
    return any(text.find(phrase) is not None for group in conditions for phrase in group)


def _unconditional(text: CalcText, rows: list[ProceduralPeriod]) -> list[ProceduralPeriod]:
    """Rows read from a cited document alone, without those whose condition the question
    does not state («Требование по ст. 93 получили …»: the documents' term, not the notice
    of inability); all of them when none would remain."""
    return [row for row in rows if _condition(text, row.id) is not False] or rows


def _plainest(rows: list[ProceduralPeriod]) -> list[ProceduralPeriod]:
    """Of a cited document's rows none of whose qualifiers the question meets, not the
    narrower readings: their wider row answers («требование по ст. 93 получили ...»: not
    the periods of a consolidated group or of a foreign person)."""
    ids = {row.id for row in rows}
    cues = row_cues()
    narrower = {
        c.row
        for c in cues.values()
        if c.row in ids and c.extends and cues[c.extends].row in ids - {c.row}
    }
    return [row for row in rows if row.id not in narrower] or rows


def _asked_document_rows(text: CalcText, days: list[QuestionDay]) -> list[ProceduralPeriod]:
    """The rows of an article cited as the document the question's event is about: the
    citation is attached to a document noun («требование по ст. 93.1 ..., получено
    29.12.2025»), the cited article has rows counted from that document, and either the
    question dates that document's event or the citation stands in the asking part. A
    citation that describes the story («состоящая на учете по п. 4.6 ст. 83», «заявление
    о постановке на учет (п. 4.6 ст. 83)») is attached to another noun and gives nothing.
    Among the rows, those whose conditions (``when``) the question meets; all of them
    (variants) when none does."""
    documents = word_set("procedure_documents")
    cues = row_cues()
    out: list[ProceduralPeriod] = []
    for ref in find_references(text.text):
        if ref.code not in (None, "nk"):
            continue
        anchor = _anchor(text, ref.start)
        if anchor is None:
            continue
        names = _document(anchor, documents)
        if not names:
            continue
        cited = [
            row
            for row in procedural_periods()
            if not row.decline
            and _article_point(row.norm)[0] == ref.article
            and (ref.point is None or _article_point(row.norm)[1] == ref.point)
            # the document itself, or another name of the document the event is of
            and _event_document(row.id) in names
        ]
        in_asking = any(w.asked for w in text.words if ref.start <= w.start < ref.end)
        # the cited document's event is dated: its verb with the document, or the verb
        # alone («пришло требование по ст. 93.1 ..., получили 21.05.2025»)
        dated = [
            row
            for row in cited
            if in_asking
            or any(
                marked_day(text, days, phrases) is not None
                for phrases in (event_objects(row.id), event_words(row.id))
                if phrases
            )
        ]
        stated = [row for row in dated if _condition(text, row.id) is True]
        if stated:
            out += stated  # the question states the circumstance («не успеваем представить»)
            continue
        dated = _unconditional(text, dated)
        met = {
            c.row
            for c in cues.values()
            if c.row in {row.id for row in dated}
            and (_qualifier_met(text, c, days) or _condition(text, c.row) is True)
        }
        out += [row for row in dated if row.id in met] or _plainest(dated)
    return _distinct(out)


def _asked_action(text: CalcText) -> str | None:
    """The action the asking part asks, as a verb lemma («Когда уплатить налог?»: «уплатить»,
    «срок ответа»: «ответить»); None when it asks for no action («Когда истекает срок?»)."""
    if text.head is None:
        return None
    lemma = text.words[text.head].lemma
    if lemma in word_set("asking_words") or part_of_speech(lemma) != "INFN":
        return None
    if lemma not in _table_actions():
        return None  # no period of the table is for it («сколько есть времени»)
    return lemma


@cache
def _table_actions() -> frozenset[str]:
    """Every verb some row of the table is a period for (:func:`_answers`)."""
    lemmas = {lemma for row in procedural_periods() for lemma in canonical(row.what)}
    for reading in row_cues().values():
        lemmas |= reading.heads | {lemma for phrase in reading.cues for lemma in phrase}
    return frozenset(lemmas | word_set("replies"))


def _answers(row: ProceduralPeriod, action: str, replies: bool = True) -> bool:
    """Whether a row is a period for ``action``: a cue of one of its readings, the actions
    it answers or its own wording («вступить в силу», «представить документы») hold it; a
    reply («ответить», «исполнить») is the period of any row counted from a demand, unless
    ``replies`` is off (the inspection is the one who replies)."""
    if action in canonical(row.what):
        return True
    if (
        replies
        and action in word_set("replies")
        and _event_document(row.id) in document_names("требование")
    ):
        return True
    return any(
        action in reading.heads or any(action in phrase for phrase in reading.cues)
        for reading in row_cues().values()
        if reading.row == row.id
    )


def _article_rows(text: CalcText) -> list[ProceduralPeriod]:
    """The rows of the point or, failing that, the article the question cites."""
    points, articles = _citations(text)
    rows = [r for r in procedural_periods() if not r.decline]
    named = [r for r in rows if _cites(r, points, set())] or [
        r for r in rows if _cites(r, set(), articles)
    ]
    # «подп. 3 п. 2 ст. 23»: of the point's rows, those of the cited subpoint
    subpoints = {
        (r.article, r.point, r.subpoint)
        for r in find_references(text.text)
        if r.code in (None, "nk") and r.subpoint
    }
    of_subpoint = [r for r in named if _row_subpoint(r) in subpoints]
    return _distinct(_plainest(_unconditional(text, of_subpoint or named)))


def _row_subpoint(row: ProceduralPeriod) -> tuple[str, str | None, str | None] | None:
    refs = find_references(row.norm)
    return (refs[0].article, refs[0].point, refs[0].subpoint) if refs else None


def _row_points(row: ProceduralPeriod) -> set[tuple[str, str]]:
    """Every point of its article a row's norm names («п. 6 и п. 8 ст. 105.30»)."""
    article, _ = _article_point(row.norm)
    if article is None:
        return set()
    tokens = row.norm.replace(",", " ").split()
    return {
        (article, number)
        for word, number in pairwise(tokens)
        if word == "п." and number[:1].isdigit()
    }


def _uncovered_point(text: CalcText, rows: list[ProceduralPeriod]) -> list[ProceduralPeriod]:
    """The article's rows when the question cites a point of the article its rows are of
    and the table has no row for that point (nor for another point of that article it
    cites) while the Code states a period in it (:func:`period_points`): «пояснения по
    противоречиям (п. 2 ст. 105.29)» is not the ten days of п. 5, it is asked back naming
    the article's periods; «требование по п. 1 ст. 93» states none and keeps п. 3.
    Empty otherwise."""
    points, _ = _citations(text)
    articles = {_article_point(r.norm)[0] for r in rows if not r.decline}
    article = next(iter(articles)) if len(articles) == 1 else None
    if article is None:
        return []
    asked = {(a, p) for a, p in points if a == article and p}
    if not any(p in period_points().get(article, ()) for _, p in asked):
        return []  # no cited point of the article states a period («п. 1 ст. 93»)
    own = [
        r for r in procedural_periods() if not r.decline and _article_point(r.norm)[0] == article
    ]
    if any(asked & _row_points(r) for r in own):
        return []
    return own


def _unanswered(
    text: CalcText, ranked: list[Candidate], attached: list[ProceduralPeriod]
) -> list[ProceduralPeriod]:
    """The cited document's (or article's) rows when the question is read from the
    citation and asks an action none of them is a period for («Решение по ст. 101
    получили …. Когда уплатить налог?»): the answer names them and asks back, it does not
    offer them as readings. Empty otherwise."""
    if any(c.asks for c in ranked):
        return []  # the asking part names a row: it is computed
    action = _asked_action(text)
    if action is None:
        return []
    # «когда направить ответ?»: the reply named in the asking part is asked too
    replies = word_set("replies")
    actions = {action} | {w.lemma for w in text.words if w.asked and w.lemma in replies}
    # «До какого числа инспекция ответит?» (the inspection the subject): not the
    # addressee's reply to the demand; «ответить инспекции» is
    ours = not any(
        w.asked and w.lemma in word_set("authorities") and w.case in (None, "nomn")
        for w in text.words
    )
    rows = attached or ([] if ranked else _article_rows(text))
    if not rows or any(_answers(row, a, ours) for row in rows for a in actions):
        return []
    return rows


def _cited_elsewhere(
    text: CalcText, ranked: list[Candidate], attached: list[ProceduralPeriod]
) -> list[ProceduralPeriod]:
    """The rows named back to the question: those of a cited article with no period for
    the asked action (:func:`_unanswered`), or of an article whose cited point the table
    has no row for (:func:`_uncovered_point`)."""
    unanswered = _unanswered(text, ranked, attached)
    if unanswered:
        return unanswered
    if attached:
        return _uncovered_point(text, attached)
    if not ranked:
        return _uncovered_point(text, _article_rows(text))
    top = ranked[0].score
    return _uncovered_point(text, [c.row for c in ranked if c.score >= top - _TIE])


def cited_not_asked(text: CalcText, days: list[QuestionDay]) -> list[ProceduralPeriod]:
    """The rows of a cited document or article that do not answer the asked action (see
    :func:`_unanswered`); :func:`find_rows` finds no row then."""
    return _cited_elsewhere(text, rank_rows(text, days), _asked_document_rows(text, days))


def find_rows(text: CalcText, days: list[QuestionDay]) -> list[ProceduralPeriod]:
    """The rows of the situation the question asks about: one row, or several with
    different periods (variants), or a ``decline`` row; none when nothing matches.

    Among rows tied at the top, those of a norm the question cites win; a question whose
    words name no row but that cites an article («требование по ст. 93.1 получено ...»)
    takes that article's rows as its variants. When the candidates are named by the story
    alone, the rows of the document a citation is attached to win (:func:`_asked_document_rows`).
    None when such a question asks an action none of the cited rows is for («Решение по
    ст. 101 …, когда уплатить налог?»: asked back, :func:`cited_not_asked`).
    """
    ranked = rank_rows(text, days)
    points, articles = _citations(text)
    attached = _asked_document_rows(text, days)
    if _cited_elsewhere(text, ranked, attached):
        # the cited article has no period for the asked action, or no row for the cited
        # point: asked back naming its periods
        return []
    if not ranked:
        # the rows of the cited document the question dates, else of the cited article
        return attached or _article_rows(text)
    if attached and not any(c.asks for c in ranked):
        # every candidate is named by the story alone, none by the asking part: the rows
        # of the document a citation is attached to win («требование по ст. 93.1
        # (истребование в рамках выездной проверки)»: not the audit's own period), those
        # of the situation the question states when it states one
        return _stated_situation(attached, ranked)
    top = ranked[0].score
    best = [c.row for c in ranked if c.score >= top - _TIE]
    # among rows tied at the top, those of a norm the question cites; of the cited
    # document's rows, those whose conditions the question meets
    cited = [r for r in best if _cites(r, points, articles)]
    if attached and (
        {r.id for r in attached} <= {r.id for r in cited} or _narrow_all(attached, best)
    ):
        # the cited document's own rows, or rows that narrow every top row («требование
        # по ст. 93.1 о документах ...»: not the general period of п. 3 ст. 93)
        cited = attached
    best = cited or best
    declined = [row for row in best if row.decline]
    if declined:
        return declined[:1]
    return _distinct(best)


def _stated_situation(
    attached: list[ProceduralPeriod], ranked: list[Candidate]
) -> list[ProceduralPeriod]:
    """Of the cited document's rows, those the question's words rank best («требование по
    ст. 93.1 … нам как контрагенту проверяемой компании»: п. 1, not the deal outside an
    audit); all of them when the words rank none."""
    scores: dict[str, float] = {}
    for c in ranked:
        if any(r.id == c.row.id for r in attached):
            scores[c.row.id] = max(scores.get(c.row.id, c.score), c.score)
    if not scores:
        return attached
    top = max(scores.values())
    return [r for r in attached if scores.get(r.id, -1.0) >= top - _TIE]


def _distinct(rows: list[ProceduralPeriod]) -> list[ProceduralPeriod]:
    """One row per period (rows with the same period and unit give the same date)."""
    unique: dict[tuple[int, str], ProceduralPeriod] = {}
    for row in rows:
        unique.setdefault((row.period, row.unit), row)
    return list(unique.values())
