"""A document's type and clean title from its own heading, never from a letterhead."""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.cards.doc_types import ABOUT_ANOTHER, DOC_TYPES, GENERIC, DocType
from finagent.cards.kind_phrase import KindPhrase, in_capitals, is_label_line, kind_phrase
from finagent.language.cues import find_cue
from finagent.language.lemmas import fold, lemma, stated_participle
from finagent.language.organisations import ABBREVIATIONS, organisations_in
from finagent.language.text import analyse

_HEAD_LINES = 15  # a heading that names a listed kind stands this high
# a form's own heading («ТОВАРНАЯ НАКЛАДНАЯ № 214») may stand under its parties' blocks
_FORM_HEAD_LINES = 30
_MARKUP = re.compile(r"[*_`#>|]+")
_FORM_MARKERS = re.compile(r"\s*\(\d+[а-я]?\)\s*$")  # «(1)», «(2а)» of statutory forms
_SPACES = re.compile(r"\s+")
# a plain-text form sets its fields in columns: «ТОВАРНАЯ НАКЛАДНАЯ  № 214   Дата составления: …»
_COLUMN_GAP = re.compile(r"\s{3,}")
_ABBREVIATIONS = ABBREVIATIONS | {"ндс", "ндфл", "упд", "инн", "кпп", "фнс", "ифнс", "рф", "усн"}
_MAX_TITLE = 160
# a type named this far into a line is its heading, not a mention inside a sentence
_TYPE_WITHIN_TOKENS = 4


def strip_markdown(line: str) -> str:
    """«# **Договор**  № 5» -> «Договор № 5»; statutory field markers dropped."""
    text = _MARKUP.sub(" ", line)
    text = _FORM_MARKERS.sub("", text)
    text = _SPACES.sub(" ", text).strip(" -—:=+")
    return _sentence_case(text)


def _sentence_case(text: str) -> str:
    """«СЧЁТ-ФАКТУРА № 87 от …» -> «Счёт-фактура № 87 от …»: a heading in capitals is lowered
    up to its first word that is not capitals; abbreviations (УПД, НДС) are kept."""
    words = text.split()
    for i, word in enumerate(words):
        if not (word.replace("-", "").isalpha() and word.isupper()):
            break
        if fold(word) not in _ABBREVIATIONS:
            words[i] = word.lower()
    joined = " ".join(words)
    return joined[:1].upper() + joined[1:]


def doc_type_of(lemmas: tuple[str, ...], within: int | None = None) -> DocType | None:
    for doc_type in DOC_TYPES:
        for cue in doc_type.cues:
            if find_cue(lemmas, cue, 0, None if within is None else within + len(cue.split())) >= 0:
                return doc_type
    return None


def _longest_kind(lemmas: tuple[str, ...]) -> DocType | None:
    """The kind named by the longest cue («уступка права требования», not «требование»)."""
    found = [
        (len(cue.split()), -index, doc_type)
        for index, doc_type in enumerate(DOC_TYPES)
        if doc_type.key != GENERIC
        for cue in doc_type.cues
        if find_cue(lemmas, cue) >= 0
    ]
    return max(found, key=lambda f: f[:2])[2] if found else None


@dataclass
class Heading:
    title: str | None
    doc_type: DocType | None
    start: int = -1  # where the heading line starts in the text (-1: no heading)
    line_end: int = -1  # where its first line ends: a number or date there is the document's
    end: int = -1  # where the heading ends, its continuation lines («к договору № …») included
    # the heading's own noun phrase («кредитный договор», «платёжное поручение»)
    phrase: KindPhrase | None = None


def _is_letterhead(line: str) -> bool:
    """A line that is only an organisation (with address, ИНН …): the sender, not a title."""
    organisations = organisations_in(analyse(line))
    return bool(organisations) and organisations[0].start <= 2


