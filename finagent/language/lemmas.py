"""Lemmas of Russian words (pymorphy3), cached: the same words recur in every question."""

from __future__ import annotations

import itertools
import json
import os
import re
import tempfile
import threading
from collections.abc import Collection, Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymorphy3


@cache
def _analyzer() -> pymorphy3.MorphAnalyzer:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


def best_parse(word: str) -> pymorphy3.analyzer.Parse:
    """The most probable pymorphy3 reading of ``word`` (folded)."""
    return parses(fold(word))[0]


#: words whose readings a process keeps (least recently used dropped first): 0.95-1.35 KB
#: a word (tracemalloc: knowledge-base words, guessed words), so 31-44 MB at most (it was
#: 100 000 words, 95-134 MB); the whole Tax Code has
#: about 13 500 distinct word forms, the knowledge base and a user's documents add a few
#: thousand, so a long-running service keeps its working set
READINGS_CACHED = 32_768


@lru_cache(maxsize=READINGS_CACHED)
def parses(folded: str) -> tuple[pymorphy3.analyzer.Parse, ...]:
    """pymorphy3's readings of a folded word, most probable first, parsed once per process:
    every grammatical question below reads them, and a word new to the process (a new
    document's, a retrieved passage's) is asked several of them in its first answer. The
    cache is bounded (``READINGS_CACHED`` words), so a long-running service's memory is."""
    return _readings(folded)


def _readings(word: str) -> tuple[pymorphy3.analyzer.Parse, ...]:
    """pymorphy3's readings of ``word``; one unknown reading of the word itself when
    pymorphy3 cannot read it: it asks Unicode for every letter's name to tell Latin from
    Cyrillic, and letters whose names Unicode derives rather than lists (Tangut, Khitan)
    raise ``ValueError``, which any uploaded text may contain."""
    try:
        return tuple(_analyzer().parse(word))
    except ValueError:
        unknown = _analyzer().parse("")[0]
        return (unknown._replace(word=word, normal_form=word),)


def fold(word: str) -> str:
    """Lower case with «ё» as «е»: texts and questions spell it either way."""
    return word.lower().replace("ё", "е")


# A data dir's lemma file (``load_lemmas``/``save_lemmas``, called by the composition
# root): pymorphy3's answers kept between processes, so a command does not parse again the
# thousands of words its cue tables, its documents and the Code's passages share with the
# last one. Stamped with the versions that decide a lemma; another stamp is ignored.
LEMMA_RULES = 1  # bump when ``lemma`` reads words differently
LEMMA_FILE_MAX = 50_000  # words kept, those of the last process first
_stored: dict[str, str] = {}  # read from the file
_used: dict[str, str] = {}  # parsed or read by this process, in order of first use
_file_lock = threading.Lock()  # roots in worker threads may load or save at once


def _stamp() -> str:
    import pymorphy3
    import pymorphy3_dicts_ru

    dicts = getattr(pymorphy3_dicts_ru, "__version__", "")
    return f"{LEMMA_RULES}/{pymorphy3.__version__}/{dicts}"


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """The most probable normal form of ``word``, folded; non-Cyrillic words just folded."""
    folded = fold(word)
    # abbreviations (ИНН, НДС, УПД, ООО) are their own lemmas: «ИНН» is not the name «Инна»
    if not any("а" <= ch <= "я" for ch in folded) or (word.isupper() and len(word) <= 6):
        return folded
    found = _stored.get(word)
    if found is None:
        found = fold(parses(folded)[0].normal_form)
    if len(_used) < LEMMA_FILE_MAX:  # a long-running service keeps only what the file can
        _used[word] = found
    return found


