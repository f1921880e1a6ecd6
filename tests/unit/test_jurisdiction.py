"""Which other country's taxes a question is about (the agent answers on Russian law only)."""

from __future__ import annotations

import pytest

from finagent.language.countries import country_of_adjective, country_of_noun, display_name
from finagent.legal.jurisdiction import foreign_country


@pytest.mark.parametrize(
    ("question", "country"),
    [
        ("Какая ставка НДС в Казахстане?", "Казахстан"),
        # the law of a country, in any case of its name
        ("Какой срок подачи возражений на акт по законам Казахстана?", "Казахстан"),
        ("По законодательству Германии до какого числа платить налог?", "Германия"),
        ("Срок уплаты по кодексу Республики Беларусь?", "Беларусь"),
        # countries no list named: ISO names, their adjectives and initialisms
        ("Когда сдают годовую декларацию в Португалии?", "Португалия"),
        ("Сколько платит вьетнамская фирма с прибыли?", "Вьетнам"),
        ("Срок уплаты налога по законам Республики Молдова?", "Республика Молдова"),
        ("Какая ставка налога с продаж в Мексике?", "Мексика"),
        ("Живу в ЮАР: до какого числа подать декларацию?", "ЮАР"),
        ("Эквадорская компания должна сдать отчет: какой срок?", "Эквадор"),
        # a direction of trade or a Russian angle keeps the question Russian
        ("Какая ставка НДС при экспорте в Казахстан?", None),
        ("Резидент РФ получил доход в Германии: какой НДФЛ?", None),
        # a resident of another country is that country's taxpayer («резидент» alone is not
        # a Russian angle then); with НДФЛ named the question is still Russian
        ("Сколько подоходного налога платят резиденты Франции?", "Франция"),
        ("Какой налог на дивиденды у налогового резидента Кипра?", "Кипр"),
        ("Какой НДФЛ у резидента Германии с дохода от сдачи квартиры в Москве?", None),
        ("Кто признаётся налоговым резидентом?", None),
        ("До какого числа подать возражения на акт по законам РФ?", None),
        # Russian places, languages and ordinary words are no country
        ("ИП в Казани получил требование 3 марта: до какого числа ответить?", None),
        ("Кубанское хозяйство уплатило налог позже срока: сколько пеней?", None),
        ("Армейский магазин подал декларацию в Республике Татарстан, когда проверка?", None),
        ("Документы на английском языке: какой срок представления?", None),
        ("Индивидуальный предприниматель в Крыму: срок уплаты?", None),
    ],
)
def test_foreign_country(question: str, country: str | None) -> None:
    assert foreign_country(question) == country


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("эстонское", "EE"),
        ("чилийская", "CL"),
        ("турецкой", "TR"),
        ("белорусская", "BY"),
        ("узбекистанский", "UZ"),
        ("российская", None),
        ("маленькая", None),
        ("армейский", None),
        ("кубанский", None),
        ("индивидуальный", None),
    ],
)
def test_an_adjective_is_derived_from_a_countrys_name(word: str, code: str | None) -> None:
    assert country_of_adjective(word) == code


def test_names_abbreviations_and_russia() -> None:
    assert country_of_noun("Никарагуа") == "NI"
    assert country_of_noun("Эквадоре") == "EC"
    assert country_of_noun("ОАЭ") == "AE"
    assert country_of_noun("России") is None
    assert country_of_noun("Москве") is None
    assert display_name("US") == "США"
