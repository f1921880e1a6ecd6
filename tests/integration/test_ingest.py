"""Ingestion: KB CSV to Markdown files and chunks, user documents, bad files, re-ingest."""

from __future__ import annotations

import zipfile
from pathlib import Path

from docx import Document
from fpdf import FPDF

from finagent.bootstrap import Deps
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import DOCS, KB


async def test_kb_csv_becomes_markdown_files_and_chunks(services: Deps, kb_csv: Path):
    report = await services.ingestor().ingest_kb([kb_csv])
    assert not report.errors and len(report.ok) == 4
    root = services.settings.kb_root
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    assert files == [
        "ключевая-ставка/ключевая-ставка-банка-россии.md",
        "ндс/ставки-ндс.md",
        "ндфл/социальный-вычет-на-лечение.md",
        "штрафы/штраф-за-непредставление-декларации.md",
    ]
    assert report.ok[0].kb_path == "ндс/ставки-ндс.md"
    assert (
        (root / "ндс/ставки-ндс.md")
        .read_text(encoding="utf-8")
        .startswith(
            '---\nid: 1\ntitle: "Ставки НДС"\ntags: ["ндс", "ставки"]\n---\n\n## Основная ставка'
        )
    )
    hits = await services.retriever.search(KB, "вычет на лечение сколько вернуть")
    assert hits[0].document_id == "kb-2"
    assert hits[0].metadata["tags"] == ["ндфл", "вычеты"]
    # no review date in the CSV: none is invented (the ingestion date is kept apart)
    assert hits[0].metadata["reviewed_at"] is None and hits[0].metadata["ingested_at"]
    before = await services.index.count(services.retriever.collection(KB))
    again = await services.ingestor().ingest_kb([kb_csv])
    assert await services.index.count(services.retriever.collection(KB)) == before
    # the KB root is a Markdown folder too: its front matter keeps ids, titles and paths
    from_root = await services.ingestor().ingest_kb([root])
    assert sorted(r.kb_path or "" for r in from_root.ok) == files
    assert [r.document_id for r in from_root.ok if r.kb_path == "ндс/ставки-ндс.md"] == ["kb-1"]
    assert from_root.removed == []
    # re-ingesting keeps every path and leaves nothing behind
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md")) == files
    assert [r.kb_path for r in again.ok] == [r.kb_path for r in report.ok]
    assert again.removed == []
    hits = await services.retriever.search(KB, "ставка НДС 20 процентов")
    assert hits[0].metadata["path"] == "ндс/ставки-ндс.md"


async def test_kb_review_dates_come_from_the_articles(services: Deps, tmp_path: Path):
    csv_path = tmp_path / "kb.csv"
    csv_path.write_text(
        "id,annotation,tags,text,reviewed\n"
        "7,Ставки НДС,ндс,Основная ставка 20 процентов.,2025-10-01\n",
        encoding="utf-8",
    )
    md = tmp_path / "vat.md"
    md.write_text("# УСН\nПроверено: 2025-09-15\n\nЛимит дохода для УСН.", encoding="utf-8")
    report = await services.ingestor().ingest_kb([csv_path, md])
    assert not report.errors
    by_title = {
        h.title: h.metadata["reviewed_at"]
        for h in await services.retriever.search(KB, "ставка НДС лимит УСН", top_k=10)
    }
    assert by_title == {"Ставки НДС": "2025-10-01", "УСН": "2025-09-15"}
    stored = (services.settings.kb_root / "усн.md").read_text(encoding="utf-8")
    assert "Проверено" not in stored
    assert stored.startswith("---\nid: vat\n")
    assert "reviewed: 2025-09-15" in stored.split("---")[1]


async def test_kb_markdown_folder(services: Deps, tmp_path: Path):
    folder = tmp_path / "md"
    folder.mkdir()
    (folder / "usn.md").write_text("# УСН\n\nСтавка УСН доходы 6 процентов.", encoding="utf-8")
    report = await services.ingestor().ingest_kb([folder])
    assert [r.title for r in report.ok] == ["УСН"]
    assert [r.kb_path for r in report.ok] == ["усн.md"]


