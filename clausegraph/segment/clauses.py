"""Units become ``Clause`` records: ids, numbers, section paths, segments and pages.

``clause_id`` is ``"<document key>:<path>"``; ``number`` is the last ``/`` part of the path
(``7.1(b)``, ``Section 5``, ``ARTICLE IV``), ``None`` for unnumbered clauses;
``section_path`` lists the labels of the ancestors, root first, each as number plus
heading (``["ARTICLE IV EXCLUSIONS", "4.2 Waiting Period"]``), unnumbered headings as
their text. A clause longer than ``max_chars`` becomes windows (``4.2#w1``).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from clausegraph.models import Clause, Document, Span
from clausegraph.segment.lines import excluded_spans
from clausegraph.segment.merge import Unit
from clausegraph.segment.outline import Node
from clausegraph.segment.windows import row_groups, sentence_windows

_REPEAT_MARK_RE = re.compile(r"~\d+")
# A lead-in ends its node's own text: "The following have a waiting period of 36 months:".
_LEAD_IN_END_RE = re.compile(r"(?::-?|—|–)\s*$")
_SENTENCE_END_RE = re.compile(r"[.;!?]\s+(?=[A-Z(“\"])")
_LEAD_IN_CHARS = 200


class _Segments:
    """Turns runs of pieces into segments that break only at excluded spans."""

    def __init__(self, document: Document) -> None:
        self.starts = [start for start, _ in excluded_spans(document)]

    def join(self, pieces: list[Span]) -> list[Span]:
        segments: list[Span] = []
        for start, end in pieces:
            if segments and not self._excluded_between(segments[-1][1], start):
                segments[-1] = (segments[-1][0], end)
            else:
                segments.append((start, end))
        return segments

    def _excluded_between(self, a: int, b: int) -> bool:
        index = bisect_left(self.starts, a)
        return index < len(self.starts) and self.starts[index] < b


def build_clauses(
    document: Document, units: list[Unit], max_chars: int, lead_in_paths: bool = False
) -> list[Clause]:
    joiner = _Segments(document)
    naming = _Naming(document.text, lead_in_paths)
    clauses: list[Clause] = []
    for unit in units:
        segments = joiner.join(unit.pieces)
        size = sum(end - start for start, end in segments)
        if size > max_chars:
            table = unit.node.kind == "table"
            cut = row_groups if table else sentence_windows
            kind = "table" if table else "window"
            for number, window in enumerate(cut(document.text, segments, max_chars), 1):
                clauses.append(
                    _clause(document, naming, unit, window, f"#w{number}", kind, len(clauses))
                )
        else:
            clauses.append(
                _clause(document, naming, unit, segments, "", unit.node.kind, len(clauses))
            )
    return clauses


def _clause(
    document: Document,
    naming: _Naming,
    unit: Unit,
    segments: list[Span],
    suffix: str,
    kind: str,
    order: int,
) -> Clause:
    node = unit.node
    span = (segments[0][0], segments[-1][1])
    return Clause(
        clause_id=f"{document.key}:{node.path}{suffix}",
        doc_id=document.doc_id,
        number=_number(node),
        section_path=naming.section_path(node),
        heading=node.heading,
        text=Clause.join_segments(document.text, segments),
        span=span,
        segments=segments,
        pages=document.pages_of(span),
        order=order,
        kind=kind,
        defined_terms=list(dict.fromkeys(unit.terms)),
    )


def _number(node: Node) -> str | None:
    if node.comp is None:
        return None
    # "~2" marks a repeated path anywhere in it ("6~2(i)/2/Excl02"): not part of the number
    return _REPEAT_MARK_RE.sub("", node.path).rsplit("/", 1)[-1]


class _Naming:
    """How ancestors are named in a clause's ``section_path``: number plus heading, or
    (with ``lead_in_paths``) an unheaded list's lead-in sentence."""

    def __init__(self, text: str, lead_in_paths: bool) -> None:
        self.text = text
        self.lead_in_paths = lead_in_paths

    def section_path(self, node: Node) -> list[str]:
        labels: list[str] = []
        current = node.parent
        while current is not None and current.family != "root":
            labels.append(self._display(current))
            current = current.parent
        return labels[::-1]

    def _display(self, node: Node) -> str:
        number = _number(node)
        heading = node.heading
        if heading is None and self.lead_in_paths:
            heading = self._lead_in(node)
        parts = [part for part in (number, heading) if part]
        return " ".join(parts) if parts else node.path.rsplit("/", 1)[-1]

    def _lead_in(self, node: Node) -> str | None:
        """The last sentence of the node's own text when it ends in a colon (or dash)."""
        if not node.pieces:
            return None
        own = " ".join(" ".join(self.text[a:b] for a, b in node.pieces).split())
        if not _LEAD_IN_END_RE.search(own):
            return None
        sentences = _SENTENCE_END_RE.split(own)
        lead = sentences[-1]
        if node.numbered and len(sentences) == 1:
            lead = lead.split(" ", 1)[1] if " " in lead else ""  # without its own label
        if sum(ch.isalpha() for ch in lead) < 3:
            return None  # only the rest of a label ("Annexure I –")
        if len(lead) > _LEAD_IN_CHARS:
            lead = "... " + lead[-_LEAD_IN_CHARS:].split(" ", 1)[-1]
        return lead
