"""Canonical text for structured sources (Word, HTML): blocks one per line, tables as rows.

A reader hands ``BlockWriter`` its paragraphs, headings, tables and footnotes in reading
order; each becomes one line (a table one line per row) and a ``Block`` with its span.
A form feed inside a block's text marks a page break the source stored; it is removed
from the text and starts a new ``Page`` at that offset.

Word and HTML tables are rendered the same way, so a table row is one searchable
line that says what each value means: ``"Term | Fee: $10 | Due: 30 days"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from clausegraph.models import CELL_SEPARATOR, Block, Page, Table, TableCell

PAGE_BREAK = "\f"


_ITEM_RE = re.compile(r"\d{1,3}[.)]?(?:\s|$)")
_PERCENT_RE = re.compile(r"\d\s*%")
_DIGIT_RE = re.compile(r"\d")
_MAX_HEADER_CHARS = 90
_HEADER_SEARCH_ROWS = 3  # a header below the title rows; further down a row is data
COLUMN_JOINER = "/"  # names of the columns a merged value cell spans: "PLAN A/PLAN B"


@dataclass
class RenderedTable:
    """A table as text, one line per row, and where each source cell's text sits in it."""

    text: str
    cells: list[tuple[int, int, int, int]]  # (row, column, start, end): offsets into text
    rows: int
    columns: int


class _LineBuilder:
    """One rendered line with the offsets (within the whole table text) of its cells."""

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.parts: list[str] = []
        self.length = 0
        self.cells: list[tuple[int, int, int, int]] = []

    def add(self, row: int, column: int, value: str, name: str = "") -> None:
        if self.parts:
            self._put(CELL_SEPARATOR)
        if name:
            self._put(f"{name}: ")
        start = self.offset + self.length
        self._put(value)
        self.cells.append((row, column, start, start + len(value)))

    def _put(self, piece: str) -> None:
        self.parts.append(piece)
        self.length += len(piece)


def render_table(rows: Sequence[Sequence[str | None]],
                 set_apart: Sequence[bool | None] | None = None) -> RenderedTable:
    """The one table format of every reader (PDF, Word, HTML).

    ``rows`` hold cell texts; ``None`` marks a grid position covered by the merged cell
    to its left. ``set_apart`` says, per row where the reader can tell, whether the row is
    set apart from the rows below it as a header is (bold, shaded, ``<th>``: True) or set
    like them (False). The first row (of the first three) with two or more filled cells
    that name columns is the header, unless it is set like the rows below and heads no
    column of figures: a list laid out in columns ("Cataract | Hernia" over "Fibroids |
    Piles") has no header, and a first row of data ("Individual | $6,350") is none (a header
    whose merged cells are named by the row below, "Plans" over "PLAN A | PLAN B", takes
    its names from that row too). Each later row reads ``row label | header 2: value 2 |
    header 3: value 3``; a value spanning several columns is named by all of them
    ("PLAN A/PLAN B: ..."), empty cells are left out and a cell without a header is shown
    bare. A one-column table is its cells, one a line.
    """
    grid = [[None if cell is None else " ".join(cell.split()) for cell in row] for row in rows]
    numbered = [(index, row) for index, row in enumerate(grid) if any(row)]
    columns = max((len(row) for row in grid), default=0)
    header_at = next((i for i, (_, row) in enumerate(numbered[:_HEADER_SEARCH_ROWS])
                      if _is_header(row)), None)
    if header_at is not None and set_apart is not None:
        index = numbered[header_at][0]
        plain = index < len(set_apart) and set_apart[index] is False
        if plain and not _names_figures(numbered, header_at):
            header_at = None
    names: list[str] = []
    body_from = 0
    if header_at is not None and columns > 1:
        names, body_from = _header_names(numbered, header_at, columns)
    lines: list[_LineBuilder] = []
    offset = 0
    for position, (index, row) in enumerate(numbered):
        line = _LineBuilder(offset)
        plain = columns == 1 or not names or position < body_from
        for column, value in enumerate(row):
            if not value:
                continue
            name = "" if plain or column == 0 else _span_name(row, column, names)
            line.add(index, column, value, name)
        lines.append(line)
        offset += line.length + 1
    text = "\n".join("".join(line.parts) for line in lines)
    cells = [cell for line in lines for cell in line.cells]
    return RenderedTable(text=text, cells=cells, rows=len(grid), columns=columns)


def _is_header(row: Sequence[str | None]) -> bool:
    """Two or more filled cells naming columns: none is a numbered item ("14", "1. Any
    ulcer": a list laid out in columns), a long text or a percentage, and the first is
    not a field label ("Company:", "BY:": a form of label | value rows)."""
    filled = [cell for cell in row if cell]
    if len(filled) < 2 or filled[0].endswith(":"):
        return False
    return not any(_ITEM_RE.match(cell) or len(cell) > _MAX_HEADER_CHARS or _PERCENT_RE.search(cell)
                   for cell in filled)


