"""The running header and footer as one clause, once.

Ingest excludes the lines printed at the edge of every page (``Document.excluded``), so
that a clause crossing a page break does not carry them. What they say is still the
document's: an insurer prints the product's name, its UIN and its registered office there,
and "What is the UIN of this policy?" is asked of exactly that. Each distinct running line
(digits aside, as ingest compares them) is kept once, where it first appears, in a clause
of kind ``running``; page numbers are left out.
"""

from __future__ import annotations

import re

from clausegraph.models import Clause, Document, Span
from clausegraph.segment.lines import excluded_spans

# the clause's path, which its label and id show: "policy-1e9bd7:header-footer"
RUNNING_PATH = "header-footer"
# a page's number or an exhibit's page label ("12", "A-3"), which says nothing
_NUMBER_ONLY = re.compile(r"^(?:[A-Z]{1,3}\s?[-\u2013]\s?)?\d{1,4}$")


def running_clause(document: Document, order: int) -> Clause | None:
    """The clause of the document's distinct running lines, or None when it has none."""
    segments = _first_lines(document)
    if not segments:
        return None
    span = (segments[0][0], segments[-1][1])
    return Clause(
        clause_id=f"{document.key}:{RUNNING_PATH}",
        doc_id=document.doc_id,
        text=Clause.join_segments(document.text, segments),
        span=span,
        segments=segments,
        pages=document.pages_of(span),
        order=order,
        kind="running",
    )


def _first_lines(document: Document) -> list[Span]:
    """The span of each distinct running line where it first appears, in text order."""
    # imported here: the ingest package loads the PDF reader, which the commands that only
    # read an index (stats, show) must not (tests/embed/test_index_model.py)
    from clausegraph.ingest.running import PAGE_NUMBER_LINE

    seen: set[str] = set()
    spans: list[Span] = []
    text = document.text
    for start, end in excluded_spans(document):
        for line_start, line_end in _lines(text, start, end):
            content = text[line_start:line_end]
            key = " ".join(re.sub(r"\d+", "#", content).split()).casefold()
            if sum(ch.isalpha() for ch in content) < 3 or PAGE_NUMBER_LINE.match(content) \
                    or _NUMBER_ONLY.match(content) or key in seen:
                continue
            seen.add(key)
            spans.append((line_start, line_end))
    return spans


def _lines(text: str, start: int, end: int) -> list[Span]:
    """The non-blank lines of ``text[start:end]``, each trimmed of whitespace."""
    lines = []
    position = start
    while position < end:
        newline = text.find("\n", position, end)
        stop = end if newline < 0 else newline
        line = text[position:stop]
        stripped = line.strip()
        if stripped:
            offset = position + len(line) - len(line.lstrip())
            lines.append((offset, offset + len(stripped)))
        position = stop + 1
    return lines
