"""Helpers of the KB topic-folder layout: slugs, front matter, the printed tree."""

from __future__ import annotations

from pathlib import Path

from finagent.retrieval.kb_articles import (
    KbArticle,
    front_matter,
    read_article_id,
    slugify,
    split_front_matter,
)
from finagent.retrieval.kb_tree import render_tree


def test_slugify_is_readable_and_safe() -> None:
    assert slugify("Ставки НДС и когда применяется 0 %") == (
        "ставки-ндс-и-когда-применяется-0-процентов"
    )
    assert slugify("Учёт  расходов: УСН/ПСН") == "учет-расходов-усн-псн"
    assert slugify("../../etc/passwd") == "etc-passwd"
    assert slugify("...") == "статья"
    long = slugify("слово " * 40)
    assert len(long) <= 80 and not long.endswith("-") and long.endswith("слово")
    assert slugify(slugify("Ключевая ставка")) == slugify("Ключевая ставка")


def test_front_matter_round_trip(tmp_path: Path) -> None:
    article = KbArticle("7", 'Ставка "20 %"', ["ндс", "ставки"], "текст", "2025-10-01")
    block = front_matter(article)
    assert block.startswith("---\nid: 7\n")
    fields, body = split_front_matter(block + "# Заголовок\n")
    assert fields == {
        "id": "7",
        "title": 'Ставка "20 %"',
        "tags": ["ндс", "ставки"],
        "reviewed": "2025-10-01",
    }
    assert body.lstrip() == "# Заголовок\n"
    path = tmp_path / "a.md"
    path.write_text(block + "# Заголовок\n", encoding="utf-8")
    assert read_article_id(path) == "7"
    path.write_text("# Без front matter\n---\nid: 9\n---\n", encoding="utf-8")
    assert read_article_id(path) is None
    odd = front_matter(KbArticle("a b/c", "x", [], "t", None))
    assert split_front_matter(odd)[0]["id"] == "a b/c"


def test_render_tree_folders_first() -> None:
    assert render_tree(["a.md", "ндс/x.md", "ндс/в/y.md"]) == [
        "├── ндс/",
        "│   ├── в/",
        "│   │   └── y.md",
        "│   └── x.md",
        "└── a.md",
    ]
