"""Where a cited span sits on the PDF page: rectangles in page coordinates, and page images.

A document's text is built page by page from MuPDF's text blocks put in reading order
(``clausegraph.ingest``), so a character offset does not map to a position by itself.
The page's words are listed in the same block order and aligned with the words of the
page text (a sequence match tolerates the few places where the two differ); the words
that the cited span covers then give one rectangle per line.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

import pymupdf
from pydantic import BaseModel, Field

from clausegraph.ingest.pdf import blocks_in_reading_order, page_textpage
from clausegraph.models import Document, Span

_TOKEN = re.compile(r"\S+")
# One MuPDF call at a time from the web threads: a Document is not safe to share.
_PDF_LOCK = threading.Lock()
TEXT_CONTEXT_CHARS = 600  # characters shown either side of a span in a text document


class PageHighlight(BaseModel):
    """Rectangles (x0, y0, x1, y1 in PDF points, origin top left) on one page."""

    number: int
    width: float
    height: float
    rects: list[tuple[float, float, float, float]]


class TextHighlight(BaseModel):
    """A text document's span with some context either side (plain text, never markup)."""

    before: str
    marked: str
    after: str
    start: int = Field(description="document offset of `before`'s first character")


class Highlight(BaseModel):
    """What the viewer shows for a cited span."""

    clause_id: str
    label: str
    doc_id: str
    document: str
    media_type: str
    span: Span
    pages: list[PageHighlight] = Field(default_factory=list)
    text: TextHighlight | None = None


def page_word_boxes(page: pymupdf.Page) -> list[tuple[str, tuple[float, ...], tuple[int, int]]]:
    """The page's words in the order ingest wrote them: (word, bbox, (block, line))."""
    textpage = page_textpage(page)
    block_rank = {number: position for position, (number, _) in
                  enumerate(blocks_in_reading_order(page, textpage))}
    words = page.get_text("words", textpage=textpage)
    words = [w for w in words if w[5] in block_rank]
    words.sort(key=lambda w: (block_rank[w[5]], w[6], w[7]))
    return [(w[4], tuple(w[:4]), (w[5], w[6])) for w in words]


def span_rects(page: pymupdf.Page, page_text: str, spans: Sequence[Span]) -> list[pymupdf.Rect]:
    """One rectangle per text line covered by ``spans`` (offsets into ``page_text``)."""
    text_tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(page_text)]
    boxes = page_word_boxes(page)
    matcher = SequenceMatcher(None, [t[2] for t in text_tokens], [b[0] for b in boxes],
                              autojunk=False)
    lines: dict[tuple[int, int], pymupdf.Rect] = {}
    for block in matcher.get_matching_blocks():
        for i in range(block.size):
            start, end, _ = text_tokens[block.a + i]
            if not any(start < s_end and end > s_start for s_start, s_end in spans):
                continue
            _, bbox, line = boxes[block.b + i]
            rect = pymupdf.Rect(bbox)
            lines[line] = lines[line] | rect if line in lines else rect
    return list(lines.values())


@lru_cache(maxsize=8)
def _open_pdf(path: str, mtime: float) -> pymupdf.Document:
    return pymupdf.open(path)


def open_pdf(path: str | Path) -> pymupdf.Document:
    """The PDF at ``path``, kept open between requests (reopened when the file changes)."""
    path = Path(path)
    return _open_pdf(str(path), path.stat().st_mtime)


def pdf_highlight(document: Document, spans: Sequence[Span]) -> list[PageHighlight]:
    """Rectangles of document ``spans`` on each page they touch."""
    with _PDF_LOCK:
        return _pdf_highlight(open_pdf(document.source_path), document, spans)


def _pdf_highlight(pdf: pymupdf.Document, document: Document,
                   spans: Sequence[Span]) -> list[PageHighlight]:
    result = []
    for page_info in document.pages:
        local = [
            (max(s, page_info.start) - page_info.start, min(e, page_info.end) - page_info.start)
            for s, e in spans
            if s < page_info.end and e > page_info.start
        ]
        if not local:
            continue
        page = pdf[page_info.number - 1]
        page_text = document.text[page_info.start:page_info.end]
        rects = span_rects(page, page_text, local)
        result.append(PageHighlight(
            number=page_info.number, width=page.rect.width, height=page.rect.height,
            rects=[tuple(round(v, 2) for v in r) for r in rects],
        ))
    return result


def text_highlight(document: Document, span: Span) -> TextHighlight:
    start = max(span[0] - TEXT_CONTEXT_CHARS, 0)
    end = min(span[1] + TEXT_CONTEXT_CHARS, len(document.text))
    return TextHighlight(before=document.text[start:span[0]], marked=document.text[span[0]:span[1]],
                         after=document.text[span[1]:end], start=start)


def render_page_png(path: str | Path, number: int, zoom: float = 1.5) -> bytes:
    """Page ``number`` (1-based) of the PDF as a PNG image."""
    with _PDF_LOCK:
        pdf = open_pdf(path)
        return _render(pdf, number, zoom)


def _render(pdf: pymupdf.Document, number: int, zoom: float) -> bytes:
    if not 1 <= number <= pdf.page_count:
        raise IndexError(f"page {number} is not in the document (1-{pdf.page_count})")
    return pdf[number - 1].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False).tobytes("png")
