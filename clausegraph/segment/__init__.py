"""Segment stage: cut a document's canonical text into clauses, the retrieval units.

One linear pass over the visible lines (``Document.excluded`` spans are skipped) finds
labels at line starts -- ``ARTICLE IV``, ``Section 5``, ``4.2``, ``(b)``, ``ii.``, ``A.``,
bullets, ``Schedule B``, insurance codes such as ``Excl01`` -- plus unnumbered headings
and definition entries, and places each in an outline with a stack: a label whose style
is already open becomes a sibling of that node, any other label a child of the deepest
open node (dotted numbers nest by their digits, ``ARTICLE``/``Schedule`` always close
everything below them). A label that is the next item of an open sequence continues that
sequence even when a deeper list of the same style was opened since: after ``4. ... (e)
1. 2. 3.`` (a list restarting at ``1.`` under ``(e)`` nests there) the ``5.`` is a
top-level section again; when two open sequences fit (``2.`` after an outer and an inner
``1.``), the one whose label is written alike (alone on its line / inline) wins, else the
deeper one.

A ``Schedule``/``Exhibit``/``Annex``/``Appendix`` line opens a container only when it heads
an attached schedule. It does not when the first numbered label after it carries on a
sequence open in the body (``Schedule E`` as a cell of a table in 1(a), followed by
``(b)`` or ``2.``) or repeats the first entry of a contents table; when it belongs to a
list of the schedules (a run of schedule lines a few lines apart whose names recur later,
in order, where the schedules really start; or several on one line); when it stands more
than half the text before the first ``IN WITNESS WHEREOF`` (front matter); when it ends a
wrapped sentence (``... provided in this / Schedule.``) or is a page footer (``Annex A
Page 3``). ``Schedules:`` / ``LIST OF EXHIBITS`` alone on a line heads a list of the
schedules (``Schedules/(A)``). After ``IN WITNESS WHEREOF`` the signature lines (party
names, ``By:``, ``/s/ ...``, ``Title: ...`` and their values) stay in that paragraph, one
top-level clause.

Choices made here, which later stages can rely on:

* ``clause_id`` is ``"<document key>:<path>"``. Dotted numbers carry their parents, so
  ``4.2(b)`` not ``4/4.2/(b)``; lettered and roman items hang off their parent's number
  (``7.1(b)(ii)``, always written in parentheses whatever the source used: ``a.``,
  ``a)``); containers are joined with ``/`` (``ARTICLE IV/Section 5``, ``Schedule B/3``)
  unless the number already names the article (``Section 4.2`` under ``ARTICLE IV`` is
  ``4.2``). ``Section 6.1`` is written ``6.1``; a bare ``Section 5`` keeps its word.
  Unnumbered clauses (paragraphs, headings, bullets, definitions without a number) are
  ``<nearest numbered ancestor>¶N``; top-level ones before the first numbered label (or
  the second capitalised heading) are ``preamble¶N``; a table of contents near the start is
  ``contents``. Repeats get ``~2``, ``~3`` in reading order.
* A table (``Document.tables``: PDF, Word, HTML) is one clause of kind ``table``, its
  rows never parsed for labels; its id is ``<section>/Table N`` (N counts the document's
  tables), or ``Table N`` at the top level, where a caption such as "Table of Benefits:"
  (the short line right before it, which the clause keeps as its heading) puts it, as
  that caption closes the numbered sections. A long table is cut into groups of whole
  rows (``Table N#w1``); tables never merge with a neighbour.
* ``number`` is the last ``/`` part of the path (``7.1(b)``, ``Section 5``,
  ``ARTICLE IV``), ``None`` for unnumbered clauses.
* ``section_path`` lists the labels of the ancestors, root first, each as number plus
  heading (``["ARTICLE IV EXCLUSIONS", "4.2 Waiting Period"]``); unnumbered headings
  appear as their text.
* A numbered clause owns the unlabelled paragraphs that follow it. At the top level and
  under an unnumbered heading (after its first paragraph) each paragraph is a clause.
* Labels count only at a line start (or right after a label's heading). Inline
  enumerations (``... (i) x; (ii) y``) stay inside their clause; long clauses are cut into
  sentence windows instead (``4.2#w1``). The exception is a line over 600 characters (CUAD
  texts often hold a whole page per line): inside it, a number that is exactly the next
  one in sequence, or a ``(b)`` continuing an open list after a sentence end, starts a
  clause.
* A clause that is only a heading merges into the clause right after it when that one is
  its descendant (``ARTICLE I THE MERGER`` joins ``1.1``); clauses shorter than
  ``min_clause_chars`` merge into the clause before them in reading order (or after, when
  first), never across a top-level boundary.
* Every visible non-space character lands in exactly one clause.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import pairwise

from clausegraph.config import SegmentConfig
from clausegraph.models import Clause, Document, Span, Table
from clausegraph.text import nlp

# Words a heading never ends with: a line ending in one is running text.
_CONNECTORS = frozenset(
    [
        "a",
        "an",
        "and",
        "or",
        "of",
        "the",
        "to",
        "for",
        "in",
        "on",
        "by",
        "with",
        "as",
        "at",
        "from",
        "under",
        "that",
        "which",
        "any",
        "all",
        "its",
        "their",
        "such",
        "this",
        "these",
        "shall",
        "will",
        "may",
        "be",
        "is",
        "are",
        "not",
        "nor",
        "per",
        "than",
        "into",
        "upon",
    ]
)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_TERMINAL = ".:;!?"
# Numbers above this open a clause only when they continue the numbering (else: a year).
_MAX_UNSEQUENCED_NUMBER = 300

_ARTICLE_RE = re.compile(
    r"(?P<word>Article|ARTICLE|Part|PART)\s+"
    r"(?P<num>[IVXLC]{1,7}|\d{1,3}|[A-Z])(?=[\s.:\-–—)]|$)\.?"
)
_SECTION_LETTER_RE = re.compile(r"(?P<word>Section|SECTION)\s+(?P<num>[A-Z])(?:[.)]|(?=\s|$))")
_SECTION_RE = re.compile(
    r"(?P<word>Section|SECTION|Sec\.|SEC\.|Clause|CLAUSE|§)\s*"
    r"(?P<num>\d{1,3}(?:\.\d{1,3})*)(?=[\s.:)\-–—]|$)\.?"
)
_SCHEDULE_RE = re.compile(
    r"(?P<word>(?:Schedule|Exhibit|Annex(?:ure)?|Appendix|Attachment|Addendum)"
    r"|(?:SCHEDULE|EXHIBIT|ANNEX(?:URE)?|APPENDIX|ATTACHMENT|ADDENDUM))"
    r"(?:\s+(?P<num>[A-Z0-9]{1,4}(?:[.\-][A-Z0-9]{1,3})*(?:\([a-z0-9]{1,3}\))?))?"
    r"(?=[\s.:\-–—]|$)\.?"
)
_CODE_RE = re.compile(
    r"(?:(?i:code)\s*[-–:]?\s*)?(?P<excl>(?i:excl)\s?\d{1,3})\b|(?i:def)\.\s*(?P<def>\d{1,3})\.?"
)
_DECIMAL_RE = re.compile(r"(?P<num>\d{1,4}(?:\.\d{1,3})*)(?P<dot>\.)?(?=\s|$)")
_PAREN_RE = re.compile(r"\((?P<v>[a-zA-Z]{1,4}|\d{1,3})\)(?=\s|$)")
_HALF_RE = re.compile(r"(?P<v>[a-zA-Z]{1,4}|\d{1,2})\)(?=\s|$)")
_DOT_RE = re.compile(r"(?P<v>[a-zA-Z]|[ivxlcIVXLC]{2,6})\.(?=\s|$|[A-Z][a-z])")
_BULLET_RE = re.compile(r"[•●▪◦○■□➢►▶✓✔·∙\uf0b7\uf0a7\uf0d8\uf076\uf0fc\u2023\u2043\-–—*o](?=\s|$)")
_WEAK_BULLETS = frozenset("-–—*o")

_QUOTED_DEF_RE = re.compile(
    r"[“\"](?P<term>[^”\"\n]{1,100})[”\"]"
    r"(?:\s*(?:,|and|or)\s*[“\"][^”\"\n]{1,100}[”\"])*"
    r"(?:\s*\([^)\n]{0,120}\))?(?:\s+[a-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,4})?,?\s*"
    r"(?:means|mean|shall mean|shall have|has the meaning|have the meaning|includes|"
    r"shall include|refers to|is defined|as used)\b"
)
_PLAIN_DEF_RE = re.compile(
    r"(?P<term>[A-Z][\w’'\-/&() ]{0,70}?)\s*(?::-|:|-)?\s+"
    r"(?:means|shall mean|refers to|is defined as|shall have the meaning)\b"
)
_REFERENCE_TAIL_RE = re.compile(
    r"\b(?i:sections?|articles?|clauses?|paragraphs?|subsections?|schedules?|exhibits?)"
    r"\s*\d[\d.]*$|§\s*\d[\d.]*$"
)
_REFERENCE_REST_RE = re.compile(
    r"(?:hereof|thereof|herein|hereto|hereunder|above|below|of\b|and\b|or\b|to\b|through\b|,)"
)
_TOC_END_RE = re.compile(r"(?:\s|\.{2,})(?:\d{1,3}|[ivx]{1,4})\s*$")
_TOC_ENTRY_RE = re.compile(r"\s\d{1,3}\s+(?:Section|SECTION|Article|ARTICLE|\d{1,2}\.\d)")
_TOC_LABEL_RE = re.compile(
    r"(?:ARTICLE|Article|SECTION|Section|Schedule|SCHEDULE|Exhibit|EXHIBIT|"
    r"\d{1,2}(?:\.\d{1,2})*\.?\s|[IVX]{1,5}\.?\s|TABLE OF CONTENTS)"
)
_TOC_HEAD_RE = re.compile(r"(?i)^\s*(?:table of contents|contents|index)\b")
_MULTI_SPACE_RE = re.compile(r"(?P<head>\S.{0,110}?)(?:\s{3,}|\t+)(?=\S)")
_RUN_IN_RE = re.compile(r"(?P<head>[A-Z“\"][^\n]{0,110}?)(?:\.|:-|:)(?:\s+|$)")
_CAPS_PREFIX_RE = re.compile(r"(?P<head>[A-Z][A-Z0-9 ,&’'\-/]{3,90}?)\s+(?=[A-Z][a-z])")
_LIST_AFTER_HEAD_RE = re.compile(r"(?P<head>[A-Z][^\n()]{1,60}?)\s+(?=\((?:a|i|A|1)\)\s)")
# Lines this long are flattened pages (a third of CUAD's texts): numbers inside them that
# follow a sentence end and continue the numbering are clause starts too.
_LONG_LINE = 600
_INLINE_RE = re.compile(
    r"\s+(?=\d{1,3}(?:\.\d{1,3})*\.?\s+[A-Z“\"(]"
    r"|\((?:[a-z]{1,4}|[A-Z]{1,2}|\d{1,2})\)\s+[A-Z“\"])"
)
_INLINE_NUMBER_RE = re.compile(r"(?P<num>\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.)(?=\s)")
_PREV_WORD_RE = re.compile(r"(\S+)\s*$")
_REFERENCE_WORDS = frozenset(
    [
        "section",
        "sections",
        "article",
        "articles",
        "clause",
        "clauses",
        "paragraph",
        "paragraphs",
        "subsection",
        "exhibit",
        "schedule",
        "annex",
        "appendix",
        "and",
        "or",
        "of",
        "to",
        "in",
        "under",
        "with",
        "see",
        "by",
        "than",
        "$",
        "no.",
        "nos.",
    ]
)
# How many lines after a "Schedule X" line are searched for the label that tells whether
# the body's numbering carries on (then the line was a reference or a table cell).
_SCHEDULE_LOOKAHEAD = 400
_SCHEDULES_RE = re.compile(
    r"(?P<word>(?:(?i:list\s+of)\s+)?(?:Schedules|Exhibits|Annex(?:es|ures)|Appendices|"
    r"Attachments|SCHEDULES|EXHIBITS|ANNEX(?:ES|URES)|APPENDICES|ATTACHMENTS))\s*:?\s*$"
)
_PAGE_LABEL_RE = re.compile(r"(?i)page\s+\d{1,4}\s*$")
# A schedule line this share of the text (or more) before the first signature block is
# front matter: an index of the attachments after a contents table.
_FRONT_MATTER_SHARE = 0.5
# Schedule lines at most this many lines apart form one run (a possible list of schedules).
_LISTING_GAP = 4
# A labelled line of a signature block ("Name:", "TITLE:", "NAME (print):") and the other
# marks of one ("/s/ Jane Roe", "By", "______", "[Signature Page to Supply Agreement]").
_SIGNATURE_FIELD_RE = re.compile(
    r"(?i)(?:by|name|title|date|dated|its|address|attn|attention|e-?mail|tel|telephone|phone|"
    r"fax|facsimile|signature|witness|print(?:ed)? name|signed)\b\s*(?:\(print\))?\s*[:.]"
)
# A table under a caption like these stands on its own, not inside the section before it.
_STANDALONE_TABLE_RE = re.compile(r"(?i)(?:table|schedule|summary)\s+of\b")
_REPEAT_MARK_RE = re.compile(r"~\d+")
_CAPTION_CHARS = 80
_SIGNATURE_MARK_RE = re.compile(r"(?i)/s/|_{3,}|.{0,60}\bsignature pages?\b|by\s*$")
_EMBEDDED_NUMBER_RE = re.compile(r"\s\d{1,3}\.\d")
_SENTENCE_BREAK_RE = re.compile(r"[a-z]{2}\.\s+[A-Z]")


@dataclass(slots=True)
class _Line:
    """A visible line: trimmed offsets plus the layout facts paragraph detection needs."""

    start: int
    end: int
    indent: int
    blank_before: bool


@dataclass(slots=True)
class _Label:
    """A label found at a line start."""

    family: str  # schedule | article | decimal | list | code | bullet
    style: str  # hierarchy key: nodes of one style are siblings
    comp: str | None  # path component; None for unnumbered (bullets)
    end: int  # offset in the line where the label ends
    value: int = 0
    tup: tuple[int, ...] = ()
    rank: int | None = None  # fixed outline rank (schedule 0, article 1), else dynamic


@dataclass(eq=False)
class _Node:
    """An outline node; becomes one clause (or several windows)."""

    style: str
    family: str
    parent: _Node | None
    comp: str | None = None
    path: str = ""
    heading: str | None = None
    value: int = 0
    tup: tuple[int, ...] = ()
    rank: int | None = None
    kind: str = "clause"
    pieces: list[Span] = field(default_factory=list)
    has_body: bool = False
    in_defs: bool = False
    terms: list[str] = field(default_factory=list)
    counter: int = 0  # running count of unnumbered children (for ¶N)
    child_styles: set[str] = field(default_factory=set)
    zone: int = 0
    last_char: str = ""
    preamble: bool = False  # opened before any numbered label (a title, not a section)
    shape: str = ""  # how the label is written: "head" (alone or with a caps heading), "text"

    @property
    def numbered(self) -> bool:
        return self.comp is not None

    @property
    def unlabelled_heading(self) -> bool:
        return self.family == "heading"


@dataclass(slots=True)
class _Unit:
    """A clause in the making: a node's pieces, possibly merged with neighbours'."""

    node: _Node
    pieces: list[Span]
    size: int
    terms: list[str] = field(default_factory=list)
    lead_open: bool = False  # a lead-in clause ("... as under:") that took its list items


def _joined(first: _Unit, second: _Unit, keep: _Node) -> _Unit:
    """One unit holding both units' text (in reading order) under ``keep``'s identity."""
    pieces = first.pieces + second.pieces
    return _Unit(keep, pieces, _size(pieces), first.terms + second.terms)


def segment(document: Document, config: SegmentConfig | None = None) -> list[Clause]:
    """Cut ``document`` into clauses in reading order (see the module docstring)."""
    config = config or SegmentConfig()
    parser = _Parser(document)
    units = parser.run()
    units = _merge_headings(units)
    units = _merge_tiny(units, config.min_clause_chars)
    units = _merge_lead_in_lists(units, document.text, config.max_clause_chars // 2)
    return _build_clauses(document, units, config.max_clause_chars)


# --------------------------------------------------------------------------- lines


def _excluded_spans(document: Document) -> list[Span]:
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


def _visible_lines(text: str, excluded: list[Span]) -> list[_Line]:
    """Non-blank lines of the text outside excluded spans, each trimmed of whitespace."""
    lines: list[_Line] = []
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
                lines.append(_Line(start, start + len(stripped.rstrip()), indent, blank))
                blank = False
            else:
                blank = True
            pos = line_end + 1 if nl >= 0 else run_end
        pos = max(pos, gap_end)
    return lines


# --------------------------------------------------------------------------- text tests


def _roman(value: str) -> int | None:
    """Value of a roman numeral (either case), or None when it is not a valid one."""
    low = value.lower()
    if not low or any(ch not in _ROMAN_VALUES for ch in low):
        return None
    total = 0
    for index, ch in enumerate(low):
        current = _ROMAN_VALUES[ch]
        following = _ROMAN_VALUES[low[index + 1]] if index + 1 < len(low) else 0
        total += -current if current < following else current
    canonical = _to_roman(total)
    return total if canonical == low else None


def _to_roman(number: int) -> str:
    parts = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ]
    out = []
    for value, numeral in parts:
        while number >= value:
            out.append(numeral)
            number -= value
    return "".join(out)


def _letter_value(value: str) -> int | None:
    """a -> 1, b -> 2, ..., aa -> 27 (doubled letters, as long lists use)."""
    low = value.lower()
    if len(set(low)) != 1 or not low.isalpha():
        return None
    return (ord(low[0]) - ord("a") + 1) + 26 * (len(low) - 1)


def _is_caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 3 and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)


def _heading_like(text: str, max_words: int = 14) -> bool:
    """True for a short title-cased or capitalised phrase that reads like a heading."""
    text = text.strip().rstrip(":-–— ")
    if not text or len(text) > 120 or "[***]" in text:
        return False
    words = text.split()
    if len(words) > max_words or text[-1] in ",;" or words[-1].lower() in _CONNECTORS:
        return False
    if not (text[0].isupper() or text[0] in "“\"'(") or sum(ch.isalpha() for ch in text) < 3:
        return False
    if _SENTENCE_BREAK_RE.search(text) or _EMBEDDED_NUMBER_RE.search(text):
        return False
    if _is_caps(text):
        return True
    significant = [w for w in words if sum(ch.isalpha() for ch in w) > 3]
    if not significant:
        significant = [w for w in words if any(ch.isalpha() for ch in w)]
    capitalised = sum(1 for w in significant if w.lstrip("“\"'(")[:1].isupper())
    return capitalised >= 0.6 * len(significant)


def _mentions_definitions(heading: str | None) -> bool:
    return bool(heading and re.search(r"(?i)\bdefin", heading))


def _has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def _clean_heading(text: str) -> str:
    return " ".join(text.strip().rstrip(".:-–— ").split())


def _split_heading(rest: str) -> tuple[str | None, int]:
    """Heading at the start of a label's rest of line and where the body starts."""
    if not rest:
        return None, 0
    match = _MULTI_SPACE_RE.match(rest)
    if match and _heading_like(match.group("head")):
        return _clean_heading(match.group("head")), match.end()
    match = _LIST_AFTER_HEAD_RE.match(rest)
    if match and _heading_like(match.group("head"), 8):
        return _clean_heading(match.group("head")), match.end()
    match = _RUN_IN_RE.match(rest)
    if match and _heading_like(match.group("head"), 12) and not _QUOTED_DEF_RE.match(rest):
        head = match.group("head")
        if not re.search(r"\b(?:shall|will|may|must|means|is|are)\b", head):
            return _clean_heading(head), match.end()
    match = _CAPS_PREFIX_RE.match(rest)
    if match and _is_caps(match.group("head")) and len(match.group("head").split()) <= 10:
        return _clean_heading(match.group("head")), match.end()
    if _heading_like(rest) and rest.rstrip()[-1:] not in ".;,":
        return _clean_heading(rest), len(rest)
    return None, 0


