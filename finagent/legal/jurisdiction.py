"""Questions about another country's taxes: the agent knows Russian law only.

Locative and adjective forms name the country («НДС в Казахстане», «немецкий налог»); a
direction («экспорт в Казахстан») or a Russian angle («резидент РФ», «НДФЛ») keeps the
question Russian.
"""

from __future__ import annotations

import re

from finagent.language.lemmas import lemma

_COUNTRIES: dict[str, str] = {
    "Казахстан": r"в\s+казахстане|казахстанск\w*|республик\w\s+казахстан|\b(?-i:РК)\b",
    "Беларусь": r"в\s+беларуси|в\s+белоруссии|белорусск\w*|\b(?-i:РБ)\b",
    "Германия": r"в\s+германии|германск\w*|немецк\w*|\b(?-i:ФРГ)\b",
    "США": r"в\s+сша|в\s+америке|американск\w*|\b(?-i:IRS)\b",
    "Китай": r"в\s+китае|китайск\w*|\b(?-i:КНР)\b",
    "Узбекистан": r"в\s+узбекистане|узбекск\w*",
    "Армения": r"в\s+армении|армянск\w*",
    "Грузия": r"в\s+грузии|грузинск\w*",
    "Киргизия": r"в\s+киргизии|в\s+кыргызстане|киргизск\w*|кыргызск\w*",
    "Таджикистан": r"в\s+таджикистане|таджикск\w*",
    "Азербайджан": r"в\s+азербайджане|азербайджанск\w*",
    "Турция": r"в\s+турции|турецк\w*",
    "ОАЭ": r"в\s+оаэ|в\s+дубае|эмиратск\w*",
    "Кипр": r"на\s+кипре|кипрск\w*",
    "Франция": r"во\s+франции|французск\w*",
    "Великобритания": r"в\s+великобритании|в\s+англии|британск\w*",
    "Италия": r"в\s+италии|итальянск\w*",
    "Испания": r"в\s+испании|испанск\w*",
    "Польша": r"в\s+польше|польск\w*",
    "Сербия": r"в\s+сербии|сербск\w*",
    "Израиль": r"в\s+израиле|израильск\w*",
    "Таиланд": r"в\s+таиланде|тайск\w*",
    "Индия": r"в\s+индии|индийск\w*",
    "Япония": r"в\s+японии|японск\w*",
    "Украина": r"в\s+украине|на\s+украине|украинск\w*",
    "Канада": r"в\s+канаде|канадск\w*",
    "Швейцария": r"в\s+швейцарии|швейцарск\w*",
    "Нидерланды": r"в\s+нидерландах|в\s+голландии|нидерландск\w*",
    "Чехия": r"в\s+чехии|чешск\w*",
    "Латвия, Литва или Эстония": r"в\s+латвии|в\s+литве|в\s+эстонии|латвийск\w*|литовск\w*"
    r"|эстонск\w*",
    "Финляндия": r"в\s+финляндии|финск\w*",
    "Молдова": r"в\s+молдове|в\s+молдавии|молдавск\w*",
}
_COUNTRY_RE = {name: re.compile(rf"(?:{p})", re.IGNORECASE) for name, p in _COUNTRIES.items()}
# a Russian taxpayer's foreign income or trade is a Tax Code question
_RUSSIAN_ANGLE = re.compile(
    r"\bрф\b|в\s+росси|российск\w*|резидент\w*|россиян\w*|ндфл|ндс\s+при\s+(?:экспорте|импорте)",
    re.IGNORECASE,
)


# «по законам Казахстана», «по законодательству Германии»: the law of a country, by lemma
_LAW_WORDS = frozenset({"закон", "законодательство", "право", "кодекс", "норма", "правило"})
_ALIASES = {
    "белоруссия": "Беларусь",
    "америка": "США",
    "англия": "Великобритания",
    "голландия": "Нидерланды",
    "кыргызстан": "Киргизия",
    "молдавия": "Молдова",
    "латвия": "Латвия, Литва или Эстония",
    "литва": "Латвия, Литва или Эстония",
    "эстония": "Латвия, Литва или Эстония",
}


def _law_of_country(query: str) -> str | None:
    from finagent.language.text import analyse

    names = {lemma(name): name for name in _COUNTRIES if " " not in name} | _ALIASES
    for sentence in analyse(query).sentences:
        lemmas = sentence.lemmas
        for i, word in enumerate(lemmas[:-1]):
            if word not in _LAW_WORDS:
                continue
            following = lemmas[i + 2] if lemmas[i + 1] == "республика" else lemmas[i + 1]
            if following in names:
                return names[following]
    return None


def foreign_country(query: str) -> str | None:
    """The other country a question is about, or None (also when it has a Russian angle)."""
    if _RUSSIAN_ANGLE.search(query):
        return None
    for country, pattern in _COUNTRY_RE.items():
        if pattern.search(query):
            return country
    return _law_of_country(query)
