"""What a question asks, read from its wording: small tables of ordinary words (matched as
lemmas, see finagent.language.cues), never alternations of word endings."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Literal, cast, get_args

from finagent.yaml_data import load_yaml

AnswerType = Literal[
    "rate",
    "amount",
    "date",
    "period",
    "party",
    "limit",
    "yes_no",
    "procedure",
    "definition",
    "unknown",
]


@dataclass(frozen=True)
class Cue:
    phrase: str
    answer_type: AnswerType
    strength: int  # the strongest cue names the answer type; ties go to the earliest


ANSWER_CUES = (
    Cue("что такое", "definition", 6),
    Cue("что означает", "definition", 6),
    Cue("что значит", "definition", 6),
    Cue("что понимается под", "definition", 6),
    Cue("определение", "definition", 5),
    Cue("можно ли", "yes_no", 5),
    Cue("нужно ли", "yes_no", 5),
    Cue("надо ли", "yes_no", 5),
    Cue("обязан ли", "yes_no", 5),
    Cue("должен ли", "yes_no", 5),
    Cue("вправе ли", "yes_no", 5),
    Cue("облагается ли", "yes_no", 5),
    Cue("ли", "yes_no", 3),
    Cue("максимальный", "limit", 5),
    Cue("предельный", "limit", 5),
    Cue("минимальный", "limit", 5),
    Cue("лимит", "limit", 5),
    Cue("порог", "limit", 5),
    Cue("потолок", "limit", 5),
    Cue("ограничение", "limit", 4),
    Cue("предел", "limit", 5),
    Cue("максимум", "limit", 5),
    Cue("минимум", "limit", 5),
    Cue("не более", "limit", 4),
    Cue("норматив", "limit", 4),  # a standard of an expense is its ceiling
    Cue("ставка", "rate", 4),
    Cue("процент", "rate", 4),
    Cue("%", "rate", 4),
    Cue("тариф", "rate", 4),
    Cue("коэффициент", "rate", 4),
    Cue("какая часть", "rate", 4),
    Cue("какая доля", "rate", 4),
    Cue("когда", "date", 4),
    Cue("до какого числа", "date", 5),
    Cue("какого числа", "date", 5),
    Cue("какая дата", "date", 5),
    Cue("дата", "date", 3),
    Cue("срок", "period", 3),
    Cue("сколько дней", "period", 5),
    Cue("сколько месяцев", "period", 5),
    Cue("сколько мес", "period", 5),  # the unit abbreviated: a count of months as well
    Cue("сколько дн", "period", 5),
    Cue("сколько лет", "period", 5),
    Cue("сколько недель", "period", 5),
    # «за сколько часов до заезда снять бронь»: how far ahead, not a count of hours worked
    Cue("за сколько часов", "period", 5),
    Cue("сколько кварталов", "period", 5),  # «сколько кварталов нельзя сменить»: a span
    Cue("как долго", "period", 5),
    Cue("сколько времени", "period", 5),
    Cue("по времени", "period", 5),  # «сколько по времени идёт проверка»
    Cue("длиться", "period", 5),
    Cue("в течение какого", "period", 5),
    Cue("за какое время", "period", 5),  # «за какое время должна приехать охрана»
    # «через сколько заблокируют счёт», «спустя сколько вернут налог»: a span after an
    # event, whatever noun follows (a sanction named later is its condition)
    Cue("через сколько", "period", 5),
    Cue("спустя сколько", "period", 5),
    # «за сколько нужно предупредить арендодателя»: how far ahead, not a price
    Cue("предупредить", "period", 4),
    Cue("кто", "party", 4),
    Cue("с кем", "party", 4),
    Cue("контрагент", "party", 3),
    Cue("какая организация", "party", 4),
    Cue("какие документы", "procedure", 4),
    Cue("как", "procedure", 2),
    Cue("порядок", "procedure", 3),
    Cue("перечень", "procedure", 3),
    Cue("что нужно", "procedure", 3),
    Cue("что делать", "procedure", 4),
    Cue("какие", "procedure", 1),
    # «сколько раз в год пересматривают ставку»: a count of times, whatever value the
    # question's subject names
    Cue("сколько раз", "amount", 5),
    Cue("сколько", "amount", 3),
    Cue("сумма", "amount", 3),
    Cue("размер", "amount", 3),
    Cue("стоимость", "amount", 3),
    Cue("база", "amount", 2),  # a tax base or a contributions base is a sum
    Cue("цена", "amount", 3),
    Cue("почём", "amount", 4),  # the price of one unit
    Cue("платить", "amount", 1),
    Cue("вычет", "amount", 1),
    Cue("пени", "rate", 2),
    Cue("неустойка", "rate", 2),
    Cue("штраф", "amount", 2),
)
# the nouns of a sanction: the «за …» after one names the breach it is charged for
# («штраф за неуплату в срок», «пени за несвоевременную уплату»), a condition of the
# value asked, not a value asked itself
SANCTIONS = frozenset({"штраф", "пеня", "пени", "неустойка", "ответственность", "санкция"})
BREACH = "за"


def _head_values() -> dict[str, AnswerType]:
    """``data/head_values.yaml``: each head noun's lemma and the answer type it asks."""
    text = resources.files("finagent.question").joinpath("data/head_values.yaml").read_text("utf-8")
    table: dict[str, list[str]] = load_yaml(text)
    types = get_args(AnswerType)
    return {
        str(lm): cast(AnswerType, kind)
        for kind, lms in table.items()
        if kind in types
        for lm in lms
    }