def _label_shape(rest: str) -> str:
    """How a label is written: "head" alone or before a capitalised heading, else "text"."""
    if not rest:
        return "head"
    heading, _ = _split_heading(rest)
    return "head" if heading is not None and _is_caps(heading) else "text"


def _heading_key(rest: str) -> str:
    """The first letters of a label's line, to recognise the same heading written again."""
    letters = "".join(ch for ch in rest[:80].lower() if ch.isalpha())[:30]
    return letters if len(letters) >= 6 else ""


def _definition_term(text: str, in_defs: bool) -> str | None:
    """The term a definition entry defines, or None when ``text`` is not one."""
    match = _QUOTED_DEF_RE.match(text)
    if match:
        return match.group("term").strip()
    if in_defs:
        match = _PLAIN_DEF_RE.match(text)
        if match and len(match.group("term").split()) <= 8:
            return match.group("term").strip()
    return None


# --------------------------------------------------------------------------- parser


class _Parser:
    """One pass over the visible lines, building the outline of nodes."""

    def __init__(self, document: Document) -> None:
        self.text = document.text
        self.excluded = _excluded_spans(document)
        self.lines = _visible_lines(self.text, self.excluded)
        self.pdf = document.media_type == "pdf"
        self.root = _Node(style="root", family="root", parent=None)
        self.stack: list[_Node] = [self.root]
        self.nodes: list[_Node] = []
        self.paths: dict[str, int] = {}
        self.seen_structure = False  # any label or heading yet (else paragraphs are preamble)
        self.seen_body_label = False  # any numbered label yet (else Exhibit 10.1 is a header)
        self.preamble_count = 0
        self.headings_seen = 0
        self.zone = 0
        self.last_dec: dict[int, tuple[int, ...]] = {}
        self.last_top: int | None = None
        self.heading_line = -1  # index of a line already taken as the previous label's heading
        # After "IN WITNESS WHEREOF": "sentence" while its sentence runs on, then "block"
        # for the signature lines; "" elsewhere.
        self.signing = ""
        # (number, _heading_key) of numbered lines that end in a page number, as contents do
        self.numbered_headings: set[tuple[str | None, str]] = set()
        self.table_of = _table_of_lines(self.lines, document.tables)
        self.table_node: _Node | None = None
        self._layout_mode()
        self.toc = self._find_toc()
        self.schedule_listing = self._find_schedule_listings()
        # Where the agreement is signed ("IN WITNESS WHEREOF"), the first time.
        self.first_signature = next(
            (
                line.start
                for line in self.lines
                if self.text[line.start : line.start + 18].upper() == "IN WITNESS WHEREOF"
            ),
            None,
        )

    # ---- layout

    def _layout_mode(self) -> None:
        """Decide how paragraphs show in this document (see ``_para_start``)."""
        lengths = sorted(line.end - line.start for line in self.lines) or [0]
        self.p75 = lengths[int(len(lengths) * 0.75)]
        p90 = lengths[int(len(lengths) * 0.9)]
        blanks = sum(line.blank_before for line in self.lines)
        indented = sum(line.indent > 0 for line in self.lines)
        n = max(len(self.lines), 1)
        # PDFs and hard-wrapped text: a newline is only a wrap; lines hold one paragraph each
        # in most .txt files; privacy policies mark paragraph starts by indentation.
        self.soft_wrap = self.pdf or (p90 <= 100 and blanks > 0.05 * n)
        self.indent_mode = (
            not self.soft_wrap and blanks < 0.05 * n and 0.03 * n <= indented <= 0.7 * n
        )

    def _para_start(self, index: int) -> bool:
        """Does line ``index`` begin a new paragraph?"""
        line = self.lines[index]
        first = self.text[line.start]
        if first.islower():
            return False  # a page-break or wrap continuation
        if index == 0:
            return True
        if self.soft_wrap:
            if line.blank_before and not self.pdf:
                return True  # wrapped text files separate paragraphs by blank lines
            prev = self.lines[index - 1]
            prev_end = self.text[prev.end - 1]
            short = (prev.end - prev.start) < 0.85 * self.p75
            return prev_end in _TERMINAL and (short or line.blank_before)
        if self.indent_mode:
            return line.blank_before or line.indent > 0
        return True

    def _find_toc(self) -> list[bool]:
        """Mark lines that belong to a table of contents (runs of 'title ... page' lines).

        Only near the start of a document, where contents tables sit: elsewhere runs of
        lines ending in numbers are tables of amounts.
        """
        flags = [False] * len(self.lines)
        self.toc_limit = max(300, len(self.lines) // 6)
        run: list[int] = []
        misses = 0
        for index, line in enumerate(self.lines):
            s = self.text[line.start : line.end]
            if self._toc_like(s):
                run.append(index)
                misses = 0
                continue
            if run and (len(s) <= 40 or _TOC_HEAD_RE.match(s)) and misses < 3:
                misses += 1
                continue
            self._close_toc(run, flags)
            run, misses = [], 0
        self._close_toc(run, flags)
        return flags

    @staticmethod
    def _toc_like(s: str) -> bool:
        if not _TOC_END_RE.search(s):
            return bool(_TOC_HEAD_RE.match(s)) and len(s) < 60
        return len(s) <= 150 or len(_TOC_ENTRY_RE.findall(s)) >= 3

    def _close_toc(self, run: list[int], flags: list[bool]) -> None:
        """Accept a run as a TOC when it is long enough (or one line holding many entries)."""
        if not run:
            return
        if run[0] > self.toc_limit:
            return
        first = self.text[self.lines[run[0]].start : self.lines[run[0]].end]
        labelled = sum(1 for i in run if _TOC_LABEL_RE.match(self.text, self.lines[i].start))
        if labelled >= 3 or len(_TOC_ENTRY_RE.findall(first)) >= 3:
            for index in range(run[0], run[-1] + 1):
                flags[index] = True

    def _find_schedule_listings(self) -> set[int]:
        """Lines listing the schedules ("Exhibit A  Service Fees / Exhibit B  ..."), not heading them.

        A run of schedule lines a few lines apart that names different schedules, some of
        which a later schedule line names again (where each really starts), lists the
        attachments: in a table of contents or in a clause ("The following attachments
        are made part of this Agreement:").
        """
        found: list[tuple[int, tuple[str, str]]] = []
        for index, line in enumerate(self.lines):
            s = self.text[line.start : line.end]
            match = _SCHEDULE_RE.match(s)
            if match is None or match.group("num") is None:
                continue
            rest = s[match.end() :].lstrip()
            if rest and (rest[0].islower() or rest[0] in "(,;[" or _REFERENCE_REST_RE.match(rest)):
                continue
            if _PAGE_LABEL_RE.match(rest):
                continue
            word = " ".join(match.group("word").split()).lower().replace("annexure", "annex")
            found.append((index, (word, match.group("num").upper())))
        runs: list[list[tuple[int, tuple[str, str]]]] = []
        for item in found:
            if runs and item[0] - runs[-1][-1][0] <= _LISTING_GAP:
                runs[-1].append(item)
            else:
                runs.append([item])
        listed: set[int] = set()
        for run in runs:
            # The listing is the longest start of the run whose entries are named again
            # only after it, in the same order (real short schedules, one title line
            # each, may follow in the same run); two such entries at least. A cover page
            # ("EXHIBIT B / FORM OF ... / Exhibit B") names its schedule again at once.
            size = 0
            again: list[int] = []
            for position, (index, name) in enumerate(run):
                following = [later for later, other in found if later > index and other == name]
                if following:
                    if again and following[0] <= again[-1]:
                        break
                    again.append(following[0])
                if again and again[0] <= index:
                    break
                if len(again) >= 2:
                    size = position + 1
            listed.update(index for index, _ in run[:size])
        return listed

    # ---- main loop

    def run(self) -> list[_Unit]:
        """Parse every line, then return one unit per node in reading order."""
        toc_node: _Node | None = None
        caption: _Line | None = None
        for index, line in enumerate(self.lines):
            if index == self.heading_line:
                continue
            table = self.table_of[index]
            if table is not None and not self.toc[index]:  # a contents page stays contents
                if self.table_node is None or self.table_node.value != table:
                    self._open_table(table, caption)
                    caption = None
                self._append(self.table_node, line.start, line.end, body=True)
                continue
            self._close_table()
            if caption is not None:  # a caption-like line before a table it did not head
                self._line(index - 1, caption)
                caption = None
            if self._is_caption(index):
                caption = line
                continue
            if self.toc[index]:
                toc_node = toc_node or self._open_toc()
                self._append(toc_node, line.start, line.end)
                continue
            if toc_node is not None:
                self._pop_to(self.root)
                toc_node = None
            self._line(index, line)
        self._close_table()
        return [
            _Unit(node, node.pieces, _size(node.pieces), list(node.terms))
            for node in self.nodes
            if node.pieces
        ]

    def _line(self, index: int, line: _Line) -> None:
        """Handle one visible line; flattened lines holding whole pages are cut first."""
        cuts = self._inline_cuts(line) if line.end - line.start > _LONG_LINE else []
        if not cuts:
            self._line_part(index, line)
            return
        bounds = [line.start, *cuts, line.end]
        self._line_part(
            index,
            _Line(
                bounds[0], _rstrip(self.text, bounds[0], bounds[1]), line.indent, line.blank_before
            ),
        )
        for start, end in pairwise(bounds[1:]):
            end = _rstrip(self.text, start, end)
            label = self._inline_label(self.text[start:end])
            if label is not None:
                self._open_label(label, index, start, end)
            else:
                self._append(self.stack[-1], start, end, body=True)

    def _inline_cuts(self, line: _Line) -> list[int]:
        """Offsets inside a flattened line where a number could start a clause."""
        cuts = []
        for match in _INLINE_RE.finditer(self.text, line.start, line.end):
            before = self.text[max(line.start, match.start() - 20) : match.start()]
            word = _PREV_WORD_RE.search(before)
            if word is None or word.group(1).lower() in _REFERENCE_WORDS:
                continue  # "... under Section 4.2 Buyer ...": a reference
            if word.group(1)[-1] == "," or word.group(1)[-1].isdigit():
                continue
            if self.text[match.end()] == "(":
                if before[-1:] in ".;:":
                    cuts.append(match.end())
                continue
            number = _INLINE_NUMBER_RE.match(self.text, match.end())
            if number is None:
                continue
            if "." not in number.group("num")[:-1] and before[-1:] not in '.;:!?”")]':
                continue  # a bare "6." must follow a sentence end
            cuts.append(match.end())
        return cuts

    def _inline_label(self, s: str) -> _Label | None:
        """A number inside a flattened line counts only if it is the next number in sequence."""
        if s[:1] == "(":
            match = _PAREN_RE.match(s)
            if match is None:
                return None
            label = self._choose_list_reading(match.group("v"), "paren", match.end())
            if label is None or self._find_style(label.style) is not None:
                return label
            # A new inline list only opens inside a numbered clause, after its colon.
            top = self.stack[-1]
            if top.numbered and top.last_char == ":":
                return label
            return None
        match = _INLINE_NUMBER_RE.match(s)
        if match is None:
            return None
        tup = tuple(int(p) for p in match.group("num").rstrip(".").split("."))
        if len(tup) == 2 and tup[1] == 0:
            tup = tup[:1]  # "8.0 Indemnification" numbers a top-level section
        if not self._next_in_sequence(tup):
            return None
        num = ".".join(str(part) for part in tup)
        return self._decimal_from(num, match.end(), "", None, True)

    def _next_in_sequence(self, tup: tuple[int, ...]) -> bool:
        depth = len(tup)
        last = self.last_dec.get(depth)
        if self.last_top is None:
            return all(part == 1 for part in tup)  # the first number of the document
        if self._open_fits(_Label("decimal", f"dec{depth}", "", 0, tup[-1], tup)):
            return True  # "5." after "4. ... 1. 2. 3.": the outer sequence goes on
        if last is not None and last[:-1] == tup[:-1] and tup[-1] == last[-1] + 1:
            return True
        if depth == 1:
            return self.last_top is not None and tup[0] == self.last_top + 1
        if tup[-1] != 1:
            return False
        parent = self.last_dec.get(depth - 1)
        if parent is not None and parent == tup[:-1]:
            return True  # "6. Heading 6.1 ..."
        return last is not None and last[:-2] == tup[:-2] and tup[-2] == last[-2] + 1

    def _line_part(self, index: int, line: _Line) -> None:
        s = self.text[line.start : line.end]
        if s[:18].upper() == "IN WITNESS WHEREOF":
            self._pop_to(self.root)  # signature blocks belong to no section
            self._open_para(line)
            self.signing = "block" if s[-1] in _TERMINAL else "sentence"
            return
        if self.signing == "sentence":
            if not self._para_start(index):
                # The "IN WITNESS WHEREOF, ..." sentence wraps onto this line.
                self._append(self.stack[-1], line.start, line.end, body=True)
                self.signing = "block" if s[-1] in _TERMINAL else "sentence"
                return
            self.signing = "block"
        label = self._match_label(s, index)
        if label is not None:
            self.signing = ""
            self._open_label(label, index, line.start, line.end)
            return
        if self.signing:
            if self._signature_line(index):
                # Names, "By:", "/s/ ...", "Title: President": the block stays one clause.
                self._append(self.stack[-1], line.start, line.end, body=True)
                return
            self.signing = ""  # the first line after the block starts afresh
            self._pop_to(self.root)
            if self._standalone_heading(s, index, True):
                self._open_heading(s, line)
            else:
                self._open_para(line)
            return
        para = self._para_start(index)
        top = self.stack[-1]
        if top.family == "list" and not top.has_body and top.heading is None:
            # "A." alone on its line: the title-cased line below is its text, not a heading.
            self._append(top, line.start, line.end, body=True)
            return
        if self._standalone_heading(s, index, para):
            self._open_heading(s, line)
            return
        if top.family not in ("root", "heading", "para", "toc") and not top.has_body:
            # "1." alone on a line (PDF layout): this line is its text, whatever it looks like.
            if top.kind == "clause":
                self._set_definition_kind(top, s)
            self._append(top, line.start, line.end, body=True)
            return
        if para or self.text[line.start] in '“"':
            term = _definition_term(s, top.in_defs or self._in_defs())
            if term is not None and (para or _QUOTED_DEF_RE.match(s)):
                self._open_definition(term, line)
                return
        if para and (
            top is self.root or top.family == "para" or (top.unlabelled_heading and top.has_body)
        ):
            self._open_para(line)
            return
        if top is self.root:
            self._open_para(line)
            return
        self._append(top, line.start, line.end, body=True)

    def _signature_line(self, index: int) -> bool:
        """Is line ``index`` part of a signature block ("By:", "/s/ Jane Roe", "ACME LLC")?"""
        line = self.lines[index]
        s = self.text[line.start : line.end]
        if _SIGNATURE_FIELD_RE.match(s) or _SIGNATURE_MARK_RE.match(s):
            return len(s) <= 200  # "By: ... Name: ... Title: ..." may share one line
        if len(s) > 90:
            return False
        prev = self.lines[index - 1]
        words = len(s.split())
        if (
            _SIGNATURE_FIELD_RE.match(self.text[prev.start : prev.end])
            and words <= 6
            and (s[-1] != "." or words <= 2)
        ):
            return True  # the value of a field: "President", "1/8/18"
        if words <= 10:
            # A party's name ("ACME CORP.", "Acme Mask Corporation"), when signature lines follow.
            for ahead in range(index + 1, min(index + 5, len(self.lines))):
                following = self.text[self.lines[ahead].start : self.lines[ahead].end]
                if _SIGNATURE_FIELD_RE.match(following) or _SIGNATURE_MARK_RE.match(following):
                    return True
        return False

    def _in_defs(self) -> bool:
        return any(node.in_defs for node in self.stack[-3:])

    # ---- labels

    def _match_label(self, s: str, index: int) -> _Label | None:
        """The label starting line ``index`` (text ``s``), if it is a real one."""
        for matcher in (
            self._schedules_label,
            self._word_label,
            self._code_label,
            self._decimal_label,
            self._list_label,
            self._bullet_label,
        ):
            label = matcher(s, index)
            if label is not None:
                return label
        return None

    def _word_label(self, s: str, index: int) -> _Label | None:
        first = s[:1]
        if first not in "APSCE§":
            return None
        for regex, family in (
            (_ARTICLE_RE, "article"),
            (_SECTION_LETTER_RE, "article"),
            (_SECTION_RE, "decimal"),
            (_SCHEDULE_RE, "schedule"),
        ):
            match = regex.match(s)
            if match is None:
                continue
            rest = s[match.end() :].lstrip()
            if rest and (rest[0].islower() or rest[0] in "(,;[" or _REFERENCE_REST_RE.match(rest)):
                return None  # "Section 12 (Miscellaneous) of ...": a reference, not a label
            word = " ".join(match.group("word").split())
            num = match.group("num")
            if family == "schedule":
                return self._schedule_label(word, num, match.group(0), rest, index)
            if family == "article":
                if num is None or (word.lower() == "part" and not rest and not _is_caps(s)):
                    return None
                value = _roman(num) or (int(num) if num.isdigit() else ord(num[0]) - 64)
                if value <= 0 or (len(num) > 1 and not num.isdigit() and _roman(num) is None):
                    return None
                comp = f"{word} {num}"
                return _Label("article", "article", comp, match.end(), value, (value,), 1)
            return self._decimal_from(num, match.end(), rest, word, strong=True)
        return None

    def _schedules_label(self, s: str, index: int) -> _Label | None:
        """A line "Schedules:" or "LIST OF EXHIBITS" alone heads the list of the schedules."""
        if s[:1] not in "SEAL" or not self.seen_body_label:
            return None
        match = _SCHEDULES_RE.match(s)
        if match is None or self._before_the_body(index) or self._sequence_resumes_after(index):
            return None
        return _Label("schedule", "schedule", match.group("word"), match.end(), 0, (), 0)

    def _schedule_label(
        self, word: str, num: str | None, matched: str, rest: str, index: int
    ) -> _Label | None:
        # Before the body starts, "Exhibit 10.28" is the filing's cover header, not an annex.
        if not self.seen_body_label:
            return None
        if num is None and (rest or matched.endswith(".")):
            return None  # "Schedule." ends a sentence ("... specified in the Policy / Schedule.")
        if rest and not (_heading_like(rest) or rest[0] in "-–—:."):
            return None
        if _PAGE_LABEL_RE.match(rest):
            return None  # "Annex A Page 5": a page footer
        if index in self.schedule_listing or self._before_the_body(index):
            return None  # an entry of a list of the schedules, which start further on
        if re.search(rf"(?i)\b{word}\s+[A-Z0-9]{{1,4}}\s*[-–—:]", rest):
            return None  # "Exhibit A - Form of ... Exhibit B - Form of ...": a list on one line
        if index > 0:
            prev = self.lines[index - 1]
            words = self.text[max(prev.start, prev.end - 20) : prev.end].split()
            if words and words[-1] in _CONNECTORS:
                return None  # "... as provided in this / Schedule.": a wrapped sentence
        if self._sequence_resumes_after(index):
            return None  # "Schedule E" in a table cell of the body: a reference, not a container
        comp = f"{word} {num}" if num else word
        return _Label("schedule", "schedule", comp, len(matched), 0, (), 0)

    def _before_the_body(self, index: int) -> bool:
        """Is line ``index`` ahead of most of the agreement (a cover page, a contents table)?

        Schedules are attached after the agreement is signed; forms in them may be signed
        too, but the first "IN WITNESS WHEREOF" is not more than half the text away.
        """
        if self.first_signature is None:
            return False
        gap = self.first_signature - self.lines[index].start
        return gap > _FRONT_MATTER_SHARE * len(self.text)

    def _sequence_resumes_after(self, index: int) -> bool:
        """Does the first numbered label after line ``index`` continue a sequence open now?

        An attached schedule starts afresh: a title, text, a list restarting at "1." or
        "(a)". When the next label instead carries on the body's numbering ("(b)" after an
        open "(a)", "(viii)" after "(vii)", "5." after "4."), the schedule line was a cell of
        a table or a wrapped reference inside the body. So does a first section that repeats
        an entry of a contents table ("1. INTRODUCTION AND DEFINITIONS" after "1.
        INTRODUCTION AND DEFINITIONS ..... 3", a table ``_find_toc`` missed): the body has
        yet to start. Other schedule
        lines in between decide nothing ("Schedule C" / "Schedule D" cells of one table).
        """
        stop = min(len(self.lines), index + 1 + _SCHEDULE_LOOKAHEAD)
        for ahead in range(index + 1, stop):
            if self.toc[ahead]:
                continue
            line = self.lines[ahead]
            s = self.text[line.start : line.end]
            if _SCHEDULE_RE.match(s) or _SCHEDULES_RE.match(s):
                continue
            label = self._match_label(s, ahead)
            if label is None or label.comp is None or label.family == "schedule":
                continue
            key = _heading_key(s[label.end :])
            if key and label.value == 1 and (label.comp, key) in self.numbered_headings:
                return True  # "1. INTRODUCTION" again: what came before was a contents table
            return self._continues_open_sequence(label)
        return False

    def _continues_open_sequence(self, label: _Label) -> bool:
        """Is ``label`` the next number of a sequence that is open at this point?"""
        if label.family == "decimal":
            tup = label.tup
            if self._open_fits(label):
                return True
            last = self.last_dec.get(len(tup))
            if last is not None and last[:-1] == tup[:-1] and tup[-1] == last[-1] + 1:
                return True
            if self.last_top is not None and tup[0] == self.last_top + 1:
                return all(part == 1 for part in tup[1:])  # "5." or "5.1" after section 4
            return len(tup) > 1 and tup[-1] == 1 and self.last_dec.get(len(tup) - 1) == tup[:-1]
        if label.family == "list":
            return label.value > 1  # a list reading above 1 is only chosen to continue a list
        if label.family == "article":
            return any(
                node.style == "article" and label.value == node.value + 1 for node in self.stack
            )
        return False

    def _code_label(self, s: str, index: int) -> _Label | None:
        if s[:1] not in "EeCcDd":
            return None
        match = _CODE_RE.match(s)
        if match is None:
            return None
        if match.group("excl"):
            digits = re.sub(r"\D", "", match.group("excl"))
            return _Label("code", "code:excl", f"Excl{digits}", match.end(), int(digits))
        digits = match.group("def")
        return _Label("code", "code:def", f"Def.{digits}", match.end(), int(digits))

    def _decimal_label(self, s: str, index: int) -> _Label | None:
        if not s[:1].isdigit():
            return None
        match = _DECIMAL_RE.match(s)
        if match is None:
            return None
        rest = s[match.end() :].lstrip()
        num = match.group("num")
        if "." not in num and not match.group("dot"):
            # A bare integer is an amount, a date or a page number unless a capitalised
            # heading follows on the same line ("1 PREAMBLE", "2 DEFINITIONS").
            head = rest.split("   ")[0]
            if not (rest and _is_caps(head) and _heading_like(head)):
                return None
        strong = bool(match.group("dot")) or not rest or rest[0].isupper() or rest[0] in '“"('
        return self._decimal_from(num, match.end(), rest, None, strong)

    def _decimal_from(
        self, num: str, end: int, rest: str, word: str | None, strong: bool
    ) -> _Label | None:
        parts = num.split(".")
        tup = tuple(int(p) for p in parts)
        if tup[0] == 0 or (tup[0] > _MAX_UNSEQUENCED_NUMBER and not self._continues_top(tup)):
            return None
        if len(tup) > 1 and tup[-1] == 0:
            # "1.0 DEFINITIONS" is article 1 written with a zero; "10.00" is money.
            if len(tup) == 2 and parts[1] == "0" and rest and _heading_like(rest.split("   ")[0]):
                tup = tup[:1]
            else:
                return None
        if not strong and not self._decimal_plausible(tup):
            return None
        if word is not None and len(tup) == 1:
            comp = f"{word.capitalize() if word.islower() else word} {tup[0]}"
        else:
            comp = ".".join(str(p) for p in tup) if num.endswith(".0") else num
        return _Label("decimal", f"dec{len(tup)}", comp, end, tup[-1], tup)

    def _continues_top(self, tup: tuple[int, ...]) -> bool:
        """A high number ("301.", "1204.3") only as the next step of the open numbering.

        Years, amounts and street numbers start lines too; below the bound any number
        may open a section, above it only one that continues the document's sequence
        (statutes and schedules run to thousands of numbered items).
        """
        if self.last_top is None:
            return False
        if len(tup) == 1:
            return tup[0] == self.last_top + 1
        last = self.last_dec.get(len(tup))
        return tup[0] == self.last_top and last is not None and last[:-1] == tup[:-1] and (
            tup[-1] == last[-1] + 1
        ) or (tup[0] == self.last_top + 1 and all(part == 1 for part in tup[1:]))

    def _decimal_plausible(self, tup: tuple[int, ...]) -> bool:
        """Does an unmarked number fit the numbering seen so far (else: an amount)?"""
        last = self.last_dec.get(len(tup))
        if tup[-1] == 1:
            return True
        if last is None:
            return tup[-1] <= 3
        if tup[:-1] == last[:-1]:
            return last[-1] < tup[-1] <= last[-1] + 5
        return tup[:-1] > last[:-1] and tup[-1] <= 3

    def _list_label(self, s: str, index: int) -> _Label | None:
        first = s[:1]
        if first == "(":
            match, form = _PAREN_RE.match(s), "paren"
        elif first.isalnum():
            match, form = _HALF_RE.match(s), "half"
            if match is None and first.isalpha():
                match, form = _DOT_RE.match(s), "dot"
        else:
            return None
        if match is None:
            return None
        rest = s[match.end() :].lstrip()
        if rest and _REFERENCE_REST_RE.match(rest) and rest[0].islower():
            return None  # "Section 3\n(a) hereof": a wrapped reference
        if index > 0 and not self._prev_allows_list(index, rest):
            return None
        value = match.group("v")
        if form == "dot" and len(value) == 1 and value.isupper() and rest[:1].islower():
            return None  # "A. smith" style initials
        label = self._choose_list_reading(value, form, match.end())
        return label

    def _prev_allows_list(self, index: int, rest: str) -> bool:
        """False when the previous line ends mid-reference ("... pursuant to Section 3").

        A reference that ends its sentence ("... pursuant to Section 2.") does not run on
        into a "(b) Heritage shall ..." that starts a new one.
        """
        prev = self.lines[index - 1]
        tail = self.text[max(prev.start, prev.end - 30) : prev.end]
        if tail.endswith(".") and rest[:1].isupper():
            return True
        return _REFERENCE_TAIL_RE.search(tail) is None

    def _choose_list_reading(self, value: str, form: str, end: int) -> _Label | None:
        """Letter or roman? Pick the reading that continues an open list, else a list start."""
        readings: list[tuple[str, int, str]] = []
        roman = _roman(value)
        if value.isdigit():
            readings.append(("digit", int(value), value))
        else:
            letter = _letter_value(value)
            case = "lower" if value.islower() else "upper"
            if roman is not None:
                readings.append(("roman" if case == "lower" else "ROMAN", roman, value))
            if letter is not None and (len(value) == 1 or roman is None):
                readings.append((case, letter, value))
        if not readings:
            return None
        if form == "dot" and any(r[0] == "digit" for r in readings):
            return None
        candidates = [
            _Label("list", f"{form}:{cls}", f"({text})", end, val) for cls, val, text in readings
        ]
        for label in candidates:
            node = self._find_style(label.style)
            if node is not None and node.value < label.value <= node.value + 3:
                return label
        for label in candidates:
            if self._open_fits(label):
                return label  # "(f)" after "(e)" whose sub-list "(a)", "(b)" is still open
        for label in candidates:
            if label.value == 1:
                return label
        return None

    def _bullet_label(self, s: str, index: int) -> _Label | None:
        match = _BULLET_RE.match(s)
        if match is None:
            return None
        char = s[0]
        if char in _WEAK_BULLETS and index > 0:
            prev = self.lines[index - 1]
            prev_text = self.text[prev.start : prev.end]
            if not (prev.end > prev.start and (prev_text[-1] in ":;." or prev_text[0] == char)):
                return None  # a dash or "o" inside running text, not a list
        return _Label("bullet", f"bullet:{char}", None, match.end())

    # ---- placing nodes

    def _find_style(self, style: str) -> _Node | None:
        for node in reversed(self.stack):
            if node.style == style:
                return node
            if node.rank is not None:
                return None
        return None

    def _open_fits(self, label: _Label) -> list[int]:
        """Stack indices (deepest first) of open nodes ``label`` is the very next item of.

        For a decimal that is an open number of the same depth and prefix, one less
        ("5." after "4.", "4.3" after "4.2"); for a list item, an open item of the same
        style one less ("(f)" after "(e)"). Only nodes below the innermost ARTICLE or
        Schedule count.
        """
        fits: list[int] = []
        for index in range(len(self.stack) - 1, 0, -1):
            node = self.stack[index]
            if node.rank is not None:
                break
            if node.style != label.style or label.value != node.value + 1:
                continue
            if label.family == "decimal" and node.tup[:-1] != label.tup[:-1]:
                continue
            fits.append(index)
        return fits

    def _pick_fit(self, fits: list[int], shape: str) -> int:
        """Of several open sequences a label continues, the one written like it, else the deepest.

        After "1. BASIC TERMS ... (e) ... 1. Weekly report", a "2." continues both lists;
        "2." alone on its line above a heading continues the outer one, "2. Monthly
        report" the inner one.
        """
        for index in fits:
            if self.stack[index].shape == shape:
                return index
        return fits[0]

    def _parent_for(self, label: _Label, shape: str = "") -> _Node:
        """Pop the stack to where ``label`` belongs and return its parent.

        A label that is the next item of an open sequence continues it, even when a
        deeper list of the same style was opened since ("5." after "4. ... (e) 1. 2. 3."
        is a top-level section again).
        """
        stack = self.stack
        if label.rank is not None:
            while len(stack) > 1 and (stack[-1].rank is None or stack[-1].rank >= label.rank):
                stack.pop()
            return stack[-1]
        fits = self._open_fits(label) if label.comp is not None else []
        if fits:
            index = self._pick_fit(fits, shape) - 1
        elif label.family == "decimal":
            index = self._decimal_parent_index(label.tup)
        else:
            index = self._style_parent_index(label)
        return self._capture(index, label.style)

    def _decimal_parent_index(self, tup: tuple[int, ...]) -> int:
        depth = len(tup)
        if tup == (1,) and any(node.family == "decimal" for node in self.stack):
            return len(self.stack) - 1  # "1." inside a numbered section starts a sub-list
        for index in range(len(self.stack) - 1, 0, -1):
            node = self.stack[index]
            if node.rank is not None:
                return index
            if node.family != "decimal":
                continue
            node_depth = len(node.tup)
            if node_depth < depth and tup[:node_depth] == node.tup:
                return index
            if node_depth == depth and node.tup[:-1] == tup[:-1]:
                return index - 1
        return 0

    def _style_parent_index(self, label: _Label) -> int:
        top = len(self.stack) - 1
        for index in range(top, 0, -1):
            node = self.stack[index]
            if node.rank is not None:
                break
            if node.style == label.style:
                if label.family == "list" and label.value <= node.value:
                    # A new "(a)": a sub-list when the open item announced one, else a restart.
                    if index == top and node.last_char not in ":—–-":
                        return index - 1
                    return top
                return index - 1
        return top

    def _capture(self, index: int, style: str) -> _Node:
        """Pop to ``stack[index]``, letting a just-closed unnumbered heading adopt the label."""
        heading = self.stack[index + 1] if index + 1 < len(self.stack) else None
        if (
            heading is not None
            and heading.unlabelled_heading
            and not heading.preamble
            and (not heading.child_styles or heading.child_styles == {style})
        ):
            index += 1
        del self.stack[index + 1 :]
        return self.stack[index]

    def _pop_to(self, node: _Node) -> None:
        while self.stack[-1] is not node and len(self.stack) > 1:
            self.stack.pop()

    def _new_node(
        self,
        parent: _Node,
        style: str,
        family: str,
        comp: str | None,
        path: str | None = None,
        label: _Label | None = None,
    ) -> _Node:
        node = _Node(style=style, family=family, parent=parent, comp=comp)
        if label is not None:
            node.value, node.tup, node.rank = label.value, label.tup, label.rank
        node.in_defs = parent.in_defs
        parent.child_styles.add(style)
        if parent is self.root and family != "para":
            self.zone += 1  # a new top-level unit: tiny fragments never merge across it
        node.zone = self.zone
        node.path = self._unique(path or self._path_for(node))
        self.stack.append(node)
        self.nodes.append(node)
        return node

    def _path_for(self, node: _Node) -> str:
        anchor = node.parent
        while anchor is not None and anchor is not self.root and not anchor.numbered:
            anchor = anchor.parent
        base = anchor.path if anchor is not None and anchor is not self.root else ""
        if node.comp is None:
            if not base and not self.seen_body_label:
                self.preamble_count += 1
                return f"preamble¶{self.preamble_count}"
            holder = anchor if anchor is not None else self.root
            holder.counter += 1
            return f"{base}¶{holder.counter}"
        if not base:
            return node.comp
        if node.family == "decimal" and anchor is not None:
            carried = anchor.tup and node.tup[: len(anchor.tup)] == anchor.tup
            if carried and len(node.tup) > len(anchor.tup) and "." in node.comp:
                return node.comp
            if anchor.family == "decimal" and carried and "." in node.comp:
                return node.comp
        if (
            node.family == "list"
            and anchor is not None
            and anchor.family not in ("article", "schedule")
        ):
            return base + node.comp
        return f"{base}/{node.comp}"

    def _unique(self, path: str) -> str:
        count = self.paths.get(path, 0) + 1
        self.paths[path] = count
        return path if count == 1 else f"{path}~{count}"

    def _append(self, node: _Node, start: int, end: int, body: bool = False) -> None:
        if end <= start:
            return
        node.pieces.append((start, end))
        node.last_char = self.text[end - 1]
        node.has_body = node.has_body or body

    # ---- opening nodes

    def _open_label(self, label: _Label, index: int, start: int, end: int) -> None:
        """Open a node for ``label`` found at ``start``; the line runs to ``end``."""
        rest_start = _skip_space(self.text, start + label.end, end)
        rest = self.text[rest_start:end]
        shape = _label_shape(rest)
        parent = self._parent_for(label, shape)
        node = self._new_node(parent, label.style, label.family, label.comp, label=label)
        node.shape = shape
        self.seen_structure = True
        if label.family == "decimal":
            self.last_top = label.tup[0]
            self.last_dec[len(label.tup)] = label.tup
            for depth in [d for d in self.last_dec if d > len(label.tup)]:
                del self.last_dec[depth]
        if label.family in ("decimal", "article", "list", "code"):
            self.seen_body_label = True
        if label.family in ("decimal", "article") and _TOC_END_RE.search(self.text[start:end]):
            # "1.  INTRODUCTION ........ 3": an entry of a contents table _find_toc missed.
            self.numbered_headings.add(
                (label.comp, _heading_key(self.text[start + label.end : end]))
            )
        # A bullet's text is its content, however title-cased it looks.
        heading, body_offset = (None, 0) if label.family == "bullet" else _split_heading(rest)
        node.heading = heading
        body_start = _skip_space(self.text, rest_start + body_offset, end)
        body = self.text[body_start:end]
        child = self._run_in_child(body, index, heading is not None)
        if child is not None:
            self._append(node, start, body_start)
            self._trim_last_piece(node)
        else:
            self._append(node, start, end, body=bool(body))
        whole_line = end == self.lines[index].end
        if heading is None and not rest and whole_line and label.family != "bullet":
            node.heading = self._heading_from_next_line(index, node)
        node.in_defs = node.in_defs or _mentions_definitions(node.heading)
        self._set_definition_kind(node, body)
        if child is not None:
            self._open_label(child, index, body_start, end)

    def _run_in_child(self, body: str, index: int, after_heading: bool) -> _Label | None:
        """A child label right after a heading ("B. Heading   (a) ...") or a number ("1.1 (a)")."""
        if not body or not (after_heading or body[0] == "("):
            return None
        child = self._match_label(body, index)
        if child is None or child.family not in ("list", "decimal", "code"):
            return None
        if not after_heading and child.value != 1:
            return None
        return child

    def _trim_last_piece(self, node: _Node) -> None:
        if not node.pieces:
            return
        start, end = node.pieces[-1]
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if end > start:
            node.pieces[-1] = (start, end)
        else:
            node.pieces.pop()

    def _heading_from_next_line(self, index: int, node: _Node) -> str | None:
        """A label alone on its line ("1.1", "ARTICLE I") often has its heading below it."""
        if index + 1 >= len(self.lines) or self.toc[index + 1]:
            return None
        nxt = self.lines[index + 1]
        s = self.text[nxt.start : nxt.end]
        if len(s) > 100 or not _heading_like(s, 12) or s[-1] in ".;," or ": " in s:
            return None
        if self._match_label(s, index + 1) is not None:
            return None
        if not (
            _is_caps(s)
            or node.family in ("article", "schedule", "decimal", "code")
            or s.endswith((":-", ":"))
        ):
            return None
        self.heading_line = index + 1
        self._append(node, nxt.start, nxt.end)
        return _clean_heading(s)

    def _set_definition_kind(self, node: _Node, body: str) -> None:
        in_defs = node.parent is not None and node.parent.in_defs
        term = _definition_term(body, in_defs)
        if (
            term is None
            and in_defs
            and node.heading
            and node.family in ("decimal", "code")
            and len(node.heading.split()) <= 6
        ):
            term = node.heading  # "1. Accident:-" under a Definitions heading
        if term is not None:
            node.kind = "definition"
            node.terms = [term]

    def _standalone_heading(self, s: str, index: int, para: bool) -> bool:
        """An unnumbered heading line: short, capitalised or title-cased, on its own."""
        if len(s) > 90 or not para or s[-1] in ",;" or ": " in s.rstrip(":"):
            return False
        caps = _is_caps(s)
        if caps:
            if not _heading_like(s, 12) or (s.endswith(".") and len(s.split()) > 4):
                return False
        elif s.endswith(".") or len(s) > 70 or not _heading_like(s, 8) or _has_digit(s):
            return False  # a title-cased line with numbers is a page header or a table row
        if index + 1 < len(self.lines) and self.soft_wrap:
            nxt = self.lines[index + 1]
            if self.text[nxt.start].islower():
                return False  # the line wraps into a sentence
            if (
                caps
                and (nxt.end - nxt.start) > 40
                and _is_caps(self.text[nxt.start : nxt.end])
                and not nxt.blank_before
                and len(s) > 50
            ):
                return False  # first line of a capitalised paragraph
        return _definition_term(s, True) is None

    def _open_heading(self, s: str, line: _Line) -> None:
        style = "hcaps" if _is_caps(s) else "htitle"
        while len(self.stack) > 1 and (
            self.stack[-1].family in ("para", "bullet", "def")
            or (self.stack[-1].preamble and self.stack[-1].style == "htitle")
        ):
            self.stack.pop()  # headings never sit inside a paragraph, bullet or title block
        index = len(self.stack) - 1
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].rank is not None:
                break
            if self.stack[i].style == style:
                index = i - 1
                break
        del self.stack[index + 1 :]
        self.seen_structure = True
        if self.headings_seen and style == "hcaps":
            self.seen_body_label = True  # a second capitalised heading: the body has begun
        self.headings_seen += 1
        node = self._new_node(self.stack[-1], style, "heading", None)
        node.preamble = not self.seen_body_label
        node.heading = _clean_heading(s)
        node.in_defs = node.in_defs or bool(re.search(r"(?i)\bdefin", s))
        self._append(node, line.start, line.end)

    def _open_para(self, line: _Line) -> None:
        top = self.stack[-1]
        if top.family == "para":
            self.stack.pop()
        node = self._new_node(self.stack[-1], "para", "para", None)
        self._append(node, line.start, line.end, body=True)

    def _open_definition(self, term: str, line: _Line) -> None:
        index = len(self.stack) - 1
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].rank is not None:
                break
            if self.stack[i].style == "def":
                index = i - 1
                break
        while index > 0 and self.stack[index].family in ("para",):
            index -= 1
        del self.stack[index + 1 :]
        node = self._new_node(self.stack[-1], "def", "def", None)
        node.kind = "definition"
        node.terms = [term]
        self._append(node, line.start, line.end, body=True)

    def _is_caption(self, index: int) -> bool:
        """A short line right before a table, not a sentence ("Table of Benefits:")."""
        if index + 1 >= len(self.lines) or self.table_of[index + 1] is None:
            return False
        line = self.lines[index]
        s = self.text[line.start : line.end]
        return (len(s) <= _CAPTION_CHARS and s[-1] not in ".;,"
                and self._match_label(s, index) is None)

    def _open_table(self, number: int, caption: _Line | None) -> None:
        """A table is one clause, under the section it sits in; a captioned table
        ("Table of Benefits", "Schedule of ...") stands on its own under the outline's
        containers (schedule, article), as the caption closes the numbered sections."""
        self._close_table()
        heading = _clean_heading(self.text[caption.start : caption.end]).rstrip(" :-") \
            if caption is not None else None
        if heading and _STANDALONE_TABLE_RE.match(heading):
            while len(self.stack) > 1 and self.stack[-1].rank is None:
                self.stack.pop()
        while len(self.stack) > 1 and self.stack[-1].family in ("para", "bullet", "def"):
            self.stack.pop()
        parent = self.stack[-1]
        anchor = parent
        while anchor is not self.root and not anchor.numbered:
            anchor = anchor.parent
        name = f"Table {number}"
        path = name if anchor is self.root else f"{anchor.path}/{name}"
        node = self._new_node(parent, "table", "table", None, path=path)
        node.kind, node.heading, node.value = "table", heading, number
        if caption is not None:
            self._append(node, caption.start, caption.end, body=True)
        self.table_node = node

    def _close_table(self) -> None:
        if self.table_node is not None and self.table_node in self.stack:
            del self.stack[self.stack.index(self.table_node):]
        self.table_node = None

    def _open_toc(self) -> _Node:
        self._pop_to(self.root)
        node = self._new_node(self.root, "toc", "toc", None, path="contents")
        node.heading = "Table of Contents"
        return node