def load_lemmas(path: Path) -> int:
    """Read the lemmas a previous process saved to ``path``; how many (0 when the file is
    missing, unreadable or stamped by other versions)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    if not isinstance(data, dict) or data.get("stamp") != _stamp():
        return 0
    table = data.get("lemmas")
    if not isinstance(table, dict):
        return 0
    with _file_lock:
        _stored.update({k: v for k, v in table.items() if isinstance(v, str)})
    return len(table)


def save_lemmas(path: Path) -> bool:
    """Write this process's lemmas, then the file's others, up to ``LEMMA_FILE_MAX``, to
    ``path`` (atomically); nothing when this process parsed no new word. Whether written."""
    with _file_lock:
        used = dict(_used)
        stored = dict(_stored)
        if all(stored.get(word) == found for word, found in used.items()):
            return False
        table = dict(itertools.islice(used.items(), LEMMA_FILE_MAX))
        for word, found in stored.items():
            if len(table) >= LEMMA_FILE_MAX:
                break
            table.setdefault(word, found)
        text = json.dumps({"stamp": _stamp(), "lemmas": table}, ensure_ascii=False)
        try:
            fd, tmp_name = tempfile.mkstemp(prefix=f"{path.name}.", suffix=".tmp", dir=path.parent)
        except OSError:  # a cache: a read-only or full disk costs speed, never the command
            return False
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            return False
        _stored.update(table)
        return True


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` (nominative singular) agreed: «1 статья», «3 статьи», «50 статей»,
    «2 раза» (agreed from the noun's nominative singular reading, whichever case pymorphy3
    reads the word in first: «раз» is a plural genitive first)."""
    readings = _readings(noun)
    nominative = next((p for p in readings if {"nomn", "sing"} <= p.tag.grammemes), readings[0])
    form = nominative.make_agree_with_number(n)
    return f"{n} {form.word if form is not None else noun}"


@lru_cache(maxsize=1_000)
def in_genitive(phrase: str) -> str:
    """A nominative noun phrase in the genitive, its head and agreeing words up to the first
    word that is neither: «страховые взносы» -> «страховых взносов», «налог на прибыль» ->
    «налога на прибыль»; abbreviations (НДС) stay as they are."""
    words = phrase.split()
    out: list[str] = []
    for i, word in enumerate(words):
        if word.isupper() or not any("а" <= ch <= "я" for ch in fold(word)):
            out.append(word)
            continue
        parses = [
            p
            for p in _readings(word)
            if {"NOUN", "ADJF"} & p.tag.grammemes and "nomn" in p.tag.grammemes
        ]
        form = parses[0].inflect({"gent"}) if parses else None
        if form is None:
            out.extend(words[i:])
            break
        out.append(form.word)
    return " ".join(out)


@lru_cache(maxsize=1_000)
def in_nominative(phrase: str) -> str:
    """A noun phrase as asked («какую компенсацию», «на какой вычет») in the nominative,
    each word in its own number: «компенсацию» -> «компенсация», «суточные» stay;
    abbreviations and words without a nominative stay as they are."""
    out: list[str] = []
    for word in phrase.split():
        if word.isupper() or not any("а" <= ch <= "я" for ch in fold(word)):
            out.append(word)
            continue
        parse = _readings(word)[0]
        form = parse.inflect({"nomn"}) if parse.tag.case else None
        out.append(form.word if form is not None else word)
    return " ".join(out)


def role_in_nominative(words: list[str]) -> str:
    """A role asked in an oblique case («главного бухгалтера», «главную кассиршу») in the
    nominative singular, each adjective agreeing with the noun that ends it: «главный
    бухгалтер», «главная кассирша»."""
    if not words:
        return ""
    readings = parses(fold(words[-1]))
    noun = next((p for p in readings if "NOUN" in p.tag), readings[0])
    gender = noun.tag.gender or "masc"
    out: list[str] = []
    for word in words[:-1]:
        adjective = next((p for p in parses(fold(word)) if "ADJF" in p.tag), None)
        form = adjective.inflect({"nomn", "sing", gender}) if adjective else None
        out.append(form.word if form is not None else word)
    return " ".join([*out, noun.normal_form])


def lemmas_of(words: list[str]) -> tuple[str, ...]:
    return tuple(lemma(word) for word in words)


_FIRST_PERSON_LEMMAS = frozenset({"я", "мы", "мой", "наш"})


def _verb_with(word: str, *grammemes: str) -> bool:
    """Whether the most probable reading of a Cyrillic word is a verb with ``grammemes``."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    tag = parses(folded)[0].tag
    return "VERB" in tag and all(g in tag for g in grammemes)


@lru_cache(maxsize=50_000)
def future_verb(word: str) -> bool:
    """A verb in the future tense («установит», «будет»)."""
    return _verb_with(word, "futr")


@lru_cache(maxsize=50_000)
def rule_effect_verb(word: str) -> bool:
    """A future verb that tells what a rule does rather than what someone decides: in the
    third person plural with no one named («зачтут», «удержат»: indefinite-personal) or
    reflexive («зачтётся», «вернётся»: its lemma is a «-ся» verb)."""
    folded = fold(word)
    if not _verb_with(folded, "futr"):
        return False
    best = parses(folded)[0]
    plural = "plur" in best.tag and "3per" in best.tag
    return plural or best.normal_form.endswith(_REFLEXIVE)


_REFLEXIVE = ("ся", "сь")


@lru_cache(maxsize=50_000)
def done(word: str) -> bool:
    """A past-tense verb or participle («вручили», «врученное»): an act already done."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    tag = parses(folded)[0].tag
    return tag.POS in ("VERB", "PRTF", "PRTS") and "past" in tag


