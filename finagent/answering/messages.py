"""Fixed user-facing texts (Russian)."""

FROM_KNOWLEDGE_BASE = "Ниже — ответ по базе знаний и Налоговому кодексу."
FROM_KNOWLEDGE_BASE_ABOVE = "Ответ выше — по базе знаний и Налоговому кодексу."
SOURCE_NOT_CONFIGURED = "Источник данных «{name}» не настроен, поэтому живые данные недоступны."
SOURCE_FAILED = (
    "Источник «{name}» сейчас не вернул данные, поэтому живых данных в ответе нет. "
    "Повторите запрос позже."
)
SEARCH_UNAVAILABLE = "Поиск по документам и базе знаний сейчас недоступен. Повторите запрос позже."
NOTHING_FOUND = "В доступных источниках не найдено сведений по этому вопросу."
# the details entry quoting the Code sentence the lead leaves out (answering.code_norm)
CODE_NORM = "Норма НК РФ"
CLARIFY_HEADER = "Чтобы ответить точно, уточните, пожалуйста:"
EMPTY_QUERY = "Вопрос пуст: напишите, что вы хотите узнать."
QUERY_TOO_LONG = "Вопрос слишком длинный ({length} символов, допустимо не больше {limit})."
DOCUMENTS_NOT_FOUND = "Документы не найдены: {ids}. Проверьте идентификаторы."
FIELD_WRONG_TYPE = "Поле «{field}» должно быть {expected}."
FIELD_BAD_TEXT = (
    "Поле «{field}» содержит недопустимые символы (NUL или одиночные суррогаты UTF-16)."
)
FIELD_TOO_LONG = "Поле «{field}» слишком длинное ({length} символов, допустимо не больше {limit})."
TOO_MANY_DOCUMENTS = "Выбрано слишком много документов ({count}, допустимо не больше {limit})."
SMALLTALK = (
    "Здравствуйте! Я finagent — ассистент по налогам и финансам. Я отвечаю на вопросы по "
    "НДС, НДФЛ, УСН, страховым взносам и другим темам, ищу сведения в ваших документах, "
    "показываю курсы валют и ключевую ставку Банка России и нахожу финансовые новости. "
    "Задайте вопрос."
)
LLM_UNAVAILABLE_NOTE = "_Языковая модель недоступна: ответ составлен из найденных фрагментов._"
OUTPUT_CHECK_NOTE = (
    "_Ответ языковой модели не показан ({reason}): ответ составлен из найденных фрагментов._"
)

# Abstention: the sources have no basis for an answer (the marker phrase is stable: evals
# and clients look for «нет оснований для ответа»).
ABSTAIN_SUMMARY = "В загруженных источниках нет оснований для ответа на этот вопрос: {reason}."
ABSTAIN_DETAILS = (
    "Я не привожу цифр и ссылок, которых нет в источниках. {missing}\n\n"
    "Могу ответить по тому, что загружено: {available}. "
    "Переформулируйте вопрос или загрузите нужный документ."
)
ABSTAIN_JURISDICTION = "вопрос о налогах другой страны ({country}), а в базе только право России"
ABSTAIN_CODE = "{code} не загружен в базу"
ABSTAIN_CODE_MISSING = "Текст {code} не загружен; загружены: {loaded}."
ABSTAIN_ARTICLE = "{reference} нет в загруженном тексте"
ABSTAIN_ARTICLE_MISSING = (
    "В загруженном тексте нет {reference}: проверьте номер статьи или пункта "
    "(существующие нормы можно найти поиском по базе знаний)."
)
ABSTAIN_DOCUMENT = "документа «{document}» нет среди загруженных источников"
ABSTAIN_DOCUMENT_MISSING = (
    "Письма, разъяснения и судебные акты в базу не загружены, и «{document}» среди "
    "найденных фрагментов нет."
)
ABSTAIN_EVIDENCE = "найденные фрагменты не содержат ответа на вопрос"
ABSTAIN_EVIDENCE_MISSING = "Ближайшие найденные фрагменты относятся к другим вопросам: {titles}."
ABSTAIN_YEAR = "в найденных источниках нет данных на {year} год"
ABSTAIN_YEAR_MISSING = (
    "Найденные источники изданы или проверены раньше {year} года и ничего не говорят о {year} "
    "годе; значение на {year} год "
    "по ним назвать нельзя — проверьте действующую редакцию или официальный источник."
)
ABSTAIN_AVAILABLE_DEFAULT = "налоги и финансы из базы знаний и ваших документов"

