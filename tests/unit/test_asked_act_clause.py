"""The act a question asks tells a clause from a card field of the asked kind («когда
заёмщик вернёт заём» — «Возврат займа — …» over «Заём выдаётся не позднее …»); verbs that
only ask a value («стоит», «платим») do not. Everyday synonyms of a document's wording and
periods in minutes."""

from __future__ import annotations

import pytest

from finagent.answering.card_evidence import QUALIFIED, CardAnswer, CardValue
from finagent.answering.card_or_sentence import asked_acts, clause_answers_instead
from finagent.answering.document_sentences import shared_words
from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk

LOAN = """# Договор целевого займа № ЦЗ-5/2027
г. Калуга — 9 февраля 2027 г.
ООО «Угра-Лес», именуемое в дальнейшем «Займодавец», и ООО «Калужский брус», именуемое
в дальнейшем «Заёмщик», заключили настоящий договор.
2.1. Заём выдаётся одним траншем не позднее 20 февраля 2027 г.
2.4. Возврат займа — не позднее 15 декабря 2027 г. единым платежом.
3.2. Заёмщик страхует пилораму на страховую сумму не менее 4 700 000 рублей.
3.5. Сумма займа составляет 3 900 000 рублей, проценты — 11 % годовых.
"""


def _clause_leads(question: str, key: str, quoted: int, clause: int, value: str) -> bool:
    card = build_card("d1", "loan", LOAN)
    lines = LOAN.splitlines()
    chunk = Chunk(id="c", text=LOAN, source="user_docs", title=card.title, document_id="d1")
    answer = CardAnswer(key, "поле", "d1", card.title, 1, [CardValue(value, lines[quoted])])
    ranked = [Candidate(chunk, 1, lines[clause], 0, 0, score=1.0)]
    return clause_answers_instead(build_question(question, cards=[card]), [answer], ranked, [card])


@pytest.mark.parametrize(
    ("question", "key", "quoted", "clause", "leads"),
    [
        # the clause names the asked act by its noun, the field's sentence another act
        ("До какого числа калужский брус вернёт деньги Угра-Лесу?", "payment_term", 4, 5, True),
        # the field's own sentence names the act: the card keeps the lead
        ("Когда Угра-Лес выдаст заём брусу?", "payment_term", 4, 5, False),
        # a qualified amount («сумма») gives way to the clause naming the act by its root
        ("На какую сумму нужно застраховать пилораму?", QUALIFIED, 7, 6, True),
        # a verb that only asks the value names no act
        ("Сколько стоит заём у Угра-Леса, какая сумма?", QUALIFIED, 7, 6, False),
    ],
)
def test_the_asked_act_tells_the_clause_from_the_field(
    question: str, key: str, quoted: int, clause: int, leads: bool
) -> None:
    value = "20 февраля 2027 г." if key == "payment_term" else "3 900 000 рублей"
    assert _clause_leads(question, key, quoted, clause, value) is leads


def test_value_verbs_are_no_acts() -> None:
    acts = asked_acts(build_question("Сколько мы платим подрядчику и когда он вернёт аванс?"))
    assert "вернуть" in acts
    assert "платить" not in acts
    # a full participle names a party: «поверенному», «управляющему»
    assert not asked_acts(build_question("какую сумму получит поверенный по договору?"))
    # the case a condition names is no act asked
    assert not asked_acts(build_question("какую премию получит агент, если выиграем торги?"))


@pytest.mark.parametrize(
    ("asked", "clause"),
    [
        ({"сообщить"}, "Арендатор письменно уведомляет Арендодателя об аварии в течение суток."),
        ({"финальный"}, "Окончательный отчёт сдаётся не позднее 10 июня 2027 г."),
        ({"учеба"}, "На период обучения работнику сохраняется оклад 52 000 рублей."),
        ({"приехать"}, "Время прибытия мобильной бригады — не более 40 минут."),
    ],
)
def test_a_clause_names_an_everyday_word_by_its_synonym(asked: set[str], clause: str) -> None:
    assert shared_words(asked, profile(clause).lemmas) == 1


def test_a_term_in_minutes_is_a_period() -> None:
    assert profile("Время прибытия мобильной бригады — не более 40 минут.").periods
    assert profile("Реакция на заявку — в течение 2 часов.").periods


def test_payment_verbs_are_no_synonym_group() -> None:
    # nearly every clause pays something («уплачивает штраф»): «сколько платим» would name it
    clause = profile("Лицензиат уплачивает штраф 50 000 рублей за каждое рабочее место.").lemmas
    assert shared_words({"платить"}, clause) == 0