async def test_kb_markdown_folder_structure_becomes_topic_folders(services: Deps, tmp_path: Path):
    folder = tmp_path / "md"
    (folder / "НДФЛ" / "Вычеты").mkdir(parents=True)
    (folder / "НДФЛ" / "Вычеты" / "med.md").write_text(
        "# Лечение\n\nВычет на лечение.", encoding="utf-8"
    )
    (folder / "НДФЛ" / "rates.md").write_text("# Ставки НДФЛ\n\n13 и 15 %.", encoding="utf-8")
    (folder / ".drafts").mkdir()
    (folder / ".drafts" / "x.md").write_text("# Черновик", encoding="utf-8")
    report = await services.ingestor().ingest_kb([folder])
    assert sorted(r.kb_path or "" for r in report.ok) == [
        "ндфл/вычеты/лечение.md",
        "ндфл/ставки-ндфл.md",
    ]
    root = services.settings.kb_root
    assert (
        (root / "ндфл/вычеты/лечение.md")
        .read_text(encoding="utf-8")
        .startswith("---\nid: ндфл-вычеты-med\n")
    )
    # the KB root itself is a Markdown folder: ingesting it again changes nothing
    again = await services.ingestor().ingest_kb([root])
    assert sorted(r.kb_path or "" for r in again.ok) == sorted(r.kb_path or "" for r in report.ok)
    assert again.removed == []
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md")) == [
        "ндфл/вычеты/лечение.md",
        "ндфл/ставки-ндфл.md",
    ]


async def test_kb_title_change_moves_the_file(services: Deps, tmp_path: Path):
    csv_path = tmp_path / "kb.csv"
    csv_path.write_text(
        "id,annotation,tags,text\n7,Ставки НДС,ндс,Ставка 20 процентов.\n", encoding="utf-8"
    )
    await services.ingestor().ingest_kb([csv_path])
    root = services.settings.kb_root
    assert (root / "ндс/ставки-ндс.md").is_file()
    csv_path.write_text(
        "id,annotation,tags,text\n7,Ставки НДС в 2025 году,налоги,Ставка 20 процентов.\n",
        encoding="utf-8",
    )
    report = await services.ingestor().ingest_kb([csv_path])
    assert [r.kb_path for r in report.ok] == ["налоги/ставки-ндс-в-2025-году.md"]
    assert report.removed == ["ндс/ставки-ндс.md"]
    assert [p.relative_to(root).as_posix() for p in root.rglob("*.md")] == [
        "налоги/ставки-ндс-в-2025-году.md"
    ]
    assert not (root / "ндс").exists()  # the emptied topic folder is removed too


async def test_kb_same_title_different_ids_do_not_collide(services: Deps, tmp_path: Path):
    csv_path = tmp_path / "kb.csv"
    csv_path.write_text(
        "id,annotation,tags,text\n1,Сроки,ндс,Первый текст.\n2,Сроки,ндс,Второй текст.\n",
        encoding="utf-8",
    )
    first = await services.ingestor().ingest_kb([csv_path])
    assert [r.kb_path for r in first.ok] == ["ндс/сроки.md", "ндс/сроки-2.md"]
    second = await services.ingestor().ingest_kb([csv_path])
    assert [r.kb_path for r in second.ok] == ["ндс/сроки.md", "ндс/сроки-2.md"]
    assert second.removed == []


async def test_kb_flat_layout_files_are_replaced_on_reingest(services: Deps, kb_csv: Path):
    root = services.settings.kb_root
    root.mkdir(parents=True, exist_ok=True)
    legacy = root / "1-ставки-ндс.md"  # the flat layout of earlier versions
    legacy.write_text("# Ставки НДС\n\nстарый текст", encoding="utf-8")
    foreign = root / "заметка.md"  # a file not written by ingestion stays
    foreign.write_text("# Заметка", encoding="utf-8")
    report = await services.ingestor().ingest_kb([kb_csv])
    assert report.removed == ["1-ставки-ндс.md"]
    assert not legacy.exists() and foreign.exists()


async def test_bad_csv_reports_missing_columns(services: Deps, tmp_path: Path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,text\n1,x\n", encoding="utf-8")
    report = await services.ingestor().ingest_kb([bad, tmp_path / "missing.csv"])
    assert len(report.errors) == 2
    assert "missing CSV columns annotation, tags" in (report.errors[0].error or "")
    assert "cannot read" in (report.errors[1].error or "")


async def test_bad_files_get_errors_and_others_are_ingested(
    services: Deps, tmp_path: Path, doc_files: dict[str, Path]
):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\x00\x01\x02garbage")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9 only latin".encode("latin-1"))
    broken_pdf = tmp_path / "broken.pdf"
    broken_pdf.write_bytes(b"%PDF-1.4 not really")
    exe = tmp_path / "tool.exe"
    exe.write_bytes(b"MZ")
    files = [empty, binary, latin, broken_pdf, exe, tmp_path / "absent.md", doc_files["lease"]]
    report = await services.ingestor().ingest_documents("alice", files)
    errors = {Path(r.path).name: r.error for r in report.errors}
    assert set(errors) == {
        "empty.txt",
        "bin.txt",
        "latin.txt",
        "broken.pdf",
        "tool.exe",
        "absent.md",
    }
    assert "пустой файл" in errors["empty.txt"]
    assert "неподдерживаемая кодировка" in errors["latin.txt"]
    assert "неподдерживаемый тип файла" in errors["tool.exe"]
    assert [Path(r.path).name for r in report.ok] == ["lease.md"]


