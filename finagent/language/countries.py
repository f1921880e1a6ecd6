"""Countries named in Russian text: ISO 3166 names (pycountry's Russian locale), their
Russian abbreviations and the adjectives derived from them, all read through pymorphy3.

A name is any of a country's Russian names (short, common, official); a word of a name
that pymorphy3 tags as a place (Geox) names the country alone («Кипр», «Америка»); an
upper-case initialism of a name is the country when pymorphy3 knows it as a place
(«США», «ОАЭ», «ФРГ»). An adjective names a country when it is derived from one of its
names: its lemma is the name's stem (all but at most one final letter of what every form
of the name shares) followed by a suffix the adjectives of the official names themselves
show («Австрийская Республика»: «австри» + «йский»), or it is an adjective of the
country's own official name («Турецкая Республика»). Russia is never a country here.

Building these tables reads every ISO name through pymorphy3 (about 0.1 s of CPU), which
a process would pay on its first question: the package ships them (``data/countries.json``,
written by ``python scripts/country_tables.py``) with a digest of what they are computed
from (this module, the lemmatiser's functions it calls, pycountry's ISO 3166-1 list and
Russian names, pymorphy3 and its dictionary). They are used only when that digest is the
installed one's; otherwise they are computed as before.
"""

from __future__ import annotations

import gettext
import hashlib
import importlib.util
import inspect
import json
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from razdel import tokenize

from finagent.language import lemmas
from finagent.language.lemmas import best_parse, can_be, fold

HOME = "RU"
# colloquial names ISO does not list, and adjectives not derived from a name by the
# productive suffixes (suppletive «немецкий», or «-анский», «-инский» after a shortened stem)
ALIASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("BY", ("Белоруссия",)),
    ("GB", ("Великобритания", "Англия", "Британия")),
    ("NL", ("Голландия",)),
    ("AE", ("Эмираты", "Дубай")),
    ("US", ("США", "Америка", "американский")),
    ("AE", ("эмиратский",)),
    ("GE", ("грузинский",)),
    ("UZ", ("узбекский",)),
    ("TJ", ("таджикский",)),
    ("KG", ("кыргызский",)),
    ("DE", ("немецкий",)),
    ("TH", ("тайский",)),
    ("FI", ("финский",)),
    ("DK", ("датский",)),
    ("SE", ("шведский",)),
    ("AM", ("армянский",)),
)
_MIN_ROOT = 4  # a shorter shared beginning («куб-», «арм-») is not evidence of derivation
_NAME_PARTS = ("name", "common_name", "official_name")


@dataclass(frozen=True)
class Country:
    code: str  # ISO 3166-1 alpha-2
    name: str  # Russian short name


@dataclass(frozen=True)
class _Tables:
    countries: dict[str, Country]
    phrases: dict[str, str]  # a multi-word name -> code
    nouns: dict[str, str]  # a place noun's lemma -> code
    stems: dict[str, tuple[str, str]]  # a place noun's lemma -> (its stem, code)
    adjectives: dict[str, str]  # an official name's adjective lemma -> code
    initialisms: dict[str, str]  # «США» -> code
    suffixes: frozenset[str]


def _russian_names(translate: gettext.NullTranslations, country: object) -> list[str]:
    names = []
    for part in _NAME_PARTS:
        english = getattr(country, part, None)
        if english:
            # «Виргинские острова (США)»: the bracket names another country
            names.append(translate.gettext(english).replace("\u0301", "").split(" (")[0])
    return [n for n in names if any("а" <= ch <= "я" for ch in n.lower())]


def _shared_prefix(words: list[str]) -> str:
    """The letters every word begins with."""
    first = min(words, default="")
    last = max(words, default="")
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


def _stem(word: str) -> str:
    """What every form of the word's most probable reading shares («кипр», «германи»)."""
    return _shared_prefix([fold(form.word) for form in best_parse(word).lexeme])


def _place(word: str) -> bool:
    tag = best_parse(word).tag
    return tag.POS == "NOUN" and "Geox" in tag


def _relational_adjective(word: str) -> bool:
    tag = best_parse(word).tag
    return tag.POS == "ADJF" and not ({"Qual", "Apro"} & tag.grammemes)


def _initialism(name: str) -> str:
    words = [w for w in name.replace("-", " ").replace("—", " ").split() if w[:1].isalpha()]
    return "".join(w[0] for w in words if fold(w) != "и").upper()


def _norm(word: str) -> str:
    return fold(best_parse(word).normal_form)


SHIPPED_PATH = Path(__file__).with_name("data") / "countries.json"


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(name)
    return Path(next(iter(spec.submodule_search_locations)))