def _table_of_lines(lines: list[_Line], tables: list[Table]) -> list[int | None]:
    """For each line, the number of the table it belongs to (None outside tables)."""
    spans = sorted((t.start, t.end, t.number) for t in tables)
    starts = [start for start, _, _ in spans]
    out: list[int | None] = []
    for line in lines:
        index = bisect_right(starts, line.start) - 1
        inside = index >= 0 and line.start < spans[index][1]
        out.append(spans[index][2] if inside else None)
    return out


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _size(pieces: list[Span]) -> int:
    return sum(end - start for start, end in pieces)


# --------------------------------------------------------------------------- merging


def _is_descendant(node: _Node, ancestor: _Node) -> bool:
    current = node.parent
    while current is not None:
        if current is ancestor:
            return True
        current = current.parent
    return False


def _merge_headings(units: list[_Unit]) -> list[_Unit]:
    """Fold heading-only units into the unit after them when it is their descendant."""
    out: list[_Unit] = []
    carry: list[_Unit] = []
    for unit in units:
        # Only a run of headings that are all ancestors of this unit can join it; the
        # others have nothing below them and stay heading clauses.
        keep = len(carry)
        while keep > 0 and _is_descendant(unit.node, carry[keep - 1].node):
            keep -= 1
        out.extend(carry[:keep])
        carry = carry[keep:]
        if not unit.node.has_body and unit.node.family != "toc":
            carry.append(unit)
            continue
        for held in reversed(carry):
            unit = _joined(held, unit, unit.node)
        carry = []
        out.append(unit)
    out.extend(carry)
    for unit in out:
        if not unit.node.has_body and unit.node.family != "toc":
            unit.node.kind = "heading"
    return out


