"""The cited Code point over a knowledge-base sentence that retells it."""

from __future__ import annotations

from finagent.answering.code_over_kb import prefer_code_point
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
