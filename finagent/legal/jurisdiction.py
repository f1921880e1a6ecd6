"""Questions about another country's taxes: the agent knows Russian law only.

A country is named by a place («НДС в Казахстане», «на Кипре»), by an adjective derived
from its name («кипрская компания», «казахстанское ТОО») or as the source of a law («по
законам Казахстана», «по кодексу Республики Беларусь»); countries come from ISO 3166
through `finagent.language.countries`, so Russian places never count. A direction («экспорт
в Казахстан»), a language («на английском языке») or a Russian angle («резидент РФ»,
«НДФЛ») keeps the question Russian.
"""

from __future__ import annotations

from finagent.language.countries import (
    country_of_adjective,
    country_of_noun,
    display_name,
    name_phrases,
)
from finagent.language.cues import find_cue, has_any
from finagent.language.lemmas import can_be
from finagent.language.text import Analysed, AnalysedSentence, analyse

# a Russian taxpayer's foreign income or trade is a Tax Code question
_RUSSIAN_ANGLE = frozenset(
    {"рф", "россия", "российский", "резидент", "нерезидент", "россиянин", "ндфл"}
)
_RUSSIAN_TRADE = ("НДС при экспорте", "НДС при импорте")
# a resident of another country («резиденты Германии») is that country's question
_RESIDENT = frozenset({"резидент", "нерезидент"})
_PLACE_PREPOSITIONS = frozenset({"в", "во", "на"})
_LAW_WORDS = frozenset({"закон", "законодательство", "право", "кодекс", "норма", "правило"})
_LANGUAGE = "язык"


def _located(sentence: AnalysedSentence, i: int) -> bool:
    """«в Казахстане», «на Кипре»: the word after «в»/«на» in the locative, not a direction
    («в Казахстан»)."""
    if i == 0 or sentence.lemmas[i - 1] not in _PLACE_PREPOSITIONS:
        return False
    word = sentence.tokens[i].text
    return can_be(word, "loct") or word.isupper()


def _of_law(sentence: AnalysedSentence, i: int) -> bool:
    """«по законам Казахстана», «кодексу Республики Беларусь»: a law word before the name."""
    before = sentence.lemmas[max(0, i - 2) : i]
    return bool(before) and (
        before[-1] in _LAW_WORDS
        or before[-1] in _RESIDENT
        or (before[-1] == "республика" and before[0] in _LAW_WORDS | _RESIDENT)
    )


def _phrase_country(sentence: AnalysedSentence) -> str | None:
    for phrase, code in name_phrases().items():
        i = find_cue(sentence.lemmas, phrase)
        if i >= 0 and sentence.tokens[i].text[:1].isupper():
            if _located(sentence, i) or _of_law(sentence, i):
                return code
    return None


def _sentence_country(sentence: AnalysedSentence) -> tuple[str, bool] | None:
    """The country a sentence names and whether only by an adjective of a party
    («эстонская фирма»), not as a place or a law."""
    found = _phrase_country(sentence)
    if found:
        return found, False
    by_adjective: str | None = None
    for i, token in enumerate(sentence.tokens):
        word = token.text
        if not any("а" <= ch <= "я" for ch in word.lower()):
            continue
        adjective = country_of_adjective(word)
        following = sentence.lemmas[i + 1] if i + 1 < len(sentence.lemmas) else ""
        if adjective and following != _LANGUAGE:
            by_adjective = by_adjective or adjective
            continue
        if word[:1].isupper():
            code = country_of_noun(word)
            if code and (_located(sentence, i) or _of_law(sentence, i)):
                return code, False
    return (by_adjective, True) if by_adjective else None


def _resident_abroad(analysed: Analysed) -> bool:
    """«резиденты Германии», «налоговый резидент Республики Кипр»: the residence named is
    another country's, so «резидент» is no Russian angle."""
    for sentence in analysed.sentences:
        for i, token in enumerate(sentence.tokens[1:], start=1):
            if sentence.lemmas[i - 1] in _RESIDENT | {"республика"} and token.text[:1].isupper():
                if country_of_noun(token.text):
                    return True
    return False


def _found(query: str) -> tuple[str, bool] | None:
    analysed = analyse(query)
    lemmas = [lemma for sentence in analysed.sentences for lemma in sentence.lemmas]
    angle = _RUSSIAN_ANGLE.intersection(lemmas)
    if angle <= _RESIDENT and _resident_abroad(analysed):
        angle = frozenset()
    if angle or has_any(lemmas, _RUSSIAN_TRADE):
        return None
    parties: list[str] = []
    for sentence in analysed.sentences:
        found = _sentence_country(sentence)
        if found and not found[1]:
            return found
        if found:
            parties.append(found[0])
    return (parties[0], True) if parties else None


def foreign_country(query: str) -> str | None:
    """The other country a question is about, or None (also when it has a Russian angle)."""
    found = _found(query)
    return display_name(found[0]) if found else None


_AUTHORITY_WORDS = frozenset(
    {"налоговый", "налоговая", "инспекция", "служба", "орган", "суд", "министерство", "комитет"}
)


def foreign_authority(query: str) -> str | None:
    """Another country's authority acts in the question («акт от налоговой Казахстана»,
    «налоговая служба Германии»): its periods are that country's, whatever Russian angle
    the question has («мы, российское ООО»)."""
    for sentence in analyse(query).sentences:
        for i, token in enumerate(sentence.tokens):
            if i == 0 or not token.text[:1].isupper():
                continue
            code = country_of_noun(token.text)
            if code and sentence.lemmas[i - 1] in _AUTHORITY_WORDS and can_be(token.text, "gent"):
                return display_name(code)
    return None


def foreign_party_only(query: str) -> bool:
    """Whether the other country is named only as a party's adjective («эстонская фирма
    открыла у нас подразделение»), not as a place or a source of law: the party may be a
    foreign person acting under the Russian Code."""
    found = _found(query)
    return found is not None and found[1]