def _merge_tiny(units: list[_Unit], min_chars: int) -> list[_Unit]:
    """Fold units under ``min_chars`` into their neighbour within the same top-level zone.

    A tiny numbered item joins the unit before it only when that unit is its ancestor or
    its sibling; a tiny item that heads a list ("iii. Two years waiting period" over "a.
    Cataract") or follows a deeper item of another branch joins the unit after it instead,
    so no list item ends up under a heading it does not sit under. A table is a clause
    of its own whatever its size: it neither takes in nor joins a neighbour.
    """
    out: list[_Unit] = []
    pending: _Unit | None = None
    for position, unit in enumerate(units):
        if pending is not None:
            if pending.node.zone == unit.node.zone and unit.node.family != "table":
                heads = _is_descendant(unit.node, pending.node)
                unit = _joined(pending, unit, pending.node if heads else unit.node)
            else:
                out.append(pending)
            pending = None
        if unit.size < min_chars and unit.node.family not in ("toc", "table"):
            following = units[position + 1] if position + 1 < len(units) else None
            heads_list = (unit.node.numbered and following is not None
                          and _is_descendant(following.node, unit.node))
            if unit.node.numbered and not heads_list and unit.size >= _SHORT_ITEM_CHARS:
                out.append(unit)  # "6. Ectopic pregnancy": a short item, but an item
                continue
            if (out and not heads_list and out[-1].node.zone == unit.node.zone
                    and out[-1].node.family not in ("toc", "table") and _may_absorb(out[-1].node, unit.node)):
                out[-1] = _joined(out[-1], unit, out[-1].node)
                continue
            pending = unit
            continue
        out.append(unit)
    if pending is not None:
        out.append(pending)
    return out


