"""PDFs (pymupdf): page texts in reading order joined into one canonical text."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pymupdf

from clausegraph.errors import IngestError
from clausegraph.ingest.blocks import RenderedTable
from clausegraph.ingest.glyphs import ligature_stand_ins, needs_remapping, remap_span_text
from clausegraph.ingest.legibility import measure
from clausegraph.ingest.ocr import PdfOcr, describe_pages, ocr_scanned_pages
from clausegraph.ingest.pdf_tables import find_page_tables, span_is_bold
from clausegraph.models import Page, Table, TableCell
from clausegraph.models.document import LineStyle
from clausegraph.text.nlp import english_words

PAGE_SEPARATOR = "\n"


# MuPDF's plain-text flags without TEXT_PRESERVE_LIGATURES: "ﬁ" is searchable as "fi".
_PDF_TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
# C0 controls (and DEL) other than tab and newline: NUL, form feed, CR, ... -> space.
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# MuPDF warnings that mean a font could not be loaded: its glyph codes may not map to text.
_FONT_TROUBLE = re.compile(r"font|cannot find object|identity encoding", re.IGNORECASE)
# A PDF with less text than this per page, but with images, is taken to be a scan.
_SCANNED_MAX_CHARS_PER_PAGE = 25

# ---------------------------------------------------------------------------------- PDFs


class PdfText(NamedTuple):
    text: str
    pages: list[Page]
    metadata_title: str | None
    ocr: PdfOcr
    warnings: list[str]
    tables: list[Table]
    line_styles: list[LineStyle]


def pdf_text(path: Path, data: bytes, ocr: bool = True) -> PdfText:
    """Canonical text, pages, metadata title, OCR'd pages, warnings and tables of a PDF,
    or an ``IngestError``."""
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    pdf = _open_pdf(path, data)
    pdf_ocr, warnings = PdfOcr(), []
    try:
        reads = _page_texts(path, pdf)
        stand_ins = ligature_stand_ins((read.text for read in reads), english_words)
        if stand_ins:  # read again with them, so every offset is taken on the repaired text
            reads = _page_texts(path, pdf, stand_ins)
        raw_texts = [read.text for read in reads]
        suspicious = pdf.is_repaired or _FONT_TROUBLE.search(pymupdf.TOOLS.mupdf_warnings())
        page_texts, warnings = _legible_pages(path, raw_texts, bool(suspicious))
        if ocr:
            page_texts, pdf_ocr = ocr_scanned_pages(
                path, pdf, page_texts, _SCANNED_MAX_CHARS_PER_PAGE
            )
            if pdf_ocr.pages and not any(text.strip() for text in page_texts):
                raise IngestError(
                    path, f"no text: OCR found no words on the scanned {describe_pages(pdf_ocr.pages)}"
                )
        elif _looks_scanned(pdf, page_texts):
            raise IngestError(
                path, "no text layer (scanned PDF?) and OCR is off (--no-ocr / ingest.ocr=false)"
            )
        if not any(page_text.strip() for page_text in page_texts):
            raise IngestError(path, "no text (the PDF's pages hold no text or images)")
        if pdf_ocr.pages:
            warnings.append(f"text of {describe_pages(pdf_ocr.pages)} read by OCR")
        metadata_title = (pdf.metadata or {}).get("title") or None
    finally:
        pdf.close()
    text, pages = _join_pages(page_texts)
    return PdfText(text, pages, metadata_title, pdf_ocr, warnings,
                   _document_tables(reads, page_texts, pages),
                   _document_line_styles(reads, page_texts, pages))


def _document_tables(reads: Sequence[PageRead], page_texts: Sequence[str],
                     pages: Sequence[Page]) -> list[Table]:
    """The pages' tables at document offsets; none from a page left out or OCR'd."""
    tables: list[Table] = []
    for read, page_text, page in zip(reads, page_texts, pages, strict=True):
        if len(page_text) != len(read.text):  # the page was emptied or replaced by OCR
            continue
        for rendered, start in zip(read.tables, read.table_starts, strict=True):
            start += page.start
            tables.append(Table(
                number=len(tables) + 1, start=start, end=start + len(rendered.text),
                page=page.number, rows=rendered.rows, columns=rendered.columns,
                cells=[TableCell(row=row, column=column, start=start + s, end=start + e,
                                 page=page.number) for row, column, s, e in rendered.cells],
            ))
    return tables


def _document_line_styles(reads: Sequence[PageRead], page_texts: Sequence[str],
                          pages: Sequence[Page]) -> list[LineStyle]:
    """The pages' line styles at document offsets; none from a page left out or OCR'd."""
    styles: list[LineStyle] = []
    for read, page_text, page in zip(reads, page_texts, pages, strict=True):
        if len(page_text) != len(read.text):
            continue
        styles.extend(style._replace(start=style.start + page.start, end=style.end + page.start)
                      for style in read.line_styles)
    return styles


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


def _page_texts(path: Path, pdf: pymupdf.Document,
                stand_ins: Mapping[str, str] | None = None) -> list[PageRead]:
    reads: list[PageRead] = []
    for index in range(pdf.page_count):
        try:
            reads.append(read_page(pdf[index], stand_ins))
        except Exception as error:  # a damaged page object or content stream
            raise IngestError(
                path, f"not a readable PDF: page {index + 1}: {_reason(error)}"
            ) from error
    return reads


class PageRead(NamedTuple):
    """One page's text, the tables rendered into it and the style of its text lines
    (offsets into that text)."""

    text: str
    tables: list[RenderedTable]
    table_starts: list[int]
    line_styles: list[LineStyle]


def read_page(page: pymupdf.Page, stand_ins: Mapping[str, str] | None = None) -> PageRead:
    """Text of one page, its blocks in reading order, ending with a newline if not empty.

    Each ruled table (``tables.find_page_tables``) replaces the text blocks it covers by
    one block: the table rendered a row a line, read where the table sits. ``stand_ins``
    are the document's letters that stand for ligatures (``glyphs.ligature_stand_ins``).
    """
    textpage = page_textpage(page)
    spelled = str.maketrans(dict(stand_ins or {}))
    numbered = _text_blocks(page, textpage, spelled)
    page_dict = page.get_text("dict", textpage=textpage)  # fonts: line styles, table headers
    found = find_page_tables(page, textpage, numbered, spelled, page_dict)
    taken = {number for table in found for number in table.blocks}
    blocks = [block for number, block in numbered.items() if number not in taken]
    number_of = {id(block): number for number, block in numbered.items()}
    line_styles = _block_line_styles(page_dict, spelled)
    placed = [(_Block(*table.bbox, table.text), table) for table in found]
    table_of = {id(block): table for block, table in placed}
    parts: list[str] = []
    tables: list[RenderedTable] = []
    starts: list[int] = []
    styles: list[LineStyle] = []
    length = 0
    for block in _reading_order([*blocks, *(block for block, _ in placed)],
                                page.rect.width, page.rect.height):
        table = table_of.get(id(block))
        if table is not None:
            tables.append(table.rendered)
            starts.append(length + table.offset)
        else:
            looks = line_styles.get(number_of[id(block)])
            styles.extend(_placed_styles(block.text, looks, length))
        parts.append(block.text)
        length += len(block.text)
    text = "".join(parts)
    # Control characters stay until the legibility check has counted them.
    if text and not text.endswith("\n"):
        text += "\n"
    return PageRead(text, tables, starts, styles)


# A span set in a font whose name says so is italic even without MuPDF's flag (bold:
# pdf_tables.span_is_bold).
_ITALIC_FONT_RE = re.compile(r"(?i)italic|oblique")


class _LineLook(NamedTuple):
    text: str
    size: float
    bold: bool
    italic: bool
    x0: float


def _block_line_styles(page_dict: dict, spelled: dict[int, str]) -> dict[int, list[_LineLook]]:
    """For each text block (MuPDF number) of a page's "dict" reading, its lines' text
    (stand-ins ``spelled`` out) and the style of most of their characters."""
    out: dict[int, list[_LineLook]] = {}
    for block in page_dict["blocks"]:
        if block.get("type") != 0:
            continue
        out[block["number"]] = [_line_look(line, spelled) for line in block["lines"]]
    return out


def _line_look(line: dict, spelled: dict[int, str]) -> _LineLook:
    weight: dict[tuple[float, bool, bool], int] = {}
    for span in line["spans"]:
        chars = len(span["text"].strip())
        if not chars:
            continue
        font = span.get("font", "")
        bold = span_is_bold(span)
        italic = bool(span["flags"] & pymupdf.TEXT_FONT_ITALIC) or bool(
            _ITALIC_FONT_RE.search(font)
        )
        key = (round(span["size"], 1), bold, italic)
        weight[key] = weight.get(key, 0) + chars
    size, bold, italic = max(weight, key=weight.__getitem__) if weight else (0.0, False, False)
    # as the block's text reads: each span as its font draws it (₹, bullets), stand-ins spelled
    text = "".join(remap_span_text(span["text"], span.get("font", ""))
                   for span in line["spans"]).translate(spelled)
    return _LineLook(text, size, bold, italic, round(line["bbox"][0], 1))


def _placed_styles(
    block_text: str, looks: list[_LineLook] | None, offset: int
) -> list[LineStyle]:
    """Line styles of a block placed at ``offset`` of the page text; none when MuPDF's
    lines do not match the block's text line for line."""
    lines = block_text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if looks is None or [look.text for look in looks] != lines:
        return []
    styles: list[LineStyle] = []
    for look, line in zip(looks, lines, strict=True):
        if line.strip():
            styles.append(LineStyle(offset, offset + len(line), look.size, look.bold,
                                    look.italic, look.x0))
        offset += len(line) + 1
    return styles


