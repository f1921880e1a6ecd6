"""A document the question names by its number that the user does not hold: a held
document only refers to it («акт … по договору № ТС-08/2024», a statement's payment
«по полису № НЩ-25-004417», a budget's credit line «№ КЛ-118/2025»).

The referring document states what it says of the other one (its number, often its
date), rarely its terms. A value from elsewhere in the referring document (its own
payment deadline, a statement's period) or from another held document is no answer about
the document asked. The answer may stand only on a sentence that names the number (or,
in a document whose heading is written to that document — «Соглашение … к договору
поставки № 41/25» — the kind of document the number is of) and states a value of the
asked type other than that document's own date, of what is asked: one of the question's
verbs («действует», «вернуть») when it has any, else the asked attribute's own words
(«гарантийный срок»). Without such a sentence the answer declines, saying the document
itself is not loaded and where it is mentioned.

A number of the question is a document's when some held text writes it after «№» and it
has letters or a separator besides its digits («ТС-08/2024», «41/25»; a bare «№ 3» may
be a numbered part of a held contract, checked by :mod:`coverage`); a held document's own
number (its card's) is never one, nor a unified form's code («ОС-1»).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.answering.asked_acts import asked_acts
from finagent.answering.coverage import undated
from finagent.answering.date_bounds import asked_bound
from finagent.answering.document_sentences import shared_words, value_level
from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.cards.model import DocumentCard
from finagent.language.form_codes import is_form_code
from finagent.language.lemmas import lemma, part_of_speech
from finagent.language.text import analyse
from finagent.question.model import Question
from finagent.question.tables import GENERIC_HEADS, STANDARD_HEADS
from finagent.state import Chunk
from finagent.yaml_data import load_yaml

# a code of letters and digits joined by «/» or «-» («ТС-08/2024», «НЩ-25-004417», «41/25»)
# or after «№» in the question
_CODE = re.compile(r"(?<![\w/-])(?=[\w/-]*\d)[^\W_]+(?:[/-][^\W_]+)+(?![\w/-])")
_SIGNED = r"(?:№|\bN)\s*"
_KOPECK_SUM = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}")
_MAX_TITLES = 3
_LINE_ENDS = (".", ":", ";", "!", "?", ")", "»", "*", "#", "-", "=")
_SENTENCE_ENDS = (".", "!", "?", ";", "|")
_TITLE_WORDS = 3  # words of a title its kind noun is among
_STEM = 5  # letters of a verb a word of its root opens with
_ROW_CELLS = 3  # bars of a Markdown table's row
# a document kind's noun phrase: nouns, adjectives and prepositions; a word pymorphy3
# does not know («ИТ-обслуживание») has no part of speech
_PHRASE_PARTS = frozenset({"NOUN", "ADJF", "PREP", None})
_KIND_WORDS = 4  # words before the number in the question that name its document's kind


def _key(number: str) -> str:
    return re.sub(r"\s+", "", number.strip("«»\"'.,;:()?!")).casefold().replace("ё", "е")


def question_numbers(question: Question) -> list[str]:
    """The document numbers the question writes: after «№», or as a code with a separator;
    not a unified form's code, not bare digits («№ 3»)."""
    found = [i.value for i in question.identifiers if i.label == "number"]
    found += [m.group(0) for m in _CODE.finditer(question.text)]
    out: dict[str, str] = {}
    for number in found:
        number = number.strip("«»\"'.,;:()?!")
        if number.isdigit() or is_form_code(number) or not any(ch.isdigit() for ch in number):
            continue
        out.setdefault(_key(number), number)
    return list(out.values())


def _signed(number: str) -> re.Pattern[str]:
    return re.compile(rf"{_SIGNED}{re.escape(number)}(?![\w/-])", re.IGNORECASE)


def _mentioned(number: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w/-]){re.escape(number)}(?![\w/-])", re.IGNORECASE)


def _own_number(card: DocumentCard) -> str:
    """The card's own number, else the first number its title writes after «№»."""
    if card.number:
        return _key(card.number)
    found = re.search(rf"{_SIGNED}([^\s,;()]+)", card.title)
    return _key(found.group(1)) if found else ""


