"""Which of several dated documents of the row's kind the asked period runs from.

A question may date two documents of the same kind («24 октября пришло требование о
представлении документов … Ещё 29 октября пришло отдельное требование о пояснениях, его
мы уже закрыли»). The asked event is the one the asking clause refers to; the other is
context. Read on sentences (razdel, through :class:`CalcText`) and lemmas (pymorphy3):

- a day's part of its sentence (up to the next day) that tells a document of the row's
  kind as already dealt with (a verb of ``closed_verbs``: закрыть, исполнить, ответить …,
  not denied, outside the asking part) is context: its days are not candidates, as long
  as another day of the row's event is left;
- of the days left whose parts each name the row's document with its event verb, the
  asking part picks one by an ordinal («по первому требованию»: the earliest;
  «по второму», «по последнему»: the latest) or by a content word only one of their
  parts holds («по требованию о пояснениях»);
- when two such days remain and nothing picks one, the question is asked back, naming
  both dates (:attr:`EventChoice.ambiguous`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from finagent.legal.calc_lexicon import canonical, document_names, word_set
from finagent.legal.calc_text import CalcText, Word
from finagent.legal.periods import ProceduralPeriod
from finagent.legal.question_days import QuestionDay


@dataclass
class EventChoice:
    """The days that may be the asked event, and what was decided about them."""

    candidates: list[QuestionDay]
    closed: list[QuestionDay] = field(default_factory=list)
    picked: QuestionDay | None = None
    ambiguous: list[QuestionDay] = field(default_factory=list)


_DASHES = frozenset({"—", "–", "-"})
_BREAKS = frozenset({",", ";", "—", "–", "-", "(", ":", "а", "но", "и"})


def _segments(
    text: CalcText, days: list[QuestionDay], clause: bool = False
) -> dict[int, list[Word]]:
    """Each day's part of its sentence (by its mention). The words between two days of a
    sentence are split at the first clause break after the earlier day («3 марта пришло
    требование …, 12 марта — второе требование»): before it they tell the earlier day,
    from it the later one. With ``clause``, the words after the last day of a sentence
    stop at its first clause break too (not a dash right after the day: «9 апреля —
    второе требование») («датировано 25 апреля, но пришло 28-го»); without
    it they run to the sentence's end («…, его мы уже закрыли» tells the day's document)."""
    words = text.words
    spans = sorted({text.day_words(d.mention) for d in days})
    cuts: dict[tuple[int, int], int] = {}  # (end of a day, start of the next) -> split
    for (_, end), (begin, _) in pairwise(spans):
        between = range(end + 1, begin)
        cuts[(end, begin)] = next(
            (k for k in between if words[k].text in _BREAKS or words[k].lemma in _BREAKS),
            begin,
        )
    out: dict[int, list[Word]] = {}
    for d in days:
        first, last = text.day_words(d.mention)
        sentence = words[first].sentence
        before = [cut for (end, begin), cut in cuts.items() if begin == first]
        after = [cut for (end, begin), cut in cuts.items() if end == last]
        start = before[0] if before else 0
        stop = after[0] if after else len(words)
        if clause and not after:
            stop = next(
                (
                    k
                    for k in range(last + 1, len(words))
                    if (words[k].text in _BREAKS or words[k].lemma in _BREAKS)
                    # a dash right after the day stands for the verb left out
                    and not (k == last + 1 and words[k].text in _DASHES)
                ),
                stop,
            )
        out[d.mention] = [w for w in words[start:stop] if w.sentence == sentence and w.day is None]
    return out


def _row_documents(row: ProceduralPeriod) -> frozenset[str]:
    """The names of the document the row counts from («требование», «запрос» …): the
    first document its event names («получения дополнения к акту»: the addendum)."""
    documents = word_set("procedure_documents")
    own = next((lemma for lemma in canonical(row.event) if lemma in documents), None)
    return document_names(own) if own else frozenset()


def _is(w: Word, lemmas: frozenset[str]) -> bool:
    return not w.negated and (w.lemma in lemmas or w.raw in lemmas)


def _told_closed(words: list[Word], documents: frozenset[str]) -> bool:
    """The sentence names a document of the row's kind and tells it dealt with."""
    if any(w.asked for w in words):
        return False
    closed = word_set("closed_verbs")
    return any(_is(w, documents) for w in words) and any(
        w.pos in ("VERB", "PRTS", "PRTF") and _is(w, closed) for w in words
    )


_VERBS = ("VERB", "INFN", "PRTS", "PRTF")


def _received(words: list[Word], documents: frozenset[str], verbs: frozenset[str]) -> bool:
    """The part names a document of the row's kind with the row's event verb, or with
    its verb left out («12 марта — второе требование»)."""
    if any(w.asked for w in words) or not any(_is(w, documents) for w in words):
        return False
    return any(_is(w, verbs) for w in words) or not any(w.pos in _VERBS for w in words)


def _by_ordinal(
    text: CalcText, days: list[QuestionDay], parts: dict[int, set[str]]
) -> QuestionDay | None:
    """An ordinal of the asking part: the one day whose part holds it too («второе
    требование … по второму требованию»), else the earliest («первый») or the latest."""
    ordinals = word_set("first_ordinals") | word_set("last_ordinals")
    asked = {w.lemma for w in text.words if w.asked and not w.negated} & ordinals
    if not asked:
        return None
    same = [d for d in days if parts[d.mention] & asked]
    if len(same) == 1:
        return same[0]
    ordered = sorted(days, key=lambda d: d.day)
    if asked & word_set("first_ordinals"):
        return ordered[0]
    return ordered[-1]


def _by_asked_words(
    text: CalcText, days: list[QuestionDay], parts: dict[int, set[str]]
) -> QuestionDay | None:
    """The one day whose part alone holds a content word of the asking part."""
    asked = {w.lemma for w in text.words if w.asked and w.content and not w.negated}
    own = [parts[d.mention] & asked for d in days]
    shared = set.intersection(*own) if own else set()
    unique = [d for d, words in zip(days, own, strict=True) if words - shared]
    return unique[0] if len(unique) == 1 else None


def choose_event(
    text: CalcText,
    days: list[QuestionDay],
    row: ProceduralPeriod,
    event_verbs: frozenset[str],
) -> EventChoice:
    """The candidates for the asked event among ``days`` for ``row`` (whose event is the
    receipt of a document, read by ``event_verbs``)."""
    documents = _row_documents(row)
    out = EventChoice(candidates=list(days))
    if not documents or len({d.day for d in days}) < 2:
        return out
    parts = _segments(text, days)
    clauses = _segments(text, days, clause=True)
    closed = [d for d in days if _told_closed(parts[d.mention], documents)]
    open_days = [d for d in days if d not in closed]
    received = [d for d in open_days if _received(clauses[d.mention], documents, event_verbs)]
    if closed and received:
        out.closed, out.candidates = closed, open_days
    if len({d.day for d in received}) < 2:
        return out
    lemmas = {m: {w.lemma for w in words if w.content} for m, words in parts.items()}
    picked = _by_ordinal(text, received, lemmas) or _by_asked_words(text, received, lemmas)
    if picked is not None:
        out.picked = picked
    else:
        out.ambiguous = received
    return out