def page_textpage(page: pymupdf.Page) -> pymupdf.TextPage:
    """The page's text as ingest extracts it (same flags), to reuse across calls."""
    return page.get_textpage(flags=_PDF_TEXT_FLAGS)


def _text_blocks(page: pymupdf.Page, textpage: pymupdf.TextPage,
                 spelled: dict[int, str] | None = None) -> dict[int, _Block]:
    """The page's text blocks by MuPDF number, as their fonts draw them, with the letters
    that stand for ligatures ``spelled`` out (a ``str.maketrans`` table)."""
    blocks = {b[5]: _Block(*b[:5]) for b in page.get_text("blocks", textpage=textpage)
              if b[6] == 0}
    if needs_remapping([font[3] for font in page.get_fonts()]):
        blocks = _remap_glyphs(blocks, textpage)
    if spelled:
        blocks = {n: block._replace(text=block.text.translate(spelled))
                  for n, block in blocks.items()}
    return blocks


def _remap_glyphs(blocks: dict[int, _Block], textpage: pymupdf.TextPage) -> dict[int, _Block]:
    """Blocks with the characters their fonts draw (₹ for a rupee font's backtick, a
    bullet for Symbol's), rebuilt span by span; a block whose spans do not rebuild its
    text exactly is left as MuPDF gave it (ingest/glyphs.py)."""
    for block in textpage.extractDICT()["blocks"]:
        number = block.get("number")
        if block["type"] != 0 or number not in blocks:
            continue
        lines = [line["spans"] for line in block["lines"]]
        plain = "".join("".join(s["text"] for s in spans) + "\n" for spans in lines)
        if plain != blocks[number].text:
            continue
        drawn = "".join("".join(remap_span_text(s["text"], s["font"]) for s in spans) + "\n"
                        for spans in lines)
        blocks[number] = blocks[number]._replace(text=drawn)
    return blocks


