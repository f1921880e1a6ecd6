"""Russian legal references found in text: article, point, sub-point and code."""

from __future__ import annotations

import pytest

from finagent.legal.references import find_documents, find_references


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("согласно п. 2 ст. 88 НК РФ", [("nk", "88", "2", None)]),
        ("подп. 4 п. 1 ст. 218 НК РФ", [("nk", "218", "1", "4")]),
        ("пп. 3 п. 1 ст. 219", [(None, "219", "1", "3")]),
        ("ст. 88 п. 2 НК РФ", [("nk", "88", "2", None)]),
        ("статьей 23 настоящего Кодекса", [("nk", "23", None, None)]),
        ("пунктом 3 статьи 346.20 Налогового кодекса", [("nk", "346.20", "3", None)]),
        ("ст. 15.5 КоАП", [("koap", "15.5", None, None)]),
        ("ст. 395 ГК РФ", [("gk", "395", None, None)]),
        ("статья 14.4-1", [(None, "14.4-1", None, None)]),
        (
            "статьи 218, 219 и 220 НК РФ",
            [("nk", "218", None, None), ("nk", "219", None, None), ("nk", "220", None, None)],
        ),
        # a range names its two ends, and the code after it is theirs, not the Tax Code
        ("гл. 32 (ст. 350–363 ГК РФ)", [("gk", "350", None, None), ("gk", "363", None, None)]),
        ("ст. 91—93 ТК РФ", [("tk", "91", None, None), ("tk", "93", None, None)]),
        ("по ст. 227 — 13 %", [(None, "227", None, None)]),
        ("ставка 20 процентов, срок 3 месяца", []),
    ],
)
def test_references(text: str, expected: list[tuple[object, ...]]) -> None:
    found = [(r.code, r.article, r.point, r.subpoint) for r in find_references(text)]
    assert found == expected


def test_label_is_the_canonical_form() -> None:
    (ref,) = find_references("подпункта 4 пункта 1 статьи 218 Налогового кодекса РФ")
    assert ref.label == "подп. 4 п. 1 ст. 218 НК РФ"


def test_letters_and_rulings() -> None:
    assert find_documents("что сказано в письме Минфина России от 01.02.2023 № 03-04-05/12345") == [
        "письме Минфина России от 01.02.2023 № 03-04-05/12345"
    ]
    assert find_documents("какая ставка НДС на хлеб") == []


def test_the_article_abbreviation_without_its_dot() -> None:
    refs = find_references("какой штраф по ст 126 за непредставление сведений")
    assert [r.article for r in refs] == ["126"]
    assert [r.article for r in find_references("пени по ст 75.1")] == ["75.1"]
    # «ст» inside a word or before no number is not an article
    assert find_references("гост 12 и ст без номера") == []
