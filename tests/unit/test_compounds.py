"""Compound short forms read as the phrase they shorten."""

from __future__ import annotations

from finagent.language.compounds import compound_of, compounded_in
from finagent.legal.taxes import compound_tax_names
from finagent.question.build import build_question
from finagent.routing.expansion import expand_query


def test_a_cut_down_start_and_the_head_noun_make_the_phrase() -> None:
    assert compound_of("земналогу", "земельный налог")
    assert compound_of("трансналог", "транспортный налог")
    # the start may shorten a later adjective of the phrase
    assert compound_of("сельхозналогом", "единый сельскохозяйственный налог")
    assert not compound_of("налог", "земельный налог")  # no start at all
    assert not compound_of("соцналог", "земельный налог")  # another start
    assert not compound_of("земсбор", "земельный налог")  # another head
    assert not compound_of("земельный", "земельный налог")
    assert compounded_in("Как платить земналог и трансналог?", ["транспортный налог"]) == [
        "транспортный налог"
    ]


def test_a_tax_named_by_its_short_form_is_the_typed_questions_and_the_searchs() -> None:
    question = "Когда платить земналог за участок?"
    assert build_question(question).taxes == ["land"]
    assert compound_tax_names(question) == ["земельный налог"]
    assert expand_query(question)[-1].endswith("земельный налог")
    # a tax named in full adds nothing
    assert compound_tax_names("Когда платить земельный налог?") == []
