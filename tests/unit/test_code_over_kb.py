"""The cited Code point over a knowledge-base sentence that retells it."""

from __future__ import annotations

from finagent.answering.code_over_kb import prefer_cited_article, prefer_code_point
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk

LAW = Chunk(
    id="art126#0",
    text="",
    source="law",
    metadata={"unit_id": "nk1.art126.p1", "article": "126", "citation": "п. 1 ст. 126 НК РФ"},
)
KB = Chunk(id="kb7#0", text="", source="kb", title="Штрафы за непредставление документов")

KB_RULE = "Если налоговая запросила документы, а их не представили, штраф — 200 руб. за документ."
CODE_RULE = (
    "Непредставление в установленный срок налогоплательщиком документов влечет взыскание "
    "штрафа в размере 200 рублей за каждый непредставленный документ."
)
CODE_SPECIAL = (
    "Повторное непредставление документов в течение года влечет взыскание штрафа в размере "
    "200 рублей за каждый непредставленный документ."
)
CODE_OTHER = "Непредставление документов влечет взыскание штрафа в размере 500 рублей."


def _pair(kb: str, law: str, gap: float = 1.0) -> list[Candidate]:
    return [
        Candidate(KB, 1, kb, 0, 0, score=3.0, learned=True),
        Candidate(LAW, 2, law, 1, 0, score=3.0 - gap, learned=True),
    ]


def test_the_code_point_leads_when_the_knowledge_base_retells_it() -> None:
    question = build_question("Какой штраф за непредставление документов по требованию?")
    ranked = prefer_code_point(question, _pair(KB_RULE, CODE_RULE))
    assert ranked[0].sentence == CODE_RULE
    assert ranked[0].score > ranked[1].score
    assert [c.sentence for c in ranked] == [CODE_RULE, KB_RULE]  # both stay candidates


def test_another_value_a_special_case_or_a_far_weaker_code_sentence_is_left_alone() -> None:
    question = build_question("Какой штраф за непредставление документов по требованию?")
    for law, gap in ((CODE_OTHER, 1.0), (CODE_SPECIAL, 1.0), (CODE_RULE, 5.0)):
        assert prefer_code_point(question, _pair(KB_RULE, law, gap))[0].sentence == KB_RULE


def test_a_question_about_the_askers_own_practice_keeps_the_knowledge_base() -> None:
    question = build_question("Какой штраф за непредставление документов в нашей компании?")
    assert prefer_code_point(question, _pair(KB_RULE, CODE_RULE))[0].sentence == KB_RULE


def test_a_code_point_stating_only_the_fixed_sum_of_a_shared_sanction_is_another_rule() -> None:
    # the retelling states shares and a floor; a Code point with the floor alone (another
    # offence of the same article) does not restate it, the one with all of them does
    kb = "За неподачу отчёта — штраф 5 % от налога за месяц, не более 30 % и не менее 1 000 руб."
    floor = "Непредставление расчета товарищем влечет взыскание штрафа в размере 1 000 рублей."
    whole = (
        "Непредставление отчета влечет взыскание штрафа в размере 5 процентов суммы налога за "
        "каждый месяц, но не более 30 процентов указанной суммы и не менее 1 000 рублей."
    )
    question = build_question("Какой штраф за непредставление отчёта: минимальный и максимальный?")
    assert prefer_code_point(question, _pair(kb, floor))[0].sentence == kb
    assert prefer_code_point(question, _pair(kb, whole))[0].sentence == whole


def test_a_day_of_the_month_asked_takes_the_codes_recurring_day_over_a_dated_list() -> None:
    kb = (
        "Сроки на 2031 год: за I квартал — до 25 апреля 2031 года; за II квартал — до "
        "27 июля 2031 года (25 июля пришлось на субботу)."
    )
    law = (
        "Отчет представляется в налоговый орган не позднее 25-го числа месяца, следующего "
        "за истекшим кварталом."
    )
    other_day = "Отчет представляется не позднее 20-го числа месяца, следующего за кварталом."
    asked = build_question("До какого числа представляется отчет за квартал?")
    assert prefer_code_point(asked, _pair(kb, law))[0].sentence == law
    # another day than the list's, or a question asking when in a given year, keep the list
    assert prefer_code_point(asked, _pair(kb, other_day))[0].sentence == kb
    dated = build_question("Когда представляется отчет за II квартал 2031 года?")
    assert prefer_code_point(dated, _pair(kb, law))[0].sentence == kb