@lru_cache(maxsize=50_000)
def past_participle(word: str) -> bool:
    """A past participle by any reading («установленный», which pymorphy3 reads first as an
    adjective; «действовавшая»)."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    return any(p.tag.POS in ("PRTF", "PRTS") and "past" in p.tag for p in parses(folded))


@lru_cache(maxsize=50_000)
def past_verb(word: str) -> bool:
    """A finite verb in the past tense («начислил», «отгрузили»; not the participle
    «указана», which a rule's wording uses as often)."""
    return _verb_with(word, "past")


@lru_cache(maxsize=50_000)
def past_singular_person(word: str) -> bool:
    """A past-tense verb in the masculine or feminine singular («заплатил», «оплатила»):
    said of one person (an organisation is «оно» or «мы»: «заплатило», «заплатили»)."""
    return _verb_with(word, "past", "sing") and (
        _verb_with(word, "masc") or _verb_with(word, "femn")
    )


@lru_cache(maxsize=50_000)
def stated_participle(word: str) -> bool:
    """A short passive participle in the past («указана», «показаны», «прописан»): what a
    given text states, not what a rule requires («указывается», «нужно указать»)."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    tag = parses(folded)[0].tag
    return tag.POS == "PRTS" and "past" in tag


@lru_cache(maxsize=50_000)
def standing_verb(word: str) -> bool:
    """A finite verb in the present or future tense («перечисляется», «перечислит»): what a
    contract's term says happens, not a record that it did."""
    return _verb_with(word, "pres") or _verb_with(word, "futr")


@lru_cache(maxsize=50_000)
def imperfective(word: str) -> bool:
    """A verb or infinitive of the imperfective aspect («оплачивать», «выплачивается»,
    «платим»): a repeated or habitual act, where the perfective («оплатить») is one act."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    tag = parses(folded)[0].tag
    return tag.POS in ("VERB", "INFN") and "impf" in tag


@lru_cache(maxsize=50_000)
def done_participle(word: str) -> bool:
    """A short passive participle in the past under any of its readings («выдан»,
    «перечислен», «заключён»): an act done, said in the passive voice («нам выдан кредит»);
    pymorphy3 may rank an adjective's reading first («перечислен»)."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    return any(p.tag.POS == "PRTS" and "past" in p.tag for p in parses(folded))


@lru_cache(maxsize=50_000)
def past_passive_participle(word: str) -> str | None:
    """The verb (infinitive) of a full passive participle in the past, under any of the
    word's readings («полученный» — «получить», «выданного» — «выдать»): what was done to
    the noun it qualifies; None for another word."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return None
    for parse in parses(folded):
        if parse.tag.POS == "PRTF" and "past" in parse.tag and "pssv" in parse.tag:
            return str(parse.normal_form)
    return None


@lru_cache(maxsize=50_000)
def first_person(word: str) -> bool:
    """«мы», «нам», «наш», «платим», «должна ли я»: the speaker's own word (a first-person
    pronoun or verb): a question in it is about the speaker's affairs."""
    return lemma(word) in _FIRST_PERSON_LEMMAS or _verb_with(word, "1per")


_SECOND_PERSON_LEMMAS = frozenset({"ты", "твой"})


def second_person(word: str) -> bool:
    """«ты», «тебе», «твой», «умеешь»: a word addressed to the listener (in a question to
    the assistant, the assistant itself; the polite «вы» is not counted)."""
    return lemma(word) in _SECOND_PERSON_LEMMAS or _verb_with(word, "2per", "sing")


_PREDICATES = frozenset({"VERB", "INFN", "PRTS", "ADJS"})  # «дал», «перечислить», «обязан»


