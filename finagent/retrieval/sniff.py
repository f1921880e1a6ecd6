"""What a user's file really is, read from its bytes: the content picks the parser.

A PDF named ``.txt`` is parsed as a PDF, a DOCX named ``.pdf`` as a DOCX; anything that
is neither one of them nor text (an image, an archive, a program, a spreadsheet, a web
page) is refused with a Russian message that says what the file is. Magic numbers come
from ``puremagic``; the inside of a ZIP container (DOCX or another package) is checked
here, from its central directory alone.
"""

from __future__ import annotations

import codecs
import re
import zipfile
from enum import StrEnum
from pathlib import Path

import puremagic

from finagent.retrieval.archive_checks import DocumentLoadError

HEAD_BYTES = 8192
PDF_MARKER_WINDOW = 1024  # readers accept junk before ``%PDF-`` within the first 1 KiB
UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .doc, .xls, .ppt, .msg of old Office
# Windows, Linux and macOS programs (puremagic names a bare "MZ" after rarer formats)
PROGRAM_MAGICS = (b"MZ", b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
# control bytes that never occur in text (tab, newlines, vertical tab and form feed from
# word processors, DOS end-of-file and escape may)
_BINARY_BYTE = re.compile(rb"[\x00-\x08\x0e-\x19\x1c-\x1f]")
ACCEPTED = "принимаются PDF, DOCX и текст в UTF-8, UTF-16 или Windows-1251"


class Kind(StrEnum):
    """The parser a file's content calls for."""

    PDF = "pdf"
    DOCX = "docx"
    TEXT = "text"


def unsupported(name: str, what: str) -> DocumentLoadError:
    """The refusal of a file whose content is a format we do not read."""
    return DocumentLoadError(f"{name}: формат файла не поддерживается: это {what}; {ACCEPTED}")


def sniff(path: Path) -> Kind:
    """The kind of ``path`` by its content; DocumentLoadError when it is none we read."""
    try:
        with path.open("rb") as file:
            head = file.read(HEAD_BYTES)
    except OSError as exc:
        raise DocumentLoadError(
            f"{path.name}: не удалось прочитать файл", detail=exc.strerror
        ) from exc
    if _is_pdf(head):
        return Kind.PDF
    if head.startswith(ZIP_MAGICS):
        return _package_kind(path)
    if head.startswith(OLE2_MAGIC):
        raise unsupported(path.name, "документ старого формата Microsoft Office (DOC, XLS, PPT)")
    markup = _markup(head)
    if markup is not None:
        raise unsupported(path.name, markup)
    if _is_text(head):
        return Kind.TEXT
    raise unsupported(path.name, _describe_binary(head))


def _is_pdf(head: bytes) -> bool:
    """``%PDF-`` at the start; further in only after bytes that are not text (a text file
    that quotes the marker stays text)."""
    at = head.find(b"%PDF-", 0, PDF_MARKER_WINDOW)
    return at == len(head) - len(head.lstrip(b"\xef\xbb\xbf \t\r\n")) or (
        at > 0 and not _is_text(head[:at])
    )


def _package_kind(path: Path) -> Kind:
    """DOCX, or the refusal of another ZIP package (XLSX, PPTX, ODF, EPUB, a plain ZIP)."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            mimetype = archive.read("mimetype")[:100] if "mimetype" in names else b""
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, KeyError) as exc:
        raise DocumentLoadError(
            f"{path.name}: файл повреждён: это неполный или испорченный архив ZIP "
            "(файлы DOCX тоже архивы ZIP)",
            detail=f"{type(exc).__name__}: {exc}",
        ) from exc
    if "[Content_Types].xml" in names and any(n.startswith("word/") for n in names):
        return Kind.DOCX
    if any(n.startswith("xl/") for n in names):
        raise unsupported(path.name, "таблица Excel (XLSX)")
    if any(n.startswith("ppt/") for n in names):
        raise unsupported(path.name, "презентация PowerPoint (PPTX)")
    if mimetype.startswith(b"application/vnd.oasis.opendocument"):
        raise unsupported(path.name, "документ OpenDocument (ODT, ODS, ODP)")
    if mimetype.startswith(b"application/epub"):
        raise unsupported(path.name, "электронная книга (EPUB)")
    raise unsupported(path.name, "архив ZIP")


def _markup(head: bytes) -> str | None:
    """A web page or an RTF document: text whose words sit among tags or commands."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith(b"{\\rtf"):
        return "документ RTF"
    if start.startswith(b"<") and (b"<!doctype html" in start[:512] or b"<html" in start[:512]):
        return "веб-страница (HTML)"
    return None


def _is_text(head: bytes) -> bool:
    """Text in UTF-16 with a byte order mark, UTF-8 or a single-byte encoding."""
    if head.startswith(UTF16_BOMS):
        return True
    if _BINARY_BYTE.search(head):
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head)  # a cut last character is fine
    except UnicodeDecodeError:
        return b"\x98" not in head  # the one byte Windows-1251 does not define
    return True


def _describe_binary(head: bytes) -> str:
    """What a binary file is, in Russian, from its magic number."""
    if head.startswith(PROGRAM_MAGICS):
        return "исполняемая программа"
    try:
        match = puremagic.magic_string(head)[0]
    except (puremagic.PureError, ValueError, IndexError):
        return "двоичные данные неизвестного формата"
    label = match.extension.lstrip(".").upper()
    mime, name = match.mime_type.lower(), match.name.lower()
    named = f" ({label})" if label.isalnum() else ""
    if "executable" in name or "executable" in mime or label in {"EXE", "DLL", "SO"}:
        return "исполняемая программа"
    for prefix, what in (("image/", "изображение"), ("audio/", "аудиозапись"), ("video/", "видео")):
        if mime.startswith(prefix):
            return what + named
    if any(word in name for word in ("archive", "compress", "zip")):
        return "архив" + named
    return f"файл формата {label}" if named else "двоичные данные неизвестного формата"
