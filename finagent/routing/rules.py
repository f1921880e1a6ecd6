"""Rule-based router: decides scenario and intents without an LLM.

It is the fallback for the LLM orchestrator and the whole router offline, so it is
written to stand on its own (>= 90 % on evals/datasets/routing.jsonl).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.routing.clarification import clarifying_questions as build_clarifying_questions
from finagent.routing.expansion import expand_query
from finagent.routing.inventory import Inventory
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
    r"\b(в|по|среди|из) (документах|файлах|бумагах|загруженном|загруженных)\b",
)

GREETINGS = (
    r"^(привет|приветствую|здравствуй|здравствуйте|добрый (день|вечер|утро)|доброе утро|"
    r"хай|хелло|hello|hi)\b",
    r"^(спасибо|благодарю|спс|отлично,? спасибо|супер,? спасибо)",
    r"\bкто ты\b|\bты кто\b|\bкак тебя зовут\b|\bчто ты (умеешь|можешь)\b",
    r"\bчем (ты )?можешь помочь",
    r"(^|\W)(пока|до свидания|всего доброго)\W*$",
    r"\bкак (у тебя )?дела\b",
    r"^(ок|окей|ладно|ясно|понятно|угу|ага|хорошо|лол|ха-ха|ха)\W*(спасибо)?\W*$",
    r"\b(у тебя|о тебе|ты сам)\b",
    r"^(ну |а )?(ты|тебя|тебе)\b",
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
    r"\bсобыти[яй] (на рынке|в экономике|недели|дня)",
    r"\bчто слышно\b|\bслух(и|ов)\b",
    r"\b(объявил|заявил|сообщил|анонсировал|опубликовал|предложил)[аи]?\b",
    r"\b(на этой|на прошлой) неделе\b",
)

# talk about markets and expectations: news even when a currency or the key rate is named
MARKET_TALK = (
    r"\bпрогноз",
    r"\bаналитик",
    r"\bэксперт(ы|ов|ам|ами|ах)?\b",
    r"\bожидани[яей]",
    r"\bожида(ют|ет)\b",
    r"\bотреагир|\bреакци[яиюей]",
    r"\b(что|о чем|о чём) (говорят|пишут)\b|\bпишут\b",
    r"\bмнени[яе]\b",
    r"\bнастроени\w* (на )?(рынк|бирж|инвестор)",
    r"\bдвига(ет|ют)\b|\bдавит\b|\bдавят\b",
    r"\bпочему (рубль|доллар|евро|юань|нефть|акции|облигации|биржа|рынок)\b.*"
    r"\b(пада|раст|вырос|упал|подешев|подорож|укреп|ослаб|снизил|повысил)",
    r"\bсобыти\w*\b.*\bвлия",
    r"\bчто (сейчас |сегодня )?(происходит|случилось)\b",
)
# accounting or tax rules about exchange rates: not a request for a value
RATES_RULES = (
    r"\bучет|\bучитыва|\bбухгалтер|курсов\w* разниц|\bпо какому курсу (пересчит|учит|отраж|примен)",
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
    r"рынк|рынок|касс|чек|счет-фактур|аренд|поставк|займ|долг|банкрот|лимит|кбк|инн|огрн|егрюл|отпуск|"
    r"больничн|алимент|подарок|наследств|продаж|покупк|квартир|машин|автомобил|земл"
)


# «помоги с налогами», «помогите по бухгалтерии, пожалуйста»: help with a topic, no question
VAGUE_HELP = (
    r"^(помоги|помогите|подскажи|подскажите)( мне| нам)?( пожалуйста)?,? (с|по|насчет|про)"
    r"( [а-я0-9-]+){1,2}[\s,.!?]*(пожалуйста)?[\s.!?]*$"
)


def _is_vague(text: str, words: list[str]) -> bool:
    if re.match(VAGUE_HELP, text):
        return True
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
    if _any(RATES_RULES, text):
        key_rate = currency = False  # how rates are used in accounting: the classifier decides
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
    market_talk = _any(MARKET_TALK, text)
    news = _any(NEWS, text) or market_talk
    if rates and not (_any(NEWS[:-1], text) or market_talk):
        news = False  # «курс юаня на прошлой неделе» is a value over a period
    if news and rates:
        # "новости о ключевой ставке" is news; "ставка сейчас и новости" is both
        both = re.search(r"\bи\b", text) is not None
        value_asked = (
            re.search(r"\b(какая|какой|сколько|каков|сейчас|текущ)", text)
            or (re.search(r"\bкурс", text) and both)
            or (not market_talk and re.search(r"\bкурс\w* \w+ (на|за|с)\b", text))
        )
        if market_talk and not both:
            value_asked = None
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


DOC_NOUN = (
    r"(договор|контракт|допсоглашени|счет|счет-фактур|акт(а|е|у|ом|ы|ов|ами|ах)?\b|выписк|"
    r"накладн|спецификац|уведомлени|требовани|претензи|доверенност|платежк|платежн\w* поручени|"
    r"квитанци|смет|инвойс|файл|документ)"
)
_FIND_VERB = (
    r"(найди|найти|открой|открыть|покажи|показать|достань|подними|выведи|отыщи|пришли|скинь|"
    r"посмотри|глянь|проверь|сверь)"
)
FIND_DOCUMENT = (
    rf"^(пожалуйста,?\s+)?{_FIND_VERB}\b(?:(?!информаци|стать|правил|закон|норм|разъяснени|"
    rf"положени|бланк|шаблон|образец|пример|форм[ауы]\b)[^?]){{0,40}}?\b{DOC_NOUN}",
    r"\bв как(ом|ой) (из )?(договор|контракт|счет|акт|выписк|файл|накладн|спецификац|претензи)",
    r"\b(написано|сказано|указано|прописано|говорится|предусмотрено|стоит)\s+в\s+"
    r"(этом\s+|том\s+|последнем\s+)?(договор|контракт|счет|акт|выписк|спецификац|накладн|"
    r"претензи|требовани|уведомлени)[а-я-]*\s+(с|от|по|на|№|номер|за)\b",
    r"\b(договор|контракт|счет|акт|выписк|накладн|спецификац|претензи)[а-я-]*\s+(с|от)\s+"
    r"(ооо|ао|ип|пао|зао|оао)\b",
    r"\b(договор|контракт|счет|акт|выписк|накладн|спецификац|претензи)[а-я-]*\s+"
    r"(№\s?\d|n\s?\d|номер\s+\d|от \d{1,2}[. ])",
    r"\b(счет|акт|выписк|накладн)[а-я-]*\s+(от \S+\s+)?за\s+(январ|феврал|март|апрел|май|мая|"
    r"июн|июл|август|сентябр|октябр|ноябр|декабр|прошл|этот|[1-4] квартал|\d{4})",
)
# a definition or an explanation: the knowledge base
DEFINITION = r"^(а |и )?(что так(ое|ая|ой|ие)|зачем нуж|для чего нуж|чем отлича|в чем разница)"
# a named party («с Ромашкой», «от ООО ...»): a concrete document, not a rule
NAMED_PARTY = r"\b(с|со|от|у)\s+((?i:ооо|ао|ип|пао)\b|[«\"]|[А-ЯЁ][а-яё]+)"
# questions about rules, not about a concrete document of the user
ABOUT_RULES = (
    r"\bкак (правильно )?(оформ|заполн|выстав|состав|заключ|подпис|расторг|хран|учест|учиты|"
    r"отраз|провер|получ|запрос|оспор|ответить)",
    r"\b(нужно|надо|обязательно|должен|должна|должны|можно|вправе) ли\b",
    r"\bчто так(ое|ая|ой)\b|\bпо закону\b|\bзаконодательств|\bнк рф\b|\bкодекс",
    r"\bобразец|\bшаблон|\bбланк|\bформ[ау] (договор|счет|акт)",
    r"\bкакие (реквизиты|сведения|данные) (должны|обязательн|нужн)|\bобязательн\w* (реквизит|"
    r"услови|сведени|пункт|раздел)",
    r"\bв как(ой|ие) срок",
    r"\b(чем|что) грозит\b|\bкакая ответственность за\b",
    r"\bстать(я|е|и|ю|ей)\s+\d+|\bст\.\s*\d+|\b(нк|гк|тк|коап)\b|\b\d+-фз\b",
)
# a find verb whose object is information, not a document («найди информацию о вычетах»)
FIND_INFORMATION = (
    rf"^(пожалуйста,?\s+)?({_FIND_VERB}|поищи|подбери|дай|расскажи)\b.{{0,20}}?"
    r"\b(информаци|сведени|правил(о|а|ам|ах|ами)?\b|стать|разъяснени|норм[аыуе]?\b|закон|"
    r"положени|материал)"
)


def routing_text(query: str, history: Sequence[Turn] = ()) -> tuple[str, bool]:
    """The text to route: the question, or the previous question + this one for a follow-up."""
    text = normalize(query)
    last_user = next((t.content for t in reversed(history) if t.role == "user"), None)
    words = _WORD.findall(text)
    if last_user is None or (_any(GREETINGS, text) and len(words) <= 4):
        return query, False
    if _is_follow_up(text) or _is_vague(text, words):
        return f"{last_user} {query}", True
    return query, False


def _documents_decision(query: str, rule: str, reason: str) -> Decision:
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=0.9,
        reason=reason,
        rule=rule,
        sub_queries=expand_query(query),
    )


def rule_decision(query: str, inventory: Inventory | None = None) -> Decision | None:
    """The first high-precision rule that fires for ``query``, or None (the classifier decides).

    Rules, in order: greeting (short small talk), vague (nothing to act on), own_documents
    (a possessive before a document word), find_document (a find/open verb whose object
    is a document, «в каком договоре», «что написано в договоре с ...», a document with a
    number, date or legal-form counterparty), inventory (names a document type,
    counterparty or title of the user's documents, and is not a question about rules),
    keywords (rates, news, small talk and their combinations).
    """
    text = normalize(query)
    words = _WORD.findall(text)
    if _any(GREETINGS, text) and len(words) <= 4 and not re.search(DOMAIN_HINT, text):
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["smalltalk"],
            confidence=0.9,
            reason="greeting or small talk",
            rule="greeting",
            sub_queries=[query.strip()],
        )
    if _is_vague(text, words):
        return Decision(
            scenario=Scenario.CLARIFY,
            confidence=0.8,
            reason="the question is too vague",
            rule="vague",
            clarifying_questions=clarifying_questions(text),
        )
    if _any(OWN_DOCUMENTS, text) and not _any(GREETINGS[:2], text):
        return _documents_decision(
            query, "own_documents", "the question refers to the user's own documents"
        )
    if _any(FIND_DOCUMENT, text):
        return _documents_decision(query, "find_document", "the question asks for a document")
    if re.search(FIND_INFORMATION, text) and not re.search(NAMED_PARTY, " ".join(query.split())):
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["kb"],
            confidence=0.85,
            reason="asks to find information, not a document",
            rule="find_information",
            sub_queries=expand_query(query),
        )
    about_rules = _any(ABOUT_RULES, text) or _any(EXPLAIN, text)
    if inventory is not None:
        found = inventory.match(text)
        # a counterparty of the user's is specific; a type or title only outside rule talk
        if found.counterparties or ((found.doc_types or found.titles) and not about_rules):
            named = [*found.doc_types, *found.counterparties, *found.titles][:3]
            return _documents_decision(
                query, "inventory", f"names the user's documents: {', '.join(named)}"
            )
    intents = _intents(text)
    if intents != ["kb"]:
        return Decision(
            scenario=Scenario.ROUTED,
            intents=intents,
            confidence=0.85,
            reason=f"keyword rules: {', '.join(intents)}",
            rule="keywords",
            sub_queries=expand_query(query) if "kb" in intents else [query.strip()],
        )
    named_party = re.search(NAMED_PARTY, " ".join(query.split())) is not None
    if (re.search(DEFINITION, text) or _any(ABOUT_RULES, text)) and not named_party:
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["kb"],
            confidence=0.85,
            reason="a definition or a question about rules",
            rule="about_rules",
            sub_queries=expand_query(query),
        )
    return None


def classify(
    query: str,
    history: Sequence[Turn] = (),
    has_selected_documents: bool = False,
    inventory: Inventory | None = None,
) -> Decision:
    """Scenario and intents by rules alone (S3/S4 are resolved later by size).

    The fallback when the semantic classifier cannot run: a question no rule recognises
    goes to the knowledge base.
    """
    if has_selected_documents:
        return Decision(
            scenario=Scenario.FULL_DOCUMENTS,
            confidence=0.9,
            reason="documents are selected",
            rule="selected_documents",
            sub_queries=expand_query(query),
        )
    text, follow_up = routing_text(query, history)
    decision = rule_decision(text, inventory) or Decision(
        scenario=Scenario.ROUTED,
        intents=["kb"],
        confidence=0.6,
        reason="no rule fired: knowledge base",
        sub_queries=expand_query(text),
    )
    if follow_up:
        decision.reason = "follow-up resolved with the previous question"
    return decision


FOLLOW_UP = (
    ELLIPTIC_START,
    r"\b(там|тут|в нем|по нему|по ней|об этом|про это|этот|эта|этого|этой|туда|оттуда)\b",
)


def _is_follow_up(text: str) -> bool:
    """An elliptic or anaphoric question that only makes sense after the previous turn."""
    return len(_WORD.findall(text)) <= 10 and _any(FOLLOW_UP, text)


def clarifying_questions(text: str) -> list[str]:
    """Russian clarifying questions for a vague query."""
    return build_clarifying_questions(text)