def _kind_lemmas(question: Question, number: str) -> set[str]:
    """The lemmas of the words right before the number in the question, the document kind
    it is named by («полис страхования имущества», «договор на ИТ-обслуживание»)."""
    at = question.text.find(number)
    before = re.findall(r"[^\W\d_][\w-]*", question.text[: max(at, 0)])
    kind: set[str] = set()
    # the noun phrase before it, back to a verb or a question word («действует полис …»)
    for word in reversed(before[-_KIND_WORDS:]):
        if part_of_speech(word) not in _PHRASE_PARTS:
            break
        kind.add(lemma(word))
    return kind


def _sentences(text: str) -> Iterable[str]:
    """The sentences of a text; a table's row («| 8 | 07.03.2025 | … |») is one, the lines
    between rows are read together (a PDF wraps a sentence over lines)."""
    block: list[str] = []
    for line in [*text.splitlines(), "|" * _ROW_CELLS]:
        if line.count("|") < _ROW_CELLS:
            block.append(line)
            continue
        if any(part.strip() for part in block):
            for sentence in analyse("\n".join(block)).sentences:
                yield sentence.sentence.text
        block = []
        if line.strip("|"):
            yield line


def _titled(text: str, number: str, kind: set[str]) -> bool:
    """A line of the text titles a document by the number: it opens with a word of the
    kind the question names it by and its first «№» is the number («АКТ НАЛОГОВОЙ
    ПРОВЕРКИ № 12-19/47» of «в акте 12-19/47»), not a reference inside a sentence
    («Основание: договор … № ТС-08/2024», «Соглашение № ПД-4/2026 … к договору № 41/25»)."""
    signed = _signed(number)
    previous = ""
    for line in text.splitlines():
        # a line going on from the one before («по договору кредитной / линии № …») is
        # inside a sentence
        going_on = previous.strip() and not previous.rstrip().endswith(_LINE_ENDS)
        previous = line
        first = re.search(rf"{_SIGNED}[^\s,;()]+", line)
        if going_on or first is None or not signed.match(line, first.start()):
            continue
        opening = re.match(r"[\s#*>_-]*([^\W\d_]+)", line)
        if opening and lemma(opening.group(1)) in kind:
            return True
    return False


@cache
def _document_kinds() -> frozenset[str]:
    """The nouns of a kind of document (``data/referenced_kinds.yaml``)."""
    path = resources.files("finagent.answering").joinpath("data/referenced_kinds.yaml")
    table = load_yaml(path.read_text("utf-8")) or {}
    return frozenset(str(w).replace("ё", "е") for w in table.get("kinds", []))


def _title_head(title: str) -> str:
    """The lemma of a title's first noun, its kind («Претензия о нарушении …»,
    «Предварительный договор …»)."""
    words = re.findall(r"[^\W\d_]+", title)[:_TITLE_WORDS]
    return next((lemma(w) for w in words if part_of_speech(w) == "NOUN"), "")


def _names_act(acts: set[str], p: SentenceProfile) -> bool:
    """The sentence names one of the asked verbs, by lemma, synonym or root, or a word
    opening with the verb's stem («ответить» — «ответ должен быть направлен»)."""
    stems = {act[:_STEM] for act in acts if len(act) > _STEM}
    return bool(shared_words(acts, p.lemmas)) or any(
        lm.startswith(stem) for stem in stems for lm in p.lemmas
    )


def _asked_words(question: Question, kind: set[str]) -> set[str]:
    """What the supporting sentence must name: for a date, the question's verbs (a date is
    that of an act: «действует до», «вернуть до»), else the asked attribute's own words
    (its qualifiers and a head that is no mere kind of value: «гарантийный срок»)."""
    acts = asked_acts(question) - kind
    if acts and question.answer_type == "date":
        return acts
    words: set[str] = set()
    for attribute in question.attributes:
        words |= set(attribute.qualifiers)
        if attribute.head not in GENERIC_HEADS and attribute.head not in STANDARD_HEADS:
            words.add(attribute.head)
    return words - kind


