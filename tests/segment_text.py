"""Segmenting a text written in a test: the clauses of a one-page text document."""

from __future__ import annotations

from clausegraph.models import Clause, Document, Page
from clausegraph.segment import segment


def segment_text(text: str, key: str = "doc") -> list[Clause]:
    """The clauses of a text document ``key``.txt holding ``text``."""
    document = Document(doc_id="0" * 16, key=key, source_path=f"{key}.txt", title=key,
                        media_type="text", text=text,
                        pages=[Page(number=1, start=0, end=len(text))])
    return segment(document)


def holding(clauses: list[Clause], words: str) -> Clause:
    """The first clause whose text holds ``words``."""
    return next(c for c in clauses if words in c.text)


def headed_by(clause: Clause) -> list[str]:
    """The headings a clause carries: its own and its ancestors'."""
    return [*clause.section_path, *([clause.heading] if clause.heading else [])]
