"""The visible lines of a document and how its paragraphs show (blank lines, indents, wraps)."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from clausegraph.models import Document, Span
from clausegraph.models.document import LineStyle

# A line ending in one of these can end a paragraph.
TERMINAL = ".:;!?"

# Words a phrase never ends with: a line ending in one runs on ("... set forth in this").
CONNECTORS = frozenset(
    [
        "a", "an", "and", "or", "of", "the", "to", "for", "in", "on", "by", "with", "as",
        "at", "from", "under", "that", "which", "any", "all", "its", "their", "such", "this",
        "these", "shall", "will", "may", "be", "is", "are", "not", "nor", "per", "than",
        "into", "upon",
        # a sentence goes on after these: "4. Pollution or contamination, unless"
        "unless", "except", "if", "where", "when", "whether", "but", "including", "excluding",
    ]
)


@dataclass(slots=True)
class Line:
    """A visible line: trimmed offsets plus the layout facts paragraph detection needs."""

    start: int
    end: int
    indent: int
    blank_before: bool


def excluded_spans(document: Document) -> list[Span]:
    """Excluded spans sorted, clipped to the text and merged where they touch."""
    merged: list[Span] = []
    for start, end in sorted(document.excluded):
        start, end = max(start, 0), min(end, len(document.text))
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def visible_lines(text: str, excluded: list[Span]) -> list[Line]:
    """Non-blank lines of the text outside excluded spans, each trimmed of whitespace."""
    lines: list[Line] = []
    blank = True
    pos = 0
    for gap_start, gap_end in [*excluded, (len(text), len(text))]:
        run_end = gap_start
        while pos < run_end:
            nl = text.find("\n", pos, run_end)
            line_end = run_end if nl < 0 else nl
            raw = text[pos:line_end]
            stripped = raw.lstrip()
            if stripped:
                indent = len(raw) - len(stripped)
                start = pos + indent
                lines.append(Line(start, start + len(stripped.rstrip()), indent, blank))
                blank = False
            else:
                blank = True
            pos = line_end + 1 if nl >= 0 else run_end
        pos = max(pos, gap_end)
    return lines


# Points above the body text's size from which a line is set as a heading.
_LARGER_POINTS = 0.9
# The most words a title set in italics alone has (Edelweiss's "Healthy baby expenses /
# well baby care expenses": 7; the italic notes and examples of the other 21 policies run
# on over more lines or read as sentences)
_ITALIC_TITLE_WORDS = 10
# ... and the line below it is running text (the items of a list set in italics, one
# short line each, are not titles: the SBC's coverage examples)
_HEADED_LINE_CHARS = 40


def is_caps(text: str) -> bool:
    """Whether ``text`` is written in capitals (nine letters in ten, at least three)."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 3 and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)


def _styles_of_lines(lines: list[Line], styles: list[LineStyle]) -> list[LineStyle | None]:
    """The style of each visible line (None for lines no style covers: tables, OCR)."""
    starts = [style.start for style in styles]
    out: list[LineStyle | None] = []
    for line in lines:
        index = bisect_right(starts, line.start) - 1
        inside = index >= 0 and line.start < styles[index].end
        out.append(styles[index] if inside else None)
    return out


def _body_style(styles: list[LineStyle]) -> tuple[float, bool]:
    """Size and weight of most of the document's characters: its body text."""
    weight: Counter[tuple[float, bool]] = Counter()
    for style in styles:
        weight[(style.size, style.bold)] += style.end - style.start
    return weight.most_common(1)[0][0]


def _italic_share(styles: list[LineStyle]) -> float:
    """The share of the document's characters set in italics."""
    total = sum(style.end - style.start for style in styles) or 1
    return sum(style.end - style.start for style in styles if style.italic) / total