def inputs_digest() -> str:
    """The digest of what the tables are computed from, as installed."""
    sha = hashlib.sha256()
    sha.update(Path(__file__).read_bytes())
    for helper in (lemmas.best_parse, lemmas.can_be, lemmas.fold, lemmas.parses, lemmas._readings):
        sha.update(inspect.getsource(helper).encode())
    countries_db = _package_dir("pycountry")
    morph = _package_dir("pymorphy3")
    for path in (
        countries_db / "databases" / "iso3166-1.json",
        countries_db / "locales" / "ru" / "LC_MESSAGES" / "iso3166-1.mo",
        morph / "version.py",
        _package_dir("pymorphy3_dicts_ru") / "data" / "meta.json",
    ):
        sha.update(path.name.encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()


def tables_json(tables: _Tables, digest: str) -> dict[str, Any]:
    """The tables as JSON, their dicts in their order (the first match wins in them)."""
    return {
        "inputs": digest,
        "countries": {code: c.name for code, c in tables.countries.items()},
        "phrases": tables.phrases,
        "nouns": tables.nouns,
        "stems": {noun: list(pair) for noun, pair in tables.stems.items()},
        "adjectives": tables.adjectives,
        "initialisms": tables.initialisms,
        "suffixes": sorted(tables.suffixes),
    }


def _from_json(data: dict[str, Any]) -> _Tables:
    return _Tables(
        countries={code: Country(code, name) for code, name in data["countries"].items()},
        phrases=dict(data["phrases"]),
        nouns=dict(data["nouns"]),
        stems={noun: (stem, code) for noun, (stem, code) in data["stems"].items()},
        adjectives=dict(data["adjectives"]),
        initialisms=dict(data["initialisms"]),
        suffixes=frozenset(data["suffixes"]),
    )


def shipped_tables(path: Path = SHIPPED_PATH) -> _Tables | None:
    """The shipped tables when they were computed from what is installed, else None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("inputs") != inputs_digest():
            return None
        return _from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_shipped(path: Path = SHIPPED_PATH) -> None:
    """Compute the tables and write them where the package ships them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(tables_json(computed_tables(), inputs_digest()), ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


@cache
def _tables() -> _Tables:
    return shipped_tables() or computed_tables()


def computed_tables() -> _Tables:
    """The tables computed from pycountry and pymorphy3."""
    import pycountry

    translate = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["ru"])
    countries: dict[str, Country] = {}
    phrases: dict[str, str] = {}
    nouns: dict[str, str] = {}
    official_adjectives: dict[str, list[tuple[str, str]]] = {}
    initialisms: Counter[str] = Counter()
    initialism_code: dict[str, str] = {}
    for record in pycountry.countries:
        code = record.alpha_2
        if code == HOME:
            continue
        names = _russian_names(translate, record)
        if not names:
            continue
        countries[code] = Country(code, names[0])
        for name in names:
            words = [t.text for t in tokenize(name) if any(ch.isalpha() for ch in t.text)]
            if len(words) > 1:
                phrases.setdefault(name, code)
                letters = _initialism(name)
                initialisms[letters] += 1
                initialism_code[letters] = code
            for word in words:
                if _place(word):
                    # a short name is its own country first («Франция», not «Сен-Мартен»)
                    if len(words) == 1 or _norm(word) not in nouns:
                        nouns[_norm(word)] = code
                elif _relational_adjective(word):
                    official_adjectives.setdefault(code, []).append((_norm(word), name))
    for code, aliases in ALIASES:
        for name in aliases:
            if _relational_adjective(name):
                official_adjectives.setdefault(code, []).append((_norm(name), name))
            elif not name.isupper():
                nouns.setdefault(_norm(name), code)
    stems = {noun: (_stem(noun), code) for noun, code in nouns.items()}
    # the suffixes that turn a name into its adjective, as the official names show them
    seen: Counter[str] = Counter()
    adjectives: dict[str, str] = {}
    for code, pairs in official_adjectives.items():
        own = [noun for noun, owner in nouns.items() if owner == code]
        for adjective, name in pairs:
            if any(alias == name for _, others in ALIASES for alias in others):
                adjectives[adjective] = code  # an alias teaches no suffix
                continue
            for noun in own:
                shared = _shared_prefix([adjective, noun])
                if len(shared) >= 2:
                    adjectives[adjective] = code
                    seen[adjective[len(shared) :]] += 1
    productive = frozenset(suffix for suffix, count in seen.items() if count > 1)
    known = {
        letters: initialism_code[letters]
        for letters, count in initialisms.items()
        if count == 1 and len(letters) >= 3 and can_be(letters, "Geox")
    }
    return _Tables(countries, phrases, nouns, stems, adjectives, known, productive)


def country(code: str) -> Country | None:
    """The country of an ISO code, None for Russia or an unknown code."""
    return _tables().countries.get(code)


def display_name(code: str) -> str:
    """A short Russian name to show: the ISO short name, or for a multi-word one an
    initialism or colloquial name Russians use («США», «Великобритания»)."""
    found = _tables().countries[code]
    if " " not in found.name:
        return found.name
    for letters, owner in _tables().initialisms.items():
        if owner == code:
            return letters
    for owner, names in ALIASES:
        if owner == code and not _relational_adjective(names[0]):
            return names[0]
    return found.name


@lru_cache(maxsize=20_000)
def country_of_noun(word: str) -> str | None:
    """The code of a country a single word names («Кипре», «США», «Белоруссии»), or None."""
    tables = _tables()
    if word.isupper() and word in tables.initialisms:
        return tables.initialisms[word]
    return tables.nouns.get(_norm(word))


@lru_cache(maxsize=20_000)
def country_of_adjective(word: str) -> str | None:
    """The code of the country a relational adjective derives from («кипрская»,
    «казахстанское», «турецкий»), or None («армейский», «индивидуальный»)."""
    if not _relational_adjective(word):
        return None
    tables = _tables()
    adjective = _norm(word)
    if adjective in tables.adjectives:
        return tables.adjectives[adjective]
    best: tuple[int, str] | None = None
    for noun, (stem, code) in tables.stems.items():
        shared = len(_shared_prefix([adjective, noun]))
        for root in range(shared, _MIN_ROOT - 1, -1):
            # the name may lose a final letter or two of its stem («белорусси» -> «белорус»)
            if len(stem) - root > (1 if root == _MIN_ROOT else 2):
                break
            if adjective[root:] in tables.suffixes and (best is None or root > best[0]):
                best = (root, code)
    return best[1] if best else None


def name_phrases() -> dict[str, str]:
    """The multi-word names («Республика Казахстан», to match as lemmas) -> code."""
    return _tables().phrases
