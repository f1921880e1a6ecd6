"""Reading user files (.txt, .md, .pdf, .docx) into text, with clear per-file errors."""

from __future__ import annotations

import re
from pathlib import Path

from finagent.retrieval.archive_checks import DocumentLoadError, check_zip
from finagent.retrieval.sniff import UTF16_BOMS, Kind, sniff

__all__ = ["DocumentLoadError", "check_file", "load_text", "title_of"]

SUPPORTED_SUFFIXES = (".txt", ".md", ".pdf", ".docx")
PDF_UNREADABLE = "не удалось прочитать PDF: файл повреждён или неполон"
PDF_ENCRYPTED = "PDF защищён паролем: снимите защиту и загрузите файл снова"
DOCX_UNREADABLE = "не удалось прочитать DOCX: файл повреждён или внутри не документ Word"
DOCX_XML_ALLOWANCE_BYTES = 16 * 1024 * 1024  # unpacked XML a .docx may add to its size


def _mostly_cyrillic(text: str) -> bool:
    letters = re.findall(r"[^\W\d_]", text)
    cyrillic = re.findall("[а-яА-ЯёЁ]", text)
    return bool(letters) and len(cyrillic) / len(letters) >= 0.5


def _decode(raw: bytes, name: str) -> str:
    if raw.startswith(UTF16_BOMS):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    elif b"\x00" in raw:
        raise DocumentLoadError(f"{name}: двоичные данные в текстовом файле")
    else:
        for encoding in ("utf-8-sig", "cp1251"):
            try:
                text = raw.decode(encoding)
            except UnicodeDecodeError:
                continue
            if encoding == "cp1251" and not _mostly_cyrillic(text):
                break  # cp1251 decodes any byte; accept it only when the result reads as Russian
            return text
    raise DocumentLoadError(
        f"{name}: неподдерживаемая кодировка текста (ожидается UTF-8, UTF-16 или Windows-1251)"
    )


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, WrongPasswordError

    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted and not reader.decrypt(""):  # an empty password opens many
            raise DocumentLoadError(f"{path.name}: {PDF_ENCRYPTED}", detail="encrypted")
        return "\n\n".join((page.extract_text() or "") for page in reader.pages)
    except DocumentLoadError:
        raise
    except (FileNotDecryptedError, WrongPasswordError, DependencyError) as exc:
        raise DocumentLoadError(f"{path.name}: {PDF_ENCRYPTED}", detail=_cause(exc)) from exc
    except Exception as exc:  # a hostile file can break the parser in any way
        raise DocumentLoadError(f"{path.name}: {PDF_UNREADABLE}", detail=_cause(exc)) from exc


def _docx_text(path: Path, max_bytes: int) -> str:
    import docx

    # a zip bomb would exhaust memory and CPU: refuse it from the central directory alone
    check_zip(path, max_unpacked_bytes=max_bytes + DOCX_XML_ALLOWANCE_BYTES)
    try:
        document = docx.Document(str(path))
        parts = [p.text for p in document.paragraphs]
        for table in document.tables:
            for row in table.rows:
                parts.append(" | ".join(cell.text.strip() for cell in row.cells))
    except Exception as exc:  # a hostile file can break the parser in any way
        raise DocumentLoadError(f"{path.name}: {DOCX_UNREADABLE}", detail=_cause(exc)) from exc
    return "\n".join(parts)


def _cause(exc: BaseException) -> str:
    """A parser's exception for the log (never shown to the user)."""
    return f"{type(exc).__name__}: {exc}"[:500]


def _read_plain(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DocumentLoadError(
            f"{path.name}: не удалось прочитать файл", detail=exc.strerror
        ) from exc
    return _decode(raw, path.name)


def check_file(path: Path, max_bytes: int) -> None:
    """Refuse what no parser should open: a missing, special, unnamed, empty or huge file."""
    if not path.exists():
        raise DocumentLoadError(f"{path.name}: файл не найден")
    if not path.is_file():
        raise DocumentLoadError(f"{path.name}: это не обычный файл")
    suffix = path.suffix.lower()
    if suffix and suffix not in SUPPORTED_SUFFIXES:  # a name without one is read by content
        allowed = ", ".join(SUPPORTED_SUFFIXES)
        raise DocumentLoadError(
            f"{path.name}: неподдерживаемый тип файла {suffix} (поддерживаются: {allowed})"
        )
    size = path.stat().st_size
    if size > max_bytes:
        raise DocumentLoadError(
            f"{path.name}: файл слишком большой ({size} байт, допустимо не больше {max_bytes})"
        )
    if size == 0:
        raise DocumentLoadError(f"{path.name}: пустой файл")


def load_text(path: Path, max_bytes: int) -> str:
    """Text of a supported file; raises DocumentLoadError with a clear reason.

    The name must carry one of SUPPORTED_SUFFIXES or none, but the content picks the parser
    (:func:`~finagent.retrieval.sniff.sniff`): a PDF named ``.txt`` is read as a PDF.
    """
    check_file(path, max_bytes)
    kind = sniff(path)
    if kind is Kind.PDF:
        text = _pdf_text(path)
    elif kind is Kind.DOCX:
        text = _docx_text(path, max_bytes)
    else:
        text = _read_plain(path)
    text = text.replace("\r\n", "\n").strip()
    if not text:
        where = " (в PDF нет текстового слоя: это скан?)" if kind is Kind.PDF else ""
        raise DocumentLoadError(f"{path.name}: не удалось извлечь текст{where}")
    return text


_MARKUP = re.compile(r"[*_`#>|]+")


def title_of(text: str, fallback: str) -> str:
    """First non-empty line without Markdown, else the file name. A provisional title: at
    ingestion the document's card gives the real one (its heading or type, never a
    letterhead; ``finagent.cards.title``)."""
    for line in text.splitlines():
        line = " ".join(_MARKUP.sub(" ", line).split()).strip(" -—:")
        if line:
            return line[:200]
    return fallback
