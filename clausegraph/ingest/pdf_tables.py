"""Ruled tables on a PDF page (pymupdf ``find_tables``), rendered in the one table format.

A table found by its ruling lines replaces the text blocks it covers: each cell's words
(MuPDF's words, so the spacing matches the rest of the page text) are joined and the
grid goes through ``blocks.render_table``, one line per row ("row label | column header:
value"). Not every ruled box is a table: a box around a paragraph, or two columns of
running text with a rule between them, comes back from ``find_tables`` as a grid of one
or two rows of long cells; those stay text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import pymupdf

from clausegraph.ingest.blocks import RenderedTable, render_table
from clausegraph.ingest.glyphs import needs_remapping, page_character_map

log = logging.getLogger(__name__)

# ``find_tables`` prints, once per process, a suggestion to install pymupdf_layout (layout
# analysis this reader does not use: docs/install.md) on standard output, in the middle of
# the CLI's own output.
if hasattr(pymupdf, "no_recommend_layout"):
    pymupdf.no_recommend_layout()

# Drawing items (lines, rectangles) a page needs before tables are looked for:
# ``find_tables`` costs about a second a page, a page of text draws few or none.
MIN_DRAWING_ITEMS = 8
MIN_ROWS = 2  # rows holding text
MIN_COLUMNS = 2
MIN_FILLED_CELLS = 4
# Cells of running text, not values: a boxed paragraph or a ruled two-column page.
MAX_CELL_CHARS = 700
MAX_MEAN_CELL_CHARS = 220
# A column of wrapped sentences: this share of its cells of 40+ characters (at least 4)
# start in lower case, carrying on the line above.
PROSE_CELL_CHARS = 40
PROSE_MIN_CELLS = 4
PROSE_CONTINUED_SHARE = 0.3
PROSE_ROW_SHARE = 0.4  # of the rows hold a single cell of 40+ characters: lines of text
FORM_LABEL_SHARE = 0.3  # of the filled cells are field labels ("NAME (print):")
# A list set in a grid: this share of first-column cells are list labels, beside text
# of this mean length.
LIST_LABEL_SHARE = 0.6
LIST_TEXT_CHARS = 50
_LIST_LABEL_RE = re.compile(r"\(?(?:[a-zA-Z]{1,2}|[ivxlIVXL]{1,5}|\d{1,3}(?:\.\d{1,3})*)[.)]")
_EDGE_TOLERANCE = 1.0  # points
# A span set in a font whose name says so is bold even without MuPDF's flag.
_BOLD_FONT_RE = re.compile(r"(?i)bold|black|heavy|semibold|demi")
_WHITE = 0.95  # a fill this light in every channel is the page, not shading
_BACKGROUND_SHARE = 0.9  # of a table's height: a fill this tall is the table's background
# rows read for a header (render_table looks at the first three with text), and the rows
# below one whose shading tells whether it is the header's own
_HEADER_ROWS = 5
_SHADE_ROWS = 10
# Two readings of one grid: its box and its rows' tops within this many points
_SAME_BOX = 2.0
# a filled shape this thin (points) is a drawn rule, not a band of shading
_RULE_WIDTH = 2.0
# Row labels in one tall cell stand at least this many text heights apart (a wrapped
# text's lines are about 1.2 apart; the US plan document's labels about 4)
_APART_HEIGHTS = 2.0


@dataclass
class FoundTable:
    """A table to put into the page text in place of the text blocks it covers."""

    bbox: tuple[float, float, float, float]
    rendered: RenderedTable
    text: str  # what the page text gets: stray words, the rendered rows, a newline
    offset: int  # where ``rendered.text`` starts in ``text``
    blocks: set[int]  # MuPDF numbers of the text blocks the table replaces


def find_page_tables(page: pymupdf.Page, textpage: pymupdf.TextPage,
                     blocks: Mapping[int, Sequence],
                     spelled: dict[int, str] | None = None,
                     page_dict: dict | None = None) -> list[FoundTable]:
    """The page's ruled tables; ``blocks`` are its text blocks by MuPDF number (x0, y0,
    x1, y1, text), ``spelled`` the ``str.maketrans`` table of letters that stand for
    ligatures (``glyphs.ligature_stand_ins``), ``page_dict`` the page's "dict" reading
    when the caller has it (read here when a table needs its fonts, otherwise)."""
    drawings = page.get_cdrawings()
    if sum(len(path.get("items", ())) for path in drawings) < MIN_DRAWING_ITEMS:
        return []
    candidates = _find_tables(page)
    if not candidates:
        return []
    strict: list[list] = []  # the page read by its drawn rules alone, once, when needed

    def strict_tables() -> list:
        if not strict:
            strict.append(_find_tables(page, strict=True))
        return strict[0]

    bands = [rect for path in drawings if path.get("type") == "f"
             and _band(rect := pymupdf.Rect(path["rect"]))]
    if bands:
        candidates = _whole_cells(candidates, bands, strict_tables)
    words = page.get_text("words", textpage=textpage)
    style = _PageStyle(textpage, page_dict, [(tuple(path["rect"]), tuple(path["fill"]))
                                             for path in drawings if path.get("fill") is not None
                                             and "f" in path.get("type", "")
                                             and not _white(path["fill"])])
    if needs_remapping([font[3] for font in page.get_fonts()]):
        # a rupee font's backtick, a Symbol bullet: as the page draws them
        drawn = str.maketrans(page_character_map(
            (span["font"], span["text"]) for span in style.spans))
        words = [(*w[:4], w[4].translate(drawn), *w[5:]) for w in words]
    if spelled:
        words = [(*w[:4], w[4].translate(spelled), *w[5:]) for w in words]
    found: list[FoundTable] = []
    taken: set[int] = set()
    cut_at_lines = False
    for candidate in candidates:
        table, wrapped = _read_table(candidate, words, blocks, taken, style)
        if table is not None:
            found.append(table)
            taken |= table.blocks
        cut_at_lines |= wrapped
    if cut_at_lines and any(path.get("type") == "f" for path in drawings):
        # A grid cut at every text line (a shaded band behind each line read as a border:
        # the US plan summary's "Limitations" column became rows of half sentences, a
        # column of prose) is read again by its drawn rules alone. Without fill-only
        # shapes on the page the strict reading is the same grid.
        for candidate in strict_tables():
            table, _ = _read_table(candidate, words, blocks, taken, style)
            if table is not None:
                found.append(table)
                taken |= table.blocks
    return found


def _band(rect: pymupdf.Rect) -> bool:
    """A filled shape with no stroke that is no rule: shading, or a band behind text.
    ``find_tables`` reads its edges as borders; its strict strategy ignores it."""
    return rect.width > _RULE_WIDTH and rect.height > _RULE_WIDTH


def _whole_cells(candidates: list, bands: list, strict_tables: Callable[[], list]) -> list:
    """Each grid, or the same grid read by its drawn rules alone where that one keeps the
    text lines of a cell together. A band filled behind every text line reads as a row
    border: Arogya Sanjeevani's table of benefits came back as 41 rows, "Sum insured" beside
    the first of its three lines and nothing beside the other two, each of which then read
    as a row of its own. The strict grid is taken only where every row it drops continues
    the row above (no first cell of its own), so a table whose real rows are drawn as
    filled bands keeps them."""
    if not any(_continued_rows(candidate) and any(band.intersects(candidate.bbox)
                                                  for band in bands)
               for candidate in candidates):
        return candidates
    strict = strict_tables()
    return [next((other for other in strict if _reads_whole(candidate, other)), candidate)
            for candidate in candidates]


def _continued_rows(candidate) -> list:
    """The rows that have no first cell of their own: a cell above spans them."""
    return [row for row in candidate.rows[1:] if row.cells and row.cells[0] is None]


def _reads_whole(candidate, strict) -> bool:
    """Whether ``strict`` is ``candidate``'s grid with only continued rows joined up."""
    if len(strict.rows) >= len(candidate.rows) or len(strict.rows) < MIN_ROWS or any(
            abs(a - b) > _SAME_BOX for a, b in zip(candidate.bbox, strict.bbox)):
        return False
    tops = [row.bbox[1] for row in strict.rows]
    return all(row.cells and row.cells[0] is None for row in candidate.rows
               if all(abs(row.bbox[1] - top) > _SAME_BOX for top in tops))