def _names_figures(numbered: list[tuple[int, list[str | None]]], header_at: int) -> bool:
    """Whether the header candidate heads a column of figures: one whose cells below it
    mostly hold a number while its own cell holds none ("Age of vehicle | % of
    depreciation" over "Not exceeding 6 months | 5%")."""
    header = numbered[header_at][1]
    body = [row for _, row in numbered[header_at + 1:]]
    for column, name in enumerate(header):
        cells = [row[column] for row in body if column < len(row) and row[column]]
        if cells and not (name and _DIGIT_RE.search(name)) and \
                2 * sum(bool(_DIGIT_RE.search(cell)) for cell in cells) >= len(cells):
            return True
    return False


def _header_names(numbered: list[tuple[int, list[str | None]]], header_at: int,
                  columns: int) -> tuple[list[str], int]:
    """Column names and the position of the first body row."""
    header = list(numbered[header_at][1]) + [""] * columns
    names: list[str] = []
    for column in range(columns):  # a merged header cell names every column it covers
        names.append(header[column] if header[column] is not None
                     else (names[-1] if names else ""))
    body_from = header_at + 1
    below = numbered[header_at + 1][1] if header_at + 1 < len(numbered) else []
    if None in header[:columns] and any(
        column < len(below) and below[column] for column in range(columns)
        if header[column] is None
    ):
        names = [below[c] if c < len(below) and below[c] else names[c] for c in range(columns)]
        body_from += 1
    return names, body_from


def _span_name(row: Sequence[str | None], column: int, names: list[str]) -> str:
    """The header of a value's column; of all its columns when it spans merged ones."""
    last = column
    while last + 1 < len(row) and row[last + 1] is None:
        last += 1
    spanned = [names[c].rstrip(" :") for c in range(column, last + 1)
               if c < len(names) and names[c]]
    return COLUMN_JOINER.join(dict.fromkeys(spanned))


def table_lines(rows: Sequence[Sequence[str | None]]) -> list[str]:
    """Lines of ``render_table`` (a table nested in an HTML cell is read inline)."""
    text = render_table(rows).text
    return text.split("\n") if text else []


@dataclass
class StructuredText:
    """What a Word or HTML reader hands ``load_document``."""

    text: str
    pages: list[Page]
    blocks: list[Block]
    title: str | None = None
    tables: list[Table] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class BlockWriter:
    """Collects blocks into canonical text, recording each block's span and the pages."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.blocks: list[Block] = []
        self.tables: list[Table] = []
        self._page = 1
        self._page_starts: list[tuple[int, int]] = [(1, 0)]

    def page_break(self) -> None:
        self._page += 1
        self._page_starts.append((self._page, self._length))

    def add(self, kind: str, text: str, label: str | None = None,
            level: int | None = None) -> None:
        """One block; ``text`` may hold ``PAGE_BREAK``s and newlines (kept as lines)."""
        body = f"{label} {text}" if label else text
        start: int | None = None
        breaks = 0  # page breaks seen but not yet placed: a break starts the next text
        for index, piece in enumerate(body.split(PAGE_BREAK)):
            breaks += bool(index)
            piece = "\n".join(line.rstrip() for line in piece.split("\n") if line.strip())
            if not piece:
                continue
            if start is not None:
                self._write("\n")
            for _ in range(breaks):
                self.page_break()
            breaks = 0
            start = self._length if start is None else start
            self._write(piece)
        if start is not None:
            self.blocks.append(Block(kind=kind, number=len(self.blocks) + 1, start=start,
                                     end=self._length, label=label, level=level))
            self._write("\n")
        for _ in range(breaks):
            self.page_break()

    def add_table(self, rows: Sequence[Sequence[str | None]],
                  set_apart: Sequence[bool | None] | None = None) -> None:
        table = render_table(rows, set_apart)
        if not table.text:
            return
        start = self._length
        self.add("table", table.text)
        self.tables.append(Table(
            number=len(self.tables) + 1, start=start, end=start + len(table.text),
            page=self._page, rows=table.rows, columns=table.columns,
            cells=[TableCell(row=row, column=column, start=start + s, end=start + e,
                             page=self._page) for row, column, s, e in table.cells],
        ))

    def result(self, title: str | None = None, warnings: list[str] | None = None
               ) -> StructuredText:
        text = "".join(self._parts)
        return StructuredText(text=text, pages=_pages(self._page_starts, len(text)),
                              blocks=self.blocks, title=title, tables=self.tables,
                              warnings=warnings or [])

    def _write(self, piece: str) -> None:
        self._parts.append(piece)
        self._length += len(piece)


def _pages(starts: list[tuple[int, int]], length: int) -> list[Page]:
    """Pages tiling the text; a page with no text (two breaks in a row) is left out."""
    pages: list[Page] = []
    for index, (number, start) in enumerate(starts):
        end = starts[index + 1][1] if index + 1 < len(starts) else length
        if end > start or (not pages and index == len(starts) - 1):
            pages.append(Page(number=number, start=start, end=end))
    if pages:
        pages[0] = Page(number=pages[0].number, start=0, end=pages[0].end)
    return pages
