"""What a question sets aside with «без»: «возмещение НДС без банковской гарантии» asks the
case with no guarantee, so a sentence about the guarantee (its term, its sum) states the
other case's values. A Code or knowledge-base sentence naming the set-aside thing, and not
itself «без» it, gets the ranker's penalty for excluded conditions.

«без НДС», «без учёта …» are not read here: the first qualifies a sum (documents'
qualifiers), the second is an excluded condition of the ranker."""

from __future__ import annotations

from razdel import tokenize

from finagent.answering.sentence_profile import SentenceProfile
from finagent.language.lemmas import genitive, lemma, part_of_speech
from finagent.question.tables import TAXES

WITHOUT = "без"
_NOT_READ = frozenset({"учет", "учёт"}) | {
    lm for t in TAXES for cue in t.cues if " " not in cue for lm in (lemma(cue),)
}
_MAX_WORDS = 3  # adjectives and the noun after «без»


def set_aside(question: str) -> list[frozenset[str]]:
    """The lemmas of each noun phrase the question puts after «без» (adjectives, the head
    noun and its genitive complement: «банковской гарантии» -> {банковский, гарантия})."""
    words = [t.text for t in tokenize(question) if t.text.isalpha()]
    found: list[frozenset[str]] = []
    for i, word in enumerate(words):
        if lemma(word) != WITHOUT:
            continue
        phrase: list[str] = []
        for nxt in words[i + 1 : i + 1 + _MAX_WORDS]:
            pos = part_of_speech(nxt)
            if pos not in ("ADJF", "PRTF", "NOUN"):
                break
            phrase.append(lemma(nxt))
            if pos == "NOUN":
                break
        end = i + len(phrase)
        if not phrase or part_of_speech(words[end]) != "NOUN" or set(phrase) & _NOT_READ:
            continue
        # a genitive complement names which one: «без договора поручительства»
        if end + 1 < len(words) and part_of_speech(words[end + 1]) == "NOUN":
            if genitive(words[end + 1]):
                phrase.append(lemma(words[end + 1]))
        found.append(frozenset(phrase))
    return found


def names_set_aside(p: SentenceProfile, phrases: list[frozenset[str]]) -> bool:
    """The sentence names a set-aside thing and is not itself «без» it."""
    return WITHOUT not in p.lemmas and any(phrase <= p.lemmas for phrase in phrases)
