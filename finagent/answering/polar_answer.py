"""The verdict of a yes/no question from the clause of a user document that settles it.

«НДС по договору есть?» — «Нет: «НДС не облагается на основании подпункта 16.1 …» [1]»;
«капают ли проценты на счёт эскроу?» — «Нет: «Проценты … Банком не начисляются …» [2]».
Of a polar question (``Question.polar``) asked in the affirmative, the clause is a
document sentence's part (split at «;») that names at least two of the question's content
words (by lemma, synonym or root: :func:`finagent.language.synonyms.names_lemma`; one of
them not a generic noun such as «сумма», «договор») and denies a predicate outside a
condition (:func:`finagent.answering.polarity.denies_text`: «не начисляются», «не
допускается», not «не более», nor «если иное не предусмотрено …») or says a word of
denial (``data/denials.yaml``: «запрещается», «освобождается»).
No such clause: no verdict, and the lead states what the documents do state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.polarity import denies_text
from finagent.answering.sentence_profile import profile
from finagent.language.lemmas import lemma
from finagent.language.synonyms import names_lemma
from finagent.question.content import content_lemmas
from finagent.question.model import Question
from finagent.question.tables import GENERIC_HEADS
from finagent.yaml_data import load_yaml

_FILE = "denials.yaml"
_CLAUSES = re.compile(r";")
_WORDS = re.compile(r"\w+")
# a sentence opening a point of its own («2.3. Суточные …», «а) аванс …»)
_POINT = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[а-я]\))\s")
_ENDS = (".", "!", ";")
MAX_FOLLOW = 300  # characters of a following sentence quoted with the verdict's
_NEGATIONS = frozenset({"не", "без"})  # «… или нет?» asks, it does not negate
MIN_SHARED = 2  # content words of the question a settling clause names …
NAMED_SHARED = 1  # … or, in a document the question names, one (not a generic noun)
NEAR = 60  # of the ranked document sentences, those read with the least words shared …
MAX_SENTENCES = 200  # … and those read when the clause names one word more
NO = "Нет"


@cache
def _denials() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    return frozenset(str(w) for w in load_yaml(text))


@dataclass(frozen=True)
class Verdict:
    """«Нет» and the sentence whose clause settles it."""

    answer: str
    candidate: Candidate
    clause: str
    # the next sentence of the same point («Вместо них выплачивается компенсация …», «Его
    # стоимость — …»): what the document provides instead, quoted after the verdict's
    follow: Candidate | None = None

    def line(self) -> str:
        """«Нет: «…» [n] (документ «…»).»"""
        number = self.candidate.number
        sentence = clean_sentence(self.candidate.sentence)
        # a long sentence of several clauses («Арендатор обязуется: …; не сдавать …»): the
        # clause that settles it
        first = self.clause if len(sentence) > MAX_FOLLOW and self.clause else sentence
        follow = [clean_sentence(self.follow.sentence)] if self.follow else []
        quotes = [f"«{q}» [{number}]" for q in [first, *follow]]
        title = self.candidate.chunk.title
        where = f" (документ «{title}»)" if title else ""
        return f"{self.answer}: {' '.join(quotes)}{where}."


def _shared(asked: frozenset[str], clause: str) -> frozenset[str]:
    """The asked lemmas the clause names: by lemma, synonym or root (language layer)."""
    lemmas = profile(clause).lemmas
    return frozenset(w for w in asked if names_lemma(w, lemmas))


def _denying(clause: str) -> bool:
    """A predicate denied outside a condition («не начисляются», not «если иное не
    предусмотрено …»), or a word of denial."""
    words = _WORDS.findall(clause)
    return denies_text(clause) or bool(_denials() & {lemma(w) for w in words})


def asked_words(question: Question) -> frozenset[str]:
    """The question's content lemmas a settling clause may name."""
    return content_lemmas(question, letters_only=False)


def polar_verdict(question: Question, ranked: list[Candidate]) -> Verdict | None:
    """«Нет» from the document clause that denies what the question asks; None when the
    question is no yes/no one, is itself negated («не облагается ли …», «… без …?»), or no
    document clause settles it."""
    if not question.polar or _NEGATIONS & set(question.lemmas):
        return None
    asked = asked_words(question)
    if len(asked) < MIN_SHARED:
        return None
    named = {d.document_id for d in question.documents}
    best: tuple[int, int, int] | None = None
    found: Verdict | None = None
    documents = [c for c in ranked if c.chunk.source == "user_docs"][:MAX_SENTENCES]
    for order, candidate in enumerate(documents):
        for clause in _CLAUSES.split(clean_sentence(candidate.sentence)):
            shared = _shared(asked, clause)
            own = candidate.chunk.document_id in named
            least = (NAMED_SHARED if own else MIN_SHARED) + int(order >= NEAR)
            if len(shared) < least or shared <= GENERIC_HEADS or not _denying(clause):
                continue
            # the named document's clause first, then the most words named, then rank
            key = (int(own), len(shared), -order)
            if best is None or key > best:
                best, found = key, Verdict(NO, candidate, clause.strip())
    if found is None:
        return None
    return Verdict(found.answer, found.candidate, found.clause, following(found.candidate, ranked))


def _found(text: str, sentence: str) -> re.Match[str] | None:
    """Where the sentence stands in its passage, whatever the line breaks inside it."""
    words = sentence.split()
    return re.search(r"\s+".join(map(re.escape, words)), text) if words else None


def following(candidate: Candidate, ranked: list[Candidate]) -> Candidate | None:
    """The next sentence of the same passage when it continues the same point (no blank
    line or new point number between them), is short and states a figure: «Вместо них
    выплачивается компенсация на питание … за день.»"""
    after = next(
        (
            c
            for c in ranked
            if c.chunk.id == candidate.chunk.id and c.position == candidate.position + 1
        ),
        None,
    )
    if after is None or len(after.sentence) > MAX_FOLLOW or _POINT.match(after.sentence):
        return None
    text = candidate.chunk.text
    here, there = _found(text, candidate.sentence), _found(text, after.sentence)
    if here is None or there is None or "\n\n" in text[here.end() : there.start()]:
        return None
    if not after.sentence.rstrip().endswith(_ENDS):  # a heading, not a sentence
        return None
    if not profile(after.sentence).digits:  # it states no figure in the verdict's stead
        return None
    return after if clean_sentence(after.sentence) else None
