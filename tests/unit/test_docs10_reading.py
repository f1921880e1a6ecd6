"""Stop 40 docs10: a colloquial «сколько» asks a value, a role in the genitive qualifies
the asked noun, and a totals label that names its parts is still a total."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.qualifiers import qualifiers_of
from finagent.language.text import analyse
from finagent.question.build import build_question

TODAY = date(2026, 3, 1)


def _lemmas(text: str) -> list[str]:
    return [t.lemma for s in analyse(text).sentences for t in s.tokens]


@pytest.mark.parametrize(
    "text",
    [
        "скока дней отпуска положено по трудовому договору?",
        "а скок платим арендодателю в месяц?",
    ],
)
def test_colloquial_how_much_is_no_yes_no_question(text: str) -> None:
    assert not build_question(text, today=TODAY).polar


@pytest.mark.parametrize(
    ("text", "answer_type"),
    [
        ("какое вознаграждение банка за инкассацию выручки?", "rate"),
        ("какая комиссия банка за переводы физлицам?", "rate"),
    ],
)
def test_role_after_a_value_noun_is_not_the_party_asked(text: str, answer_type: str) -> None:
    question = build_question(text, today=TODAY)
    assert question.answer_type == answer_type
    assert "bank" not in question.fields


def test_party_name_is_still_the_party_asked() -> None:
    question = build_question("наименование банка по договору?", today=TODAY)
    assert "bank" in question.fields


@pytest.mark.parametrize(
    "label",
    [
        "Всего к возврату (основной долг + проценты)",
        "Итого начислено, включая остаток прошлого периода",
    ],
)
def test_total_label_naming_its_parts_is_a_total(label: str) -> None:
    assert qualifiers_of(_lemmas(label)).final == "total"


def test_rest_label_stays_rest() -> None:
    assert qualifiers_of(_lemmas("Остаток задолженности на конец месяца")).final == "rest"
