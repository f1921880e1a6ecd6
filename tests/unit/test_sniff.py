"""Content sniffing picks the parser; every refusal is Russian and says what the file is."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from finagent.retrieval.loaders import DocumentLoadError, load_text
from finagent.retrieval.sniff import Kind, sniff
from tests.file_zoo import (
    PNG,
    docx_bytes,
    latin_words,
    mislabelled_good,
    pdf_bytes,
    refused_zoo,
)

MAX_BYTES = 1024 * 1024


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [
        ("a.txt", pdf_bytes("x"), Kind.PDF),
        ("a.pdf", docx_bytes("x"), Kind.DOCX),
        ("a.docx", "Текст".encode(), Kind.TEXT),
        ("a.md", "Текст".encode("cp1251"), Kind.TEXT),
        ("a.txt", "Текст".encode("utf-16"), Kind.TEXT),
        ("a.txt", b"\x00\x01 junk before the header\n%PDF-1.7\n", Kind.PDF),
        ("a.txt", "\ufeff %PDF-1.7\n".encode(), Kind.PDF),
        ("a.md", "Заголовок файла PDF: %PDF-1.7".encode(), Kind.TEXT),
        ("a.md", "PKO: выписка по счёту".encode(), Kind.TEXT),
        ("a.md", "Строка\x0bс переносом Word\x1a".encode(), Kind.TEXT),
        ("a.md", "Абзац с тегом <html> в тексте".encode(), Kind.TEXT),
    ],
)
def test_the_content_decides_the_kind(tmp_path: Path, name: str, data: bytes, kind: Kind):
    assert sniff(write(tmp_path, name, data)) is kind


def test_the_name_does_not_matter_to_a_refusal(tmp_path: Path):
    for name in ("image.txt", "image.pdf", "image.docx", "image.md"):
        with pytest.raises(DocumentLoadError, match=r"это изображение \(PNG\)"):
            sniff(write(tmp_path, name, PNG))


@pytest.mark.parametrize("name", sorted(refused_zoo()))
def test_each_refusal_is_russian_and_says_why(tmp_path: Path, name: str):
    data, fragment = refused_zoo()[name]
    with pytest.raises(DocumentLoadError) as refused:
        load_text(write(tmp_path, name, data), MAX_BYTES)
    message = str(refused.value)
    assert message.startswith(f"{name}: ") and fragment in message
    assert latin_words(message, name) == [], message


@pytest.mark.parametrize("name", sorted(mislabelled_good()))
def test_a_mislabelled_file_is_read_by_its_content(tmp_path: Path, name: str):
    data, phrase = mislabelled_good()[name]
    assert phrase in load_text(write(tmp_path, name, data), MAX_BYTES)


def test_the_parser_cause_is_kept_for_the_log_across_processes(tmp_path: Path):
    data, _ = refused_zoo()["broken-word.docx"]
    with pytest.raises(DocumentLoadError) as refused:
        load_text(write(tmp_path, "broken-word.docx", data), MAX_BYTES)
    assert refused.value.detail  # English, for the log; never in the message
    assert refused.value.detail not in str(refused.value)
    copy = pickle.loads(pickle.dumps(refused.value))  # the way back from a parse worker
    assert (str(copy), copy.detail) == (str(refused.value), refused.value.detail)


def test_the_checker_finds_english_in_a_russian_message():
    assert latin_words("a.docx: Package not found at 'a.docx'", "a.docx") == [
        "Package",
        "not",
        "found",
        "at",
    ]
    assert latin_words("a.docx: это таблица Excel (XLSX); UTF-8", "a.docx") == []


def test_reading_a_damaged_pdf_leaves_the_hosts_logging_alone(tmp_path: Path):
    import logging

    pypdf_logger = logging.getLogger("pypdf")
    before = pypdf_logger.level
    data, _ = refused_zoo()["truncated.pdf"]
    with pytest.raises(DocumentLoadError):
        load_text(write(tmp_path, "truncated.pdf", data), MAX_BYTES)
    assert pypdf_logger.level == before  # the entry points, not the loader, set its level