_SHORT_ITEM_CHARS = 15


def _may_absorb(previous: _Node, tiny: _Node) -> bool:
    """Whether a tiny unit may join the unit before it (its ancestor or its sibling)."""
    if not tiny.numbered:
        return True
    return _is_descendant(tiny, previous) or previous.parent is tiny.parent


def _merge_lead_in_lists(units: list[_Unit], text: str, max_chars: int) -> list[_Unit]:
    """A definition that ends in a colon ("Hospital means ... all minimum criteria as
    under:") keeps the list items under it, up to ``max_chars``: a definition without its
    criteria does not answer what the term means."""
    out: list[_Unit] = []
    for unit in units:
        lead = out[-1] if out else None
        if (lead is not None and lead.node.kind == "definition" and _ends_with_colon(text, lead)
                and unit.node.numbered and unit.node.kind != "definition"
                and _is_descendant(unit.node, lead.node) and lead.size + unit.size <= max_chars):
            out[-1] = _joined(lead, unit, lead.node)
            out[-1].lead_open = True
            continue
        out.append(unit)
    return out


def _ends_with_colon(text: str, unit: _Unit) -> bool:
    if getattr(unit, "lead_open", False):
        return True
    last = unit.pieces[-1][1] if unit.pieces else 0
    tail = text[max(0, last - 3):last].rstrip()
    return tail.endswith((":", ":-", "—", "–"))


