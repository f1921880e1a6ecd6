"""Rule-based router: decides scenario and intents without an LLM.

It is the fallback for the LLM orchestrator and the whole router offline, so it is
written to stand on its own (>= 90 % on evals/datasets/routing.jsonl).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.routing.expansion import expand_query
from finagent.state import Decision, Intent, Scenario, Turn

_WORD = re.compile(r"[a-zа-я0-9]+")


def normalize(text: str) -> str:
    return " ".join(text.lower().replace("ё", "е").split())


def _any(patterns: Sequence[str], text: str) -> bool:
    return any(re.search(p, text) for p in patterns)


OWN_DOCUMENTS = (
    r"\bмо(й|и|е|его|ем|ему|ей|их|им|ими|ю|я)\b[\w\s,«»\"-]{0,40}\b(документ|договор|файл|"
    r"выписк|счет|сч[её]т-фактур|акт|уведомлени|требовани|контракт|справк|письм|загруж|"
    r"аренд|поставк|накладн|платеж|спецификац)",
    r"\bзагруж(енн|ал|ен|енный|енном|енных|енного|енной)",
    r"\bя (загрузил|загрузила|прислал|прислала|приложил|приложила|отправил|отправила)",
    r"\b(в|по|из) (документ(е|ах|у)|файл(е|ах|у)|выписк[еи]|договор(е|у|ах)|акт(е|у)|"
    r"счет[еау]?-фактур[еы]|уведомлени[ия]|требовани[ия])\b[\w\s]{0,25}\b"
    r"(котор|что я|мо[йиеюя]|наш)",
    r"\bнаш(ем|его|их|и|а|ей|ему)?\b[\w\s]{0,20}\b(договор|документ|выписк|счет|акт|контрагент)",
    r"\b(в|по|из) (моих|наших|своих) (документ|файл|бумаг|материал)",
    r"\bсреди (моих|наших|своих)",
    r"\b(мои|наши|свои) (документ|файл)",
)

GREETINGS = (
    r"^(привет|приветствую|здравствуй|здравствуйте|добрый (день|вечер|утро)|доброе утро|"
    r"хай|хелло|hello|hi)\b",
    r"^(спасибо|благодарю|спс|отлично,? спасибо|супер,? спасибо)",
    r"\bкто ты\b|\bты кто\b|\bкак тебя зовут\b|\bчто ты (умеешь|можешь)\b",
    r"\bчем (ты )?можешь помочь",
    r"(^|\W)(пока|до свидания|всего доброго)\W*$",
    r"\bкак (у тебя )?дела\b",
)

NEWS = (
    r"\bновост",
    r"\bчто нового\b",
    r"\bпоследни[ехй]\s+(событи|изменени|сообщени|заявлени|решени)",
    r"\bсвеж(ие|их)\b",
    r"\bанонс",
    r"\bпресс-релиз",
    r"\bзаявлени[ея] (цб|банка россии|минфина|фнс|набиуллиной)",
    r"\bчто (сообщил|заявил|объявил)",
    r"\bчто (происходит|случилось)\b",
    r"\bсобыти[яй] (на рынке|в экономике|недели|дня)",
    r"\bчто слышно\b|\bслух(и|ов)\b",
    r"\b(объявил|заявил|сообщил|анонсировал|опубликовал|предложил)[аи]?\b",
    r"\b(на этой|на прошлой) неделе\b",
)

CURRENCY = (
    r"\bкурс",
    r"\bдоллар|\bевро\b|\bюан|\bфунт|\bиен|\bфранк|\bтенге|\bлир[аыу]\b|\bрупи",
    r"\b(usd|eur|cny|gbp|jpy|chf|kzt|try|byn|aed|inr)\b",
    r"\bвалют[аыу]?\b(?! контрол)",
)
RATES_ACTION = (
    r"\bконверт",
    r"\bперевести\b.*\b(руб|доллар|евро|юан)",
    r"\bсколько (будет )?(в )?рубл",
    r"\bпо курсу\b",
    r"\bдинамик",
    r"\bк рублю\b",
    r"\bменял(ся|ась|ись)\b",
    r"\bза (последн|прошл)\w* (недел|месяц|дн|год)",
)
KEY_RATE = (
    r"\bключев(ая|ой|ую|ые|ых)\s+ставк|\bставк[аиуе]\s+(цб|банка россии)|"
    r"\bставк[аиуе] рефинансир|\b(цб|банка? россии)\s+ставк"
)
KEY_RATE_VALUE = (
    r"\b(какая|какой|каков[ао]?|сколько|чему равна|размер|значени|уровень)\b",
    r"\b(сейчас|щас|сегодня|текущ|действующ|нынешн|на сегодня|актуальн)",
    r"\bна \d|\b\d{4}-\d{2}-\d{2}\b|\bв \d{4}\b|\bна (начало|конец)|\bв (январе|феврале|марте|"
    r"апреле|мае|июне|июле|августе|сентябре|октябре|ноябре|декабре)",
    r"\b(изменени[ея]|истори[яи]|динамик)",
)
EXPLAIN = (
    r"\bчто так(ое|ая|ой)\b",
    r"\bкак(\s+[\w-]+){0,2}\s+(работает|работают|влияет|влияют|устанавлива|определя|"
    r"рассчитыва|считается|формируется|связан|зависит|меняется|используется|применяется)",
    r"\bпочему\b",
    r"\bзачем\b",
    r"\bобъясни",
    r"\bдля чего\b",
    r"\bна что влияет\b",
    r"\bчем (отличается|грозит)",
    r"\bкто (устанавливает|определяет)",
    r"\bпо как(ому|им) (правил|принцип)",
    r"\bв каком порядке\b|\bпорядок\b",
)
VALUE_ASKED = r"\b(какая|какой|каков|сколько|курс|сейчас|щас|текущ|на сегодня)"

ELLIPTIC_START = r"^(а|и|ну|но|так|тогда|еще|ещё)\b"
PRONOUN_ONLY = {
    "а",
    "и",
    "ну",
    "но",
    "так",
    "тогда",
    "еще",
    "это",
    "этот",
    "эта",
    "он",
    "она",
    "оно",
    "они",
    "его",
    "ее",
    "их",
    "там",
    "тут",
    "сколько",
    "когда",
    "почему",
    "зачем",
    "как",
    "что",
    "где",
    "куда",
    "какой",
    "какая",
    "какие",
    "какое",
    "за",
    "в",
    "на",
    "по",
    "с",
    "прошлый",
    "прошлом",
    "год",
    "месяц",
    "тоже",
    "также",
    "точно",
    "подробнее",
    "дальше",
    "потом",
    "всё",
    "все",
    "значит",
    "ли",
    "можно",
    "нужно",
    "надо",
    "мне",
    "я",
    "же",
    "ведь",
    "вот",
    "да",
    "нет",
    "был",
    "было",
    "будет",
    "такое",
    "такой",
    "этого",
    "этом",
    "том",
    "то",
    "ещё",
    "больше",
    "меньше",
    "теперь",
    "сейчас",
    "вообще",
    "ок",
    "хорошо",
    "понятно",
    "срок",
    "сроки",
}
GENERIC_ONLY = {
    "налоги",
    "налог",
    "налогов",
    "платить",
    "заплатить",
    "оплатить",
    "деньги",
    "финансы",
    "помоги",
    "помогите",
    "подробнее",
    "расскажи",
    "расскажите",
    "законно",
    "вопрос",
    "информация",
    "подскажи",
    "подскажите",
    "объясни",
    "объясните",
    "нормально",
}
DOMAIN_HINT = (
    r"налог|ндс|ндфл|усн|псн|енвд|нпд|самозанят|взнос|вычет|ставк|курс|валют|доллар|евро|юан|"
    r"штраф|пени|декларац|отчет|фнс|цб|банк|кредит|вклад|депозит|ипотек|договор|счет|акт|"
    r"выписк|патент|имуществ|доход|расход|зарплат|инвест|иис|облигац|акци|дивиденд|пенси|"
    r"страхов|бухгалт|ип\b|ооо|компани|предпринимат|бизнес|платеж|уплат|льгот|проверк|"
    r"требовани|уведомлени|новост|рынок|инфляц|рубл|финанс|деньг|сбережен|бюджет|эквайр|"
    r"касс|чек|счет-фактур|аренд|поставк|займ|долг|банкрот|лимит|кбк|инн|огрн|егрюл|отпуск|"
    r"больничн|алимент|подарок|наследств|продаж|покупк|квартир|машин|автомобил|земл"
)


def _is_vague(text: str, words: list[str]) -> bool:
    meaningful = [w for w in words if w not in PRONOUN_ONLY and len(w) > 1]
    if len(words) <= 3 and all(w in GENERIC_ONLY or w in PRONOUN_ONLY for w in words):
        return True  # «налоги», «помоги», «сколько платить», «это законно?»
    if re.search(DOMAIN_HINT, text):
        return False
    if not meaningful:
        return True
    return bool(re.match(ELLIPTIC_START, text)) and len(meaningful) <= 2


def _intents(text: str) -> list[Intent]:
    intents: list[Intent] = []
    explain = _any(EXPLAIN, text)
    key_rate = re.search(KEY_RATE, text) is not None
    currency = _any(CURRENCY, text) and not re.search(r"валютн\w* контрол", text)
    rates = False
    # "какая ставка сейчас и как она влияет на вклады": a value and an explanation
    if key_rate and explain and re.search(VALUE_ASKED, text) and re.search(r"\bи\b", text):
        return ["rates", "kb"]
    if key_rate and _any(KEY_RATE_VALUE, text) and not explain:
        rates = True
    if (
        currency
        and not explain
        and (re.search(r"\bкурс", text) or _any(RATES_ACTION, text) or _any(KEY_RATE_VALUE, text))
    ):
        rates = True
    if _any(RATES_ACTION, text) and currency:
        rates = True
    news = _any(NEWS, text)
    if news and rates:
        # "новости о ключевой ставке" is news; "ставка сейчас и новости" is both
        value_asked = re.search(r"\b(какая|какой|сколько|каков|курс|сейчас|текущ)", text)
        intents = ["rates", "news"] if value_asked else ["news"]
    elif rates:
        intents = ["rates"]
    elif news and explain and re.search(r"\bи\b", text):
        intents = ["kb", "news"]  # "что такое ИИС и есть ли новости о нём"
    elif news:
        intents = ["news"]
    if not intents and _any(GREETINGS, text):
        words = _WORD.findall(text)
        if len(words) <= 6 or not re.search(DOMAIN_HINT, text):
            intents = ["smalltalk"]
    return intents or ["kb"]


def classify(
    query: str, history: Sequence[Turn] = (), has_selected_documents: bool = False
) -> Decision:
    """Scenario and intents for ``query`` by rules (S3/S4 are resolved later by size)."""
    text = normalize(query)
    words = _WORD.findall(text)
    if has_selected_documents:
        return Decision(
            scenario=Scenario.FULL_DOCUMENTS,
            confidence=0.9,
            reason="documents are selected",
            sub_queries=expand_query(query),
        )
    last_user = next((t.content for t in reversed(history) if t.role == "user"), None)
    if last_user is not None and _is_follow_up(text):
        combined = classify(f"{last_user} {query}", (), False)
        combined.reason = "follow-up resolved with the previous question"
        return combined
    if _any(GREETINGS, text) and len(words) <= 4 and not re.search(DOMAIN_HINT, text):
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["smalltalk"],
            confidence=0.9,
            reason="greeting or small talk",
            sub_queries=[query.strip()],
        )
    if _is_vague(text, words):
        if last_user is None:
            return Decision(
                scenario=Scenario.CLARIFY,
                confidence=0.8,
                reason="the question is too vague and there is no history",
                clarifying_questions=clarifying_questions(text),
            )
        combined = classify(f"{last_user} {query}", (), False)
        combined.reason = "follow-up resolved with the previous question"
        combined.sub_queries = expand_query(f"{last_user} {query}")
        return combined
    if _any(OWN_DOCUMENTS, text) and not _any(GREETINGS[:2], text):
        return Decision(
            scenario=Scenario.ALL_DOCUMENTS,
            confidence=0.85,
            reason="the question refers to the user's own documents",
            sub_queries=expand_query(query),
        )
    intents = _intents(text)
    return Decision(
        scenario=Scenario.ROUTED,
        intents=intents,
        confidence=0.75,
        reason=f"keyword rules: {', '.join(intents)}",
        sub_queries=expand_query(query) if "kb" in intents else [query.strip()],
    )


FOLLOW_UP = (
    ELLIPTIC_START,
    r"\b(там|тут|в нем|по нему|по ней|об этом|про это|этот|эта|этого|этой|туда|оттуда)\b",
)


def _is_follow_up(text: str) -> bool:
    """An elliptic or anaphoric question that only makes sense after the previous turn."""
    return len(_WORD.findall(text)) <= 10 and _any(FOLLOW_UP, text)


def clarifying_questions(text: str) -> list[str]:
    """Russian clarifying questions for a vague query."""
    questions = ["Уточните, пожалуйста, о каком налоге, документе или показателе идёт речь?"]
    if re.search(r"сколько|какой|какая", text):
        questions.append("За какой период или на какую дату нужны данные?")
    questions.append("Это вопрос о ваших документах или общий вопрос по налогам и финансам?")
    return questions
