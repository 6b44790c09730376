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
import math
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

import numpy as np
import pymupdf

from clausegraph.errors import IngestError
from clausegraph.ingest_files import DEFAULT_MAX_FILE_MB, checked_stat, decode_text, read_regular_file
from clausegraph.legibility import measure
from clausegraph.models import Document, Page, Span

SUPPORTED_SUFFIXES: tuple[str, ...] = (".pdf", ".txt", ".md")
PAGE_SEPARATOR = "\n"

MAX_TITLE_CHARS = 120
MAX_KEY_SLUG_CHARS = 24

# MuPDF's plain-text flags without TEXT_PRESERVE_LIGATURES: "ﬁ" is searchable as "fi".
_PDF_TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
# C0 controls (and DEL) other than tab and newline: NUL, form feed, CR, ... -> space.
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# MuPDF warnings that mean a font could not be loaded: its glyph codes may not map to text.
_FONT_TROUBLE = re.compile(r"font|cannot find object|identity encoding", re.IGNORECASE)
# A PDF with less text than this per page, but with images, is taken to be a scan.
_SCANNED_MAX_CHARS_PER_PAGE = 25

# Running headers/footers: lines looked at from each end of a page, the share of pages
# a line must repeat on, and how far non-repeating lines may sit inside a header block.
_EDGE_WINDOW_LINES = 12
_EDGE_TOLERANCE_LINES = 3
_RUNNING_MIN_SHARE = 0.5
_RUNNING_MIN_PAGES = 3
_RUNNING_MIN_ALNUM = 3
_VARYING_MAX_WORDS = 6  # a running line that changes on every page is this short
_PAGE_NUMBER_MIN_REPEATS = 2