KB_LIST = "- **справки** — только по запросу; срок ответа — 15 рабочих дней;"
CODE_TERM = (
    "Налогоплательщик обязан представить справки по запросу налогового органа в течение "
    "восьми дней со дня получения запроса."
)


def test_a_question_naming_the_code_takes_its_term_over_another_kb_figure() -> None:
    # the KB states another figure (no restatement): only a question asking the Code moves it
    plain = build_question("В какой срок нужно представить справки по запросу инспекции?")
    assert prefer_code_point(plain, _pair(KB_LIST, CODE_TERM))[0].sentence == KB_LIST
    for text in (
        "В какой срок по НК нужно представить справки по запросу инспекции?",
        "Сколько дней на справки по запросу инспекции по ст. 126?",
        "Срок представления справок по запросу по Налоговому кодексу?",
    ):
        assert prefer_code_point(build_question(text), _pair(KB_LIST, CODE_TERM))[0].sentence == (
            CODE_TERM
        ), text


def test_a_question_naming_another_code_or_a_far_weaker_code_sentence_keeps_the_kb() -> None:
    other = build_question("В какой срок по ст. 312 ГК РФ нужно представить справки по запросу?")
    assert prefer_code_point(other, _pair(KB_LIST, CODE_TERM))[0].sentence == KB_LIST
    named = build_question("В какой срок по НК нужно представить справки по запросу инспекции?")
    assert prefer_code_point(named, _pair(KB_LIST, CODE_TERM, gap=5.0))[0].sentence == KB_LIST
    # the question cites another article of the Code than the sentence's
    elsewhere = build_question("Сколько дней на справки по запросу инспекции по ст. 93.3?")
    assert prefer_code_point(elsewhere, _pair(KB_LIST, CODE_TERM))[0].sentence == KB_LIST


def test_the_code_named_takes_its_points_general_rule_of_the_asked_tax() -> None:
    kb = "- **справки** — по запросу; срок — 15 рабочих дней;"
    general = (
        "Проверка проводится в течение трех месяцев со дня представления расчета, если иное "
        "не установлено настоящей статьей."
    )
    vat = (
        "Проверка на основе расчета по налогу на добавленную стоимость проводится в течение "
        "двух месяцев со дня представления такого расчета."
    )
    ranked = [
        Candidate(KB, 1, kb, 0, 0, score=3.0, learned=True),
        Candidate(LAW, 2, general, 1, 0, score=2.5, learned=True),
        Candidate(LAW, 2, vat, 1, 1, score=1.0, learned=True),
    ]
    question = build_question("Сколько по НК длится проверка расчета по НДС?")
    assert prefer_code_point(question, ranked)[0].sentence == vat


def test_a_code_sentence_scoped_to_past_years_does_not_lead_for_the_code_named() -> None:
    past = (
        "В отношении периодов 2011 - 2014 годов срок представления справок может быть "
        "уменьшен до трех дней."
    )
    question = build_question("В какой срок по НК нужно представить справки по запросу?")
    assert prefer_code_point(question, _pair(KB_LIST, past))[0].sentence == KB_LIST


def test_a_kb_sentence_citing_another_article_gives_way_to_one_of_the_cited() -> None:
    other = "По запросу в рамках проверки банка (ст. 86 НК РФ) штраф составляет 40 000 руб."
    own = "Если справки не представлены в срок, штраф составляет 300 руб. за каждую справку."
    ranked = [
        Candidate(KB, 1, other, 0, 0, score=3.0, learned=True),
        Candidate(KB, 1, own, 0, 1, score=2.5, learned=True),
    ]
    cited = build_question("Какой штраф за непредставленные справки по ст. 126?")
    assert prefer_cited_article(cited, list(ranked))[0].sentence == own
    for text in ("Какой штраф за непредставленные справки?", "Какой штраф по ст. 86?"):
        assert prefer_cited_article(build_question(text), list(ranked))[0].sentence == other