# --------------------------------------------------------------------------- clauses


class _Segments:
    """Turns runs of pieces into segments that break only at excluded spans."""

    def __init__(self, document: Document) -> None:
        self.starts = [start for start, _ in _excluded_spans(document)]

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


def _build_clauses(document: Document, units: list[_Unit], max_chars: int) -> list[Clause]:
    joiner = _Segments(document)
    clauses: list[Clause] = []
    for unit in units:
        segments = joiner.join(unit.pieces)
        size = sum(end - start for start, end in segments)
        if size > max_chars:
            table = unit.node.kind == "table"
            windows = (_row_groups if table else _windows)(document.text, segments, max_chars)
            for number, window in enumerate(windows, 1):
                kind = "table" if table else "window"
                clauses.append(
                    _clause(document, unit, window, f"#w{number}", kind, len(clauses))
                )
        else:
            clauses.append(_clause(document, unit, segments, "", unit.node.kind, len(clauses)))
    return clauses


def _clause(
    document: Document, unit: _Unit, segments: list[Span], suffix: str, kind: str, order: int
) -> Clause:
    node = unit.node
    span = (segments[0][0], segments[-1][1])
    return Clause(
        clause_id=f"{document.key}:{node.path}{suffix}",
        doc_id=document.doc_id,
        number=_number(node),
        section_path=_section_path(node),
        heading=node.heading,
        text=Clause.join_segments(document.text, segments),
        span=span,
        segments=segments,
        pages=document.pages_of(span),
        order=order,
        kind=kind,
        defined_terms=list(dict.fromkeys(unit.terms)),
    )


