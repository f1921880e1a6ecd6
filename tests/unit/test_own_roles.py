"""A party asked by the role a document names in its own words («именуемое в дальнейшем
«Кредитор»», «Одаряемый»), and institutions as parties («Муниципальное … учреждение»)."""

from __future__ import annotations

from finagent.answering.card_evidence import card_answers
from finagent.answering.context import build_context
from finagent.cards.build import build_card
from finagent.language.organisations import organisations_in
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.state import Chunk

POLICY = (
    "# Полис страхования имущества № ИМ-77/2026\n\n"
    "Акционерное общество «Оберег-Страхование» (АО «Оберег-Страхование»), ИНН 7704556677, "
    "именуемое в дальнейшем «Страховщик», в лице директора филиала Семёнова Петра Ильича, "
    "с одной стороны, и Общество с ограниченной ответственностью «Бор-Трейд» "
    "(ООО «Бор-Трейд»), ИНН 5260112233, именуемое в дальнейшем «Страхователь», с другой "
    "стороны, заключили настоящий договор.\n\n"
    "1. Страховщик обязуется при наступлении страхового случая возместить Страхователю "
    "ущерб.\n\n"
    "2. Страховая сумма составляет 12 000 000 рублей.\n"
)
GIFT = (
    "# Договор дарения № Д-5/2026\n\n"
    "Общество с ограниченной ответственностью «Север-Агро» (ООО «Север-Агро»), "
    "ИНН 4703001122, именуемое в дальнейшем «Даритель», в лице генерального директора "
    "Ковалёва Ивана Сергеевича, действующего на основании Устава.\n\n"
    "Муниципальное бюджетное учреждение «Дом культуры «Север»», ИНН 4703998811, именуемое "
    "в дальнейшем «Одаряемый», в лице директора Лебедевой Анны Павловны, заключили "
    "договор.\n\n"
    "1. Даритель безвозмездно передаёт Одаряемому два компьютера общей стоимостью "
    "140 000 рублей.\n"
)
SURETY = (
    "# Договор поручительства № П-1/2026\n\n"
    "Публичное акционерное общество «Камский банк» (ПАО «Камский банк»), ИНН 1650001234, "
    "именуемое в дальнейшем «Кредитор», с одной стороны, и Общество с ограниченной "
    "ответственностью «Вектор-Строй» (ООО «Вектор-Строй»), ИНН 1655111222, именуемое в "
    "дальнейшем «Поручитель», с другой стороны, заключили договор.\n\n"
    "1. Поручитель отвечает перед Кредитором за исполнение обязательств Должника на сумму "
    "не более 3 000 000 рублей.\n"
)


def _answers(text: str, question: str) -> list[tuple[str, list[str]]]:
    card = build_card("d1", "doc.md", text)
    chunk = Chunk(id="c", text=text, source="user_docs", title=card.title, document_id="d1")
    asked = build_question(question, cards=[card])
    found = card_answers(asked, [card], build_context([chunk], [], 10_000))
    return [(a.name, [v.value for v in a.values]) for a in found]


def test_a_role_in_the_documents_own_words_is_answered_by_its_party() -> None:
    assert _answers(POLICY, "Кто страховщик по полису ИМ-77/2026?") == [
        ("страховщик", ["АО «Оберег-Страхование» (ИНН 7704556677)"])
    ]
    assert _answers(SURETY, "кто кредитор по договору поручительства?") == [
        ("кредитор", ["ПАО «Камский банк» (ИНН 1650001234)"])
    ]
    assert _answers(GIFT, "кто в договоре дарения даритель") == [
        ("даритель", ["ООО «Север-Агро» (ИНН 4703001122)"])
    ]


def test_a_role_asked_through_a_copula_in_the_instrumental() -> None:
    assert _answers(SURETY, "Кто является поручителем по договору П-1/2026?") == [
        ("поручитель", ["ООО «Вектор-Строй» (ИНН 1655111222)"])
    ]


def test_a_role_asked_by_a_head_or_a_request_whatever_type_the_words_gave() -> None:
    assert _answers(POLICY, "Какой страховщик по полису ИМ-77/2026?") == [
        ("страховщик", ["АО «Оберег-Страхование» (ИНН 7704556677)"])
    ]
    assert _answers(SURETY, "Назовите кредитора по договору П-1/2026") == [
        ("кредитор", ["ПАО «Камский банк» (ИНН 1650001234)"])
    ]
    # a value asked of the role's clause is no party
    assert _answers(SURETY, "Какой срок у поручителя по договору П-1/2026?") == []


def test_a_role_that_acts_is_not_the_one_asked() -> None:
    assert _answers(SURETY, "Перед кем отвечает поручитель по договору П-1/2026?") == []
    assert _answers(POLICY, "Что страховщик возмещает страхователю по полису ИМ-77/2026?") == []


