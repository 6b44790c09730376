"""Headings told by their words: short capitalised or title-cased phrases, alone or run in."""

from __future__ import annotations

import re

from clausegraph.segment.definitions import QUOTED_DEF_RE, definition_term
from clausegraph.segment.lines import CONNECTORS, DocumentLines, is_caps

_SENTENCE_BREAK_RE = re.compile(r"[a-z]{2}\.\s+[A-Z]")
_EMBEDDED_NUMBER_RE = re.compile(r"\s\d{1,3}\.\d")
# How a heading ends where the body runs on in the same line.
_MULTI_SPACE_RE = re.compile(r"(?P<head>\S.{0,110}?)(?:\s{3,}|\t+)(?=\S)")
_RUN_IN_RE = re.compile(r"(?P<head>[A-Z“\"][^\n]{0,110}?)(?:\.|:-|:)(?:\s+|$)")
# a capitalised heading before a sentence, after a space or a colon the PDF's text runs
# into it ("RENEWAL OF POLICY:The policy shall ..."); in title case such a colon joins a
# title's two parts ("Standard Exclusions:Pre-Existing Diseases")
_CAPS_PREFIX_RE = re.compile(r"(?P<head>[A-Z][A-Z0-9 ,&’'\-/]{3,90}?)(?:\s+|:)(?=[A-Z][a-z])")
_LIST_AFTER_HEAD_RE = re.compile(r"(?P<head>[A-Z][^\n()]{1,60}?)\s+(?=\((?:a|i|A|1)\)\s)")
VERB_RE = re.compile(r"\b(?:shall|will|may|must|means|is|are)\b")


def ends_mid_phrase(text: str) -> bool:
    """Does ``text`` stop on a word a phrase never ends with (``CONNECTORS``): "... set forth
    in this", "... DOMESTIC COVER UNDER"? A capital letter that numbers is no such word
    ("Exhibit A", "PART A"), and a capitalised word counts only in a capitalised line."""
    text = text.rstrip()
    if not text or not text[-1].isalpha():
        return False
    last = text.split()[-1]
    written = last.islower() or (len(last) > 1 and is_caps(text))
    return written and last.lower() in CONNECTORS


def has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def heading_like(text: str, max_words: int = 14) -> bool:
    """True for a short title-cased or capitalised phrase that reads like a heading."""
    text = text.strip().rstrip(":-–— ")
    if not text or len(text) > 120 or "[***]" in text:
        return False
    words = text.split()
    if len(words) > max_words or text[-1] in ",;" or words[-1].lower() in CONNECTORS:
        return False
    if not (text[0].isupper() or text[0] in "“\"'(") or sum(ch.isalpha() for ch in text) < 3:
        return False
    if _SENTENCE_BREAK_RE.search(text) or _EMBEDDED_NUMBER_RE.search(text):
        return False
    if is_caps(text):
        return True
    significant = [w for w in words if sum(ch.isalpha() for ch in w) > 3]
    if not significant:
        significant = [w for w in words if any(ch.isalpha() for ch in w)]
    capitalised = sum(1 for w in significant if w.lstrip("“\"'(")[:1].isupper())
    return capitalised >= 0.6 * len(significant)


def clean_heading(text: str) -> str:
    return " ".join(text.strip().rstrip(".:-–— ").split())