def _number(node: _Node) -> str | None:
    if node.comp is None:
        return None
    # "~2" marks a repeated path anywhere in it ("6~2(i)/2/Excl02"): not part of the number
    return _REPEAT_MARK_RE.sub("", node.path).rsplit("/", 1)[-1]


def _display(node: _Node) -> str:
    number = _number(node)
    parts = [part for part in (number, node.heading) if part]
    return " ".join(parts) if parts else node.path.rsplit("/", 1)[-1]


def _section_path(node: _Node) -> list[str]:
    labels: list[str] = []
    current = node.parent
    while current is not None and current.family != "root":
        labels.append(_display(current))
        current = current.parent
    return labels[::-1]


def _windows(text: str, segments: list[Span], max_chars: int) -> list[list[Span]]:
    """Cut a long clause into runs of whole sentences of at most ``max_chars`` each.

    A sentence longer than a window is cut at the best break (``; ``, then ``, ``, then a
    space) that fills the current window, so no window is a sliver.
    """
    seg_ends = [end for _, end in segments]
    windows: list[list[Span]] = []
    current: list[Span] = []
    size = 0
    for start, stop in _sentences(text, segments):
        while stop > start:
            gap = 0
            if current and bisect_left(seg_ends, current[-1][1]) == bisect_left(seg_ends, stop):
                gap = start - current[-1][1]  # the space between sentences counts too
            room = max_chars - size - gap
            if stop - start <= room:
                current.append((start, stop))
                size += gap + stop - start
                break
            if stop - start > max_chars and room >= max_chars // 4:
                cut = _break_before(text, start, start + room)
                if cut > start:
                    current.append((start, _rstrip(text, start, cut)))
                    start = _skip_space(text, cut, stop)
            if current:
                windows.append(current)
                current, size = [], 0
            elif stop - start > max_chars:
                cut = _break_before(text, start, start + max_chars)
                cut = cut if cut > start else start + max_chars
                windows.append([(start, _rstrip(text, start, cut))])
                start = _skip_space(text, cut, stop)
    if current:
        windows.append(current)
    return [_rejoin(window, segments) for window in windows]