def _own_date_asked(question: Question, p: SentenceProfile, sentence: str) -> bool:
    """A date asked with no end of a term («когда заключён договор № X», «от какого
    числа») and the sentence states the referred document's date («№ X от …»)."""
    return (
        question.answer_type == "date"
        and asked_bound(question) is None
        and bool(p.dates)
        and value_level(question, p, sentence) > 0
    )


def _states_value(question: Question, p: SentenceProfile, sentence: str) -> bool:
    """The sentence states a value of the asked type: not only the date of a document it
    refers to («№ 41/25 от 03.11.2025» states none of its terms); a sum with kopecks in a
    table's row is money whatever its header says."""
    if value_level(question, p, sentence) >= 1.0:
        return True
    return question.answer_type in ("amount", "limit") and bool(_KOPECK_SUM.search(sentence))


def _supported(
    question: Question,
    read: Sequence[str],
    mentioned: re.Pattern[str],
    about: bool,
    kind: set[str],
    asked: set[str],
) -> bool:
    """A sentence of a referring document (``read``) names the document asked (its number;
    in a document ``about`` it, also its kind) and states the asked value of it."""
    for at, sentence in enumerate(read):
        if not (mentioned.search(sentence) or (about and kind & profile(sentence).lemmas)):
            continue
        # a reference goes on in the next sentence when a line break cut it
        # («… № КЛ-118/2025 от» / «19.11.2025 (лимит …, ставка 19,5 %)»)
        if at + 1 < len(read) and not sentence.rstrip().endswith(_SENTENCE_ENDS):
            sentence = f"{sentence} {read[at + 1]}"
        p = profile(sentence)
        if _own_date_asked(question, p, sentence):
            return True  # «когда заключён договор № X» — «№ X от …»
        if _states_value(question, p, sentence) and (not asked or _names_act(asked, p)):
            return True
    return False


def referenced_only(
    question: Question,
    cards: Sequence[DocumentCard],
    chunks: Sequence[Chunk],
    texts: Mapping[str, str] | None = None,
) -> Abstention | None:
    """The abstention when the question names a document by a number that no held
    document is but a held text refers to, and no sentence naming it states the asked
    value (see above); else None."""
    if question.answer_type in ("yes_no", "definition", "unknown"):
        return None
    own = {_own_number(card) for card in cards} - {""}
    titles = {card.document_id: card.title for card in cards}
    bodies: dict[str, str] = {}
    for chunk in chunks:
        if chunk.source == "user_docs" and chunk.document_id:
            bodies[chunk.document_id] = bodies.get(chunk.document_id, "") + "\n" + chunk.text
    for document_id, text in (texts or {}).items():
        bodies[document_id] = text
    for number in question_numbers(question):
        if _key(number) in own:
            continue
        signed = _signed(number)
        referring = [d for d, text in bodies.items() if signed.search(text)]
        kind = _kind_lemmas(question, number)
        if (
            not referring
            or not kind & _document_kinds()
            or any(_titled(bodies[d], number, kind) for d in referring)
            # «в претензии 112/П» of a claim: the document asked may be the held one
            or any(_title_head(titles.get(d, "")) in kind for d in referring)
        ):
            continue
        asked = _asked_words(question, kind)
        mentioned = _mentioned(number)
        about = {
            card.document_id
            for card in cards
            if any(_key(r) == _key(number) for r in card.references)
        }
        if any(
            _supported(question, list(_sentences(bodies[d])), mentioned, d in about, kind, asked)
            for d in referring
        ):
            continue
        where = "; ".join(dict.fromkeys(undated(titles.get(d, d)) for d in referring[:_MAX_TITLES]))
        return Abstention(
            "document",
            messages.ABSTAIN_REFERENCED.format(number=number, titles=where),
            messages.ABSTAIN_REFERENCED_MISSING.format(number=number, titles=where),
        )
    return None
