"""How accountants name procedural situations, rewritten to the Code's own words.

The table of procedural periods (data/procedural_periods.yaml) and the ``calc`` routing
cues are written in the Code's vocabulary («камеральная налоговая проверка», «возражения»,
«получено»). Questions use abbreviations, slang and other verbs for the same thing
(«КНП», «камералка», «возразить», «требование пришло»). :func:`canonical` rewrites those
to the Code's words before matching, so each row need not list every variant.
"""

from __future__ import annotations

import re

# (pattern over lower-cased text with ё as е, replacement); applied in order
_REWRITES: tuple[tuple[str, str], ...] = (
    (r"\bкнп\b", "камеральная налоговая проверка"),
    (r"\bвнп\b", "выездная налоговая проверка"),
    (r"\bкамералк\w*", "камеральная проверка"),
    (r"\bвыездушк\w*", "выездная проверка"),
    (r"\b(допмероприяти\w*|доп\.\s*мероприяти\w*|дмнк)\b", "дополнительные мероприятия"),
    (r"\bвозраз(ить|им|ил\w*|ят|ять|ите)\b", "представить возражения"),
    (r"\bапелляци(я|ю|и|ей)\b", "апелляционная жалоба"),
    (r"\bуточненк\w*", "уточненная декларация"),
    # «требование пояснить убыток»: the explanations of п. 3 ст. 88 (not «поясните, ...»)
    (r"\b(требовани\w*)\s+пояснить\b", r"\1 представить пояснения"),
    # «не согласны с актом (дополнением к акту)»: objections to it
    (
        r"\b(?:не\s+соглас\w*|несогласи\w*)\s+с\s+(?=(?:\w+\s+){0,2}(?:акт|дополнени))",
        "возражения по ",
    ),
    (r"\bинспектор\w*\b", "инспекция"),
    # receiving a document: the rows speak of «получ» and «вруч»
    (r"\b(пришл[оаи]?|поступил[оаи]?|доставлен[оаы]?|доставили)\b", "получено"),
    # «инспекция прислала требование»: received the same day by ТКС; not for registered mail,
    # where sending and receipt differ (the registered_mail row declines those)
    (r"\bприслал[аи]?\b(?![^.?!]{0,60}(?:заказн|по почте))", "получено"),
    (r"\b(отдали|выдали)\b", "вручили"),
    (r"\bсдачи\b", "представления"),
    (r"\bмгк\b", "международная группа компаний"),
    # «вне рамок камеральной и выездной проверок» names no audit (ст. 101.4)
    (
        r"\bвне\s+рамок\s+(?:камеральн\w*|выездн\w*)(?:\s+(?:и|или)\s+(?:камеральн\w*|выездн\w*))?"
        r"(?:\s+налогов\w*)?\s+проверо?к\w*",
        "вне рамок налоговой проверки",
    ),
    # «продлится» (lasts) is not «продлили» (extended)
    (r"\bпродл(ится|ятся|ится ли)\b", "будет длиться"),
    (r"\bбез\s+(?:обращения\s+в\s+)?суда\b", "во внесудебном порядке"),
    # citations in words or without spaces, as the rows write them: «п. 1 ст. 93.1»
    (r"\bпункт(?:а|у|ом|е)?\s+(?=\d)", "п. "),
    (r"\bстать(?:я|и|е|ей|ю)\s+(?=\d)", "ст. "),
    (r"\b(п|ст)\.(?=\d)", r"\1. "),
)
# «обычная организация, не КГН и не иностранная», «(не НДС)»: a qualifier the question
# rules out must not select the row for that qualifier; it is dropped before matching
_NEGATED_QUALIFIER = (
    r"\b(?:не|ни|кроме)\s+(?:являет\w*\s+|являемся\s+|входит\s+в\s+|входим\s+в\s+|участник\w*\s+"
    r"|в\s+отношении\s+|по\s+|для\s+)?"
    r"(?:кгн|консолидированн\w*(?:\s+групп\w*(?:\s+налогоплательщиков)?)?|иностранн\w*"
    r"|ндс|налог\w*\s+на\s+добавленную\s+стоимость)\b"
)
# an event the question says did not happen must not select the row for that event:
# «дополнение к акту не составлялось», «жалобу не подаем»
_NEGATED_EVENTS: tuple[tuple[str, str], ...] = (
    (
        r"(?:дополнени\w*\s+к\s+акту|дополнительн\w*\s+мероприяти\w*(?:\s+налогового\s+контроля)?)"
        r"\s+(?:не\s+(?:составлял\w*|составлен\w*|оформлял\w*|проводил\w*|назначал\w*|был\w*)"
        r"|нет\b)",
        "",
    ),
    (r"\bбез\s+(?:дополнени\w*\s+к\s+акту|дополнительн\w*\s+мероприяти\w*)", ""),
    # «решения о продлении не было», «продлений и приостановлений не было»
    (
        r"\b(?:решени\w*\s+(?:о|об)\s+)?(?:продлени\w*|приостановлени\w*)"
        r"(?:\s+(?:и|или)\s+(?:продлени\w*|приостановлени\w*))?(?:\s+срока)?"
        r"\s+(?:не\s+(?:было|был\w*|принимал\w*|выносил\w*|оформлял\w*)|нет)\b",
        "",
    ),
    # «обособленное подразделение (не филиал и не представительство)»
    (
        r"\(?\b(?:не|кроме)\s+(?:через\s+)?(?:филиал\w*|представительств\w*)"
        r"(?:\s+(?:и|или)\s+(?:не\s+)?(?:филиал\w*|представительств\w*))?\)?",
        "",
    ),
    # «не приостанавливалась и не продлевалась»: the plain period applies
    (
        r"\bне\s+(?:приостанавлива\w*|приостанавл\w*|приостановл\w*|продлевал\w*|продлял\w*|продлен\w*)",
        "",
    ),
    (
        r"(?:апелляционн\w*\s+)?жалоб\w*\s+(?:мы\s+)?не\s+(?:будем\s+|планируем\s+|собираемся\s+)?"
        r"(?:пода\w*|подав\w*|направ\w*)",
        "без жалобы",
    ),
    (
        r"\bне\s+(?:будем\s+|планируем\s+|собираемся\s+)?(?:пода\w*|подав\w*|направл\w*)\s+"
        r"(?:апелляционн\w*\s+)?жалоб\w*",
        "без жалобы",
    ),
)
_COMPILED = tuple(
    (re.compile(p), r) for p, r in (*_REWRITES, *_NEGATED_EVENTS, (_NEGATED_QUALIFIER, ""))
)


def lowered(text: str) -> str:
    """Lower case, ё as е, whitespace collapsed."""
    return " ".join(text.replace("ё", "е").replace("Ё", "Е").lower().split())


def canonical(text: str) -> str:
    """``text`` lowered, with accountants' words rewritten to the Code's."""
    out = lowered(text)
    for pattern, replacement in _COMPILED:
        out = pattern.sub(replacement, out)
    return out
