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
from clausegraph.segment.headings import VERB_RE, ends_mid_phrase
from clausegraph.segment.lines import excluded_spans
from clausegraph.segment.merge import Unit
from clausegraph.segment.outline import Node
from clausegraph.segment.windows import row_groups, sentence_windows

_REPEAT_MARK_RE = re.compile(r"~\d+")
# A lead-in ends its node's own text: "The following have a waiting period of 36 months:".
_LEAD_IN_END_RE = re.compile(r"(?::-?|—|–)\s*$")
_SENTENCE_END_RE = re.compile(r"[.;!?]\s+(?=[A-Z(“\"])")
_LEAD_IN_CHARS = 200
# a title line: a phrase of a few words (the letter-case heading rule's own bound,
# headings.next_line_heading), not a sentence
_TITLE_WORDS = 12
# a line that goes on with the sentence before it ("of any illness ..."), not a list label
# ("a) Expenses ...", "(ii) Hernia")
_WRAPPED_ON_RE = re.compile(r"(?![a-z]{1,4}[.)]\s|\([a-z]{1,4}\)\s)[a-z]")
_TITLE_CHARS = 100


def reads_as_title(line: str) -> bool:
    """Whether a line reads as a title: short, opening with a capital or a bracket, ending
    on no stop, comma or connecting word, with no verb a rule is stated with."""
    words = line.split()
    return 0 < len(words) <= _TITLE_WORDS and len(line) <= _TITLE_CHARS \
        and (line[0].isupper() or line[0] in "(“\"'") and line[-1] not in ".,;" \
        and not ends_mid_phrase(line) and VERB_RE.search(line.lower()) is None \
        and sum(ch.isalpha() for ch in line) >= 3


def wraps_on(line: str) -> bool:
    """Whether ``line`` goes on with the sentence of the line before it (it opens in lower
    case and not with a list label): the line before is then no title."""
    return _WRAPPED_ON_RE.match(line) is not None


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
    document: Document, units: list[Unit], max_chars: int, lead_in_paths: bool = False,
    title_paths: bool = False, max_table_chars: int | None = None,
) -> list[Clause]:
    joiner = _Segments(document)
    naming = _Naming(document.text, lead_in_paths, title_paths)
    clauses: list[Clause] = []
    for unit in units:
        segments = joiner.join(unit.pieces)
        size = sum(end - start for start, end in segments)
        table = unit.node.kind == "table"
        limit = (max_table_chars or max_chars) if table else max_chars
        if size > limit:
            cut = row_groups if table else sentence_windows
            kind = "table" if table else "window"
            for number, window in enumerate(cut(document.text, segments, limit), 1):
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
    (with ``title_paths``) an unheaded numbered clause's title line, or (with
    ``lead_in_paths``) an unheaded list's lead-in sentence."""

    def __init__(self, text: str, lead_in_paths: bool, title_paths: bool = False) -> None:
        self.text = text
        self.lead_in_paths = lead_in_paths
        self.title_paths = title_paths
        # each ancestor's name, read once for all its descendants
        self._names: dict[int, str] = {}

    def section_path(self, node: Node) -> list[str]:
        labels: list[str] = []
        current = node.parent
        while current is not None and current.family != "root":
            name = self._names.get(id(current))
            if name is None:
                name = self._names[id(current)] = self._display(current)
            labels.append(name)
            current = current.parent
        return labels[::-1]

    def _display(self, node: Node) -> str:
        number = _number(node)
        heading = node.heading
        if heading is None and self.title_paths and node.numbered:
            heading = self._title_line(node)
        if heading is None and self.lead_in_paths:
            heading = self._lead_in(node)
        parts = [part for part in (number, heading) if part]
        return " ".join(parts) if parts else node.path.rsplit("/", 1)[-1]

    def _title_line(self, node: Node) -> str | None:
        """The first line of the node's own text after its label when it reads as a title
        on a line of its own ("2." / "Specified disease / procedure waiting period: (Code-
        Excl02)"): a heading the letter-case rule missed, whose items' retrieval text
        (``section_path[-2:]`` + text) then says what they are items of."""
        if not node.pieces:
            return None
        # a node's pieces are its lines, or runs of lines (a text file's paragraph)
        lines = [" ".join(line.split()) for a, b in node.pieces
                 for line in self.text[a:b].split("\n")]
        first = next((i for i, line in enumerate(lines) if line), None)
        if first is None:
            return None
        head, label = lines[first], _number(node) or ""
        if label and head.startswith(label):  # "Clause 2", "2.2"
            line = head[len(label):].lstrip(".):-–— ")
        else:  # "a) ...", "(ii) ...": the first word is the label
            line = head.split(None, 1)[1] if " " in head else ""
        if not line:  # the label alone on its line: the title is on the next
            first = next((i for i in range(first + 1, len(lines)) if lines[i]), None)
            line = lines[first] if first is not None else ""
        rest = [line for line in lines[first + 1:] if line] if first is not None else []
        if not reads_as_title(line) or (rest and wraps_on(rest[0])):
            return None  # a sentence, or one wrapping onto the next line
        return line

    def _lead_in(self, node: Node) -> str | None:
        """The last sentence of the node's own text when it ends in a colon (or dash), or
        stops on a word no phrase ends with (its items finish it: "... whilst the vehicle
        insured herein is" / "(a) being used otherwise than ...")."""
        if not node.pieces:
            return None
        own = " ".join(" ".join(self.text[a:b] for a, b in node.pieces).split())
        # a colon or dash, or a sentence its items finish ("The Company shall not be liable
        # to make any payment in respect of" / "(a) ...")
        if not (_LEAD_IN_END_RE.search(own) or ends_mid_phrase(own)):
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
