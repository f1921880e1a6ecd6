"""Stop 45, lane words: clipped compounds read as the two words a text writes, a word for
the kind of value asked is no attribute, the answer types of «гарантия … сколько»,
«сколько раз», «когда применяется», a day of the month and a dated act for a date
question. Invented documents and wording."""

from __future__ import annotations

from datetime import date

from finagent.answering.answer_kinds import asked_count, asked_count_phrases, states_unit_price
from finagent.answering.card_evidence import CardAnswer, CardValue
from finagent.answering.card_or_sentence import clause_answers_instead
from finagent.answering.coverage import coverage_abstention
from finagent.answering.document_sentences import excepted_only, value_level
from finagent.answering.evidence import Candidate
from finagent.answering.qualified_values import of_asked_case
from finagent.answering.sentence_profile import profile
from finagent.cards.build import build_card
from finagent.language.compounds import compound_at, compounds_named, names_compound
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)


def _lemmas(text: str) -> list[str]:
    return [t.lemma for s in analyse(text).sentences for t in s.tokens]


def test_a_clipped_compound_is_named_by_its_adjective_and_noun_written_out() -> None:
    assert names_compound("техосмотра", _lemmas("Ежегодный технический осмотр автобуса."))
    assert names_compound("спецодежду", _lemmas("Выдаётся специальная одежда и обувь."))
    assert names_compound("госпошлины", _lemmas("Уплачивается государственная пошлина."))
    # an adjective may stand between the clipped one and the noun
    assert names_compound("соцвычет", _lemmas("Предоставляется социальный налоговый вычет."))
    # a word unknown to the dictionary is split as well
    assert names_compound("амортпремии", _lemmas("Применяется амортизационная премия 10 %."))
    assert compounds_named(["медосмотр"], _lemmas("Проводится медицинский осмотр.")) == {
        "медосмотр"
    }


def test_the_two_words_apart_or_a_word_of_its_own_are_no_compound() -> None:
    # the words must stand together, the adjective first
    assert not names_compound("техосмотр", _lemmas("Технический паспорт и осмотр машины."))
    # a derivational prefix makes a word of its own: «переплата» is no «переменная плата»
    assert compound_at("переплата", _lemmas("Переменная плата за электроэнергию.")) < 0
    # a start ending in a vowel is a combining form: «столица» is no «сторонние лица»
    assert compound_at("столица", _lemmas("Права сторонних лиц не затрагиваются.")) < 0
    # the noun is the word's own end: «командировка» alone splits into nothing
    assert compound_at("командировка", _lemmas("Заграничная командировка.")) < 0


def _doc(text: str, title: str) -> Chunk:
    return Chunk(id=title, text=text, source="user_docs", title=title)


def test_a_clipped_compound_asked_is_covered_by_its_words_in_the_documents() -> None:
    policy = _doc(
        "2.3. Организация применяет амортизационную премию в размере 10 % "
        "первоначальной стоимости.",
        "Учётная политика",
    )
    question = build_question("Какая амортпремия в учётной политике?", TODAY)
    assert coverage_abstention(question, [policy], [], True) is None
    other = _doc("2.3. Организация начисляет премию работникам ежеквартально.", "Положение")
    found = coverage_abstention(question, [other], [], True)
    assert found is not None and found.kind == "attribute"


def test_the_value_beside_the_qualified_case_a_compound_names_is_kept() -> None:
    rule = (
        "Компенсация выплачивается не более 800 рублей за каждые сутки в поездке по "
        "области и не более 3 000 рублей за каждые сутки в заграничной поездке."
    )
    values = ("800 рублей", "3 000 рублей")
    asked = build_question("какая компенсация в загранпоездке за сутки?", TODAY)
    assert of_asked_case(asked, rule, values) == ("3 000 рублей",)
    plain = build_question("какая компенсация в поездке за сутки?", TODAY)
    assert of_asked_case(plain, rule, values) == values


def test_the_value_beside_the_contrasted_case_is_kept() -> None:
    rule = (
        "Возмещаются расходы не более 1 200 рублей в сутки при поездке на территории "
        "Российской Федерации и не более 4 000 рублей в сутки при поездке за пределами "
        "территории Российской Федерации."
    )
    values = ("1 200 рублей", "4 000 рублей")
    # a clipped compound of the class's adjective names the case abroad
    abroad = build_question("сколько возмещают в сутки в загранпоездке?", TODAY)
    assert of_asked_case(abroad, rule, values) == ("4 000 рублей",)
    home = build_question("сколько возмещают в сутки при поездке по России?", TODAY)
    assert of_asked_case(home, rule, values) == ("1 200 рублей",)


