"""Ingest: turn one file (PDF, plain text, Markdown) into a ``Document``.

Canonical text, the one every later offset points into:

* ``.txt`` / ``.md``: exactly what ``open(path, encoding="utf-8").read()`` returns, i.e.
  UTF-8 with universal newlines (``\\r\\n`` and ``\\r`` become ``\\n``) and a leading byte
  order mark kept as the character U+FEFF. Benchmark spans (LegalBench-RAG) are computed
  against that string, so nothing else is changed.
* PDF: the text of each page with its blocks in reading order (``_reading_order``: top
  to bottom, two-column pages column by column), pages joined by ``PAGE_SEPARATOR``.
  Every page's text ends with ``\\n``, so a page break reads as one blank line; the
  separator belongs to no page (``Document.page_of`` maps it to the page before).
  Changes made to what MuPDF extracts: ligatures are expanded ("ﬁ" -> "fi") and control
  characters other than tab and newline become a space. Running headers, footers and
  page numbers stay in the text; their spans go to ``Document.excluded``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from clausegraph.ingest.files import (
    SUPPORTED_SUFFIXES,
    checked_suffix,
    iter_input_files,
    read_bytes,
)
from clausegraph.ingest.pdf import PAGE_SEPARATOR, pdf_text
from clausegraph.ingest.running import running_line_spans
from clausegraph.ingest.text import decode_text
from clausegraph.ingest.title import choose_title, document_key
from clausegraph.models import Document, Page

__all__ = [
    "PAGE_SEPARATOR", "SUPPORTED_SUFFIXES", "choose_title", "document_id", "document_key",
    "iter_input_files", "load_document", "running_line_spans",
]

# --------------------------------------------------------------------------- public API


def load_document(path: str | Path) -> Document:
    """Read one PDF, ``.txt`` or ``.md`` file into a ``Document``.

    Raises ``IngestError`` naming the file and the problem for anything that cannot be
    read as text: missing file, directory, unsupported type, empty file, invalid UTF-8,
    corrupt/truncated/encrypted PDF, or a scanned PDF with no text layer.
    """
    file_path = Path(path)
    suffix = checked_suffix(file_path)
    data = read_bytes(file_path)
    doc_id = document_id(data)
    if suffix == ".pdf":
        text, pages, metadata_title = pdf_text(file_path, data)
        excluded = running_line_spans(text, pages)
        media_type = "pdf"
    else:
        text = decode_text(file_path, data)
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
    )


def document_id(data: bytes) -> str:
    """Content id of a file: the first 16 hex digits of the sha256 of its bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


