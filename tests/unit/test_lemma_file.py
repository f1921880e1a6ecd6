"""A data dir's lemma file: pymorphy3's lemmas kept between processes, never different
from parsing again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from finagent.config import Settings
from finagent.language import lemmas
from finagent.language.lemmas import lemma, load_lemmas, save_lemmas


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts as a new process would: nothing read, nothing parsed."""
    monkeypatch.setattr(lemmas, "_stored", {})
    monkeypatch.setattr(lemmas, "_used", {})
    lemma.cache_clear()
    yield
    lemma.cache_clear()


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lemmas, "_stored", {})
    monkeypatch.setattr(lemmas, "_used", {})
    lemma.cache_clear()


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> None:
        raise AssertionError("pymorphy3 was asked")

    monkeypatch.setattr(lemmas, "_analyzer", refuse)


def test_a_later_process_reads_the_lemmas_instead_of_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "lemmas.json"
    parsed = [lemma(w) for w in ("договорами", "арендатору", "НДС", "платёжки")]
    assert parsed[:3] == ["договор", "арендатор", "ндс"]
    assert save_lemmas(path)
    assert not save_lemmas(path)  # nothing new: the file is not written again
    new_process(monkeypatch)
    assert load_lemmas(path) == 3  # abbreviations and non-Cyrillic words are not kept
    no_parsing(monkeypatch)
    assert [lemma(w) for w in ("договорами", "арендатору", "НДС", "платёжки")] == parsed


def test_a_file_of_other_versions_or_unreadable_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "lemmas.json"
    assert load_lemmas(path) == 0  # missing
    path.write_text("{not json", encoding="utf-8")
    assert load_lemmas(path) == 0
    stale = {"stamp": "0/0.0/0", "lemmas": {"договорами": "неверно"}}
    path.write_text(json.dumps(stale, ensure_ascii=False), encoding="utf-8")
    assert load_lemmas(path) == 0
    assert lemma("договорами") == "договор"


def test_the_file_keeps_this_process_words_first_up_to_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "lemmas.json"
    for word in ("налогами", "вычетами", "пенями"):
        lemma(word)
    save_lemmas(path)
    new_process(monkeypatch)
    monkeypatch.setattr(lemmas, "LEMMA_FILE_MAX", 2)
    load_lemmas(path)
    lemma("взносами")
    assert save_lemmas(path)
    kept = json.loads(path.read_text(encoding="utf-8"))["lemmas"]
    assert kept == {"взносами": "взнос", "налогами": "налог"}
    for word in ("сборами", "штрафами", "льготами"):
        lemma(word)
    assert save_lemmas(path)  # more new words than the file holds: the first ones
    kept = json.loads(path.read_text(encoding="utf-8"))["lemmas"]
    assert kept == {"взносами": "взнос", "сборами": "сбор"}


async def test_the_composition_root_reads_and_writes_the_data_dir_file(tmp_path: Path) -> None:
    from finagent.bootstrap import Root

    settings = Settings(data_dir=tmp_path / "data", cbr_enabled=False, _env_file=None)  # type: ignore[call-arg]
    async with Root(settings, tools=False):
        lemma("счетами-фактурами")
    kept = json.loads(settings.lemma_file.read_text(encoding="utf-8"))["lemmas"]
    assert kept["счетами-фактурами"] == lemma("счетами-фактурами")