async def test_too_large_file(make_services, doc_files: dict[str, Path]):
    services = await make_services(max_file_bytes=100)
    report = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    assert "файл слишком большой" in (report.errors[0].error or "")


async def test_hostile_office_files_are_per_file_errors(make_services, tmp_path: Path):
    """Through the ingestor itself (the CLI path): nothing escapes as an exception."""
    services = await make_services(max_file_bytes=64 * 1024)
    not_zip = tmp_path / "fake.docx"
    not_zip.write_bytes(b"PK\x03\x04 a zip cut short")
    not_word = tmp_path / "other.docx"
    with zipfile.ZipFile(not_word, "w") as archive:
        archive.writestr("readme.txt", "a zip, but no Word document inside")
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(40):  # 40 MiB of zeros packs into a few dozen KiB
                member.write(bytes(1024 * 1024))
    assert bomb.stat().st_size < 64 * 1024
    truncated = tmp_path / "truncated.pdf"
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Invoice 42")
    truncated.write_bytes(bytes(pdf.output())[:300])
    files = [not_zip, not_word, bomb, truncated]
    report = await services.ingestor().ingest_documents("alice", files)
    errors = {Path(r.path).name: r.error or "" for r in report.errors}
    assert set(errors) == {"fake.docx", "other.docx", "bomb.docx", "truncated.pdf"}
    assert "испорченный архив ZIP" in errors["fake.docx"]
    assert "это архив ZIP" in errors["other.docx"]
    assert "после распаковки файл слишком большой" in errors["bomb.docx"]
    assert errors["truncated.pdf"].startswith("truncated.pdf:")


async def test_reingest_same_file_keeps_id_and_does_not_duplicate(
    services: Deps, doc_files: dict[str, Path]
):
    first = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    count = await services.index.count(services.retriever.collection(DOCS))
    second = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    assert first.results[0].document_id == second.results[0].document_id
    assert second.results[0].status == "unchanged"
    assert await services.index.count(services.retriever.collection(DOCS)) == count
    assert len(await services.documents.list("alice")) == 1


async def test_pdf_and_docx_are_read(services: Deps, tmp_path: Path):
    docx_path = tmp_path / "note.docx"
    document = Document()
    document.add_heading("Уведомление ФНС", 1)
    document.add_paragraph("Требуется представить пояснения в течение 5 рабочих дней.")
    document.save(str(docx_path))
    pdf_path = tmp_path / "act.pdf"
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Act 15: services for 90000 RUB")
    pdf.output(str(pdf_path))
    report = await services.ingestor().ingest_documents("alice", [docx_path, pdf_path])
    assert not report.errors
    docs = {d.filename: d for d in await services.documents.list("alice")}
    full = await services.documents.get("alice", docs["note.docx"].id)
    assert full is not None and "5 рабочих дней" in full.text
    hits = await services.retriever.search(
        DOCS, "services 90000", flt=SearchFilter(user_id="alice")
    )
    assert any(h.document_id == docs["act.pdf"].id for h in hits)


async def test_same_file_for_two_users_is_two_documents(services: Deps, doc_files: dict[str, Path]):
    a = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    b = await services.ingestor().ingest_documents("bob", [doc_files["lease"]])
    assert a.results[0].document_id != b.results[0].document_id
    assert await services.documents.get("bob", a.results[0].document_id or "") is None


async def test_windows_1251_text_is_decoded(services: Deps, tmp_path: Path):
    path = tmp_path / "cp.txt"
    path.write_bytes("Акт сверки: долг 5 000 рублей".encode("cp1251"))
    report = await services.ingestor().ingest_documents("alice", [path])
    doc = await services.documents.get("alice", report.results[0].document_id or "")
    assert doc is not None and doc.text.startswith("Акт сверки")