def blocks_in_reading_order(
    page: pymupdf.Page, textpage: pymupdf.TextPage | None = None
) -> list[tuple[int, _Block]]:
    """The page's text blocks as (MuPDF block number, block), in reading order (tables
    not rendered); the web app's highlights map character offsets back to words through
    it, tolerating the places where the page text differs (a table's rows)."""
    textpage = textpage or page_textpage(page)
    numbered = _text_blocks(page, textpage)
    number = {id(block): n for n, block in numbered.items()}
    ordered = _reading_order(list(numbered.values()), page.rect.width, page.rect.height)
    return [(number[id(block)], block) for block in ordered]


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
    header, body, footer = _margins(blocks, height)
    return [*_rows_order(header), *_body_order(body, width), *_rows_order(footer)]


def _margins(blocks: Sequence[_Block], height: float
             ) -> tuple[list[_Block], list[_Block], list[_Block]]:
    """The blocks of the top page margin, of the body and of the bottom margin.

    A line of text in the top margin that the body continues is no running header: a
    heading at the top of the right column sits level with the left column's first line
    (a body block starts beside it), and a column's first line runs on into the block
    right under it (closer than a line's height). It is read with its column, not before
    the whole page.
    """
    top = {i for i, b in enumerate(blocks) if b.y1 <= _MARGIN_SHARE * height}
    bottom = {i for i, b in enumerate(blocks)
              if b.y0 >= (1 - _MARGIN_SHARE) * height and i not in top}
    inner = [b for i, b in enumerate(blocks) if i not in top and i not in bottom and b.text.strip()]
    starts_column = [blocks[i] for i in top
                     if blocks[i].text.strip() and any(_continues(blocks[i], o) for o in inner)]
    # its row goes with it (a label "16. Surgery for" beside its text "I. We will ...")
    top -= {i for i in top
            if any(abs(blocks[i].y0 - s.y0) <= _SAME_ROW_TOLERANCE for s in starts_column)}
    return ([b for i, b in enumerate(blocks) if i in top],
            [b for i, b in enumerate(blocks) if i not in top and i not in bottom],
            [b for i, b in enumerate(blocks) if i in bottom])


def _continues(block: _Block, other: _Block) -> bool:
    """Whether ``other`` starts beside ``block`` or right under it, in its column."""
    if other.y0 < block.y1:
        return True
    line_height = (block.y1 - block.y0) / max(1, block.text.strip().count("\n") + 1)
    overlaps = min(block.x1, other.x1) - max(block.x0, other.x0) > 0
    return overlaps and other.y0 - block.y1 < line_height


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