def _find_tables(page: pymupdf.Page, strict: bool = False) -> list:
    """Line-based candidates; ``strict``: by stroked lines only, not by the edges of
    filled rectangles (pymupdf's ``lines_strict``). pymupdf 1.26+ with pymupdf-layout
    installed would first run its layout model on the page (``use_layout``, about a second
    a page here); the filters of ``_is_data_table`` do that job for a fraction of the
    time."""
    options = {"strategy": "lines_strict"} if strict else {}
    try:
        try:
            return page.find_tables(use_layout=False, **options).tables
        except TypeError:  # a pymupdf without the layout option
            return page.find_tables(**options).tables
    except Exception as error:  # noqa: BLE001
        # a table finder failure must not cost the page its text
        log.debug("page %d: find_tables failed: %s", page.number + 1, error)
        return []


def _read_table(candidate, words: Sequence[tuple], blocks: Mapping[int, Sequence],
                taken: set[int], style: _PageStyle | None = None
                ) -> tuple[FoundTable | None, bool]:
    """The table the candidate grid holds (None: not a data table), and whether the grid
    was refused for a column of wrapped sentences (its rows may be text lines)."""
    bbox = tuple(candidate.bbox)
    inside = {number for number, block in blocks.items()
              if number not in taken and _center_in(block[:4], bbox)}
    if not inside:
        return None, False
    own_words = sorted((w for w in words if w[5] in inside), key=lambda w: (w[5], w[6], w[7]))
    grid_boxes = [list(row.cells) for row in candidate.rows]
    # where each row ends: its cells' bottom but the first's (a tall label cell spans others)
    row_bottoms = [min((cell[3] for cell in row[1:] if cell),
                       default=row[0][3] if row and row[0] else 0.0) for row in grid_boxes]
    columns = max((len(row) for row in grid_boxes), default=0)
    column_starts = _column_starts(grid_boxes, columns)
    placed: dict[tuple[int, int], list[tuple]] = {}
    stray: list[str] = []
    for word in own_words:
        cell = _cell_of(word[:4], grid_boxes)
        if cell:
            placed.setdefault(cell, []).append(word)
        else:
            stray.append(word[4])
    placed = _spread_row_labels(placed, grid_boxes)
    cell_words = {cell: [w[4] for w in words] for cell, words in placed.items()}
    grid: list[list[str | None]] = []
    spanning: list[bool] = []  # per row: its label is its own cell's (or one spanning it)
    for r, row in enumerate(grid_boxes):
        cells: list[str | None] = []
        for c in range(columns):
            box = row[c] if c < len(row) else None
            if (r, c) in cell_words and box is None:  # a row label spread out of a tall cell
                cells.append(" ".join(cell_words[(r, c)]))
            elif box is None:
                cells.append(None if _covered_from_left(row, c, column_starts) else "")
            else:
                cells.append(" ".join(cell_words.get((r, c), [])))
        # A label at the top of its tall cell spans the rows below it; one set in the
        # middle of the cell (placed in a lower row) is a heading of the group, not a
        # label of each row; nor is the top row's label (a header's first cell spans its
        # second row)
        spans_down = bool(row) and row[0] is None and len(grid) >= 2 and spanning[-1]
        if spans_down and cells and cells[0] == "":
            cells[0] = _spanning_label(grid[-1][0], cells[1:])
        spanning.append(bool(row) and (
            (row[0] is not None and _label_on_top(placed.get((r, 0), ()), row_bottoms[r]))
            or (spans_down and bool(cells[0]))))
        grid.append(cells)
    joined = join_wrapped_labels(grid)
    if not _is_data_table(joined):
        return None, any(_is_prose_column(joined, c) for c in range(columns_in(joined)))
    # how its rows are set, unless rows were joined (the styles would not line up)
    set_apart = style.rows_set_apart(candidate) \
        if style is not None and len(joined) == len(grid) else None
    rendered = render_table(joined, set_apart)
    prefix = " ".join(stray) + "\n" if stray else ""
    return FoundTable(bbox=bbox, rendered=rendered, text=prefix + rendered.text + "\n",
                      offset=len(prefix), blocks=inside), False


