"""User-facing routing texts (Russian): clarifying questions and the no-documents reply."""

from __future__ import annotations

# what is unclear -> the question asked (see finagent/routing/clarification.py)
ASK_SUBJECT = "Уточните, пожалуйста, о каком налоге, документе или показателе идёт речь?"
ASK_WHICH_OF = "Какой из ваших документов вы имеете в виду: {titles}?"
ASK_WHICH_HOLDS = (
    "Показатель «{field}» указан в нескольких ваших документах, и значения в них разные. "
    "О каком документе речь: {titles}?"
)
ASK_PERIOD = "За какой период или на какую дату нужны данные?"
ASK_WHICH_DOCUMENT = (
    "Какой документ нужен: укажите тип (договор, счёт, акт, выписка), контрагента или период."
)
ASK_DOCUMENTS_OR_RULES = (
    "Искать ответ в ваших загруженных документах или в налоговом законодательстве и базе знаний?"
)
ASK_VALUE_OR_NEWS = (
    "Вам нужно официальное значение (курс валюты, ключевая ставка Банка России) "
    "или новости и мнения аналитиков?"
)
ASK_VALUE_OR_RULES = (
    "Нужно конкретное значение (курс или ключевая ставка на дату) или объяснение правил?"
)
ASK_NEWS_OR_RULES = "Вас интересуют последние новости или действующие правила?"
ASK_SCOPE = "Это вопрос о ваших документах или общий вопрос по налогам и финансам?"
ASK_ACTION = "Что именно нужно сделать: найти документ, рассчитать сумму или объяснить правило?"

# the label pair the classifier hesitates between -> the question that separates them
BETWEEN: dict[frozenset[str], str] = {
    frozenset({"S1", "kb"}): ASK_DOCUMENTS_OR_RULES,
    frozenset({"S1", "rates"}): ASK_DOCUMENTS_OR_RULES,
    frozenset({"S1", "news"}): ASK_DOCUMENTS_OR_RULES,
    frozenset({"rates", "news"}): ASK_VALUE_OR_NEWS,
    frozenset({"rates", "kb"}): ASK_VALUE_OR_RULES,
    frozenset({"news", "kb"}): ASK_NEWS_OR_RULES,
}

NO_DOCUMENTS = (
    "У вас пока нет загруженных документов, поэтому искать не в чем. Загрузите файлы "
    "(PDF, DOCX, TXT, Markdown) одним из способов:\n"
    "- в командной строке: `finagent ingest docs --user <ваш id> файл1.pdf файл2.docx`;\n"
    "- через API: `POST /v1/documents` (multipart-поле `files`).\n"
    "После загрузки повторите вопрос, и я найду ответ в ваших документах."
)

# a question about a document the user does not hold (finagent/nodes/not_held.py)
DOCUMENT_NOT_HELD = (
    "Среди загруженных вами документов нет такого: {what}. Поэтому нет оснований для ответа "
    "по этому документу.\n\nВаши документы:\n{documents}\n\n"
    "Если нужный документ у вас есть, загрузите его и повторите вопрос."
)
MORE_DOCUMENTS = "- … и ещё {count}"