def rstrip_end(text: str, start: int, end: int) -> int:
    """``end`` moved back over trailing whitespace (not before ``start``)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def skip_space(text: str, pos: int, end: int) -> int:
    """``pos`` moved forward over whitespace (not past ``end``)."""
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def total_size(pieces: list[Span]) -> int:
    return sum(end - start for start, end in pieces)


class DocumentLines:
    """A document's visible lines and its paragraph layout.

    How a paragraph starts differs by source: in PDFs and hard-wrapped text a newline is
    only a wrap, most .txt files hold one paragraph per line, and some (privacy policies)
    mark paragraph starts by indentation.
    """

    def __init__(self, document: Document, use_style: bool = False) -> None:
        self.text = document.text
        self.excluded = excluded_spans(document)
        self.lines = visible_lines(self.text, self.excluded)
        self.pdf = document.media_type == "pdf"
        lengths = sorted(line.end - line.start for line in self.lines) or [0]
        self.p75 = lengths[int(len(lengths) * 0.75)]
        p90 = lengths[int(len(lengths) * 0.9)]
        blanks = sum(line.blank_before for line in self.lines)
        indented = sum(line.indent > 0 for line in self.lines)
        n = max(len(self.lines), 1)
        self.soft_wrap = self.pdf or (p90 <= 100 and blanks > 0.05 * n)
        self.indent_mode = (
            not self.soft_wrap and blanks < 0.05 * n and 0.03 * n <= indented <= 0.7 * n
        )
        # the page's type styles, where ingest read them; headings are told by them only
        # with ``use_style`` (segment.style_headings)
        self.has_styles = bool(document.line_styles)
        self.styled = use_style and self.has_styles
        self.styles = _styles_of_lines(self.lines, document.line_styles) \
            if self.has_styles else []
        self.body = _body_style(document.line_styles) if self.has_styles else (0.0, False)
        self.body_italic = self.has_styles and _italic_share(document.line_styles) > 0.5
        self._starts = [line.start for line in self.lines]

    def set_as_heading(self, index: int) -> bool | None:
        """Is line ``index`` set larger or bolder than the body text? None when unknown
        (no styles: a text file, a table row, an OCR'd page, or style not in use)."""
        return self.set_apart(index) if self.styled else None

    def set_apart(self, index: int) -> bool | None:
        """Is line ``index`` set larger or bolder than the body text, whether or not
        headings are told by style? None when the page gave no style."""
        style = self.styles[index] if self.has_styles else None
        if style is None:
            return None
        size, bold = self.body
        return style.size >= size + _LARGER_POINTS or (
            style.bold and not bold and style.size >= size - _LARGER_POINTS
        )

    def italic_title(self, index: int) -> bool:
        """Is line ``index`` a short phrase set in italics alone, between lines set
        upright, in a document whose body is upright ("Air Ambulance Cover", "Healthy baby
        expenses / well baby care expenses" above their covers)? A title told by its face
        where its size, weight and letter case say nothing. Italic notes and examples run
        on over italic lines, or read as sentences: they are not titles."""
        style = self.styles[index] if self.has_styles else None
        if style is None or not style.italic or style.bold or self.body_italic:
            return False
        # not a line of an italic paragraph: the line below is upright, and the one above
        # upright too or an italic sentence that ended (an example before the next title)
        for near in (index - 1, index + 1):
            other = self.styles[near] if 0 <= near < len(self.styles) else None
            if other is not None and other.italic and (
                    near > index or not self.line_text(near).rstrip().endswith(tuple(TERMINAL))):
                return False
        text = self.line_text(index).strip()
        words = text.split()
        if not words or len(words) > _ITALIC_TITLE_WORDS or not text[0].isupper() \
                or text[-1] in ",;." or text.count(",") > 1 or words[-1].lower() in CONNECTORS:
            return False
        # the text it heads runs on below it, upright, as a sentence does
        after = index + 1
        if after >= len(self.lines):
            return False
        below = self.line_text(after).strip()
        return len(below) >= _HEADED_LINE_CHARS and not below[0].islower()

    def prominence(self, index: int) -> tuple[float, bool] | None:
        """Line ``index``'s type as (size to the half point, bold); None when unknown."""
        style = self.styles[index] if self.has_styles else None
        return None if style is None else (round(style.size * 2) / 2, style.bold)

    def line_at(self, offset: int) -> int:
        """The index of the line holding document offset ``offset``."""
        return max(bisect_right(self._starts, offset) - 1, 0)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, index: int) -> Line:
        return self.lines[index]

    def line_text(self, index: int) -> str:
        line = self.lines[index]
        return self.text[line.start : line.end]

    def _titles_what_follows(self, index: int) -> bool:
        """A line set apart that ends in a colon ("OPD Cover :", "Road Ambulance Cover:")
        after a line set like the body: the title of what follows, not the end of the
        sentence before it (which a colon never ends)."""
        return self.line_text(index).rstrip().endswith(":")

    def para_start(self, index: int) -> bool:
        """Does line ``index`` begin a new paragraph?"""
        line = self.lines[index]
        first = self.text[line.start]
        if first.islower():
            return False  # a page-break or wrap continuation
        if index == 0:
            return True
        if self.italic_title(index) or self.italic_title(index - 1):
            return True  # a title set in italics, and the text it heads
        here, before = self.set_apart(index), self.set_apart(index - 1)
        if here is not None and before is not None and here != before and (
                self.styled or (here and (is_caps(self.line_text(index))
                                          or self._titles_what_follows(index)))):
            # a heading starts after running text, and running text after it; told by
            # style alone only with style_headings, else a capitalised line set bolder or
            # larger than the sentence before it ("GENERAL EXCEPTIONS"), which the
            # letter-case rule then reads as a heading, whatever the line lengths say
            return True
        if self.soft_wrap:
            if line.blank_before and not self.pdf:
                return True  # wrapped text files separate paragraphs by blank lines
            prev = self.lines[index - 1]
            prev_end = self.text[prev.end - 1]
            short = (prev.end - prev.start) < 0.85 * self.p75
            return prev_end in TERMINAL and (short or line.blank_before)
        if self.indent_mode:
            return line.blank_before or line.indent > 0
        return True
