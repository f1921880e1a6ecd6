"""A coordinated case of the same ask («… и сверх неё», «… и отдельно на …»), also in a
question with no question word, is a part of its own; a share the law words in its
sentence's case leads with its sign."""

from finagent.answering.sentence_profile import shown
from finagent.question.build import build_question


def test_a_case_after_and_with_a_preposition_is_a_part_of_the_same_ask() -> None:
    question = build_question("ставка НДС на хлеб и на ювелирные изделия?")
    assert [p.answer_type for p in question.parts] == ["rate", "rate"]
    assert question.parts[1].own[:2] == ["и", "на"]


def test_a_telegraphic_question_asks_from_its_first_word() -> None:
    question = build_question(
        "стандартный вычет на первого ребёнка и отдельно на третьего — размеры?"
    )
    assert len(question.parts) == 2
    assert question.parts[0].own[0] == "стандартный"
    assert question.parts[1].answer_type == question.parts[0].answer_type


def test_a_second_object_of_the_ask_is_not_a_part() -> None:
    assert build_question("Какой лимит доходов и расходов на УСН?").parts == []


def test_a_worded_share_is_shown_with_its_sign() -> None:
    assert shown("5 процентов") == "5 %"
    assert shown("0,5 процента") == "0,5 %"
    assert shown("12 (двенадцать) процентов") == "12 %"
    assert shown("15 процентов годовых") == "15 процентов годовых"