class _PageStyle:
    """How a page sets its text (spans with their fonts) and its shading (filled shapes):
    what tells a table's header row from the rows below it."""

    def __init__(self, textpage: pymupdf.TextPage, page_dict: dict | None,
                 fills: Sequence[tuple[tuple[float, float, float, float], tuple]]) -> None:
        self.textpage = textpage
        self.page_dict = page_dict
        self.fills = fills

    @cached_property
    def spans(self) -> list[dict]:
        """The page's text spans with their fonts (read once, when a grid is read)."""
        reading = self.page_dict if self.page_dict is not None else self.textpage.extractDICT()
        return [span for block in reading["blocks"]
                for line in block.get("lines", ()) for span in line["spans"]]

    @cached_property
    def _set_spans(self) -> list[tuple[float, float, int, bool]]:
        """Each span with text: its middle, its characters and whether it is bold."""
        return [((span["bbox"][0] + span["bbox"][2]) / 2, (span["bbox"][1] + span["bbox"][3]) / 2,
                 len(span["text"].strip()), span_is_bold(span))
                for span in self.spans if span["text"].strip()]

    def rows_set_apart(self, candidate) -> list[bool | None]:
        """Per row of the grid: whether it is set apart from the rows below it, as a
        header is (bold where their text mostly is not, or on a shading most of the next
        rows are not on); None for a row without text, and for the rows below the first
        few, where no header is looked for (``blocks.render_table``)."""
        boxes = [tuple(row.bbox) for row in candidate.rows]
        table = tuple(candidate.bbox)
        bottom = table[3]
        background = _BACKGROUND_SHARE * (table[3] - table[1])
        out: list[bool | None] = []
        for index, box in enumerate(boxes[:_HEADER_ROWS]):
            chars, bolds = self._bold_chars(box)
            if not chars:
                out.append(None)
                continue
            below_chars, below_bold = self._bold_chars((table[0], box[3], table[2], bottom))
            bolder = 2 * bolds >= chars and 2 * below_bold < below_chars
            shade = self._shade(box, background)
            below = [self._shade(other, background)
                     for other in boxes[index + 1:index + 1 + _SHADE_ROWS]]
            shaded = shade is not None and below.count(shade) * 2 < len(below)
            out.append(bolder or shaded)
        return out + [None] * (len(boxes) - len(out))

    def _bold_chars(self, box: Sequence[float]) -> tuple[int, int]:
        """The characters whose span's middle is inside ``box``, and how many are bold."""
        x0, y0, x1, y1 = box[:4]
        inside = [(size, bold) for x, y, size, bold in self._set_spans
                  if x0 <= x <= x1 and y0 <= y <= y1]
        return sum(size for size, _ in inside), sum(size for size, bold in inside if bold)

    def _shade(self, box: Sequence[float], background: float) -> tuple | None:
        """The colour of the shading behind the middle of ``box`` (None: unshaded); a
        shape about as tall as the table is its background, not a row's."""
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return next((colour for (x0, y0, x1, y1), colour in self.fills
                     if x0 <= x <= x1 and y0 <= y <= y1 and y1 - y0 < background), None)


