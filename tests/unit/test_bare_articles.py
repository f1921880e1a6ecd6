"""Articles a question names by their number alone («по 126», «по 75 статье»).

Probe questions written for this mechanism (other articles and taxes than any evaluation
item's), about no evaluation item.
"""

from __future__ import annotations

import pytest

from finagent.answering.code_over_kb import cited_articles, names_code
from finagent.legal.bare_articles import bare_articles
from finagent.question.build import build_question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("какие пени по 75 статье?", ["75"]),
        ("штраф по 126, если документы не дали?", ["126"]),
        ("что по 123-й статье за неперечисление?", ["123"]),
        ("по 346.21 когда авансы", ["346.21"]),
        ("что по 227?", ["227"]),
        ("срок по 88 НК для пояснений", ["88"]),
        ("вычет по 220 дают сколько раз", ["220"]),
        ("по 75 статье пени, а что по 126?", ["75", "126"]),
    ],
)
def test_an_article_named_by_its_number(question: str, expected: list[str]) -> None:
    assert bare_articles(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        # a range of days, a stage, a sum, a share, a year, a small count: values
        "НДФЛ, удержанный с 5 по 25 число — когда перечислить?",
        "пени с 15 по 60 день просрочки",
        "платёж по 45-й день",
        "аванс по 12 этапу работ",
        "по 150 рублей за каждый документ",
        "по 40 % ставка",
        "по 2026 год включительно",
        "платим по 3 в месяц",
        "по 1 500 руб. за отчёт",
    ],
)
def test_a_number_that_is_a_value(question: str) -> None:
    assert bare_articles(question) == []


def test_the_bare_article_is_cited_and_names_the_code() -> None:
    question = build_question("штраф по 126, если документы не дали?")
    assert cited_articles(question) == frozenset({"126"})
    assert names_code(question)
    # an article of another code is not the Tax Code's
    assert cited_articles(build_question("штраф по ст. 15.5 КоАП, а по 126?")) == frozenset()


def test_a_point_before_the_article_word_is_no_article() -> None:
    assert bare_articles("штраф по пункту 2 статьи 120 НК РФ") == []
    assert bare_articles("по п. 3 статьи 88 сколько дней") == []
    assert cited_articles(build_question("срок по пункту 2 статьи 88 НК РФ?")) == frozenset({"88"})
