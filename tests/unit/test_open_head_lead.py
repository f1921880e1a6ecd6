"""The direct lead of a document question names the thing asked by «какой» and the value
the quoted sentence states for it, read from the clause naming the question's words."""

from __future__ import annotations

from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk

DOC = Chunk(id="d", text="", source="user_docs", title="Договор № 9", document_id="d9")
LAW = Chunk(
    id="nk",
    text="",
    source="law",
    title="Статья 1",
    metadata={"citation": "п. 1 ст. 1 НК РФ"},
)


def lead(question: str, sentence: str, chunk: Chunk = DOC) -> str:
    return sentence_lead(build_question(question), Candidate(chunk, 1, sentence, 0, 0))[0]


def test_a_thing_asked_by_name_leads_with_the_value_its_sentence_states() -> None:
    question = build_question("Какая отсрочка у нас по договору с ООО «Север»?")
    assert question.answer_type == "procedure" and question.open_head == "отсрочка"
    line = lead(
        "Какая отсрочка у нас по договору с ООО «Север»?",
        "Покупателю предоставляется отсрочка оплаты на 45 календарных дней с даты отгрузки.",
    )
    assert line.startswith("Отсрочка — 45 календарных дн")


def test_a_point_asked_after_a_preposition_is_no_thing_asked() -> None:
    assert build_question("С какого момента действует отсрочка?").open_head is None
    assert build_question("Какие документы нужны для вычета?").open_head is None


def test_the_value_of_the_clause_naming_the_question_words_is_stated() -> None:
    sentence = (
        "Межповерочный интервал составляет: 6 лет — для счётчиков воды; "
        "4 года — для счётчиков тепла; 16 лет — для электросчётчиков; "
        "2 года — для манометров."
    )
    line = lead("Какой срок поверки у счётчиков воды?", sentence)
    assert line.startswith("Срок — 6 лет (")
    both = lead("Какой срок поверки у счётчиков воды и у счётчиков тепла?", sentence)
    assert "6 лет" in both and "4 года" in both and "16 лет" not in both


def test_a_modifier_the_sentence_lacks_leaves_the_sentence_quoted() -> None:
    sentence = "Дилеру предоставляется дополнительная скидка в размере 3 % от цены."
    assert lead("Какая базовая скидка у дилера?", sentence).startswith("В документе")
    assert lead("Какая дополнительная скидка у дилера?", sentence).startswith(
        "Дополнительная скидка — 3 %"
    )


def test_the_law_and_table_rows_keep_their_reading() -> None:
    sentence = "Отсрочка предоставляется на срок до одного года."
    assert not lead("Какая отсрочка по налогу?", sentence, LAW).startswith("Отсрочка —")
    row = "№: 4; Содержание: Такси до вокзала, 2 поездки × 900,00 руб.; Сумма, руб.: 1 800,00"
    line = lead("Сколько стоило такси до вокзала?", row)
    assert "1 800" in line
