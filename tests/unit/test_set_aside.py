"""What a question sets aside with «без» ranks below what answers it."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.ranker import rank_learned
from finagent.answering.sentence_profile import profile
from finagent.answering.set_aside import names_set_aside, set_aside
from finagent.question.build import build_question
from finagent.state import Chunk


def test_the_noun_phrase_after_without_is_set_aside() -> None:
    assert set_aside("Можно ли вернуть пошлину без судебного решения?") == [
        frozenset({"судебный", "решение"})
    ]
    assert set_aside("Можно ли взять отсрочку без договора залога имущества?") == [
        frozenset({"договор", "залог"})
    ]
    # a sum's qualifier and an excluded condition are read elsewhere
    assert set_aside("Какая цена без НДС?") == []
    assert set_aside("Сколько длится проверка без учёта продления?") == []


def test_a_sentence_about_the_set_aside_thing_does_not_answer() -> None:
    phrases = set_aside("Когда вернут пошлину без судебного решения?")
    assert names_set_aside(profile("По судебному решению пошлина возвращается за месяц."), phrases)
    assert not names_set_aside(
        profile("Без судебного решения пошлина возвращается за год."), phrases
    )
    assert not names_set_aside(profile("Пошлина возвращается за год."), phrases)


def test_the_ranker_puts_the_set_aside_case_below() -> None:
    question = build_question("За сколько дней вернут залог без нотариального согласия?")
    law = Chunk(id="nk:1", text="", source="law", metadata={"unit_id": "u"})
    other = Candidate(
        law, 1, "При наличии нотариального согласия залог возвращают за 5 дней.", 0, 0
    )
    rule = Candidate(law, 1, "Залог возвращают в течение 30 дней.", 0, 1)
    plain = rank_learned(build_question("За сколько дней вернут залог?"), [other, rule], None)
    scores = {c.sentence: c.score for c in plain}
    ranked = rank_learned(question, [other, rule], None)
    assert ranked[0] is rule
    assert other.score < scores[other.sentence] - 2
