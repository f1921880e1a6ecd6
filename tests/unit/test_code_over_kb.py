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
