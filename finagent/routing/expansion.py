"""Rule-based Russian query expansion (the no-LLM path of the orchestrator).

Documented behaviour: the original question always comes first; when any rule fires, a
second sub-query appends the Tax Code's own wording for the colloquial or abbreviated
words of the question («упрощенка» -> «упрощенная система налогообложения», «НДС» ->
«налог на добавленную стоимость», «работодатель» -> «налоговый агент», ...). At most two
sub-queries. The LLM orchestrator returns its own sub-queries instead. Measured effect on
evals/datasets/retrieval_taxcode.jsonl: docs/retrieval.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from finagent.language.glossary import clipped_compound, glossary_terms
from finagent.language.lemmas import lemma
from finagent.legal.taxes import compound_tax_names

# colloquial / abbreviated wording -> the Code's own terms (stem-like prefixes, lower case)
_EXPANSIONS: tuple[tuple[str, str], ...] = (
    (r"\bупрощенк\w*|\bусн\b", "упрощенная система налогообложения"),
    (r"\bпатент\w*|\bпсн\b", "патентная система налогообложения патент"),
    (r"\bндс\b", "налог на добавленную стоимость"),
    (r"\bндфл\b|\b3-ндфл\b|подоходн\w*", "налог на доходы физических лиц"),
    (r"\bип\b", "индивидуальный предприниматель"),
    (r"взнос\w*", "страховые взносы"),
    (r"штраф\w*", "влечет взыскание штрафа"),
    (r"вычет\w*", "налоговый вычет"),
    (r"квартир\w*|ипотек\w*|жиль\w*", "имущественный налоговый вычет жилой дом квартира"),
    (r"лечени\w*|зуб\w*|врач\w*|медицин\w*", "медицинские услуги лечение"),
    (r"учеб\w*|обучени\w*|университет\w*", "обучение в образовательных организациях"),
    (r"ребен\w*|\bдет(?:и|ей)\b", "на каждого ребенка"),
    (r"нерезидент\w*", "не являющиеся налоговыми резидентами"),
    (r"налогов(?:ая|ую|ой)\b(?!\s+(?:декларац|проверк|ставк|баз))|налоговик\w*", "налоговый орган"),
    (r"фирм\w*|компани\w*", "организации"),
    (r"прибыл\w*", "налог на прибыль организаций"),
    (r"декларац\w*|отчет\w*", "налоговая декларация"),
    (r"опозда\w*|просроч\w*|не сдал\w*", "непредставление в установленный срок"),
    (r"не заплат\w*|неуплат\w*|недоплат\w*", "неуплата или неполная уплата сумм налога"),
    (r"возмещени\w*|вернуть\b", "возврат возмещение"),
    (r"ставк\w*|процент\w*", "налоговая ставка"),
    (r"срок\w*|до какого числа|когда", "срок не позднее"),
    # added after looking at the misses of the first run (dev-set tuning, see docs)
    (r"работодател\w*", "налоговый агент"),
    (r"ипотек\w*", "проценты по кредитам на приобретение жилья"),
    (r"сдаю\b|сдава\w*|аренд\w*", "доходы от сдачи в аренду имущества"),
    (r"\b3-ндфл\b", "налоговая декларация физические лица"),
    (r"на учет\w*|учет\w* в налоговой", "постановка на учет в налоговом органе"),
)


# a dwelling («квартира», «жильё», «ипотека») is the property deduction's subject only when
# the question speaks of a deduction, of buying or of selling one (ст. 220 covers both):
# renting a flat out, its property tax or its inheritance is another subject
_DWELLING_TERMS = "имущественный налоговый вычет жилой дом квартира"
_DEDUCTION_OR_PURCHASE = frozenset(
    {"вычет", "покупка", "купить", "покупать", "приобретение", "приобрести", "приобретать"}
    | {"ипотека", "ипотечный", "строительство"}
    | {"продажа", "продать", "продавать"}
)


def _asks_property_deduction(lowered: str) -> bool:
    """The question speaks of a deduction, a purchase or a sale (by their lemmas)."""
    return not _DEDUCTION_OR_PURCHASE.isdisjoint(lemma(w) for w in _WORD.findall(lowered))


_WORD = re.compile(r"[^\W\d_]+")


def _always(lowered: str) -> bool:
    return True


# the rules that fire only for a question of their subject
_GUARDS: dict[str, Callable[[str], bool]] = {_DWELLING_TERMS: _asks_property_deduction}


def expand_query(question: str) -> list[str]:
    """The question, plus a reformulation in the Code's terms (when any rule fires)."""
    original = " ".join(question.split())
    lowered = original.lower().replace("ё", "е")
    terms = [
        term
        for pattern, term in _EXPANSIONS
        if re.search(pattern, lowered) and _GUARDS.get(term, _always)(lowered)
    ]
    terms += glossary_terms(original)
    # «госномер» -> «государственный номер»: a clipped prefix the glossary teaches (its
    # own cues are among ``glossary_terms`` already)
    terms += [
        " ".join(phrase) for word in _WORD.findall(lowered) for phrase in clipped_compound(word)
    ]
    terms += compound_tax_names(original)  # «турналог» -> «туристический налог»
    if not terms:
        return [original]
    return [original, f"{original} {' '.join(dict.fromkeys(terms))}"]
