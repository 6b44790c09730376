"""Canonical text for structured sources (Word, HTML): blocks one per line, tables as rows.

A reader hands ``BlockWriter`` its paragraphs, headings, tables and footnotes in reading
order; each becomes one line (a table one line per row) and a ``Block`` with its span.
A form feed inside a block's text marks a page break the source stored; it is removed
from the text and starts a new ``Page`` at that offset.

Word and HTML tables are rendered the same way, so a table row is one searchable
line that says what each value means: ``"Term | Fee: $10 | Due: 30 days"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from clausegraph.models import Block, Page

PAGE_BREAK = "\f"

CELL_SEPARATOR = " | "


def table_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """Lines for a table given as rows of cell texts (whitespace already collapsed).

    The first row with two or more filled cells is the header. Each later row reads
    ``row label | header 2: value 2 | header 3: value 3``; empty cells are left out and
    a cell without a header is shown bare. A one-column table is its cells, one a line.
    """
    rows = [[" ".join(cell.split()) for cell in row] for row in rows]
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    if max(len(row) for row in rows) == 1:
        return [row[0] for row in rows]
    header_index = next((i for i, row in enumerate(rows) if sum(map(bool, row)) >= 2), None)
    if header_index is None:  # no row has two values: nothing to name the columns by
        return [CELL_SEPARATOR.join(cell for cell in row if cell) for row in rows]
    header = rows[header_index]
    lines = [CELL_SEPARATOR.join(cell for cell in row if cell) for row in rows[: header_index + 1]]
    for row in rows[header_index + 1 :]:
        cells = [row[0]] if row[0] else []
        for column, value in enumerate(row[1:], start=1):
            if not value:
                continue
            name = header[column] if column < len(header) else ""
            cells.append(f"{name}: {value}" if name else value)
        lines.append(CELL_SEPARATOR.join(cells))
    return lines


@dataclass
class StructuredText:
    """What a Word or HTML reader hands ``load_document``."""

    text: str
    pages: list[Page]
    blocks: list[Block]
    title: str | None = None
    warnings: list[str] = field(default_factory=list)


class BlockWriter:
    """Collects blocks into canonical text, recording each block's span and the pages."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.blocks: list[Block] = []
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

    def add_table(self, rows: Sequence[Sequence[str]]) -> None:
        lines = table_lines(rows)
        if lines:
            self.add("table", "\n".join(lines))

    def result(self, title: str | None = None, warnings: list[str] | None = None
               ) -> StructuredText:
        text = "".join(self._parts)
        return StructuredText(text=text, pages=_pages(self._page_starts, len(text)),
                              blocks=self.blocks, title=title, warnings=warnings or [])

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
