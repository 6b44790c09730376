"""Tables (``Document.tables``: PDF, Word, HTML) in the outline: one clause each.

A table's rows are never parsed for labels. Its id is ``<section>/Table N`` (N counts the
document's tables), or ``Table N`` at the top level, where a caption such as "Table of
Benefits:" (the short line right before it, which the clause keeps as its heading) puts
it, as that caption closes the numbered sections.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from clausegraph.models import Table
from clausegraph.segment.headings import clean_heading
from clausegraph.segment.lines import DocumentLines, Line
from clausegraph.segment.outline import Node, Outline

# A table under a caption like these stands on its own, not inside the section before it.
_STANDALONE_TABLE_RE = re.compile(r"(?i)(?:table|schedule|summary)\s+of\b")
_CAPTION_CHARS = 80


def table_of_lines(lines: list[Line], tables: list[Table]) -> list[int | None]:
    """For each line, the number of the table it belongs to (None outside tables)."""
    spans = sorted((t.start, t.end, t.number) for t in tables)
    starts = [start for start, _, _ in spans]
    out: list[int | None] = []
    for line in lines:
        index = bisect_right(starts, line.start) - 1
        inside = index >= 0 and line.start < spans[index][1]
        out.append(spans[index][2] if inside else None)
    return out


def caption_like(lines: DocumentLines, index: int) -> bool:
    """Short and not a sentence ("Table of Benefits:"); the caller checks it is no label
    and that a table follows."""
    s = lines.line_text(index)
    return len(s) <= _CAPTION_CHARS and s[-1] not in ".;,"


def open_table(outline: Outline, number: int, caption: Line | None) -> Node:
    """A table is one clause, under the section it sits in; a captioned table
    ("Table of Benefits", "Schedule of ...") stands on its own under the outline's
    containers (schedule, article), as the caption closes the numbered sections."""
    text = outline.text
    heading = (
        clean_heading(text[caption.start : caption.end]).rstrip(" :-")
        if caption is not None
        else None
    )
    if heading and _STANDALONE_TABLE_RE.match(heading):
        while len(outline.stack) > 1 and outline.top.rank is None:
            outline.stack.pop()
    outline.pop_text_nodes()
    parent = outline.top
    anchor = outline.numbered_anchor(parent)
    name = f"Table {number}"
    path = name if anchor is outline.root else f"{anchor.path}/{name}"
    node = outline.new_node(parent, "table", "table", None, path=path)
    node.kind, node.heading, node.value = "table", heading, number
    if caption is not None:
        outline.append(node, caption.start, caption.end, body=True)
    return node


def close_table(outline: Outline, node: Node | None) -> None:
    if node is not None and node in outline.stack:
        del outline.stack[outline.stack.index(node) :]