_PAGE_NUMBER_LINE = re.compile(
    r"""^(?:
        page\s*[|:.]?\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?   # Page 3, Page 3 of 10, Page | 3
      | \d{1,4}\s*(?:of|/)\s*\d{1,4}                         # 3 of 10, 3/10
      | \d{1,4}\s*\|\s*p\s?a\s?g\s?e                          # 3 | Page, 3 | P a g e
      | [-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]          # - 4 -
      | \[\s*\d{1,4}\s*\]                                    # [4]
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
# "12" or an exhibit page label "A-3", "SB-12": page numbers only if they count along.
_NUMBER_LABEL_LINE = re.compile(r"^(?:([A-Z]{1,3})\s?[-\u2013]\s?)?(\d{1,4})$")

# Title search: lines that are never a title (exhibit labels, version stamps), words that
# name a kind of document, and signs that a line is a sentence or a party's name.
_NOT_A_TITLE = re.compile(
    r"""^(?:
        (?:exhibits?|ex-?)\s*[\w.\-()]*
      | (?:execution|final|conformed)\s+(?:version|copy)
      | confidential(?:\s+treatment\s+requested)?
      | table\s+of\s+contents(?:\s+page)?
      | (?:appendix|schedule|annex(?:ure)?|attachment)\s+[\w.\-]{1,6}
      | draft
      | source:.*                                  # EDGAR attribution footer (CUAD)
    )\W*$""",
    re.IGNORECASE | re.VERBOSE,
)
_TITLE_KEYWORD = re.compile(
    r"\b(?:agreement|contract|policy|policies|amendment|plan|terms|license|licence|lease|"
    r"addendum|deed|memorandum|wordings?|certificate|charter|bylaws|notice|nda|"
    r"prospectus|conditions|insurance|cover)\b",
    re.IGNORECASE,
)
_SENTENCE_LIKE = re.compile(
    r"^(?:this|these|the following|whereas|now,? therefore|in consideration|we|you)\b"
    r"|[\"\u201c\u201d]|\(this\b|[a-z]{2}[.;]\s+\w",  # ". " ends a sentence, not "U.S. "
    re.IGNORECASE,
)
_COMPANY_NAME = re.compile(
    r"\b(?:company|limited|ltd|inc|incorporated|corp|corporation|llc|plc|co|l\.?p)\.?,?$",
    re.IGNORECASE,
)
_MAX_TITLE_WORDS = 16
_DANGLING_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to"}
    | {"upto", "with"}
)
_WIDE_GAP = re.compile(r"\s{3,}")
_SENTENCE_START = re.compile(r"\s+(?=(?:THIS|This)\s)")
_SECTION_HEADING = re.compile(
    r"^(?:section|article|clause|part|chapter)\s+\w{1,4}\b", re.IGNORECASE
)
_EXHIBIT_PREFIX = re.compile(r"^(?:exhibits?|ex-?)\s*\d[\w.\-]*\s+(?=\S)", re.IGNORECASE)
_META_TITLE_JUNK = re.compile(
    r"^(?:untitled|document\d*|microsoft\s+word\b.*|slide\s*\d*|title|\W*)$"
    r"|\.(?:docx?|pdf|cdr|indd|rtf|odt|pages|xlsx?|pptx?|tmp|qxd)\s*$",
    re.IGNORECASE,
)
# Words of an EDGAR-style file name that say nothing about the document.
_KEY_NOISE_WORDS = frozenset(
    {"a", "an", "and", "the", "of", "for", "on", "ex", "exhibit", "inc", "corp", "co", "ltd"}
    | {"llc", "lp", "plc", "qa", "drsa"}
)


class _Line(NamedTuple):
    """One non-blank line of a page: its span (trailing newline included) and content."""

    start: int
    end: int
    content: str


# --------------------------------------------------------------------------- public API


def load_document(path: str | Path, max_bytes: int = DEFAULT_MAX_FILE_MB * 1_000_000) -> Document:
    """Read one PDF, ``.txt`` or ``.md`` file into a ``Document``.

    Raises ``IngestError`` naming the file and the problem for anything that cannot be
    read as text: missing file, directory, FIFO/socket/device, symlink loop, a file over
    ``max_bytes``, unsupported type, empty file, bytes in no known text encoding,
    corrupt/truncated/encrypted PDF, a scanned PDF with no text layer, or a PDF whose
    text is glyph codes rather than language (fonts missing). Pages of a PDF that are
    illegible while most pages read fine are left out, with a warning on the document.
    """
    file_path = Path(path)
    suffix = _checked_suffix(file_path)
    data = read_regular_file(file_path, max_bytes)
    doc_id = document_id(data)
    warnings: list[str] = []
    encoding = None
    if suffix == ".pdf":
        text, pages, metadata_title, warnings = _pdf_text(file_path, data)
        excluded = running_line_spans(text, pages)
        media_type = "pdf"
    else:
        text, encoding = _decode_text(file_path, data)
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
        warnings=warnings,
    )


def document_id(data: bytes) -> str:
    """Content id of a file: the first 16 hex digits of the sha256 of its bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


def document_key(path: str | Path, doc_id: str) -> str:
    """Short, id-safe handle: a slug of the file name plus the first 6 digits of ``doc_id``.

    >>> document_key("PhotronicsInc_20171219_10-QA_EX-10.28_Outsourcing Agreement.pdf",
    ...              "3fa2b1c4d5e6f708")
    'photronics-outsourcing-3fa2b1'
    """
    return f"{_slug(Path(path).stem)}-{doc_id[:6]}"


def iter_input_files(paths: Sequence[Path], exclude: Path | None = None) -> list[Path]:
    """Expand directories (recursively) to their supported files; keep other paths as given.

    Files named explicitly are kept even if unsupported or missing, so that
    ``load_document`` reports them. Directory contents are sorted; hidden files and
    folders inside a directory are skipped, and so is the folder ``exclude`` (the index
    being written); a file reached twice is listed once.
    """
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(_supported_files_under(path, exclude))
        else:
            found.append(path)
    return _unique(found)


def running_line_spans(text: str, pages: Sequence[Page]) -> list[Span]:
    """Spans of running headers, footers and page-number lines, sorted and non-overlapping.

    A line is running if, after normalising (digit runs -> '#', whitespace collapsed,
    case-folded), it sits near the top or bottom of at least half of the pages (and at
    least 3). Page-number lines ("Page 3 of 10", "- 4 -", "3 | Page") among the first or
    last three lines of a page count on any page; a bare "12" or "A-3" only if its
    offset to the physical page number recurs on another page (or is zero).
    Spans include the line's newline; whitespace between two excluded spans is included,
    so a page break between a footer and the next header is one span.
    """
    page_lines = [_lines_of(text, page) for page in pages]
    running = _running_lines(page_lines)
    offsets = _page_number_offsets(pages, page_lines)
    spans: list[Span] = []
    for page, lines in zip(pages, page_lines, strict=True):
        edge_lines = _edge_lines_to_exclude(lines, running, page.number, offsets)
        spans.extend((line.start, line.end) for line in edge_lines)
    return _merge_spans(text, sorted(spans))


def choose_title(
    text: str, excluded: Sequence[Span], metadata_title: str | None, path: Path
) -> str:
    """Best short title: a meaningful PDF metadata title, else a title-like line, else stem."""
    if metadata_title and _is_meaningful_metadata_title(metadata_title, text):
        return _shorten(metadata_title)
    line = _title_line(text, excluded)
    return _shorten(line) if line else _shorten(unquote(path.stem).replace("_", " "))


# ------------------------------------------------------------------------ file handling


def _checked_suffix(path: Path) -> str:
    """The file's lowercase suffix, after checking the path names a readable kind of file."""
    checked_stat(path)  # missing, a loop, a directory, a FIFO ...: said before any read
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        shown = f"'{suffix}'" if suffix else "without a suffix"
        supported = ", ".join(SUPPORTED_SUFFIXES)
        raise IngestError(path, f"unsupported file type {shown}; supported: {supported}")
    return suffix


def _supported_files_under(folder: Path, exclude: Path | None = None) -> list[Path]:
    """Everything but folders with a supported suffix under ``folder``: a FIFO, a socket or
    a link that leads nowhere (a loop, a missing target) is listed so that ingest names it."""
    skipped = os.path.realpath(exclude) + os.sep if exclude is not None else None
    files = [
        path
        for path in folder.rglob("*")
        if path.suffix.lower() in SUPPORTED_SUFFIXES
        and not path.is_dir()  # regular files, and FIFOs, sockets, broken links: reported
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
        and not (skipped and os.path.realpath(path).startswith(skipped))
    ]
    return sorted(files)


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: set[str] = set()
    unique: list[Path] = []
    for path in paths:
        # os.path.realpath, unlike Path.resolve, does not raise on a symlink loop.
        identity = os.path.realpath(path)
        if identity not in seen:
            seen.add(identity)
            unique.append(path)
    return unique


# ---------------------------------------------------------------------------- text files


def _decode_text(path: Path, data: bytes) -> tuple[str, str]:
    """Decode (BOM, UTF-8, else a detected charset; BOM kept), universal newlines."""
    text, encoding = decode_text(path, data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.lstrip("\ufeff").strip():
        raise IngestError(path, "no text (the file holds only whitespace)")
    return text, encoding


# ---------------------------------------------------------------------------------- PDFs


def _pdf_text(path: Path, data: bytes) -> tuple[str, list[Page], str | None, list[str]]:
    """Canonical text, pages, metadata title and warnings of a PDF, or an ``IngestError``."""
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    pdf = _open_pdf(path, data)
    try:
        raw_texts = _page_texts(path, pdf)
        suspicious = pdf.is_repaired or _FONT_TROUBLE.search(pymupdf.TOOLS.mupdf_warnings())
        page_texts, warnings = _legible_pages(path, raw_texts, bool(suspicious))
        if _looks_scanned(pdf, page_texts):
            raise IngestError(path, "no text layer (scanned PDF?); run OCR first")
        if not any(page_text.strip() for page_text in page_texts):
            raise IngestError(path, "no text (the PDF's pages hold no text or images)")
        metadata_title = (pdf.metadata or {}).get("title") or None
    finally:
        pdf.close()
    text, pages = _join_pages(page_texts)
    return text, pages, metadata_title, warnings


def _legible_pages(
    path: Path, raw_texts: Sequence[str], suspicious: bool
) -> tuple[list[str], list[str]]:
    """Page texts with illegible pages emptied, and one warning per emptied page.

    Refuses the file when most judged pages are illegible: then the whole text layer is
    glyph codes (fonts missing from a truncated or broken file), not a stray page.
    The vowel measure alone convicts a page only in a ``suspicious`` file (repaired, or
    MuPDF warned about its fonts): tables of codes ("PWM-5700-00431-SH") have few vowels.
    """
    problems: dict[int, str] = {}
    judged = 0
    for number, raw in enumerate(raw_texts, start=1):
        stats = measure(raw)
        judged += stats.judged
        problem = stats.problem(vowels=suspicious)
        if problem:
            problems[number] = problem
    cleaned = [_CONTROL_CHARS.sub(" ", raw) for raw in raw_texts]
    if problems and 2 * len(problems) >= judged:
        first, reason = next(iter(problems.items()))
        raise IngestError(
            path,
            f"text is not language on {len(problems)} of {len(raw_texts)} pages (page "
            f"{first}: {reason}); its fonts are missing or damaged (truncated file?)",
        )
    warnings = []
    for number, problem in problems.items():
        cleaned[number - 1] = ""
        warnings.append(f"page {number} left out: its text is not language ({problem})")
    return cleaned, warnings


def _open_pdf(path: Path, data: bytes) -> pymupdf.Document:
    try:
        pdf = pymupdf.open(stream=data, filetype="pdf")
    except Exception as error:  # MuPDF raises several types for broken files
        raise IngestError(path, f"not a readable PDF: {_reason(error)}") from error
    if pdf.needs_pass and not pdf.authenticate(""):
        pdf.close()
        raise IngestError(path, "encrypted PDF: a password is required")
    # MuPDF silently rebuilds a truncated file from the objects it still finds, so a cut
    # file "opens" with text missing; a repaired file without an end marker is refused.
    if pdf.is_repaired and b"%%EOF" not in data[-2048:]:
        pdf.close()
        raise IngestError(path, "not a readable PDF: the file is truncated (no %%EOF marker)")
    if pdf.page_count == 0:
        pdf.close()
        raise IngestError(path, "not a readable PDF: it has no pages")
    return pdf


def _reason(error: Exception) -> str:
    message = " ".join(str(error).split())
    return message or type(error).__name__


def _page_texts(path: Path, pdf: pymupdf.Document) -> list[str]:
    texts: list[str] = []
    for index in range(pdf.page_count):
        try:
            texts.append(_page_text(pdf[index]))
        except Exception as error:  # a damaged page object or content stream
            raise IngestError(
                path, f"not a readable PDF: page {index + 1}: {_reason(error)}"
            ) from error
    return texts


def _page_text(page: pymupdf.Page) -> str:
    """Text of one page, its blocks in reading order, ending with a newline if not empty."""
    blocks = [
        _Block(*block[:5])
        for block in page.get_text("blocks", flags=_PDF_TEXT_FLAGS)
        if block[6] == 0
    ]
    text = "".join(
        block.text for block in _reading_order(blocks, page.rect.width, page.rect.height)
    )
    # Control characters stay until the legibility check has counted them.
    if text and not text.endswith("\n"):
        text += "\n"
    return text


def _looks_scanned(pdf: pymupdf.Document, page_texts: Sequence[str]) -> bool:
    """Essentially no text, but images: a scan without OCR."""
    visible_chars = sum(len("".join(page_text.split())) for page_text in page_texts)
    if visible_chars >= _SCANNED_MAX_CHARS_PER_PAGE * len(page_texts):
        return False
    return any(pdf[index].get_image_info() for index in range(pdf.page_count))


def _join_pages(page_texts: Sequence[str]) -> tuple[str, list[Page]]:
    pages: list[Page] = []
    parts: list[str] = []
    offset = 0
    for number, page_text in enumerate(page_texts, start=1):
        if number > 1:
            parts.append(PAGE_SEPARATOR)
            offset += len(PAGE_SEPARATOR)
        pages.append(Page(number=number, start=offset, end=offset + len(page_text)))
        parts.append(page_text)
        offset += len(page_text)
    return "".join(parts), pages


# --------------------------------------------------------------------------- reading order


class _Block(NamedTuple):
    """A MuPDF text block: bounding box and text (each line ending with a newline)."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str


_MARGIN_SHARE = 0.06  # blocks this close to the top/bottom edge (share of height): margins
_SAME_ROW_TOLERANCE = 3.0  # points: blocks whose tops differ less are on one row
_GUTTER_ZONE = (0.3, 0.7)  # a column gutter lies in this share of the page width
_MIN_COLUMN_SHARE = 0.25  # each column holds at least this share of the page's characters
_MIN_COLUMN_WIDTH = 0.25  # and spans at least this share of the page width
_TABLE_ALIGNED_SHARE = 0.8  # side-by-side blocks this often top-aligned are table cells
_TEXT_ALIGNED_SHARE = 0.5  # below this, side-by-side blocks are columns even if sparse
_FOOTER_GAP = 24.0  # points between the end of a column and a footer below it
_COLUMN_MAX_GAP = 30.0  # points: a taller gap inside a column means cells, not running text


def _reading_order(blocks: Sequence[_Block], width: float, height: float) -> list[_Block]:
    """Blocks in reading order: top to bottom, left to right; two-column text column-wise.

    MuPDF's own order is the content-stream order, which is often right but not always
    (some contracts write numbered recitals after the next heading; a two-column policy
    writes its right column first). Blocks in the top and bottom page margins come
    first and last. On pages with a gutter between two columns of running text, the
    columns are read one after the other between full-width blocks (titles, tables);
    everything else, tables included, is read row by row.
    """
    header = [b for b in blocks if b.y1 <= _MARGIN_SHARE * height]
    footer = [b for b in blocks if b.y0 >= (1 - _MARGIN_SHARE) * height and b not in header]
    body = [b for b in blocks if b not in header and b not in footer]
    return [*_rows_order(header), *_body_order(body, width), *_rows_order(footer)]


def _body_order(blocks: Sequence[_Block], width: float) -> list[_Block]:
    gutter = _column_gutter(blocks, width)
    if gutter is None:
        return _rows_order(blocks)
    ordered: list[_Block] = []
    band: list[_Block] = []
    for block in sorted(blocks, key=lambda b: (b.y0, b.x0)):
        if block.text.strip() and block.x0 < gutter < block.x1:  # a full-width block
            ordered.extend(_band_order(band, gutter))
            ordered.append(block)
            band = []
        else:
            band.append(block)
    ordered.extend(_band_order(band, gutter))
    return ordered


def _rows_order(blocks: Iterable[_Block]) -> list[_Block]:
    """Top to bottom; blocks sharing a row (table cells, a label beside its text) left to right.

    A block joins the current row if it starts within a tolerance of the row's top or
    lies mostly within the row's height (a one-line cell centred beside a taller cell).
    """
    ordered: list[_Block] = []
    row: list[_Block] = []
    row_top = row_bottom = 0.0
    for block in sorted(blocks, key=lambda b: (b.y0, b.x0)):
        if row and not _joins_row(block, row_top, row_bottom):
            ordered.extend(_row_left_to_right(row))
            row = []
        if not row:
            row_top, row_bottom = block.y0, block.y1
        row.append(block)
        row_bottom = max(row_bottom, block.y1)
    ordered.extend(_row_left_to_right(row))
    return ordered


def _row_left_to_right(row: Sequence[_Block]) -> list[_Block]:
    """Blocks of one row by horizontal cluster (x-ranges that overlap), each top-down."""
    clusters: list[list[_Block]] = []
    cluster_end = -math.inf
    for block in sorted(row, key=lambda b: b.x0):
        if clusters and block.x0 < cluster_end:
            clusters[-1].append(block)
            cluster_end = max(cluster_end, block.x1)
        else:
            clusters.append([block])
            cluster_end = block.x1
    return [block for cluster in clusters for block in sorted(cluster, key=lambda b: b.y0)]


def _joins_row(block: _Block, row_top: float, row_bottom: float) -> bool:
    if block.y0 - row_top <= _SAME_ROW_TOLERANCE:
        return True
    overlap = min(block.y1, row_bottom) - block.y0
    return overlap > 0.5 * max(block.y1 - block.y0, 1.0)


def _band_order(band: Sequence[_Block], gutter: float) -> list[_Block]:
    """Within a band between full-width blocks: left column, then right; tables by row.

    Blocks that end before the other column starts (a narrow heading) are read first;
    blocks well below the end of the other column (a short footer) are read last.
    """
    left = [b for b in band if b.x1 <= gutter or (not b.text.strip() and b.x0 < gutter)]
    right = [b for b in band if b not in left]
    if not left or not right:
        return _rows_order(band)
    columns_start = max(min(b.y0 for b in left), min(b.y0 for b in right))
    columns_end = min(max(b.y1 for b in left), max(b.y1 for b in right))
    before = [b for b in band if b.y1 <= columns_start]
    after = [b for b in band if b.y0 >= columns_end + _FOOTER_GAP and b not in before]
    left = [b for b in left if b not in before and b not in after]
    right = [b for b in right if b not in before and b not in after]
    if _reads_as_columns(left, right):
        middle = [*_rows_order(left), *_rows_order(right)]
    else:
        middle = _rows_order([*left, *right])
    return [*_rows_order(before), *middle, *_rows_order(after)]


def _is_column_text(blocks: Sequence[_Block]) -> bool:
    """Running text fills its column; table cells leave tall gaps between them."""
    filled = sorted((b for b in blocks if b.text.strip()), key=lambda b: b.y0)
    if not filled:
        return False
    bottom = filled[0].y1
    for block in filled[1:]:
        if block.y0 - bottom > _COLUMN_MAX_GAP:
            return False
        bottom = max(bottom, block.y1)
    return True


def _reads_as_columns(left: Sequence[_Block], right: Sequence[_Block]) -> bool:
    """Two columns of running text rather than the two halves of a table.

    Table cells line up in rows; text columns do not (beyond chance). When the blocks
    are not clearly aligned, both sides must be filled like text, or the alignment
    must be low (a text column beside a sparse flowchart is still read as a column).
    """
    aligned = _aligned_share(left, right)
    if aligned >= _TABLE_ALIGNED_SHARE:
        return False
    if _is_column_text(left) and _is_column_text(right):
        return True
    return aligned < _TEXT_ALIGNED_SHARE


def _aligned_share(left: Sequence[_Block], right: Sequence[_Block]) -> float:
    """Share of the blocks (on the side with fewer) whose top lines up with one opposite."""
    left_tops = [b.y0 for b in left if b.text.strip()]
    right_tops = [b.y0 for b in right if b.text.strip()]
    if not left_tops or not right_tops:
        return 0.0
    fewer, more = sorted((left_tops, right_tops), key=len)
    aligned = sum(
        1 for top in fewer if any(abs(top - other) <= _SAME_ROW_TOLERANCE for other in more)
    )
    return aligned / len(fewer)


def _column_gutter(blocks: Sequence[_Block], page_width: float) -> float | None:
    """The x of a gutter between two text columns, or None for a single-column page."""
    filled = [b for b in blocks if b.text.strip()]
    total_chars = sum(len(b.text) for b in filled)
    if len(filled) < 4 or total_chars == 0:
        return None
    low, high = (share * page_width for share in _GUTTER_ZONE)
    edges = {round(edge) + 0.5 for b in filled for edge in (b.x0 - 1, b.x1)}
    candidates = np.array(sorted(x for x in edges if low <= x <= high))
    if candidates.size == 0:
        return None
    starts = np.array([b.x0 for b in filled])
    ends = np.array([b.x1 for b in filled])
    chars = np.array([len(b.text) for b in filled])
    crosses = (starts[None, :] < candidates[:, None]) & (candidates[:, None] < ends[None, :])
    crossing_chars = crosses.astype(np.int64) @ chars
    gutter = float(candidates[int(np.argmin(crossing_chars))])  # first (leftmost) minimum
    left = [b for b in filled if b.x1 <= gutter]
    right = [b for b in filled if b.x0 >= gutter]
    if not _is_column(left, total_chars, page_width) or not _is_column(
        right, total_chars, page_width
    ):
        return None
    return gutter if _side_by_side(left, right) else None


def _is_column(blocks: Sequence[_Block], total_chars: int, page_width: float) -> bool:
    if not blocks:
        return False
    chars = sum(len(b.text) for b in blocks)
    width = max(b.x1 for b in blocks) - min(b.x0 for b in blocks)
    return chars >= _MIN_COLUMN_SHARE * total_chars and width >= _MIN_COLUMN_WIDTH * page_width


def _side_by_side(left: Sequence[_Block], right: Sequence[_Block]) -> bool:
    """The two columns share most of their height (so they are not stacked)."""
    overlap = min(max(b.y1 for b in left), max(b.y1 for b in right)) - max(
        min(b.y0 for b in left), min(b.y0 for b in right)
    )
    shorter = min(
        max(b.y1 for b in left) - min(b.y0 for b in left),
        max(b.y1 for b in right) - min(b.y0 for b in right),
    )
    return shorter > 0 and overlap >= 0.5 * shorter


# ------------------------------------------------------------------ headers and footers


def _lines_of(text: str, page: Page) -> list[_Line]:
    """Non-blank lines of a page with their spans, newline included."""
    lines: list[_Line] = []
    start = page.start
    while start < page.end:
        newline = text.find("\n", start, page.end)
        end = page.end if newline < 0 else newline + 1
        content = text[start:end].strip()
        if content:
            lines.append(_Line(start, end, content))
        start = end
    return lines


def _normalise_line(content: str) -> str:
    """Comparable form of a line: digits as '#', whitespace collapsed, case-folded."""
    return " ".join(re.sub(r"\d+", "#", content).split()).casefold()


def _edges(lines: Sequence[_Line]) -> list[_Line]:
    """The lines near the top and bottom of a page, each once."""
    if len(lines) <= 2 * _EDGE_WINDOW_LINES:
        return list(lines)
    return [*lines[:_EDGE_WINDOW_LINES], *lines[-_EDGE_WINDOW_LINES:]]


def _running_lines(page_lines: Sequence[Sequence[_Line]]) -> set[str]:
    """Normalised lines found near a page edge on enough pages to be headers or footers.

    A line that differs on every page (only its numbers change) is running only if it is
    short, like "Policy Wording / Page 3": a long one is numbered content ("Clause 3. The
    insurer pays ...") that happens to sit at the top of each page.
    """
    pages_with_text = sum(1 for lines in page_lines if lines)
    needed = max(_RUNNING_MIN_PAGES, math.ceil(_RUNNING_MIN_SHARE * pages_with_text))
    counts: Counter[str] = Counter()
    variants: dict[str, set[str]] = {}
    for lines in page_lines:
        edge = {_normalise_line(line.content): line.content for line in _edges(lines)}
        counts.update(edge.keys())
        for normalised, content in edge.items():
            variants.setdefault(normalised, set()).add(" ".join(content.split()))
    return {
        line
        for line, count in counts.items()
        if count >= needed
        and sum(ch.isalnum() for ch in line) >= _RUNNING_MIN_ALNUM
        and (len(variants[line]) < count or len(line.split()) <= _VARYING_MAX_WORDS)
    }


def _edge_lines_to_exclude(
    lines: Sequence[_Line], running: set[str], page_number: int, offsets: set[tuple[str, int]]
) -> list[_Line]:
    """Running lines in the header block at the top and the footer block at the bottom.

    Walking in from each edge, a block continues while lines are running or page
    numbers; a few other lines (a date, a policy number) are tolerated near the edge.
    """
    excluded: list[_Line] = []
    for ordered in (list(lines), list(reversed(lines))):
        for position, line in enumerate(ordered[:_EDGE_WINDOW_LINES]):
            if _normalise_line(line.content) in running or _is_page_number(
                line.content, page_number, position, offsets
            ):
                excluded.append(line)
            elif position >= _EDGE_TOLERANCE_LINES - 1 and not _continues_block(
                ordered, position, running
            ):
                break
    return sorted(set(excluded))


def _continues_block(ordered: Sequence[_Line], position: int, running: set[str]) -> bool:
    """A non-running line is inside the header block if a running line follows it closely."""
    following = ordered[position + 1 : position + 2]
    return any(_normalise_line(line.content) in running for line in following)


def _is_page_number(
    content: str, page_number: int, position: int, offsets: set[tuple[str, int]]
) -> bool:
    """A page-number line among the first or last few lines of a page."""
    if position >= _EDGE_TOLERANCE_LINES:
        return False
    if _PAGE_NUMBER_LINE.match(content):
        return True
    label = _number_label(content, page_number)
    return label is not None and (label in offsets or label == ("", 0))


def _number_label(content: str, page_number: int) -> tuple[str, int] | None:
    """("A", offset) for a line "A-3" on page 5: prefix and printed minus physical number."""
    match = _NUMBER_LABEL_LINE.match(content)
    if match is None:
        return None
    return match.group(1) or "", int(match.group(2)) - page_number


def _page_number_offsets(
    pages: Sequence[Page], page_lines: Sequence[Sequence[_Line]]
) -> set[tuple[str, int]]:
    """Number labels near page edges whose offset to the physical page number recurs.

    A lone "22" at the top of page 39 is a table row, not a page number, unless numbers
    on other pages show the same offset: that recognises numbering that starts late or
    restarts in a schedule ("A-1", "A-2" on consecutive pages) but not one-off numbers.
    """
    counts: Counter[tuple[str, int]] = Counter()
    for page, lines in zip(pages, page_lines, strict=True):
        edge = [*lines[:_EDGE_TOLERANCE_LINES], *lines[-_EDGE_TOLERANCE_LINES:]]
        labels = {_number_label(line.content, page.number) for line in edge}
        counts.update(label for label in labels if label is not None)
    return {label for label, count in counts.items() if count >= _PAGE_NUMBER_MIN_REPEATS}


def _merge_spans(text: str, spans: Sequence[Span]) -> list[Span]:
    """Join overlapping spans and spans separated only by whitespace."""
    merged: list[Span] = []
    for start, end in spans:
        if merged and (start <= merged[-1][1] or not text[merged[-1][1] : start].strip()):
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


# ---------------------------------------------------------------------------- titles, keys


def _is_meaningful_metadata_title(title: str, text: str) -> bool:
    """A real title: not a file name or placeholder, and its words occur in the text.

    Producers often leave a template's title in place (an "Easy Health" wording titled
    "GOLDEN YEARS INSURANCE PLAN"), so every word of 4+ letters outside parentheses
    (which hold abbreviations like "(ASP-N)") must appear in the document.
    """
    cleaned = " ".join(title.split())
    if sum(ch.isalpha() for ch in cleaned) < 4 or _META_TITLE_JUNK.search(cleaned):
        return False
    title_words = set(re.findall(r"[^\W\d_]{4,}", re.sub(r"\([^)]*\)", " ", cleaned).casefold()))
    text_words = set(re.findall(r"[^\W\d_]{4,}", text.casefold()))
    return title_words <= text_words


class _TitleCandidate(NamedTuple):
    """A piece of one of the first lines, and whether it lies in a running header/footer."""

    text: str
    excluded: bool


def _title_line(text: str, excluded: Sequence[Span], max_lines: int = 40) -> str | None:
    """A title-like line from the start of the text.

    In order of preference: a short line naming a kind of document ("OUTSOURCING
    AGREEMENT"), the same inside a running header (insurance wordings repeat the product
    name there), a heading-like line, a short line that is not a sentence. None if all
    fail: the file name is then a better title than a confidentiality notice.
    """
    candidates = [c for c in _leading_pieces(text, excluded, max_lines) if _is_substantial(c.text)]
    body = [c.text for c in candidates if not c.excluded]
    header = [c.text for c in candidates if c.excluded]
    choices = (
        [line for line in body if _is_title_like(line) and _TITLE_KEYWORD.search(line)],
        [line for line in header if _is_title_like(line) and _TITLE_KEYWORD.search(line)],
        [line for line in body if _is_title_like(line)],
        [line for line in body if _is_short_statement(line)],
    )
    return next((lines[0] for lines in choices if lines), None)


def _is_substantial(line: str) -> bool:
    return (
        len(line) >= 8
        and len(line.split()) >= 2
        and sum(ch.isalpha() for ch in line) >= 5
        and not _NOT_A_TITLE.match(line)
        and not _PAGE_NUMBER_LINE.match(line)
    )


def _is_short_statement(line: str) -> bool:
    """Short, and not a sentence, a definition ("Term: meaning") or a footer ("Source: ...")."""
    return (
        len(line.split()) <= _MAX_TITLE_WORDS
        and ":" not in line
        and unicodedata.normalize("NFKC", line[-1]) not in ".,;"
        and not _SENTENCE_LIKE.search(line)
    )


def _is_title_like(line: str) -> bool:
    """Short, mostly capitalised, and neither a sentence (part) nor a company name."""
    words = [word for word in line.split() if any(ch.isalpha() for ch in word)]
    capitalised = [word for word in words if next(ch for ch in word if ch.isalpha()).isupper()]
    return (
        bool(words)
        and len(line.split()) <= _MAX_TITLE_WORDS
        and 2 * len(capitalised) >= len(words)
        # NFKC: PDFs use look-alikes such as U+037E GREEK QUESTION MARK for ";".
        and unicodedata.normalize("NFKC", line[-1]) not in ".,;"
        and words[-1].casefold() not in _DANGLING_WORDS  # a sentence running on
        and not _SENTENCE_LIKE.search(line)
        and not _SECTION_HEADING.match(line)
        and not _COMPANY_NAME.search(line)
    )


def _leading_pieces(text: str, excluded: Sequence[Span], max_lines: int) -> list[_TitleCandidate]:
    """Pieces of the first non-blank lines, whitespace collapsed.

    CUAD-style text joins a title and the first sentence on one line, so runs of 3+
    spaces and a following "This ..." sentence split a line, and a leading exhibit label
    is dropped ("Exhibit 10.16 CONSULTING AGREEMENT This Consulting Agreement ..."
    gives "CONSULTING AGREEMENT"). An upper-case line without a document-kind word is
    joined with the next upper-case line ("COLLABORATIVE RESEARCH, ..." + "AGREEMENT").
    """
    pieces: list[_TitleCandidate] = []
    offset = 0
    for raw_line in text[: 300 * max_lines].split("\n"):
        start, offset = offset, offset + len(raw_line) + 1
        line = raw_line.strip().lstrip("\ufeff#").strip()
        if not line:
            continue
        in_excluded = any(low <= start < high for low, high in excluded)
        for part in _title_pieces(line):
            pieces.append(_TitleCandidate(part, in_excluded))
        if len(pieces) >= max_lines:
            break
    return _join_split_titles(pieces)


def _title_pieces(line: str) -> list[str]:
    """A line cut at wide gaps and where "This ..." follows a document-kind word."""
    pieces: list[str] = []
    for part in _WIDE_GAP.split(line):
        for match in _SENTENCE_START.finditer(part):
            if _TITLE_KEYWORD.search(part[: match.start()].rsplit(None, 1)[-1]):
                pieces.append(part[: match.start()])
                part = part[match.end() :]
                break
        pieces.append(part)
    cleaned = (" ".join(_EXHIBIT_PREFIX.sub("", piece).split()) for piece in pieces)
    return [piece for piece in cleaned if piece]


def _join_split_titles(pieces: Sequence[_TitleCandidate]) -> list[_TitleCandidate]:
    joined: list[_TitleCandidate] = []
    for piece in pieces:
        if joined and _continues_title(joined[-1], piece):
            joined[-1] = _TitleCandidate(f"{joined[-1].text} {piece.text}", piece.excluded)
        else:
            joined.append(piece)
    return joined


def _continues_title(previous: _TitleCandidate, piece: _TitleCandidate) -> bool:
    """``piece`` ends an upper-case title that ``previous`` begins."""
    return (
        previous.excluded == piece.excluded
        and _is_upper(previous.text)
        and _is_upper(piece.text)
        and sum(ch.isalpha() for ch in previous.text) >= 5
        and not _NOT_A_TITLE.match(previous.text)
        and not _COMPANY_NAME.search(previous.text)
        and _is_title_like(f"{previous.text} {piece.text}")
        and not _TITLE_KEYWORD.search(previous.text)
        and bool(_TITLE_KEYWORD.search(piece.text))
    )


def _is_upper(line: str) -> bool:
    letters = [ch for ch in line if ch.isalpha()]
    return bool(letters) and all(ch.isupper() for ch in letters)


def _shorten(title: str) -> str:
    """Whitespace collapsed and cut at a word boundary to ``MAX_TITLE_CHARS``."""
    title = " ".join(title.split())
    if len(title) <= MAX_TITLE_CHARS:
        return title
    cut = title[: MAX_TITLE_CHARS - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-") + "…"


def _slug(stem: str) -> str:
    """Lowercase ASCII words of a file name, noise and numbers dropped, cut at a word."""
    words = [word for word in _name_words(stem) if _is_key_word(word)]
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > MAX_KEY_SLUG_CHARS:
            break
        slug = candidate
    if not slug and words:
        slug = words[0][:MAX_KEY_SLUG_CHARS]
    return slug or "doc"


def _name_words(stem: str) -> list[str]:
    ascii_stem = (
        unicodedata.normalize("NFKD", unquote(stem)).encode("ascii", "ignore").decode("ascii")
    )
    # Split CamelCase ("PhotronicsInc" -> "Photronics Inc") before lowercasing.
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", ascii_stem)
    return [word.lower() for word in re.findall(r"[A-Za-z0-9]+", spaced)]


def _is_key_word(word: str) -> bool:
    letters = sum(ch.isalpha() for ch in word)
    if word in _KEY_NOISE_WORDS or letters == 0:
        return False
    # "qa", "k" from form names are noise; codes like "bajhlip23020v012223" are names.
    return letters >= 4 if any(ch.isdigit() for ch in word) else len(word) >= 2
