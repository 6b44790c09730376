"""Signature blocks after "IN WITNESS WHEREOF": party names, "By:", "/s/ ...", titles."""

from __future__ import annotations

import re

from clausegraph.segment.lines import DocumentLines

_WITNESS = "IN WITNESS WHEREOF"
# A labelled line of a signature block ("Name:", "TITLE:", "NAME (print):") and the other
# marks of one ("/s/ Jane Roe", "By", "______", "[Signature Page to Supply Agreement]").
_SIGNATURE_FIELD_RE = re.compile(
    r"(?i)(?:by|name|title|date|dated|its|address|attn|attention|e-?mail|tel|telephone|phone|"
    r"fax|facsimile|signature|witness|print(?:ed)? name|signed)\b\s*(?:\(print\))?\s*[:.]"
)
_SIGNATURE_MARK_RE = re.compile(r"(?i)/s/|_{3,}|.{0,60}\bsignature pages?\b|by\s*$")


def opens_signing(s: str) -> bool:
    """Does a line start the signing sentence ("IN WITNESS WHEREOF, the parties ...")?"""
    return s[: len(_WITNESS)].upper() == _WITNESS


def first_signature(lines: DocumentLines) -> int | None:
    """Where the agreement is signed ("IN WITNESS WHEREOF"), the first time."""
    return next(
        (line.start for line in lines.lines
         if opens_signing(lines.text[line.start : line.start + len(_WITNESS)])),
        None,
    )


def signature_line(lines: DocumentLines, index: int) -> bool:
    """Is line ``index`` part of a signature block ("By:", "/s/ Jane Roe", "ACME LLC")?"""
    s = lines.line_text(index)
    if _is_signature_field(s):
        return len(s) <= 200  # "By: ... Name: ... Title: ..." may share one line
    if len(s) > 90:
        return False
    words = len(s.split())
    if (
        _SIGNATURE_FIELD_RE.match(lines.line_text(index - 1))
        and words <= 6
        and (s[-1] != "." or words <= 2)
    ):
        return True  # the value of a field: "President", "1/8/18"
    if words <= 10:
        # A party's name ("ACME CORP.", "Acme Mask Corporation"), when signature lines follow.
        ahead = range(index + 1, min(index + 5, len(lines)))
        return any(_is_signature_field(lines.line_text(i)) for i in ahead)
    return False


def _is_signature_field(s: str) -> bool:
    return bool(_SIGNATURE_FIELD_RE.match(s) or _SIGNATURE_MARK_RE.match(s))
