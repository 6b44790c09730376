"""HTML files (SEC EDGAR exhibits): the visible text in reading order, tables as tables.

lxml (libxml2's HTML parser; ``docs/formats.md`` says why not selectolax) builds the tree;
one non-recursive walk (``etree.iterwalk``) turns it into blocks:

* block elements (p, div, li, headings, ...) are one line each; ``<br>`` breaks a line;
  whitespace inside a line collapses as a browser collapses it (``<pre>`` keeps lines);
* ``<h1>``-``<h6>`` are headings; ``<ol>`` items get the number the browser draws;
* tables become one line per row, cells named by their column header (as Word tables);
  EDGAR's "$" and "%" cells are joined to the amount beside them;
* scripts, styles, ``<head>``, inline-XBRL headers and anything hidden (``hidden``,
  ``display:none``, ``visibility:hidden``) are dropped; entities are decoded and no-break
  spaces become spaces;
* ``page-break-before/after: always`` (EDGAR's page marks) start a new page.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from clausegraph.errors import IngestError
from clausegraph.ingest.blocks import PAGE_BREAK, BlockWriter, StructuredText, table_lines

_DROPPED = frozenset({
    "script", "style", "head", "noscript", "template", "iframe", "object", "embed", "svg",
    "math", "select", "button", "ix:header", "xbrli:context",
})
_BLOCKS = frozenset({
    "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section", "article",
    "header", "footer", "address", "dd", "dt", "dl", "ul", "ol", "center", "pre", "hr",
    "main", "nav", "aside", "figure", "figcaption", "form", "fieldset", "legend", "caption",
    "body", "html",
})
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_BREAK_BEFORE = re.compile(r"page-break-before\s*:\s*always|break-before\s*:\s*page", re.I)
_BREAK_AFTER = re.compile(r"page-break-after\s*:\s*always|break-after\s*:\s*page", re.I)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
# Cells EDGAR tables put beside an amount: "$" before it, "%" or ")" after it.
_PREFIX_CELLS = frozenset({"$", "€", "£", "(", "($"})
_SUFFIX_CELLS = frozenset({"%", ")", "%)"})


def read_html(path: Path, data: bytes) -> StructuredText:
    """Canonical text, pages and blocks of an HTML file, or an ``IngestError``."""
    parser = etree.HTMLParser(encoding=_encoding(data), huge_tree=True, remove_comments=True,
                              remove_pis=True, no_network=True)
    try:
        root = etree.fromstring(data, parser)
    except (etree.Error, ValueError) as error:
        raise IngestError(path, f"not readable HTML: {error}") from error
    for entry in parser.error_log:
        if entry.type_name == "ERR_RESOURCE_LIMIT":  # libxml2 stops, silently dropping text
            raise IngestError(
                path, "refused: HTML nested deeper than the parser's limit (2048 elements)"
            )
    if root is None:
        raise IngestError(path, "no text (the HTML file holds no elements)")
    result = _HtmlWalker().read(root)
    if not result.text.strip():
        raise IngestError(path, "no visible text in the HTML file")
    return result


def _encoding(data: bytes) -> str:
    """UTF-8 if the bytes decode as UTF-8, else the declared charset, else Windows-1252."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    match = _META_CHARSET.search(data[:4096])
    if match:
        declared = match.group(1).decode("ascii", "replace").lower()
        try:
            "".encode(declared)
            return "cp1252" if declared in ("iso-8859-1", "latin-1", "ascii") else declared
        except LookupError:
            pass
    return "cp1252"  # what browsers assume for undeclared Latin text, EDGAR's usual


def _tag(element: etree._Element) -> str:
    tag = element.tag
    return tag.lower() if isinstance(tag, str) else ""


def _hidden(element: etree._Element) -> bool:
    return element.get("hidden") is not None or bool(
        _HIDDEN_STYLE.search(element.get("style") or "")
    )


class _Table:
    def __init__(self) -> None:
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.span = 1
        self.rowspan = 1
        # column -> (text, rows still to fill): a cell with rowspan fills its column in the
        # rows below it, with its own text (as a Word table's merged cell reads in each row)
        self.pending: dict[int, tuple[str, int]] = {}
        self.headed: set[int] = set()  # the rows with a header cell (<th>)

    def new_row(self) -> None:
        self.close_row()
        self.rows.append([])

    def add_cell(self, text: str) -> None:
        """A cell read, after the cells of rows above that span into this row here."""
        row = self.rows[-1]
        self._fill_spanned(row)
        start = len(row)
        row.extend([text] + [""] * (self.span - 1))
        if self.rowspan > 1:
            for column in range(start, start + self.span):
                self.pending[column] = (text if column == start else "", self.rowspan - 1)

    def close_row(self) -> None:
        """The cells spanning into the end of the last row."""
        if self.rows:
            self._fill_spanned(self.rows[-1], to_end=True)

    def _fill_spanned(self, row: list[str], to_end: bool = False) -> None:
        while len(row) in self.pending or (to_end and any(c >= len(row) for c in self.pending)):
            column = len(row)
            if column not in self.pending:
                row.append("")
                continue
            text, left = self.pending.pop(column)
            row.append(text)
            if left > 1:
                self.pending[column] = (text, left - 1)


def _span(value: str) -> int:
    """A colspan or rowspan attribute's count (1 when it is not a positive number)."""
    return min(int(value), 100) if value.isdigit() and int(value) > 0 else 1


