"""Reading user files (.txt, .md, .pdf, .docx) into text, with clear per-file errors."""

from __future__ import annotations

import logging
import re
import zipfile
from pathlib import Path

from finagent.retrieval.archive_checks import DocumentLoadError, check_zip

__all__ = ["DocumentLoadError", "load_text", "title_of"]

SUPPORTED_SUFFIXES = (".txt", ".md", ".pdf", ".docx")
PDF_UNREADABLE = "не удалось прочитать PDF: файл повреждён или это не PDF"
DOCX_XML_ALLOWANCE_BYTES = 16 * 1024 * 1024  # unpacked XML a .docx may add to its size


def _mostly_cyrillic(text: str) -> bool:
    letters = re.findall(r"[^\W\d_]", text)
    cyrillic = re.findall("[а-яА-ЯёЁ]", text)
    return bool(letters) and len(cyrillic) / len(letters) >= 0.5


def _decode(raw: bytes, name: str) -> str:
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding == "cp1251" and not _mostly_cyrillic(text):
            break  # cp1251 decodes any byte; accept it only when the result reads as Russian
        return text
    raise DocumentLoadError(
        f"{name}: неподдерживаемая кодировка текста (ожидается UTF-8 или Windows-1251)"
    )


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    # pypdf logs its own English warnings ("EOF marker not found"): the user gets one
    # Russian error per file instead
    logging.getLogger("pypdf").setLevel(logging.CRITICAL)
    try:
        reader = PdfReader(str(path))
        return "\n\n".join((page.extract_text() or "") for page in reader.pages)
    except (PdfReadError, ValueError, KeyError, OSError) as exc:
        raise DocumentLoadError(f"{path.name}: {PDF_UNREADABLE}") from exc
    except Exception as exc:  # a hostile file can break the parser in any way
        raise DocumentLoadError(f"{path.name}: {PDF_UNREADABLE}") from exc


def _docx_text(path: Path, max_bytes: int) -> str:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    # a zip bomb would exhaust memory and CPU: refuse it from the central directory alone
    check_zip(path, max_unpacked_bytes=max_bytes + DOCX_XML_ALLOWANCE_BYTES)
    try:
        document = docx.Document(str(path))
    except (zipfile.BadZipFile, PackageNotFoundError, KeyError, ValueError, OSError) as exc:
        raise DocumentLoadError(f"{path.name}: не удалось прочитать DOCX ({exc})") from exc
    except Exception as exc:  # a hostile file can break the parser in any way
        raise DocumentLoadError(
            f"{path.name}: не удалось прочитать DOCX ({type(exc).__name__})"
        ) from exc
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts.append(" | ".join(cell.text.strip() for cell in row.cells))
    return "\n".join(parts)


def load_text(path: Path, max_bytes: int) -> str:
    """Text of a supported file; raises DocumentLoadError with a clear reason."""
    if not path.exists():
        raise DocumentLoadError(f"{path.name}: файл не найден")
    if not path.is_file():
        raise DocumentLoadError(f"{path.name}: это не обычный файл")
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        allowed = ", ".join(SUPPORTED_SUFFIXES)
        raise DocumentLoadError(
            f"{path.name}: неподдерживаемый тип файла {suffix!r} (поддерживаются: {allowed})"
        )
    size = path.stat().st_size
    if size > max_bytes:
        raise DocumentLoadError(
            f"{path.name}: файл слишком большой ({size} байт, допустимо не больше {max_bytes})"
        )
    if size == 0:
        raise DocumentLoadError(f"{path.name}: пустой файл")
    if suffix == ".pdf":
        text = _pdf_text(path)
    elif suffix == ".docx":
        text = _docx_text(path, max_bytes)
    else:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DocumentLoadError(
                f"{path.name}: не удалось прочитать файл ({exc.strerror})"
            ) from exc
        if b"\x00" in raw:
            raise DocumentLoadError(f"{path.name}: двоичные данные в текстовом файле")
        text = _decode(raw, path.name)
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise DocumentLoadError(f"{path.name}: не удалось извлечь текст")
    return text


def title_of(text: str, fallback: str) -> str:
    """First Markdown heading or first non-empty line, else the file name."""
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line[:200]
    return fallback
