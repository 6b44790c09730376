"""What ingest and segment produce: a document's canonical text, pages and clauses.

Every offset is a Python ``str`` index into ``Document.text``, the document's canonical text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

Span = tuple[int, int]
_REPEAT_MARK_RE = re.compile(r"~\d+")
# Path parts a reader names a clause by, with the number under them ("Schedule B/3").
_CONTAINER_RE = re.compile(
    r"(?i)(?:article|section|schedule|exhibit|annex(?:ure)?|appendix|part|chapter|"
    r"attachment|addendum|endorsement|rider|contents|preamble)\b"
)
# a coded container of the document's own ("IMT 3", segment/labels.py CODED_RE)
_CODED_CONTAINER_RE = re.compile(r"[A-Z]{2,5} \d{1,3}[A-Z]?$")
# an item number that says nothing of where it is: "9", "b", "iv"
_BARE_ITEM_RE = re.compile(r"\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,6}")
SEGMENT_JOINER = "\n"
# between the cells of a table row as ingest renders it ("row label | column header: value")
CELL_SEPARATOR = " | "


class Page(BaseModel):
    """One page of a document: its number (1-based) and where it sits in the text."""

    number: int
    start: int
    end: int


class Block(BaseModel):
    """A paragraph, heading, table or footnote of a Word or HTML source, as the reader sees it.

    ``number`` counts the source's paragraphs from 1 (what a citation calls "para. 12");
    ``label`` is the automatic number Word drew in front of it ("1.1", "(a)"), already part
    of the text at ``start``.
    """

    kind: str = Field(description="paragraph | heading | table | footnote")
    number: int
    start: int
    end: int
    label: str | None = None
    level: int | None = Field(default=None, description="heading level (1 = top)")


class TableCell(BaseModel):
    """One cell of a table: where its text sits in the canonical text, and on which page.

    ``row`` and ``column`` count from 0 in the source's grid; the header row's cells are
    cells too. The text at (``start``, ``end``) is the cell's own text as rendered.
    """

    row: int
    column: int
    start: int
    end: int
    page: int


class Table(BaseModel):
    """A table of the source, rendered one line per row (``ingest/blocks.py``,
    ``render_table``): ``"row label | column header: value | column header: value"``."""

    number: int = Field(description="counts the document's tables from 1")
    start: int
    end: int
    page: int = Field(description="page of the table's first row")
    rows: int
    columns: int
    cells: list[TableCell] = Field(default_factory=list)


# ---- page layout (PDFs): the type style and position of each line, for segmentation


class LineStyle(NamedTuple):
    """How one line of a PDF page is set, as PyMuPDF reports it: the line's span of the
    canonical text, the font size (points) and weight of most of its characters, and
    its left edge on the page (points). A tuple, so a document's thousands of lines
    store as short JSON arrays."""

    start: int
    end: int
    size: float
    bold: bool
    italic: bool
    x0: float


class OcrWord(BaseModel):
    """A word read by OCR: where it is in the text and on the page (PDF points), how sure."""

    page: int
    start: int
    end: int
    bbox: tuple[float, float, float, float] = Field(description="x0, y0, x1, y1 in points")
    confidence: float = Field(ge=0.0, le=1.0)


class Document(BaseModel):
    """A source file reduced to canonical text plus the facts needed to cite it.

    ``text`` is the extracted text: for ``.txt``/``.md`` files the file's own text,
    unmodified; for PDFs the pages' text joined in order. ``excluded`` lists spans of
    running headers, footers and page numbers that segmentation skips; the offsets
    of everything else still point into ``text``.
    """

    model_config = ConfigDict(frozen=False)

    doc_id: str = Field(description="sha256 of the file bytes, first 16 hex digits")
    key: str = Field(description="short readable handle used in clause ids")
    source_path: str
    title: str
    media_type: str = Field(description="'pdf', 'text', 'docx' or 'html'")
    text: str
    pages: list[Page]
    excluded: list[Span] = Field(default_factory=list)
    blocks: list[Block] = Field(
        default_factory=list, description="Word/HTML paragraphs, headings, tables, footnotes"
    )
    tables: list[Table] = Field(
        default_factory=list, description="tables (PDF, Word, HTML), each one clause"
    )
    line_styles: list[LineStyle] = Field(
        default_factory=list, description="PDF text lines' font size, weight and indent, in "
        "text order; empty for other formats and for OCR'd pages"
    )
    ocr_pages: list[int] = Field(default_factory=list, description="pages whose text is OCR")
    ocr_words: list[OcrWord] = Field(default_factory=list)
    low_confidence: list[Span] = Field(
        default_factory=list, description="OCR text below the confidence threshold"
    )
    encoding: str | None = Field(
        None, description="text files: the encoding the bytes were read in, e.g. 'utf-8', "
        "'utf-16-le (BOM)', 'cp1252'"
    )
    warnings: list[str] = Field(
        default_factory=list, description="what ingest changed, guessed or left out, for the "
        "user: OCR'd pages, tracked changes, illegible pages"
    )

    @cached_property
    def _page_starts(self) -> list[int]:
        # segmentation asks for the pages of every clause: build the list once
        return [p.start for p in self.pages]

    def page_of(self, offset: int) -> int:
        """Page number holding character ``offset``."""
        index = max(bisect_right(self._page_starts, offset) - 1, 0)
        return self.pages[index].number

    def pages_of(self, span: Span) -> list[int]:
        """All page numbers a span touches, in order."""
        first = self.page_of(span[0])
        last = self.page_of(max(span[1] - 1, span[0]))
        return list(range(first, last + 1))

    def paragraphs_of(self, span: Span) -> list[int]:
        """Source paragraph numbers (``blocks``) a span touches; empty for PDFs and text."""
        return [b.number for b in self.blocks if b.start < span[1] and span[0] < b.end]

    def is_low_confidence(self, span: Span) -> bool:
        """Whether any OCR text below the confidence threshold lies inside ``span``."""
        return any(start < span[1] and span[0] < end for start, end in self.low_confidence)


class Entity(BaseModel):
    """A named entity found by spaCy inside a clause (offsets are document offsets)."""

    label: str = Field(description="spaCy label: ORG, PERSON, MONEY, DATE, ...")
    text: str
    start: int
    end: int


class ClauseType(BaseModel):
    """A CUAD clause category the clause-type model gives a clause (``clausegraph.classify``)."""

    label: str = Field(description="one of the 41 CUAD categories, e.g. 'Governing Law'")
    probability: float = Field(ge=0.0, le=1.0)


class Clause(BaseModel):
    """The retrieval unit: one numbered or headed piece of a document.

    ``segments`` are the document spans that make up ``text``, joined by ``SEGMENT_JOINER``
    (a newline, so words either side of a skipped running header/footer stay apart); a
    clause that crosses a page break can have more than one segment. ``span`` is
    (first segment start, last segment end). For a text file there is one segment and
    ``text == file_text[span[0]:span[1]]``.
    """

    clause_id: str = Field(description="'<document key>:<number path>', stable across runs")
    doc_id: str
    number: str | None = Field(default=None, description="own label, e.g. '7.1(b)', 'IV'")
    section_path: list[str] = Field(default_factory=list, description="labels from the root")
    heading: str | None = None
    text: str
    span: Span
    segments: list[Span]
    pages: list[int]
    order: int = Field(description="position of the clause in its document")
    kind: str = Field(default="clause",
                      description="clause | heading | definition | window | table | running "
                      "(the running header and footer, segment/running.py)")
    entities: list[Entity] = Field(default_factory=list)
    defined_terms: list[str] = Field(default_factory=list)
    clause_types: list[ClauseType] = Field(
        default_factory=list, description="CUAD categories above the stored floor, most "
        "probable first (set at ingest by clausegraph.classify)")

    @staticmethod
    def join_segments(text: str, segments: list[Span]) -> str:
        """The clause text the ``segments`` of document ``text`` make."""
        return SEGMENT_JOINER.join(text[start:end] for start, end in segments)

    def document_span(self, start: int, end: int) -> Span:
        """Document offsets of ``self.text[start:end]`` (through the segments)."""
        return self._to_document(start), self._to_document(max(end - 1, start)) + 1

    def text_offset(self, offset: int) -> int | None:
        """The offset in ``self.text`` of document offset ``offset`` (``document_span`` read
        backwards); None outside the clause's segments."""
        consumed = 0
        for start, end in self.segments:
            if start <= offset < end:
                return consumed + offset - start
            consumed += end - start + len(SEGMENT_JOINER)
        return None

    def _to_document(self, offset: int) -> int:
        consumed = 0
        for seg_start, seg_end in self.segments:
            length = seg_end - seg_start
            if offset < consumed + length:
                return seg_start + offset - consumed
            consumed += length + len(SEGMENT_JOINER)
            if offset < consumed:  # the joiner itself: map to the end of this segment
                return seg_end - 1
        return self.span[1] - 1

    @property
    def label(self) -> str:
        """What a reader calls this clause: its own number in its container ("7.1(b)",
        "Schedule 1/12", "Excl02(a)"), not the whole outline path of its id.

        The id (``19/10/4/6(i)/2/Excl02(a)``) stays unique; the label keeps only the
        named containers (Schedule, Article, Annexure, ...) and the last part, without
        the ``~2`` that tells repeated paths apart.
        """
        parts = _REPEAT_MARK_RE.sub("", self.clause_id.split(":", 1)[-1]).split("/")
        kept = [part for part in parts[:-1]
                if _CONTAINER_RE.match(part) or _CODED_CONTAINER_RE.match(part)]
        # a list item numbered afresh ("9" in every list of a policy) is named with the
        # clause its list is in: "6.3(f)(i)/9"
        if len(parts) > 1 and _BARE_ITEM_RE.fullmatch(parts[-1]) and parts[-2] not in kept:
            kept.append(parts[-2])
        return "/".join([*kept, parts[-1]])
