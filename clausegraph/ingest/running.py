"""Running headers, footers and page numbers: found, kept in the text, excluded from clauses."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from clausegraph.models import Page, Span

# Running headers/footers: lines looked at from each end of a page, the share of pages
# a line must repeat on, and how far non-repeating lines may sit inside a header block.
_EDGE_WINDOW_LINES = 12
_EDGE_TOLERANCE_LINES = 3
_RUNNING_MIN_SHARE = 0.5
_RUNNING_MIN_PAGES = 3
_RUNNING_MIN_ALNUM = 3
_VARYING_MAX_WORDS = 6  # a running line that changes on every page is this short
_PAGE_NUMBER_MIN_REPEATS = 2

PAGE_NUMBER_LINE = re.compile(
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

class _Line(NamedTuple):
    """One non-blank line of a page: its span (trailing newline included) and content."""

    start: int
    end: int
    content: str




def running_line_spans(text: str, pages: Sequence[Page]) -> list[Span]:
    """Spans of running headers, footers and page-number lines, sorted and non-overlapping.

    A line is running if, after normalising (digit runs -> '#', whitespace collapsed,
    case-folded), it sits near the top or bottom of at least half of the pages (and at
    least 3); of a document with two pages of text, if both pages open or close with it
    (:func:`_shared_edge_runs`). Page-number lines ("Page 3 of 10", "- 4 -", "3 | Page")
    among the first or last three lines of a page count on any page; a bare "12" or "A-3"
    only if its offset to the physical page number recurs on another page (or is zero).
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


# ------------------------------------------------------------------ headers and footers


def _lines_of(text: str, page: Page) -> list[_Line]:
    """Non-blank lines of a page with their spans, newline included."""
    return _lines_between(text, page.start, page.end)


def _lines_between(text: str, start: int, stop: int) -> list[_Line]:
    """Non-blank lines of ``text[start:stop]`` with their spans, newline included."""
    lines: list[_Line] = []
    while start < stop:
        newline = text.find("\n", start, stop)
        end = stop if newline < 0 else newline + 1
        content = text[start:end].strip()
        if content:
            lines.append(_Line(start, end, content))
        start = end
    return lines


def distinct_running_lines(text: str, excluded: Sequence[Span]) -> list[Span]:
    """Each distinct line (compared as running lines are) of the ``excluded`` spans, trimmed,
    where it first appears; page numbers and lines without a word left out."""
    seen: set[str] = set()
    spans: list[Span] = []
    for start, stop in excluded:
        for line in _lines_between(text, start, stop):
            key = _normalise_line(line.content)
            if key in seen or sum(ch.isalpha() for ch in line.content) < 3 \
                    or PAGE_NUMBER_LINE.match(line.content) \
                    or _NUMBER_LABEL_LINE.match(line.content):
                continue
            seen.add(key)
            first = text.index(line.content, line.start)
            spans.append((first, first + len(line.content)))
    return spans


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
    if pages_with_text == 2:
        return _shared_edge_runs([lines for lines in page_lines if lines])
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


def _shared_edge_runs(pages: Sequence[Sequence[_Line]]) -> set[str]:
    """The running lines of a two-page document: the lines both pages open with, in the
    same order, and those both close with (a short add-on wording's title atop each page
    and its footer of UINs and offices; an EDGAR filing's "Source: ..." footer). Two pages are
    too few to count a line's repeats, but a header repeats from the first line on; a run
    that would take half a page or more is the text itself, printed twice."""
    first, second = pages
    running: set[str] = set()
    for step in (1, -1):  # from the top, then from the bottom
        run = []
        for one, other in zip(first[::step], second[::step]):
            key = _normalise_line(one.content)
            if key != _normalise_line(other.content):
                break
            run.append(key)
        if 2 * len(run) < min(len(first), len(second)):
            running.update(key for key in run
                           if sum(ch.isalnum() for ch in key) >= _RUNNING_MIN_ALNUM)
    return running


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
    if PAGE_NUMBER_LINE.match(content):
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