def span_is_bold(span: dict) -> bool:
    """Whether a text span (MuPDF's "dict" reading) is set in bold: by its flag or its
    font's name."""
    return bool(span.get("flags", 0) & pymupdf.TEXT_FONT_BOLD) or \
        _BOLD_FONT_RE.search(span.get("font", "")) is not None


def _white(colour: Sequence[float]) -> bool:
    return all(part >= _WHITE for part in colour)


def _label_on_top(words: Sequence[tuple], bottom: float) -> bool:
    """Whether a label's first line starts above its own row's ``bottom``: a label set at
    the top of a tall cell, not one centred in it (which ``_cell_of`` places in the cell's
    first row all the same)."""
    return bool(words) and min(word[1] for word in words) < bottom


def _spanning_label(above: str | None, rest: Sequence[str | None]) -> str:
    """The label of a row whose label cell the one above spans ("Hospitalisation
    Expenses" beside both of its rows): that label, so each row reads with it; none for a
    row with nothing else in it, or under a serial number or list label, which names one
    row only."""
    if not above or not any(rest) or _LIST_LABEL_RE.fullmatch(above) or above.isdigit():
        return ""
    return above


# "xi. Enteric fever", "b) Hernia": a row of its own in a list laid out as a table
_ITEM_MARKER = re.compile(r"\(?(?:[ivxlc]{1,6}|[a-z])[.)]\s")