def _row_groups(text: str, segments: list[Span], max_chars: int) -> list[list[Span]]:
    """Cut a long table into runs of whole rows (lines) of at most ``max_chars`` each
    (a single longer row is a run of its own)."""
    rows: list[Span] = []
    for start, end in segments:
        for match in re.finditer(r"[^\n]+", text[start:end]):
            row_start = _skip_space(text, start + match.start(), start + match.end())
            row_end = _rstrip(text, row_start, start + match.end())
            if row_end > row_start:
                rows.append((row_start, row_end))
    groups: list[list[Span]] = []
    size = 0
    for row in rows:
        if groups and size + 1 + row[1] - row[0] <= max_chars:
            groups[-1].append(row)
            size += 1 + row[1] - row[0]
        else:
            groups.append([row])
            size = row[1] - row[0]
    return [_rejoin(group, segments) for group in groups]


def _sentences(text: str, segments: list[Span]) -> list[Span]:
    """Sentence spans (trimmed) covering every non-space character of the segments."""
    out: list[Span] = []
    for start, end in segments:
        cuts = [start + s for s, _ in nlp.sentence_spans(text[start:end])] or [start]
        cuts[0] = start
        for index, cut in enumerate(cuts):
            stop = cuts[index + 1] if index + 1 < len(cuts) else end
            stop = _rstrip(text, cut, stop)
            cut = _skip_space(text, cut, stop)
            if stop > cut:
                out.append((cut, stop))
    return out


def _break_before(text: str, start: int, limit: int) -> int:
    """Offset just after the last clause-like break ('; ', ', ', ' ') before ``limit``."""
    floor = start + (limit - start) // 2
    for mark in ("; ", ", ", " "):
        found = text.rfind(mark, floor, limit)
        if found > start:
            return found + len(mark)
    return start


def _rejoin(atoms: list[Span], segments: list[Span]) -> list[Span]:
    """Join consecutive sentence pieces that lie in the same segment into one span."""
    out: list[Span] = []
    seg_index = 0
    current_seg = -1
    for start, end in atoms:
        while segments[seg_index][1] < start:
            seg_index += 1
        if out and seg_index == current_seg:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
            current_seg = seg_index
    return out