class _HtmlWalker:
    def __init__(self) -> None:
        self.writer = BlockWriter()
        self.line: list[str] = []  # inline pieces of the block being read
        self.tables: list[_Table] = []
        self.lists: list[list] = []  # [kind "ol"/"ul", type, next number]
        self.pre = 0
        self.title: str | None = None
        self.heading: int | None = None
        self.label: str | None = None

    def read(self, root: etree._Element) -> StructuredText:
        title = root.find(".//title")
        if title is not None:
            self.title = " ".join("".join(title.itertext()).split()) or None
        walker = etree.iterwalk(root, events=("start", "end"))
        for event, element in walker:
            tag = _tag(element)
            if event == "start":
                if tag in _DROPPED or _hidden(element) or not tag:
                    walker.skip_subtree()
                    self._text(element.tail)  # the tail is outside the skipped element
                    continue
                self._start(tag, element)
            else:
                self._end(tag, element)
        self._flush()
        return self.writer.result(title=self.title)

    # ---- events

    def _start(self, tag: str, element: etree._Element) -> None:
        style = element.get("style") or ""
        if tag in _BLOCKS or tag in ("table", "tr", "td", "th"):
            self._flush()
            if _BREAK_BEFORE.search(style):
                self.writer.page_break()
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.heading = int(tag[1])
        elif tag in ("ol", "ul"):
            start = element.get("start", "1")
            self.lists.append([tag, element.get("type", "1"),
                               int(start) if start.lstrip("-").isdigit() else 1])
        elif tag == "li":
            self.label = self._list_label()
        elif tag == "table":
            self.tables.append(_Table())
        elif tag == "tr" and self.tables:
            self.tables[-1].new_row()
        elif tag in ("td", "th") and self.tables:
            table = self.tables[-1]
            if not table.rows:
                table.rows.append([])
            if tag == "th":
                table.headed.add(len(table.rows) - 1)
            table.cell = []
            table.span = _span(element.get("colspan", "1"))
            table.rowspan = _span(element.get("rowspan", "1"))
        elif tag == "br":
            self._text("\n", raw=True)
        elif tag == "pre":
            self.pre += 1
        self._text(element.text)

    def _end(self, tag: str, element: etree._Element) -> None:
        if tag in ("td", "th") and self.tables and self.tables[-1].cell is not None:
            self._flush()
            table = self.tables[-1]
            text = " ".join("".join(table.cell).split())
            table.add_cell(text)
            table.cell = None
        elif tag == "table" and self.tables:
            self._flush()
            table = self.tables.pop()
            table.close_row()
            rows = [_join_symbol_cells(row) for row in table.rows]
            if self.tables and self.tables[-1].cell is not None:  # a table inside a cell
                self.tables[-1].cell.append(" " + " ".join(table_lines(rows)) + " ")
            else:
                # a row of <td> cells is set like the rows below it: a header only over
                # figures (blocks.render_table)
                self.writer.add_table(rows, [i in table.headed for i in range(len(rows))])
        elif tag in _BLOCKS or tag == "tr":
            self._flush()
            if tag in ("ol", "ul") and self.lists:
                self.lists.pop()
            if tag == "pre":
                self.pre -= 1
        if _BREAK_AFTER.search(element.get("style") or ""):
            self._flush()
            self.writer.page_break()
        self._text(element.tail)

    # ---- text

    def _text(self, text: str | None, raw: bool = False) -> None:
        if not text:
            return
        text = text.replace("\xa0", " ")
        if not raw and self.pre:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        elif not raw:
            text = " ".join(text.split("\n")).replace("\r", " ")
        target = self.tables[-1].cell if self.tables and self.tables[-1].cell is not None \
            else self.line
        target.append(text)

    def _flush(self) -> None:
        if not self.line:
            return
        lines = [line.split() for line in "".join(self.line).split("\n")]
        text = "\n".join(" ".join(words) for words in lines if words)
        self.line = []
        if text:
            kind = "heading" if self.heading else "paragraph"
            self.writer.add(kind, text.replace(PAGE_BREAK, " "), label=self.label,
                            level=self.heading)
        self.heading = None
        self.label = None

    def _list_label(self) -> str | None:
        if not self.lists or self.lists[-1][0] != "ol":
            return None
        entry = self.lists[-1]
        number, entry[2] = entry[2], entry[2] + 1
        kind = entry[1]
        if kind in ("a", "A"):
            shown = chr(ord("a") + (number - 1) % 26)
            return f"{shown.upper() if kind == 'A' else shown}."
        if kind in ("i", "I"):
            from clausegraph.ingest.docx import format_number

            return f"{format_number(number, 'upperRoman' if kind == 'I' else 'lowerRoman')}."
        return f"{number}."


def _join_symbol_cells(row: list[str]) -> list[str]:
    """Join EDGAR's "$" / "%" cells to the amount beside them (keeping the column count).

    EDGAR heads a "$ | 1,000" pair with one header spanning both, so the joined amount
    takes the "$" cell's column, where the header starts.
    """
    cells = list(row)
    for index, cell in enumerate(cells):
        if cell in _PREFIX_CELLS and index + 1 < len(cells) and cells[index + 1]:
            cells[index] = cell + cells[index + 1]
            cells[index + 1] = ""
        elif cell in _SUFFIX_CELLS and index > 0:
            previous = max((i for i in range(index) if cells[i]), default=None)
            if previous is not None:
                cells[previous] += cell
                cells[index] = ""
    return cells
