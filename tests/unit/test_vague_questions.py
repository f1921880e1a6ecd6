"""A value question that names no subject is asked back, not answered with a guess."""

from __future__ import annotations

from datetime import date

from finagent.answering.vague import clarification
from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)


def _card(document_id: str, title: str) -> DocumentCard:
    return DocumentCard(document_id=document_id, title=title, doc_type=None, doc_type_name=None)


CARDS = [_card("a", "Договор подряда № П-1"), _card("b", "Договор хранения № Х-2")]


def _asks(question: str, documents: bool = False, cards: list[DocumentCard] | None = None) -> bool:
    return clarification(build_question(question, TODAY), documents, cards or []) is not None


def test_a_tax_question_without_the_tax_is_asked_back() -> None:
    assert _asks("Сколько налога нам платить?")


def test_a_named_tax_is_answered() -> None:
    assert not _asks("Какая ставка НДС нам положена?")
    assert not _asks("Какой срок уплаты налога на имущество?")


def test_a_term_of_one_of_several_documents_is_asked_back_with_their_titles() -> None:
    asked = clarification(build_question("посмотри договор и скажи срок", TODAY), True, CARDS)
    assert asked is not None and "Договор подряда № П-1" in asked[0]


def test_a_single_document_or_a_named_subject_is_answered() -> None:
    assert not _asks("посмотри договор и скажи срок", True, CARDS[:1])
    assert not _asks("Какой срок хранения по договору?", True, CARDS)
    assert not _asks("Какой гарантийный срок по договору?", True, CARDS)


def test_a_sum_of_a_tax_with_no_base_is_asked_back() -> None:
    # the tax alone names no base (nor does «там»): which document or operation is meant?
    assert _asks("Сколько там НДС?")
    assert _asks("Сколько НДС нам платить?")
    assert not _asks("Сколько НДС с выручки 1 млн руб.?")
    assert not _asks("Сколько НДС в счёте-фактуре № 87?")
    # in the documents' scenarios the document's own VAT is the subject
    assert not _asks("Какая сумма НДС?", documents=True, cards=CARDS)


def test_a_field_read_from_generic_words_alone_names_no_subject() -> None:
    # «числа» and «платить» read as a payment term, «штраф» as a penalty: words of the
    # asked type, not a subject, outside the documents
    assert _asks("До какого числа нужно платить?")
    assert _asks("А какой штраф?")
    # a word beyond them names the subject
    assert not _asks("До какого числа платить транспортный налог?")
    assert not _asks("Какой штраф за опоздание с декларацией?")
    # in the documents' scenarios the field is the documents': one of them answers
    assert not _asks("До какого числа нужно платить?", True, CARDS[:1])


def test_a_pointer_with_nothing_to_point_at_asks_which_document() -> None:
    """«там» opening a first question points at a document it never names: several of the
    user's documents could be meant, so the question is asked back with their titles."""
    asked = clarification(build_question("Какие там пени за опоздание?", TODAY), True, CARDS)
    assert asked is not None and "Договор хранения № Х-2" in asked[0]
    assert _asks("А тут какой срок приёмки работ?", True, CARDS)
    # something named before the pointer is what it points at
    assert not _asks("Договор хранения № Х-2: какие там пени за опоздание?", True, CARDS)
    assert not _asks("По подряду с ООО «Вега» какие там пени за опоздание?", True, CARDS)
    # one document only: it is the one meant; outside the documents the law answers
    assert not _asks("Какие там пени за опоздание?", True, CARDS[:1])
    assert not _asks("Какие там пени за опоздание?")


def test_the_documents_asked_about_are_those_stating_the_field() -> None:
    texts = {
        "a": "Договор подряда № П-1\n\n7.1. За просрочку Подрядчик уплачивает неустойку "
        "0,2 % от цены работ за каждый день.",
        "b": "Договор хранения № Х-2\n\n6.1. За просрочку оплаты Поклажедатель уплачивает "
        "неустойку 0,1 % за каждый день.",
        "c": "Доверенность № 7\n\nДоверенность выдана на получение груза сроком на 1 год.",
    }
    cards = [build_card(key, key, text) for key, text in texts.items()]
    asked = clarification(build_question("Какая там неустойка?", TODAY), True, cards)
    assert asked is not None
    assert "Договор подряда № П-1" in asked[0] and "Договор хранения № Х-2" in asked[0]
    assert "Доверенность" not in asked[0]


def test_a_sanction_for_being_late_with_nothing_late_is_asked_back() -> None:
    assert _asks("Какой штраф будет, если опоздаю?")
    assert _asks("Какие пени, если просрочу?")
    # what is late is named: the sanction of that is asked
    assert not _asks("Какой штраф, если опоздать с декларацией по НДС?")
    assert not _asks("Какой штраф будет, если опоздаю с уплатой НДФЛ?")