# Which text an answer rests on, and the warning when every source predates the question's year.
EDITION_NOTE = "Ответ основан на тексте {code} в редакции от {date}."
KB_REVIEWED_NOTE = "Статья базы знаний «{title}» проверена {date}."
KB_UNREVIEWED_NOTE = (
    "Дата проверки статьи базы знаний «{title}» не указана: сверьте цифры с действующей "
    "редакцией закона."
)
KB_APPLIES_NOTE = (
    "Статья базы знаний «{title}» излагает правила, действующие с {date}; дата её проверки "
    "не указана: сверьте цифры с действующей редакцией закона."
)
DATING_WARNING = (
    "Внимание: источники действуют на {date} ({what}) — с 1 января {year} года правила "
    "могли измениться; проверьте действующую редакцию."
)
REFERENCE_REMOVED = "[ссылка удалена: не подтверждена источниками]"
# the summary states no figures: chapter and law numbers go to the details
ABSTAIN_CHAPTER = "глава НК РФ о налоге «{tax}» не загружена в базу"
ABSTAIN_CHAPTER_MISSING = "Не загружена глава {chapter} НК РФ ({tax})."
ABSTAIN_RATE_ARTICLE = "статья НК РФ о ставках налога «{tax}» не загружена в базу"
ABSTAIN_RATE_ARTICLE_MISSING = "В загруженной главе {chapter} НК РФ нет статьи о налоговых ставках."
ABSTAIN_LAW = "закон о налоге «{tax}» не загружен в базу"
ABSTAIN_LAW_MISSING = "Этот налог установлен не НК РФ, а отдельным законом ({law}); он не загружен."
ABSTAIN_CHAPTERS_LOADED = "Загружены главы НК РФ: {chapters}."
FIGURE_REMOVED = "[цифра удалена: не подтверждена источниками]"
# what the question names or asks is in none of the passages found (answering/coverage.py)
ABSTAIN_NAME = "«{name}» в них не упоминается"
ABSTAIN_NAME_MISSING = (
    "Искал «{name}» в найденных фрагментах ({titles}) — ни один его не называет; значение "
    "другой организации или другого документа было бы неверным ответом."
)
ABSTAIN_NUMBER = "документа № {number} среди ваших документов нет"
ABSTAIN_NUMBER_MISSING = "Номер «№ {number}» не встречается в найденных документах ({titles})."
ABSTAIN_DATE = "сведений на {date} в них нет"
ABSTAIN_MONTH = "сведений за {month} в них нет"
ABSTAIN_MONTH_MISSING = (
    "Найденные документы ({titles}) не относятся к периоду «{month}»; значение за другой "
    "период ответом не является."
)
ABSTAIN_BALANCE_NOW = "сведений о сегодняшнем состоянии расчётов в них нет"
ABSTAIN_BALANCE_NOW_MISSING = (
    "Найденные документы ({titles}) показывают остатки и расчёты на свои даты, а не на "
    "сегодня; их значение текущим состоянием не является."
)
ABSTAIN_STAFF_NOW = "сведений о сегодняшней численности работников в них нет"
ABSTAIN_STAFF_NOW_MISSING = (
    "Найденные документы ({titles}) составлены на свои даты и не называют, сколько человек "
    "работает сегодня."
)
ABSTAIN_DATE_MISSING = (
    "Найденные документы ({titles}) не называют дату {date}; значение на другую дату "
    "ответом не является."
)
ABSTAIN_ATTRIBUTE = "показатель «{attribute}» в них не указан"
ABSTAIN_ATTRIBUTE_MISSING = (
    "Искал «{attribute}» в найденных фрагментах ({titles}) — этот показатель в них не "
    "приводится, а соседние значения ответом не являются."
)