def _lines(text: str) -> list[tuple[int, int, str, bool]]:
    """The first non-empty lines as (start, end, text without Markdown, set as a heading:
    Markdown «#» or capitals); the case of a line's first letter is kept (it tells a
    heading's continuation)."""
    out: list[tuple[int, int, str, bool]] = []
    at = 0
    for line in text.splitlines(keepends=True):
        raw = _COLUMN_GAP.split(line.strip())[0]
        clean = strip_markdown(raw) if raw.strip() else ""
        bare = _MARKUP.sub(" ", raw).strip(" -—:=+\t")
        if clean and bare[:1].islower():
            clean = clean[:1].lower() + clean[1:]
        if clean:
            marked = raw.lstrip().startswith("#") or in_capitals(bare)
            out.append((at, at + len(line.rstrip("\r\n")), clean, marked))
        at += len(line)
        if len(out) >= _FORM_HEAD_LINES:
            break
    return out


def _continues(line: str) -> bool:
    """«к договору субаренды № …», «о расторжении договора …», «№ КЛ-5/2024 от …», «(гарантия
    возврата аванса)»: a heading's second line; «г. Тверь  10 июня 2025 г.» is not one."""
    first = line.split()[0]
    return first[:1] in "№(" or (first.islower() and first not in ("г.", "город"))


def _phrase_kind(phrase: KindPhrase) -> DocType:
    """A kind no list names, known by its heading's own words."""
    return DocType(" ".join(phrase.lemmas), phrase.name, (phrase.name, phrase.head))


_REFERRING = frozenset({"к", "по"})


def _own_part(lemmas: tuple[str, ...]) -> tuple[str, ...]:
    """A heading up to where it names another document («… по договору подряда № …»)."""
    cut = next((i for i, word in enumerate(lemmas) if i and word in _REFERRING), len(lemmas))
    return lemmas[:cut]


def _refers(lemmas: tuple[str, ...], words: tuple[str, ...], doc_type: DocType) -> bool:
    """The kind is named as another document the line refers to: «Приложение № 4 к приказу
    ФНС России …» over a statutory form is the form's approval note, not its heading; so
    is a kind named as the agent of a short passive participle before it («УТВЕРЖДЁН
    приказом генерального директора № 4-Ф», «Введено в действие распоряжением …»): the
    order that approved the document, which is named below it."""
    for cue in doc_type.cues:
        at = find_cue(lemmas, cue)
        if at >= 0:
            approved = any(stated_participle(word) for word in words[:at])
            return at > 0 and (lemmas[at - 1] == "к" or approved)
    return False


# lines below a body's own name (an inspection's, a department's) where the document's
# heading stands: its address and code lines between them
_BELOW_LETTERHEAD = 4


def _listed_heading_below(lines: list[tuple[int, int, str, bool]], index: int) -> bool:
    """A line within ``_BELOW_LETTERHEAD`` lines below ``index`` that names a listed kind
    at its start and carries its number sign («АКТ НАЛОГОВОЙ
    ПРОВЕРКИ № 12-19/47» under «МЕЖРАЙОННАЯ ИНСПЕКЦИЯ … № 17»): the line at ``index``,
    named by its own noun phrase only, is the issuing body's name, not the heading."""
    for _, _, line, _marked in lines[index + 1 : index + 1 + _BELOW_LETTERHEAD]:
        if "№" not in line or is_label_line(line):
            continue
        lemmas = tuple(lemma(t.text) for s in analyse(line).sentences for t in s.tokens)
        found = doc_type_of(lemmas, _TYPE_WITHIN_TOKENS)
        if found is not None and found.key != GENERIC and not _refers(lemmas, (), found):
            return True
    return False


# «(выездная налоговая проверка, ст. 89 и 100 НК РФ)»: an article cited under a heading
_ARTICLE = re.compile(r"\b(?:ст|стать[яиейю])\.?\s*\d", re.IGNORECASE)


def _law_note(line: str) -> bool:
    """A line in parentheses under a heading that cites an article of a law: the legal
    basis the document is drawn up on, not part of its name (an answer naming the document
    would cite an article no source of it states)."""
    return line.startswith("(") and _ARTICLE.search(line) is not None


def _block(lines: list[tuple[int, int, str, bool]], index: int) -> tuple[str, int]:
    """The heading line at ``index`` with its continuation lines and where they end."""
    _, end, line, _ = lines[index]
    block, block_end = [line], end
    for _, next_end, following, _marked in lines[index + 1 : index + 3]:
        if not _continues(following) or _law_note(following):
            break
        block.append(following)
        block_end = next_end
    title = " ".join(block)
    return title[:1].upper() + title[1:], block_end