def join_wrapped_labels(grid: list[list[str | None]]) -> list[list[str | None]]:
    """Rows whose only text is a first cell that starts in lower case ("exceeding 1 year"
    under "Exceeding 6 months but not | 15%") are the wrapped end of the row label above,
    cut off by a grid read line by line: the label is joined up again, so the row reads
    "Exceeding 6 months but not exceeding 1 year | 15%"."""
    joined: list[list[str | None]] = []
    for row in grid:
        first = (row[0] or "").strip() if row else ""
        rest_empty = all(not (cell or "").strip() for cell in row[1:])
        if joined and len(row) > 1 and first[:1].islower() and rest_empty \
                and not _ITEM_MARKER.match(first) \
                and (joined[-1][0] or "").strip():
            joined[-1] = [f"{joined[-1][0].rstrip()} {first}", *joined[-1][1:]]
            continue
        joined.append(list(row))
    return joined


def _spread_row_labels(placed: dict[tuple[int, int], list[tuple]],
                       grid_boxes: Sequence[Sequence]) -> dict[tuple[int, int], list[tuple]]:
    """A column ruled only around its whole height ("Primary Care Office Visit",
    "Specialist Office Visit", ... in one tall cell beside rows ruled one by one) holds a
    label for each row: its text lines go to the rows they sit beside, when each row the
    tall cell spans gets exactly one line of it. A label centred in a tall cell (fewer
    lines than rows) stays where it is."""
    bands = [_row_band(row) for row in grid_boxes]
    spread = dict(placed)
    for (r, c), words in placed.items():
        below = r + 1
        while below < len(grid_boxes) and (c >= len(grid_boxes[below])
                                           or grid_boxes[below][c] is None):
            below += 1
        spanned = range(r, below)
        if len(spanned) < 2 or any(bands[i] is None for i in spanned):
            continue
        lines = _lines_of(words)
        if not _set_apart(lines):
            continue  # the wrapped lines of one text, not one label a row
        rows = [next((i for i in spanned if bands[i][0] <= _middle(line) <= bands[i][1]), None)
                for line in lines]
        if rows != list(spanned):  # lines run top to bottom: one a row, every row
            continue
        del spread[(r, c)]
        for row, line in zip(rows, lines, strict=True):
            spread[(row, c)] = line
    return spread


def _set_apart(lines: Sequence[Sequence[tuple]]) -> bool:
    """Whether consecutive lines stand apart, as labels each beside its own row do, not
    one line below the other as the lines of a wrapped text (about 1.2 heights apart)."""
    return all(_middle(below) - _middle(above) > _APART_HEIGHTS * (above[0][3] - above[0][1])
               for above, below in zip(lines, lines[1:]))


def _row_band(row: Sequence) -> tuple[float, float] | None:
    """The top and bottom of a row: its cells' top and the nearest bottom (a tall cell of
    the row reaches further down). None: it has no cell of its own."""
    boxes = [cell for cell in row if cell is not None]
    return (min(b[1] for b in boxes), min(b[3] for b in boxes)) if boxes else None


def _lines_of(words: Sequence[tuple]) -> list[list[tuple]]:
    """Words grouped into text lines by their vertical middle, top to bottom."""
    lines: list[list[tuple]] = []
    for word in sorted(words, key=lambda w: (_middle([w]), w[0])):
        if lines and abs(_middle([word]) - _middle(lines[-1])) <= (word[3] - word[1]) / 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w[0]) for line in lines]


def _middle(words: Sequence[tuple]) -> float:
    return sum((w[1] + w[3]) / 2 for w in words) / len(words)


