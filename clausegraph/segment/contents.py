"""Tables of contents: runs of "title ... page" lines near the start of a document."""

from __future__ import annotations

import re

from clausegraph.segment.lines import DocumentLines
from clausegraph.segment.outline import Node, Outline

# A line ending in a page number (after spaces or dot leaders), as contents entries do.
TOC_END_RE = re.compile(r"(?:\s|\.{2,})(?:\d{1,3}|[ivx]{1,4})\s*$")
_TOC_ENTRY_RE = re.compile(r"\s\d{1,3}\s+(?:Section|SECTION|Article|ARTICLE|\d{1,2}\.\d)")
_TOC_LABEL_RE = re.compile(
    r"(?:ARTICLE|Article|SECTION|Section|Schedule|SCHEDULE|Exhibit|EXHIBIT|"
    r"\d{1,2}(?:\.\d{1,2})*\.?\s|[IVX]{1,5}\.?\s|TABLE OF CONTENTS)"
)
_TOC_HEAD_RE = re.compile(r"(?i)^\s*(?:table of contents|contents|index)\b")
_PAGE_RE = re.compile(r"\d{1,3}|[ivx]{1,4}")  # a line that is only a page number


def contents_lines(lines: DocumentLines) -> list[bool]:
    """Mark lines that belong to a table of contents (runs of 'title ... page' lines).

    Only near the start of a document, where contents tables sit: elsewhere runs of
    lines ending in numbers are tables of amounts.
    """
    flags = [False] * len(lines)
    limit = max(300, len(lines) // 6)
    run: list[int] = []
    misses = 0
    for index in range(len(lines)):
        s = lines.line_text(index)
        if _toc_like(s) or _page_below(lines, index):
            run.append(index)
            misses = 0
            continue
        # a short line, the contents' own heading, or an article's entry without a page
        # ("ARTICLE III REPRESENTATIONS AND WARRANTIES" over its sections' entries)
        if run and (len(s) <= 40 or _TOC_HEAD_RE.match(s) or _TOC_LABEL_RE.match(s)) \
                and misses < 3:
            misses += 1
            continue
        _close_run(lines, run, flags, limit)
        run, misses = [], 0
    _close_run(lines, run, flags, limit)
    return flags


def _page_below(lines: DocumentLines, index: int) -> bool:
    """An entry whose page number sits on the line below it ("Section 1.02 Interpretation" /
    "8"), as contents tables laid out in two columns are read."""
    if index + 1 >= len(lines):
        return False
    s = lines.line_text(index).strip()
    return bool(s) and len(s) <= 150 and _PAGE_RE.fullmatch(s) is None \
        and _PAGE_RE.fullmatch(lines.line_text(index + 1).strip()) is not None


def _toc_like(s: str) -> bool:
    if not TOC_END_RE.search(s):
        return bool(_TOC_HEAD_RE.match(s)) and len(s) < 60
    return len(s) <= 150 or len(_TOC_ENTRY_RE.findall(s)) >= 3


def _close_run(lines: DocumentLines, run: list[int], flags: list[bool], limit: int) -> None:
    """Accept a run as a TOC when it is long enough (or one line holding many entries)."""
    if not run or run[0] > limit:
        return
    first = lines.line_text(run[0])
    labelled = sum(1 for i in run if _TOC_LABEL_RE.match(lines.text, lines[i].start))
    if labelled >= 3 or len(_TOC_ENTRY_RE.findall(first)) >= 3:
        for index in range(run[0], run[-1] + 1):
            flags[index] = True


def open_contents(outline: Outline) -> Node:
    """The contents table: one top-level clause, ``contents``."""
    outline.pop_to(outline.root)
    node = outline.new_node(outline.root, "toc", "toc", None, path="contents")
    node.heading = "Table of Contents"
    return node
