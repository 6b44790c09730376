"""Ingest: turn one file (PDF, Word, HTML, plain text, Markdown) into a ``Document``.

Canonical text, the one every later offset points into:

* ``.txt`` / ``.md``: for UTF-8, exactly what ``open(path, encoding="utf-8").read()``
  returns, i.e. universal newlines (``\\r\\n`` and ``\\r`` become ``\\n``) and a leading
  byte order mark kept as the character U+FEFF. Benchmark spans (LegalBench-RAG) are
  computed against that string, so nothing else is changed. UTF-16/32 (with a BOM) and
  single-byte encodings (charset-normalizer) are decoded the same way; the encoding is
  recorded in ``Document.encoding``.
* PDF: the text of each page with its blocks in reading order (``_reading_order``: top
  to bottom, two-column pages column by column), pages joined by ``PAGE_SEPARATOR``.
  Every page's text ends with ``\\n``, so a page break reads as one blank line; the
  separator belongs to no page (``Document.page_of`` maps it to the page before).
  Changes made to what MuPDF extracts: ligatures are expanded ("ﬁ" -> "fi") and control
  characters other than tab and newline become a space. Running headers, footers and
  page numbers stay in the text; their spans go to ``Document.excluded``. Pages without
  a text layer are OCR'd (``ocr.py``).
* Word (``docx.py``) and HTML (``html.py``): one line per paragraph, heading, table row
  or footnote (``blocks.py``); see docs/formats.md.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from clausegraph.ingest.docx import read_docx
from clausegraph.ingest.files import (
    DEFAULT_MAX_FILE_MB,
    SUPPORTED_SUFFIXES,
    checked_suffix,
    iter_input_files,
    read_regular_file,
)
from clausegraph.ingest.html import read_html
from clausegraph.ingest.ocr import LOW_CONFIDENCE, PdfOcr, low_confidence_spans
from clausegraph.ingest.pdf import PAGE_SEPARATOR, pdf_text
from clausegraph.ingest.running import running_line_spans
from clausegraph.ingest.text import decode_text
from clausegraph.ingest.title import choose_title, document_key
from clausegraph.models import Document, OcrWord, Page

__all__ = [
    "PAGE_SEPARATOR", "SUPPORTED_SUFFIXES", "choose_title", "document_id", "document_key",
    "iter_input_files", "load_document", "running_line_spans",
]

# --------------------------------------------------------------------------- public API


def load_document(
    path: str | Path, max_bytes: int = DEFAULT_MAX_FILE_MB * 1_000_000, *, ocr: bool = True
) -> Document:
    """Read one PDF, Word (``.docx``), HTML, ``.txt`` or ``.md`` file into a ``Document``.

    PDF pages without a text layer are OCR'd (Tesseract) unless ``ocr`` is False.
    Raises ``IngestError`` naming the file and the problem for anything that cannot be
    read as text: missing file, directory, FIFO/socket/device, symlink loop, a file over
    ``max_bytes``, unsupported type, empty file, bytes in no known text encoding,
    corrupt/truncated/encrypted PDF or Word file, a Word zip bomb, HTML nested too
    deeply, a scanned PDF when OCR is off or its engine is missing, or a PDF whose text
    is glyph codes rather than language (fonts missing). Pages of a PDF that are
    illegible while most pages read fine are left out, with a warning on the document.
    """
    file_path = Path(path)
    suffix = checked_suffix(file_path)
    data = read_regular_file(file_path, max_bytes)
    doc_id = document_id(data)
    extra: dict = {}
    encoding = None
    if suffix == ".pdf":
        read_pdf = pdf_text(file_path, data, ocr)
        text, pages, metadata_title = read_pdf.text, read_pdf.pages, read_pdf.metadata_title
        excluded = running_line_spans(text, pages)
        media_type = "pdf"
        extra = {**_ocr_fields(pages, read_pdf.ocr), "warnings": read_pdf.warnings,
                 "tables": read_pdf.tables, "line_styles": read_pdf.line_styles}
    elif suffix in (".docx", ".html", ".htm"):
        media_type = "docx" if suffix == ".docx" else "html"
        read = (read_docx if suffix == ".docx" else read_html)(file_path, data)
        text, pages, excluded, metadata_title = read.text, read.pages, [], read.title
        extra = {"blocks": read.blocks, "tables": read.tables, "warnings": read.warnings}
    else:
        text, encoding = decode_text(file_path, data)
        pages = [Page(number=1, start=0, end=len(text))]
        excluded, metadata_title, media_type = [], None, "text"
    return Document(
        doc_id=doc_id,
        key=document_key(file_path, doc_id),
        source_path=str(file_path),
        title=choose_title(text, excluded, metadata_title, file_path),
        media_type=media_type,
        text=text,
        pages=pages,
        excluded=excluded,
        encoding=encoding,
        **extra,
    )


def _ocr_fields(pages: list[Page], pdf_ocr: PdfOcr) -> dict:
    """OCR'd pages, their words at document offsets and the low-confidence spans."""
    words: list[OcrWord] = []
    for page in pages:
        read = pdf_ocr.words.get(page.number)
        for start, end, bbox, confidence in read.words if read else []:
            words.append(OcrWord(page=page.number, start=page.start + start,
                                 end=page.start + end, bbox=bbox, confidence=confidence))
    low = low_confidence_spans([(w.start, w.end, w.confidence) for w in words], LOW_CONFIDENCE)
    return {"ocr_pages": pdf_ocr.pages, "ocr_words": words, "low_confidence": low}


def document_id(data: bytes) -> str:
    """Content id of a file: the first 16 hex digits of the sha256 of its bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


