"""The other party of a document the user names, asked by a role no card holds: the role
pairs of ``question/data/party_roles.yaml`` decide whether it is the other party."""

from __future__ import annotations

from tests.unit.card_reading import card_values

MY_PURCHASE = (
    "# Договор купли-продажи № КП-11/2026\n\n"
    "Общество с ограниченной ответственностью «Уральский Литейщик» (ООО «Уральский "
    "Литейщик»), ИНН 6671223344, именуемое в дальнейшем «Продавец», и Общество с "
    "ограниченной ответственностью «Сосна-Мебель» (ООО «Сосна-Мебель»), ИНН 3525667788, "
    "именуемое в дальнейшем «Покупатель», заключили договор.\n\n"
    "1. Цена чугунных радиаторов составляет 240 000 рублей.\n"
)
MY_CREDIT = (
    "# Договор займа № ДЗ-9/2026\n\n"
    "Общество с ограниченной ответственностью «Вологда-Финанс» (ООО «Вологда-Финанс»), "
    "ИНН 3525001122, именуемое в дальнейшем «Займодавец», и Общество с ограниченной "
    "ответственностью «Сосна-Мебель» (ООО «Сосна-Мебель»), ИНН 3525667788, именуемое в "
    "дальнейшем «Заёмщик», заключили договор.\n\n"
    "1. Возврат займа обеспечивается поручительством Горбуновой Е. А.\n"
)
DOCUMENTS = [MY_PURCHASE, MY_CREDIT]
FOUNDRY = [("продавец", ["ООО «Уральский Литейщик» (ИНН 6671223344)"])]
LENDER = [("займодавец", ["ООО «Вологда-Финанс» (ИНН 3525001122)"])]


def test_a_role_of_the_other_side_no_card_holds_is_the_other_party() -> None:
    # the card says «Продавец»; «поставщик» stands on the seller's side, opposite ours
    assert card_values(DOCUMENTS, "Кто у нас поставщиком по договору КП-11/2026?") == FOUNDRY
    # the loan's card says «Займодавец»; «кредитор» is that side's general name
    assert card_values(DOCUMENTS, "Кто наш кредитор по договору займа ДЗ-9/2026?") == LENDER


def test_a_role_on_our_own_side_or_a_third_person_is_not_the_other_party() -> None:
    # «заказчик» is a side of a contract for work, not the seller's side of a sale
    assert card_values(DOCUMENTS, "Кто наш заказчик по договору КП-11/2026?") == []
    # a surety stands beside the creditor, not opposite the borrower: a clause names it
    assert card_values(DOCUMENTS, "Кто поручитель по нашему займу ДЗ-9/2026?") == []


def test_a_word_for_the_other_party_is_read_folded() -> None:
    for word in ("партнёр", "партнер", "контрагент"):
        question = f"Кто наш {word} по договору займа ДЗ-9/2026?"
        assert card_values(DOCUMENTS, question) == LENDER, word