def _center_in(box: Sequence[float], bbox: Sequence[float]) -> bool:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (bbox[0] - _EDGE_TOLERANCE <= x <= bbox[2] + _EDGE_TOLERANCE
            and bbox[1] - _EDGE_TOLERANCE <= y <= bbox[3] + _EDGE_TOLERANCE)


def _cell_of(box: Sequence[float], grid_boxes: Sequence[Sequence]) -> tuple[int, int] | None:
    for r, row in enumerate(grid_boxes):
        for c, cell in enumerate(row):
            if cell is not None and _center_in(box, cell):
                return r, c
    return None


def _column_starts(grid_boxes: Sequence[Sequence], columns: int) -> list[float]:
    starts = []
    for c in range(columns):
        xs = [row[c][0] for row in grid_boxes if c < len(row) and row[c] is not None]
        starts.append(min(xs) if xs else float("inf"))
    return starts


def _covered_from_left(row: Sequence, column: int, column_starts: Sequence[float]) -> bool:
    """A grid position with no cell of its own is merged into the cell on its left when
    that cell reaches into this column (else it is merged from above: left empty)."""
    for left in range(column - 1, -1, -1):
        if left < len(row) and row[left] is not None:
            return row[left][2] > column_starts[column] + _EDGE_TOLERANCE
    return False


def _is_data_table(grid: Sequence[Sequence[str | None]]) -> bool:
    """Rows of short values, not a boxed paragraph or two ruled columns of text."""
    filled = [cell for row in grid for cell in row if cell]
    rows = sum(1 for row in grid if any(row))
    columns = sum(1 for c in range(columns_in(grid))
                  if any(c < len(row) and row[c] for row in grid))
    if rows < MIN_ROWS or columns < MIN_COLUMNS or len(filled) < MIN_FILLED_CELLS:
        return False
    if sum(cell.endswith(":") for cell in filled) >= FORM_LABEL_SHARE * len(filled):
        return False  # a form ("BY: | /s/ ...", "TITLE: | President"): a signature block
    lengths = [len(cell) for cell in filled]
    if max(lengths) > MAX_CELL_CHARS or sum(lengths) / len(lengths) > MAX_MEAN_CELL_CHARS:
        return False
    lines = [row for row in grid if any(row)]
    spanning = sum(1 for row in lines if sum(map(bool, row)) == 1
                   and max(len(cell or "") for cell in row) >= PROSE_CELL_CHARS)
    if spanning >= PROSE_ROW_SHARE * len(lines):
        return False  # most rows are one line of text across the grid: a ruled page of text
    if _is_laid_out_list(lines):
        return False
    return not any(_is_prose_column(grid, c) for c in range(columns_in(grid)))


def _is_laid_out_list(rows: Sequence[Sequence[str | None]]) -> bool:
    """Numbered paragraphs set in a grid: list labels ("(a)", "ii.", "3)") down the first
    column beside long text; each item is a clause of its own, not a table row."""
    labelled = [row for row in rows if row and row[0]]
    if not labelled:
        return False
    labels = sum(1 for row in labelled if _LIST_LABEL_RE.fullmatch(row[0]))
    beside = [len(" ".join(cell for cell in row[1:] if cell)) for row in labelled]
    return (labels >= LIST_LABEL_SHARE * len(labelled)
            and sum(beside) / len(beside) >= LIST_TEXT_CHARS)


def columns_in(grid: Sequence[Sequence[str | None]]) -> int:
    return max((len(row) for row in grid), default=0)


def _is_prose_column(grid: Sequence[Sequence[str | None]], column: int) -> bool:
    """A column whose rows are the wrapped lines of sentences: many of its longer cells
    go on from the row above (start in lower case), as a table's values do not. A page
    of numbered paragraphs laid out in a ruled grid ("(x) | neither the Corporation
    nor ...") is text."""
    long_cells = [row[column] for row in grid
                  if column < len(row) and row[column] and len(row[column]) >= PROSE_CELL_CHARS]
    if len(long_cells) < PROSE_MIN_CELLS:
        return False
    continued = sum(1 for cell in long_cells if cell[0].islower())
    return continued >= PROSE_CONTINUED_SHARE * len(long_cells)