def test_a_standard_asked_is_the_limit_not_an_attribute() -> None:
    question = build_question("Расходы на рекламу — какой у них норматив?", TODAY)
    assert question.answer_type == "limit"
    law = Chunk(
        id="law",
        text="Расходы признаются в размере, не превышающем 1 процента выручки.",
        source="law",
        title="ст. 264",
    )
    assert coverage_abstention(question, [law], [], False) is None


def test_how_much_of_a_term_noun_asks_a_period() -> None:
    assert build_question("Рассрочка по договору подряда сколько?", TODAY).answer_type == ("period")
    assert build_question("Гарантия на насосы у поставщика сколько?", TODAY).answer_type == (
        "period"
    )
    # a verb of price or pay asks a sum; a counted noun says what is counted
    assert build_question("Сколько стоит командировка в Омск?", TODAY).answer_type == "amount"
    assert build_question("Сколько денег вернут по гарантии?", TODAY).answer_type == "amount"


def test_how_many_times_asks_a_count_of_times() -> None:
    question = build_question("сколько раз в квартал банк меняет процентную ставку?", TODAY)
    assert question.answer_type == "amount"
    assert asked_count(question) == "раз"
    sentence = "Банк пересматривает ставку 3 раза в квартал, ставка сейчас 12 %."
    assert asked_count_phrases(question, sentence) == ("3 раза",)


def test_when_a_rule_applies_asks_its_cases_not_a_date() -> None:
    assert build_question("Когда применяется пониженный тариф взносов?", TODAY).answer_type == (
        "procedure"
    )
    both = build_question("Какие тарифы взносов бывают и когда применяется 7,6 %?", TODAY)
    assert both.answer_types[:2] == ["rate", "procedure"]
    assert build_question("Когда уплатить взносы за квартал?", TODAY).answer_type == "date"


def test_a_standard_of_a_duration_asks_a_period() -> None:
    question = build_question("Какой норматив времени ответа на заявку у подрядчика?", TODAY)
    assert question.answer_type == "period"


def test_the_words_of_an_exception_name_no_clause() -> None:
    sentence = "Срок службы здания, за исключением лифтового оборудования, составляет 50 лет."
    assert excepted_only(sentence) == {"лифтовый", "оборудование"}
    # «кроме того» is a connective; a word also said outside the exception counts
    assert not excepted_only("Кроме того, лифтовое оборудование обслуживается ежемесячно.")
    both = "Оборудование, кроме лифтового оборудования, меняется за счёт арендатора."
    assert excepted_only(both) == {"лифтовый"}


def test_a_dated_clause_of_the_asked_act_outranks_the_act_without_a_date() -> None:
    question = build_question("когда арендодатель обязан предоставить нам склад?", TODAY)
    dated = "Арендодатель предоставляет склад Арендатору по акту не позднее 15 октября 2027 г."
    other = "Обеспечительный платёж вносится не позднее 1 марта 2027 г."
    undated = "Арендодатель обязуется после ремонта предоставить склад Арендатору."
    levels = [value_level(question, profile(s), s) for s in (dated, other, undated)]
    assert levels[0] > levels[1] >= levels[2]


LEASE = """# Договор аренды склада № С-4/2027
г. Самара — 10 января 2027 г.
ООО «Волга-Склад», именуемое в дальнейшем «Арендодатель», и ООО «Жигули-Трейд», именуемое
в дальнейшем «Арендатор», заключили настоящий договор.
4.1. Арендная плата вносится ежемесячно не позднее 7-го числа текущего месяца.
4.2. Счёт оплачивается в течение 5 рабочих дней с даты его получения.
"""


def test_a_day_of_the_month_asked_is_the_clauses_not_a_cards_span() -> None:
    card = build_card("d1", "lease", LEASE)
    lines = LEASE.splitlines()
    chunk = Chunk(id="c", text=LEASE, source="user_docs", title=card.title, document_id="d1")
    answer = CardAnswer(
        "payment_term", "срок оплаты", "d1", card.title, 1, [CardValue("5 рабочих дн.", lines[5])]
    )
    ranked = [Candidate(chunk, 1, lines[4], 0, 0, score=1.0)]
    day = build_question("до какого числа вносим аренду за склад?", TODAY, cards=[card])
    assert clause_answers_instead(day, [answer], ranked, [card])
    # a term in days asked keeps the card's span
    term = build_question("в какой срок оплачивается счёт за склад?", TODAY, cards=[card])
    assert not clause_answers_instead(term, [answer], ranked, [card])


def test_a_price_for_one_unit_written_as_a_digit_is_a_unit_price() -> None:
    assert states_unit_price("Цена за 1 чел., руб.: 3 200,00")