def test_a_participle_names_a_role_in_its_own_form() -> None:
    card = build_card("d1", "doc.md", GIFT)
    roles = [(p.role, p.name) for p in card.parties]
    assert ("одаряемый", "МБУ «Дом культуры «Север»»") in roles
    # «Одаряемая сторона»: a participle before a noun is no role of its own
    other = build_card(
        "d2",
        "doc.md",
        "# Соглашение № 3\n\nМуниципальное бюджетное учреждение «Школа № 4», ИНН "
        "4703998877, именуемое в дальнейшем «Одаряемая сторона», подписало соглашение.\n",
    )
    assert not other.parties
    assert _answers(GIFT, "Кто одаряемый по договору дарения Д-5/2026?") == [
        ("одаряемый", ["МБУ «Дом культуры «Север»» (ИНН 4703998811)"])
    ]
    assert _answers(GIFT, "Кто является одаряемым по договору Д-5/2026?") == [
        ("одаряемый", ["МБУ «Дом культуры «Север»» (ИНН 4703998811)"])
    ]


def test_one_party_by_its_full_and_short_names_is_one_value() -> None:
    text = SURETY.replace("(ПАО «Камский банк»)", "(ПАО «КБ»)")
    values = _answers(text, "кто кредитор по договору поручительства?")[0][1]
    assert len(values) == 1


def test_institutions_are_organisations_by_their_kind() -> None:
    text = (
        "Муниципальное общеобразовательное учреждение «Лицей № 2» и Федеральное "
        "государственное бюджетное учреждение «Центр гигиены» подписали соглашение; "
        "МБДОУ «Детский сад» в нём не участвует, а ГБУ «Жилищник» участвует."
    )
    found = {(o.legal_form, o.name) for o in organisations_in(analyse(text))}
    assert ("МОУ", "Лицей № 2") in found
    assert ("ФГБУ", "Центр гигиены") in found
    assert ("ГБУ", "Жилищник") in found
    # «учреждение» after words that name no kind is no legal form
    assert not organisations_in(analyse("Это учреждение «Ромашка» закрыто."))


OUR_GIFT = (
    "# Договор дарения № Д-8/2026\n\n"
    "Общество с ограниченной ответственностью «Бор-Трейд» (ООО «Бор-Трейд»), ИНН "
    "5260112233, именуемое в дальнейшем «Даритель», в лице директора Орлова Петра Ильича.\n\n"
    "Государственное бюджетное учреждение «Центр реабилитации «Надежда»» (ГБУ «ЦР «Надежда»»), "
    "ИНН 5260998877, именуемое в дальнейшем «Одаряемый», в лице директора Сидоровой Анны "
    "Павловны.\n\n"
    "1. Даритель безвозмездно передаёт Одаряемому тренажёры общей стоимостью 210 000 рублей.\n"
)
OUR_SUPPLY = (
    "# Договор поставки № П-12/2026\n\n"
    "Общество с ограниченной ответственностью «Станкомаш» (ООО «Станкомаш»), ИНН 7702334455, "
    "именуемое в дальнейшем «Поставщик», и Общество с ограниченной ответственностью "
    "«Бор-Трейд» (ООО «Бор-Трейд»), ИНН 5260112233, именуемое в дальнейшем «Покупатель», "
    "заключили договор.\n\n"
    "1. Поставщик передаёт Покупателю токарный станок стоимостью 1 200 000 рублей.\n"
)


def _answers_among(texts: list[str], question: str) -> list[tuple[str, list[str]]]:
    cards = [build_card(f"d{i}", f"doc{i}.md", t) for i, t in enumerate(texts)]
    chunks = [
        Chunk(id=f"c{i}", text=t, source="user_docs", title=c.title, document_id=c.document_id)
        for i, (t, c) in enumerate(zip(texts, cards, strict=True))
    ]
    asked = build_question(question, cards=cards)
    found = card_answers(asked, cards, build_context(chunks, [], 10_000))
    return [(a.name, [v.value for v in a.values]) for a in found]


def test_whom_we_deal_with_is_the_named_documents_other_party() -> None:
    documents = [OUR_GIFT, OUR_SUPPLY, POLICY]
    # the user's own organisation is the party of most of their documents
    assert _answers_among(documents, "Кому мы передаём тренажёры по договору Д-8/2026?") == [
        ("одаряемый", ["ГБУ «Центр реабилитации «Надежда»» (ИНН 5260998877)"])
    ]
    assert _answers_among(documents, "У кого мы покупаем станок по договору П-12/2026?") == [
        ("поставщик", ["ООО «Станкомаш» (ИНН 7702334455)"])
    ]


def test_no_counterparty_without_the_users_own_organisation() -> None:
    # one document: whose side the user is on is not known
    assert _answers_among([OUR_GIFT], "Кому мы передаём тренажёры по договору Д-8/2026?") == []