# the head noun after «какой» names the kind of value asked when it names a sum of money
# or a span of time («какой налоговый бонус» — a sum, «какой налоговый период» — a period):
# ``data/head_values.yaml``. In the plural of a countable noun («какие премии», «какие
# вычеты») the question asks which kinds, a list (see build._head_type)
HEAD_VALUES = _head_values()
HEAD_STRENGTH = 3  # a value head asks its type as clearly as «сумма» or «срок»
LIST_STRENGTH = 2  # a class of things asked («какие премии») outweighs a field's type

# a role named in the question («сумма и покупатель?») asks for that party
ROLE_STRENGTH = 2


@dataclass(frozen=True)
class Tax:
    key: str
    name: str  # Russian, as shown to users
    cues: tuple[str, ...]


TAXES = (
    Tax("vat", "НДС", ("НДС", "налог на добавленную стоимость")),
    Tax("pit", "НДФЛ", ("НДФЛ", "налог на доходы физических лиц", "подоходный налог")),
    Tax("profit", "налог на прибыль", ("налог на прибыль", "налога на прибыль")),
    Tax("usn", "УСН", ("УСН", "упрощённая система", "упрощенка", "упрощёнка")),
    Tax("ausn", "АУСН", ("АУСН", "автоматизированная упрощённая")),
    Tax("psn", "ПСН", ("ПСН", "патентная система", "патент")),
    Tax("npd", "НПД", ("НПД", "налог на профессиональный доход", "самозанятый")),
    Tax("esn", "ЕСХН", ("ЕСХН", "сельскохозяйственный налог")),
    Tax("insurance", "страховые взносы", ("страховые взносы", "взносы")),
    Tax("property", "налог на имущество", ("налог на имущество",)),
    Tax("transport", "транспортный налог", ("транспортный налог",)),
    Tax("land", "земельный налог", ("земельный налог",)),
    Tax("mineral", "НДПИ", ("НДПИ", "налог на добычу полезных ископаемых")),
    Tax("excise", "акцизы", ("акциз",)),
    Tax("ens", "ЕНС", ("ЕНС", "ЕНП", "единый налоговый счёт", "единый налоговый платёж")),
    Tax("duty", "госпошлина", ("госпошлина", "государственная пошлина")),
    Tax("tourist", "туристический налог", ("туристический налог",)),
)