def heading_of(text: str) -> Heading:
    """The document's heading: the first line (not a letterhead, a label line or a form's
    metadata) that names a listed kind near its start, or names itself by a noun phrase
    and its number or period («ПЛАТЁЖНОЕ ПОРУЧЕНИЕ № 318», «РАСЧЁТНЫЙ ЛИСТОК ЗА ОКТЯБРЬ
    2026 г.»). A line that names a kind only as the document it refers to («Приложение № 4
    к приказу …») yields to a later line set as a heading."""
    from finagent.cards.form_box import has_number_box  # form_box reads this module

    lines = _lines(text)
    boxed = has_number_box(text)
    referring: Heading | None = None
    for index, (start, end, line, marked) in enumerate(lines):
        if _is_letterhead(line) or is_label_line(line) or (referring and not marked):
            continue
        words = tuple(t.text for s in analyse(line).sentences for t in s.tokens)
        lemmas = tuple(lemma(word) for word in words)
        doc_type = doc_type_of(lemmas, _TYPE_WITHIN_TOKENS) if index < _HEAD_LINES else None
        # past an approval note the next line set as a heading is the form's own; a
        # form's heading in capitals beside its number box («ПРИХОДНЫЙ КАССОВЫЙ ОРДЕР»
        # next to «Номер документа | 148») names itself by the box
        numbered = doc_type is None and referring is None and not (marked and boxed)
        phrase = kind_phrase(line, marked, numbered=numbered)
        if doc_type is None and phrase is not None:
            if referring is None and _listed_heading_below(lines, index):
                continue
            doc_type = _phrase_kind(phrase)
        if doc_type is None:
            continue
        title, block_end = _block(lines, index)
        # «Соглашение № 1 / о расторжении договора …»: the whole heading names the kind
        whole = tuple(lemma(t.text) for s in analyse(title).sentences for t in s.tokens)
        whole_type = doc_type_of(whole)
        if whole_type is not None and whole_type.key in ABOUT_ANOTHER:
            doc_type = whole_type
        # «Договор № ДЦ-03 уступки права требования (цессии)»: the kind follows the number
        # («… по договору подряда» after it names the deal it secures, not this one's kind)
        elif doc_type.key == GENERIC:
            doc_type = _longest_kind(_own_part(whole)) or doc_type
        heading = Heading(title[:_MAX_TITLE], doc_type, start, end, block_end, phrase)
        if referring is None and _refers(lemmas, words, doc_type):
            referring = heading
            continue
        return heading
    return referring or _capitals_heading(text, lines) or Heading(None, None)


def _all_capitals(line: str) -> bool:
    """Every word of the line is written in capitals («ПРИХОДНЫЙ КАССОВЫЙ ОРДЕР»), with at
    least two of them: a form's name set apart, not a sentence."""
    words = [w for w in line.split() if any(ch.isalpha() for ch in w)]
    return len(words) >= 2 and all(w.upper() == w for w in words)


def _capitals_heading(text: str, lines: list[tuple[int, int, str, bool]]) -> Heading | None:
    """A document with no numbered or listed heading (a form whose number and date stand
    in boxes beside its name, a return under its requisites line) is named by the first
    line set wholly in capitals that is a noun phrase in the nominative: «ПРИХОДНЫЙ
    КАССОВЫЙ ОРДЕР», «НАЛОГОВАЯ ДЕКЛАРАЦИЯ / по налогу, уплачиваемому …»; its lower-case
    continuation lines are part of it. Not a letterhead, a label line or a form's own
    metadata («Унифицированная форма № КО-1», «ИНН … Форма по КНД …»)."""
    for index, (start, end, line, _marked) in enumerate(lines):
        raw = _MARKUP.sub(" ", _COLUMN_GAP.split(text[start:end].strip())[0])
        if not _all_capitals(raw) or _is_letterhead(line) or is_label_line(line):
            continue
        phrase = kind_phrase(line, True, numbered=False)
        if phrase is None:
            continue
        title, block_end = _block(lines, index)
        return Heading(title[:_MAX_TITLE], _phrase_kind(phrase), start, end, block_end, phrase)
    return None