def split_heading(rest: str) -> tuple[str | None, int]:
    """Heading at the start of a label's rest of line and where the body starts."""
    if not rest:
        return None, 0
    match = _MULTI_SPACE_RE.match(rest)
    if match and heading_like(match.group("head")):
        return clean_heading(match.group("head")), match.end()
    match = _LIST_AFTER_HEAD_RE.match(rest)
    if match and heading_like(match.group("head"), 8):
        return clean_heading(match.group("head")), match.end()
    match = _RUN_IN_RE.match(rest)
    if match and heading_like(match.group("head"), 12) and not QUOTED_DEF_RE.match(rest):
        head = match.group("head")
        if not VERB_RE.search(head):
            return clean_heading(head), match.end()
    match = _CAPS_PREFIX_RE.match(rest)
    if match and is_caps(match.group("head")) and len(match.group("head").split()) <= 10:
        return clean_heading(match.group("head")), match.end()
    if heading_like(rest) and rest.rstrip()[-1:] not in ".;,":
        return clean_heading(rest), len(rest)
    if is_caps(rest) and rest.split()[-1].lower() in CONNECTORS:
        # a capitalised heading wrapping onto the next line ("EXCLUSIONS APPLICABLE TO
        # DOMESTIC COVER UNDER" / "SECTION C) ..."): named by its first line's words
        words = rest.split()
        while words and words[-1].lower() in CONNECTORS:
            words.pop()
        head = " ".join(words)
        if words and heading_like(head):
            return clean_heading(head), len(rest)
    return None, 0


def label_shape(rest: str) -> str:
    """How a label is written: "head" alone or before a capitalised heading, else "text"."""
    if not rest:
        return "head"
    heading, _ = split_heading(rest)
    return "head" if heading is not None and is_caps(heading) else "text"


def heading_key(rest: str) -> str:
    """The first letters of a label's line, to recognise the same heading written again."""
    letters = "".join(ch for ch in rest[:80].lower() if ch.isalpha())[:30]
    return letters if len(letters) >= 6 else ""


def standalone_heading(lines: DocumentLines, s: str, index: int, para: bool) -> bool:
    """Is line ``index`` (text ``s``) an unnumbered heading: short, capitalised or
    title-cased, on its own? Where the page tells the type style, a line set larger or
    bolder than the body is a heading whatever its case ("What we don't pay for"), and
    one set like the body is not, unless capitalised."""
    if len(s) > 90 or not para or s[-1] in ",;":
        return False
    set_as_heading = lines.set_as_heading(index)
    if set_as_heading or lines.italic_title(index):
        return _styled_heading(lines, s, index)
    if ": " in s.rstrip(":") or (set_as_heading is False and not is_caps(s)):
        return False
    caps = is_caps(s)
    if caps:
        if not heading_like(s, 12) or (s.endswith(".") and len(s.split()) > 4):
            return False
    elif s.endswith(".") or len(s) > 70 or not heading_like(s, 8) or has_digit(s):
        return False  # a title-cased line with numbers is a page header or a table row
    if index + 1 < len(lines) and lines.soft_wrap:
        nxt = lines[index + 1]
        if lines.text[nxt.start].islower():
            return False  # the line wraps into a sentence
        if (
            caps
            and (nxt.end - nxt.start) > 40
            and is_caps(lines.text[nxt.start : nxt.end])
            and not nxt.blank_before
            and len(s) > 50
        ):
            return False  # first line of a capitalised paragraph
    return definition_term(s, True) is None


def _styled_heading(lines: DocumentLines, s: str, index: int) -> bool:
    """A line set as a heading is one when it reads as a phrase, not a sentence."""
    words = s.split()
    if len(words) > 14:
        return False
    if not (s[0].isupper() or s[0] in "“\"'("):
        return False
    if s.endswith(".") and len(words) > 6:
        return False
    if index + 1 < len(lines) and lines.text[lines[index + 1].start].islower():
        return False  # the line wraps into a sentence
    return definition_term(s, True) is None


def next_line_heading(lines: DocumentLines, index: int, family: str) -> str | None:
    """The text of line ``index`` when it can be the heading of the label on the line
    before it ("1.1" / "Definitions"), else None. The caller checks it is no label."""
    s = lines.line_text(index)
    if len(s) > 100 or not heading_like(s, 12) or s[-1] in ".;," or ": " in s:
        return None
    if not (
        is_caps(s)
        or family in ("article", "schedule", "decimal", "code")
        or s.endswith((":-", ":"))
    ):
        return None
    return s