@lru_cache(maxsize=50_000)
def predicate(word: str) -> bool:
    """A verb, infinitive or short form («должен», «обязан»): what a subject does."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    return parses(folded)[0].tag.POS in _PREDICATES


@lru_cache(maxsize=50_000)
def nominative(word: str) -> bool:
    """Whether the word can be in the nominative: «покупатель», not «с исполнителем»."""
    folded = fold(word)
    return any("nomn" in parse.tag for parse in parses(folded))


@lru_cache(maxsize=50_000)
def oblique_case(word: str) -> bool:
    """Whether some reading of the word has a case other than the nominative: «Банк» (it
    may be accusative), not «продавец»."""
    return any(parse.tag.case and parse.tag.case != "nomn" for parse in parses(fold(word)))


@lru_cache(maxsize=50_000)
def verb_form_of(word: str, verb: str) -> bool:
    """Whether some reading of the word is a finite verb or an infinitive of the lemma
    ``verb``: «стоят» is «стоить» as well as «стоять», «стоить» after «будет» an
    infinitive."""
    return any(
        parse.normal_form == verb and parse.tag.POS in ("VERB", "INFN")
        for parse in parses(fold(word))
    )


@lru_cache(maxsize=50_000)
def can_be(word: str, grammeme: str) -> bool:
    """Whether some reading of the word has ``grammeme`` («Германии» can be ``loct``)."""
    return any(grammeme in parse.tag for parse in parses(fold(word)))


_INTERROGATIVES = frozenset({"какой", "каков", "каковой"})


@lru_cache(maxsize=50_000)
def plural_interrogative(word: str) -> bool:
    """«какие», «каковы»: a question word in the plural, so several values are asked."""
    if lemma(word) not in _INTERROGATIVES:
        return False
    return any("plur" in parse.tag for parse in parses(fold(word))[:1])


@lru_cache(maxsize=50_000)
def part_of_speech(word: str) -> str | None:
    """The most probable part of speech (pymorphy3: NOUN, ADJF, VERB, PREP …); an upper-case
    abbreviation («КПП», «ОГРН») is a noun; None for non-Cyrillic words."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return None
    if word.isupper() and len(word) <= 6:
        return "NOUN"
    return parses(folded)[0].tag.POS


@lru_cache(maxsize=50_000)
def known_word(word: str) -> bool:
    """Whether the dictionary knows the word as written (not a guess from its ending)."""
    return bool(_analyzer().word_is_known(fold(word)))


@lru_cache(maxsize=50_000)
def known_noun(word: str) -> bool:
    """A noun the dictionary knows as written («номер», «помощь»), not a guess from its
    ending."""
    folded = fold(word)
    analyzer = _analyzer()
    return analyzer.word_is_known(folded) and parses(folded)[0].tag.POS == "NOUN"


@lru_cache(maxsize=50_000)
def genitive(word: str) -> bool:
    """Whether the most probable reading is in the genitive: «(вес) груза», «(фонд) оплаты»."""
    folded = fold(word)
    return any("а" <= ch <= "я" for ch in folded) and "gent" in parses(folded)[0].tag


@lru_cache(maxsize=1024)
def oblique_forms(word: str) -> frozenset[str]:
    """The forms of ``word``'s lexeme in a case other than the nominative, as pymorphy3
    inflects it: «кто» -> «кого», «кому», «кем», «ком»."""
    parse = parses(fold(word))[0]
    return frozenset(
        form.word for form in parse.lexeme if form.tag.case and form.tag.case != "nomn"
    )


@lru_cache(maxsize=50_000)
def grammatical_case(word: str) -> str | None:
    """The case of the most probable reading (pymorphy3: nomn, gent, datv, accs, ablt,
    loct …), None for a word without one."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return None
    case = parses(folded)[0].tag.case
    return str(case) if case else None


@lru_cache(maxsize=200_000)
def normal_forms(word: str) -> frozenset[str]:
    """Every normal form pymorphy3 offers, folded, and the word itself: a proper name the
    dictionary does not know («Канцмир») is guessed differently in different cases, and two
    mentions are the same name when their readings share a form."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return frozenset({folded})
    return frozenset({folded, *(fold(p.normal_form) for p in parses(folded))})


_MAX_COMPOUND_PARTS = 3


@lru_cache(maxsize=50_000)
def compound_forms(word: str) -> frozenset[str]:
    """``normal_forms`` of the word and, for a hyphenated name, every join of its parts'
    normal forms: «на Вершине-Строй» and «Вершина-Строй» share «вершина-строй», which the
    forms of the whole word (pymorphy3 inflects only its last part) do not."""
    forms = set(normal_forms(word))
    pieces = word.split("-")
    if 1 < len(pieces) <= _MAX_COMPOUND_PARTS and all(pieces):
        for joined in itertools.product(*(sorted(normal_forms(p)) for p in pieces)):
            forms.add("-".join(joined))
    return frozenset(forms)


_NOT_CLASSIFYING = frozenset({"Qual", "Anum", "Apro", "Subx"})


