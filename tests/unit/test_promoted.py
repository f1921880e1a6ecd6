"""The one way a reordering step puts its preferred candidate first."""

from __future__ import annotations

from finagent.answering.evidence import promoted
from tests.unit.ranked import kb_passage, ranked


def test_the_promoted_candidate_leads_scored_as_the_former_first() -> None:
    found = ranked(kb_passage(1, "Сроки"), "Первое.", "Второе.", "Третье.", top=5.0, gap=1.0)
    first, second, third = found
    out = promoted(found, third)
    assert [c.sentence for c in out] == [third.sentence, first.sentence, second.sentence]
    assert out[1:] == [first, second]
    assert out[0].score == 5.0 and third.score == 3.0  # a copy is raised, not the shared one
    assert [c.score for c in out[1:]] == [5.0, 4.0]


def test_a_candidate_scored_higher_keeps_its_score() -> None:
    found = ranked(kb_passage(1, "Сроки"), "Первое.", "Второе.", top=5.0, gap=1.0)
    found[1].score = 7.0
    assert promoted(found, found[1])[0].score == 7.0
