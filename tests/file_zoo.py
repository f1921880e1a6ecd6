"""Broken and mislabelled files, made on the fly, and a check that a refusal is Russian only."""

from __future__ import annotations

import gzip
import io
import re
import zipfile

ALLOWED_LATIN = frozenset(
    {"Windows", "Microsoft", "Office", "Word", "Excel", "PowerPoint", "OpenDocument"}
)
FORMAT_LABEL = re.compile(r"[A-Z0-9]{2,6}")  # PDF, DOCX, UTF, PNG, GZ, ...


def latin_words(message: str, file_name: str) -> list[str]:
    """Latin words of ``message`` other than the file's name, extensions (``.pdf``) and the
    allowed format names."""
    text = re.sub(r"\.[A-Za-z0-9]+\b", " ", message.replace(file_name, " "))
    words = re.findall(r"[A-Za-z][A-Za-z0-9]*", text)
    return [w for w in words if w not in ALLOWED_LATIN and not FORMAT_LABEL.fullmatch(w)]


def pdf_bytes(text: str) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    if text:  # no text: a page like a scan without a text layer
        pdf.cell(text=text)
    return bytes(pdf.output())


def docx_bytes(text: str) -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def encrypted_pdf() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes("Secret act"))))
    writer.encrypt("password")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def zip_of(members: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(30)


def refused_zoo() -> dict[str, tuple[bytes, str]]:
    """File name -> (content, a fragment of its Russian refusal)."""
    return {
        "binary.docx": (bytes(range(256)) * 4, "двоичные данные неизвестного формата"),
        "truncated.pdf": (pdf_bytes("Invoice 42")[:300], "не удалось прочитать PDF"),
        "encrypted.pdf": (encrypted_pdf(), "PDF защищён паролем"),
        "page.pdf": (b"<!DOCTYPE html><html><body>Hi</body></html>", "веб-страница (HTML)"),
        "archive.docx": (zip_of({"notes.txt": "hello"}), "архив ZIP"),
        "sheet.docx": (zip_of({"[Content_Types].xml": "<T/>", "xl/a.xml": "<w/>"}), "Excel"),
        "broken-word.docx": (
            zip_of({"[Content_Types].xml": "<Types/>", "word/document.xml": "<bad"}),
            "не удалось прочитать DOCX",
        ),
        "cut.docx": (docx_bytes("Договор")[:500], "испорченный архив ZIP"),
        "legacy.docx": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100), "старого формата"),
        "picture.txt": (PNG, "изображение (PNG)"),
        "program.pdf": (b"MZ\x90\x00\x03" + bytes(60), "исполняемая программа"),
        "packed.md": (gzip.compress(b"hello " * 100), "архив"),
        "letter.txt": (b"{\\rtf1\\ansi Hello}", "документ RTF"),
        "empty.txt": (b"", "пустой файл"),
        "latin.txt": ("caf\xe9 only".encode("latin-1"), "неподдерживаемая кодировка"),
        "scan.pdf": (pdf_bytes(""), "нет текстового слоя"),
        "tool.exe": (b"MZ", "неподдерживаемый тип файла"),
    }


def mislabelled_good() -> dict[str, tuple[bytes, str]]:
    """File name -> (content of another supported format, a phrase of its text)."""
    return {
        "act.txt": (pdf_bytes("Act 15: services for 90000 RUB"), "services for 90000"),
        "contract.pdf": (docx_bytes("Договор аренды: пени 0,1 % в день"), "пени 0,1 %"),
        "notes.docx": ("Заметка: сдать отчёт до 25 числа".encode(), "до 25 числа"),
        "unicode.txt": ("Письмо в кодировке UTF-16".encode("utf-16"), "UTF-16"),
        "scan-from-phone": (pdf_bytes("Receipt 7: 1500 RUB"), "Receipt 7"),
    }
