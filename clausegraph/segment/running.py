"""The running header and footer as one clause, once.

Ingest excludes the lines printed at the edge of every page (``Document.excluded``), so
that a clause crossing a page break does not carry them. What they say is still the
document's: an insurer prints the product's name, its UIN and its registered office there,
and "What is the UIN of this policy?" is asked of exactly that. Each distinct running line
(digits aside, as ingest compares them) is kept once, where it first appears, in a clause
of kind ``running``; page numbers are left out.
"""

from __future__ import annotations

from clausegraph.models import Clause, Document
from clausegraph.segment.lines import excluded_spans

# the clause's path, which its label and id show: "policy-1e9bd7:header-footer"
RUNNING_PATH = "header-footer"


def running_clause(document: Document, order: int) -> Clause | None:
    """The clause of the document's distinct running lines, or None when it has none."""
    # imported here: the ingest package loads the PDF reader, which the commands that only
    # read an index (stats, show) must not (tests/embed/test_index_model.py)
    from clausegraph.ingest.running import distinct_running_lines

    segments = distinct_running_lines(document.text, excluded_spans(document))
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