@lru_cache(maxsize=50_000)
def classifying_adjective(word: str) -> bool:
    """A relative adjective, which names a kind of its noun («кадастровая (стоимость)»,
    «страховая (сумма)»): a full adjective that is not qualitative, ordinal or pronominal
    (pymorphy3: «полная», «первая», «наша» are not)."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    tag = parses(folded)[0].tag
    return tag.POS == "ADJF" and not (_NOT_CLASSIFYING & tag.grammemes)


_PERSON_OR_ORGANISATION = frozenset({"Orgn", "Surn", "Name", "Patr"})


@lru_cache(maxsize=50_000)
def person_or_organisation(word: str) -> bool:
    """Whether some reading of the word is a surname, first name, patronymic or an
    organisation's name (pymorphy3 grammemes): «Соколову», «Домострою», «Вектор-Финансу»."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    return any(_PERSON_OR_ORGANISATION & p.tag.grammemes for p in parses(folded))


@lru_cache(maxsize=50_000)
def surname(word: str) -> bool:
    """A capitalised word some reading of which is a surname («Лаптевой», «Горелова»)."""
    if not word[:1].isupper() or word.isupper():
        return False
    return any("Surn" in p.tag.grammemes for p in parses(fold(word)))


_NOT = "не"  # the prefix of a breach's noun: «неуплата», «непредставление»
_MIN_ACT = 3  # letters of the act a breach's noun negates, at least


def breach_act(lemma: str) -> str | None:
    """The act a breach's noun negates: «уплата» of «неуплата», «представление» of
    «непредставление» (a noun prefixed with «не»); None for any other word."""
    if not lemma.startswith(_NOT) or len(lemma) - len(_NOT) < _MIN_ACT:
        return None
    return lemma[len(_NOT) :] if part_of_speech(lemma) == "NOUN" else None


_PERSON_TAGS = frozenset({"Surn", "Name", "Patr"})


def person_name(word: str) -> bool:
    """A capitalised word some reading of which is a surname, a first name or a
    patronymic (pymorphy3): «Ивана», «Петровой», «Сергеевичу»."""
    if not word[:1].isupper() or word.isupper():
        return False
    return any(_PERSON_TAGS & p.tag.grammemes for p in parses(fold(word)))


@lru_cache(maxsize=50_000)
def place_name(word: str) -> bool:
    """Whether the most probable reading of the word is a place's name (pymorphy3 Geox
    noun): «Дзержинске», «Челябинск», «Казани»."""
    folded = fold(word)
    if not any("а" <= ch <= "я" for ch in folded):
        return False
    tag = parses(folded)[0].tag
    return tag.POS == "NOUN" and "Geox" in tag


_NAME_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})
_CONTENT = frozenset({"NOUN", "ADJF", "ADJS"})


@lru_cache(maxsize=50_000)
def name_like(word: str) -> bool:
    """A word that names something rather than says something: a brand or a name the
    dictionary does not know («Мигалово», «паллето»), a proper name's tag (pymorphy3), or
    capitals inside the word («ТоргМаркет»). Capitalisation in a sentence is the caller's."""
    folded = fold(word)
    if len(folded) < 3 or word.isupper() or not all("а" <= ch <= "я" for ch in folded):
        return False  # «ОГРН», «ТТН»: abbreviations, not names
    if any(ch.isupper() for ch in word[1:]):
        return True
    analyzer = _analyzer()
    return not analyzer.word_is_known(folded) or bool(_NAME_TAGS & parses(folded)[0].tag.grammemes)


@lru_cache(maxsize=50_000)
def animate(word: str) -> bool:
    """A noun naming a person or a party in its most likely reading: «покупатель»,
    «работнику», «перевозчик»."""
    return "anim" in parses(fold(word))[0].tag


@lru_cache(maxsize=50_000)
def participle_noun(word: str) -> str | None:
    """A participle in its most likely reading as a noun would stand in a list of roles:
    masculine singular nominative, folded («Одаряемая» → «одаряемый»); None for any other
    word. pymorphy3's normal form of a participle is its verb («одарять»)."""
    parse = parses(fold(word))[0]
    if parse.tag.POS != "PRTF":
        return None
    form = parse.inflect({"masc", "sing", "nomn"})
    return fold(form.word) if form is not None else None


def content_word(word: str) -> bool:
    """A noun or an adjective: what a text is about (not a verb, pronoun or particle)."""
    folded = fold(word)
    return parses(folded)[0].tag.POS in _CONTENT


