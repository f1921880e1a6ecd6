"""A person the question names must be the one the quoted value belongs to (questions and
documents written for this test, about no eval item)."""

from __future__ import annotations

import pytest

from finagent.answering.named_person import asked_persons, party_mention, person_abstention
from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.state import Chunk

_CONTRACT = (
    "Трудовой договор № 12-ТД\n"
    "ООО «Кедровый Бор», в лице директора Широкова Глеба Ивановича, действующего на "
    "основании Устава, именуемое «Работодатель», и Белова Алла Юрьевна, именуемая "
    "«Работник», заключили настоящий договор.\n"
    "3.1. Работнику устанавливается должностной оклад 74 500 руб. в месяц.\n"
    "Работодатель ____ Г. И. Широков      Работник ____ А. Ю. Белова"
)
_SALARY = "3.1. Работнику устанавливается должностной оклад 74 500 руб. в месяц."


def _card(doc_id: str = "td") -> DocumentCard:
    return build_card(doc_id, "Трудовой договор № 12-ТД", _CONTRACT)


def _chunk(doc_id: str = "td") -> Chunk:
    return Chunk(
        id=f"{doc_id}:1",
        text=_CONTRACT,
        source="user_docs",
        title="Трудовой договор № 12-ТД",
        document_id=doc_id,
    )


@pytest.mark.parametrize(
    ("question", "persons"),
    [
        ("какая зарплата у Широкова?", ["Широкова"]),
        # a capitalised noun opening the question, a first name before the surname
        ("Премия Кузнецовой за квартал какая?", ["Кузнецовой"]),
        ("Оклад Ивана Петрова какой?", ["Петрова"]),
        # a year, a date or a counted number after the name is no house number
        ("какой отпуск у Семёновой, 2025 год?", ["Семёновой"]),
        ("Какой аванс выдали Соколовой 12 апреля?", ["Соколовой"]),
        ("Сколько часов отработал Морозов 20 часов или 30?", ["Морозов"]),
        ("Долг Лебедеву 40 тысяч вернули?", ["Лебедеву"]),
        # names are whole tokens: «Орлов» is not in «Орловский»
        ("сколько получает Орлов в ООО «Орловский двор»?", ["Орлов"]),
        ("какую премию в Управлении Орловского района получает Орлов?", ["Орлов"]),
        # a place, a street with its house, a street named after a person are no persons
        ("сколько платим за склад в Подольске?", []),
        ("аренда офиса на Гоголя, 12 сколько?", []),
        ("аренда офиса на Гагарина, 14 сколько стоит?", []),
        ("охрана склада на Чапаева, 17 сколько?", []),
        ("уборка офиса на Героя Широкова, сколько?", []),
    ],
)
def test_the_persons_a_question_names(question: str, persons: list[str]) -> None:
    assert asked_persons(build_question(question)) == persons


def test_a_representative_or_a_signatory_is_no_party() -> None:
    assert not party_mention("Широкова", _CONTRACT)
    assert party_mention("Беловой", _CONTRACT)


def test_the_salary_of_the_director_who_signed_is_not_stated() -> None:
    question = build_question("сколько получает в месяц Широков по окладу?")
    found = person_abstention(question, [(_SALARY, "td")], [_card()], {"td": _CONTRACT}, [_chunk()])
    assert found is not None
    assert found.kind == "person"
    assert "Трудовой договор № 12-ТД" in found.missing


def test_the_employee_of_the_contract_owns_its_salary() -> None:
    question = build_question("какой оклад у Беловой?")
    assert (
        person_abstention(question, [(_SALARY, "td")], [_card()], {"td": _CONTRACT}, [_chunk()])
        is None
    )


def test_a_sentence_naming_the_person_covers_them() -> None:
    row = "Перечислено Широкову Г. И. под отчёт 15 000 руб."
    question = build_question("сколько выдали Широкову под отчёт?")
    assert person_abstention(question, [(row, "td")], [_card()], {}, [_chunk()]) is None


def test_a_person_no_document_names_is_declined() -> None:
    question = build_question("какой оклад у Варламовой?")
    found = person_abstention(question, [(_SALARY, "td")], [_card()], {"td": _CONTRACT}, [_chunk()])
    assert found is not None


def test_a_document_not_read_lends_its_values() -> None:
    question = build_question("какой оклад у Варламовой?")
    assert person_abstention(question, [(_SALARY, "x")], [], {}, []) is None
    assert person_abstention(question, [], [_card()], {}, []) is None