# question words for document fields beyond the cues the cards use
QUESTION_FIELD_CUES: dict[str, tuple[str, ...]] = {
    "rent": ("в месяц", "ежемесячно", "аренда в месяц"),
    "payment_term": ("срок оплаты", "когда платить", "до какого числа платить"),
    "contract_amount": ("сумма договора", "цена договора", "на какую сумму"),
    "valid_until": ("когда заканчивается", "когда истекает", "срок действия"),
    "signed": ("когда заключён", "когда подписан", "дата договора", "дата заключения"),
    "interest_rate": ("под какой процент", "процент по займу", "процентная ставка"),
}

# words that say nothing about the topic
STOP_LEMMAS = frozenset(
    "а в во и или но на по с со к ко у о об от до за из для при без над под же ли не ни "
    "что как какой какая кто когда где сколько можно нужно надо это этот тот мой наш ваш "
    "быть являться есть сейчас сегодня год такой мы я".split()
)

# nouns that name the kind of value asked, not a particular attribute: a source states such
# a value without the noun («не позднее 25-го числа», «составляет 30 000 руб.»), so their
# absence from the sources says nothing
GENERIC_HEADS = frozenset(
    "срок сумма ставка размер стоимость цена дата число день месяц год период лимит порог "
    "процент тариф штраф пеня пени неустойка вычет налог платеж взнос количество величина "
    "значение условие порядок перечень документ договор информация сведение данные вопрос "
    "правило требование случай вариант основание ответственность раз человек уровень доля часть "
    "объем показатель время потолок предел максимум минимум деньга деньги средство".split()
)
# nouns of the standard a value is set by: they name the kind of value asked («какой
# норматив?» — «не превышающем 4 процентов»), so the evidence need not name them, but with
# a complement («норматив времени реакции») they name a specific standard a held document
# may state, unlike a bare word for a kind of value (finagent/routing/named_documents.py)
STANDARD_HEADS = frozenset({"норматив", "норма"})
# units a value is counted in («на сколько квадратных метров», «сколько тонн»): what they
# measure is asked, and a source states the number with the unit or its symbol («20 м²»)
MEASURE_UNITS = frozenset(
    "метр сантиметр миллиметр километр гектар сотка литр килограмм грамм тонна центнер "
    "штука единица час минута секунда сутки неделя рубль копейка доллар евро юань "
    "киловатт мегаватт гигакалория кубометр".split()
)
# an organisation's or a person's own identifiers and contacts: stated beside its name (a
# statement's row, a requisites line), not anywhere in a document that mentions it
REQUISITES = frozenset(
    "инн кпп огрн огрнип бик окпо оквэд октмо снилс адрес телефон почта e-mail email "
    "паспорт".split()
)
# adjectives that set the scope, extent, period or version of a value rather than name its
# kind: «общая сумма», «месячная плата», «фактическая дата» ask the plain attribute
SCOPE_ADJECTIVES = frozenset(
    "общий итоговый совокупный полный весь целый минимальный максимальный предельный "
    "средний месячный ежемесячный годовой ежегодный квартальный суточный дневной часовой "
    "фактический окончательный конечный текущий новый прежний первоначальный основной "
    "дополнительный точный примерный ориентировочный".split()
)
# abbreviations of document attributes and their full forms (either counts as named)
ATTRIBUTE_ABBREVIATIONS: dict[str, str] = {
    "инн": "идентификационный номер налогоплательщика",
    "кпп": "код причины постановки на учёт",
    "огрн": "основной государственный регистрационный номер",
    "огрнип": "основной государственный регистрационный номер индивидуального предпринимателя",
    "бик": "банковский идентификационный код",
    "окпо": "общероссийский классификатор предприятий и организаций",
    "оквэд": "общероссийский классификатор видов экономической деятельности",
    "фот": "фонд оплаты труда",
    "ттн": "товарно-транспортная накладная",
    "снилс": "страховой номер индивидуального лицевого счёта",
    "e-mail": "электронная почта",
    "email": "электронная почта",
}