def noun(word: str) -> bool:
    """A noun («задаток», «торгах»): a thing a text is about."""
    return parses(fold(word))[0].tag.POS == "NOUN"


_VERBAL = frozenset({"VERB", "INFN", "PRTF", "PRTS", "GRND"})


def verb_like(word: str) -> bool:
    """A verb, a participle or a gerund («голосовал», «поверенному»): an act a text speaks of."""
    return parses(fold(word))[0].tag.POS in _VERBAL


_ADJECTIVE_STEM = 4  # a noun's stem this long makes an adjective of it («касс» — «кассовый»)
_VOWELS = frozenset("аеёиоуыэюяь")


def adjective_of(noun: str, adjective: str) -> bool:
    """``adjective`` (a lemma) is made from the lemma ``noun``: «аванс» — «авансовый»,
    «касса» — «кассовый», «инвентаризация» — «инвентаризационный» (the noun's stem without
    its final vowel starts it)."""
    stem = noun[:-1] if noun[-1:] in _VOWELS else noun
    if len(stem) < _ADJECTIVE_STEM or len(adjective) <= len(noun):
        return False
    if not adjective.startswith(stem):
        return False
    return part_of_speech(noun) == "NOUN" and part_of_speech(adjective) == "ADJF"


def nouns_by_adjective(nouns: Iterable[str], lemmas: Collection[str]) -> set[str]:
    """The ``nouns`` some lemma of ``lemmas`` is an adjective of (:func:`adjective_of`),
    with the lemmas that cannot be (too short, another stem) skipped before the
    dictionary is asked: a sentence's lemmas are checked against every asked noun, among
    those that start as its stem does (:func:`stem_index`)."""
    named: set[str] = set()
    index: dict[str, tuple[str, ...]] | None = None
    for noun in nouns:
        stem = noun[:-1] if noun[-1:] in _VOWELS else noun
        if len(stem) < _ADJECTIVE_STEM:
            continue
        if index is None:
            index = stem_index(lemmas) if isinstance(lemmas, frozenset) else _index(lemmas)
        longer = len(noun)
        near = index.get(stem[:_ADJECTIVE_STEM], ())
        if any(adjective_of(noun, lm) for lm in near if len(lm) > longer and lm.startswith(stem)):
            named.add(noun)
    return named


def _index(lemmas: Iterable[str]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for lm in lemmas:
        if len(lm) > _ADJECTIVE_STEM:
            grouped.setdefault(lm[:_ADJECTIVE_STEM], []).append(lm)
    return {start: tuple(words) for start, words in grouped.items()}


@lru_cache(maxsize=16_384)  # a sentence's lemmas, asked about for every question noun: bounded
def stem_index(lemmas: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The lemmas longer than a stem by their first ``_ADJECTIVE_STEM`` letters (an
    adjective of a noun starts as the noun's stem does); read only, never changed."""
    return _index(lemmas)


_CONTENT_OR_VERB = frozenset({"NOUN", "ADJF", "PRTF", "VERB", "INFN"})


def content_or_verb(word: str) -> bool:
    """A noun, adjective or verb: what a sentence is about and what happens in it (not a
    pronoun, preposition or particle)."""
    return parses(fold(word))[0].tag.POS in _CONTENT_OR_VERB


_PARTS = re.compile(r"[-.‐‑–—]")


def word_parts(word: str) -> list[str]:
    """The word and, for a compound («Тайга-Софт», «Тайга.Смета», «паллето-место»), its
    parts: each part may be what another text writes alone."""
    parts = [p for p in _PARTS.split(word) if p]
    return [word, *parts] if len(parts) > 1 else [word]


# a capitalised segment of a name written in CamelCase: «Пром», «Снаб», «Комплект»
_SEGMENT = re.compile(r"[А-ЯЁA-Z][а-яёa-z]+")
_MIN_LEADING = 2  # segments of a shortening: «ПромСнаб», never «Пром» alone


@lru_cache(maxsize=50_000)
def leading_names(word: str) -> frozenset[str]:
    """The shortenings of a name written in CamelCase by its leading segments, folded:
    «ПромСнабКомплект» is called «ПромСнаб» too («у ПромСнаба»), as a hyphenated name is
    called by its first part; a name of two segments or one has none."""
    segments = _SEGMENT.findall(word)
    if len(segments) <= _MIN_LEADING or "".join(segments) != word:
        return frozenset()
    return frozenset(fold("".join(segments[:n])) for n in range(_MIN_LEADING, len(segments)))
