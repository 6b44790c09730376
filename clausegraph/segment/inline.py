"""Flattened lines: CUAD texts often hold a whole page per line, so labels hide inside it.

Inside a line over ``LONG_LINE`` characters, a number that is exactly the next one in
sequence, or a ``(b)`` continuing an open list after a sentence end, starts a clause.
"""

from __future__ import annotations

import re

from clausegraph.segment.labels import PAREN_RE, LabelReader
from clausegraph.segment.outline import Label
from clausegraph.segment.references import REFERENCE_WORDS

LONG_LINE = 600
_INLINE_RE = re.compile(
    r"\s+(?=\d{1,3}(?:\.\d{1,3})*\.?\s+[A-Z“\"(]"
    r"|\((?:[a-z]{1,4}|[A-Z]{1,2}|\d{1,2})\)\s+[A-Z“\"])"
)
_INLINE_NUMBER_RE = re.compile(r"(?P<num>\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.)(?=\s)")
_PREV_WORD_RE = re.compile(r"(\S+)\s*$")


def inline_cuts(text: str, start: int, end: int) -> list[int]:
    """Offsets inside a flattened line where a number could start a clause."""
    cuts = []
    for match in _INLINE_RE.finditer(text, start, end):
        before = text[max(start, match.start() - 20) : match.start()]
        word = _PREV_WORD_RE.search(before)
        if word is None or word.group(1).lower() in REFERENCE_WORDS:
            continue  # "... under Section 4.2 Buyer ...": a reference
        if word.group(1)[-1] == "," or word.group(1)[-1].isdigit():
            continue
        if text[match.end()] == "(":
            if before[-1:] in ".;:":
                cuts.append(match.end())
            continue
        number = _INLINE_NUMBER_RE.match(text, match.end())
        if number is None:
            continue
        if "." not in number.group("num")[:-1] and before[-1:] not in '.;:!?”")]':
            continue  # a bare "6." must follow a sentence end
        cuts.append(match.end())
    return cuts


def inline_label(reader: LabelReader, s: str) -> Label | None:
    """A number inside a flattened line counts only if it is the next number in sequence."""
    outline = reader.outline
    if s[:1] == "(":
        match = PAREN_RE.match(s)
        if match is None:
            return None
        label = reader.choose_list_reading(match.group("v"), "paren", match.end())
        if label is None or outline.find_style(label.style) is not None:
            return label
        # A new inline list only opens inside a numbered clause, after its colon.
        if outline.top.numbered and outline.top.last_char == ":":
            return label
        return None
    match = _INLINE_NUMBER_RE.match(s)
    if match is None:
        return None
    tup = tuple(int(p) for p in match.group("num").rstrip(".").split("."))
    if len(tup) == 2 and tup[1] == 0:
        tup = tup[:1]  # "8.0 Indemnification" numbers a top-level section
    fits = bool(outline.open_fits(Label("decimal", f"dec{len(tup)}", "", 0, tup[-1], tup)))
    if not reader.numbering.next_in_sequence(tup, fits):
        return None
    num = ".".join(str(part) for part in tup)
    return reader.decimal_from(num, match.end(), "", None, True)
