"""Hostile inputs built on the spot (shared by tests/test_hostile.py and
scripts/hostile_campaign.py): nothing here is a stored fixture except the CUAD PDFs
in docs/dataset (CC BY 4.0) that the broken PDF is made from."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASET = REPO / "docs" / "dataset"
# The Audible co-branding agreement: its fonts are Identity-H subsets, so without them
# MuPDF returns raw glyph codes ("\x00\x03\x00(" ...), the case the campaign found.
FONTLESS_SOURCE = next(DATASET.glob("AudibleInc_*.pdf"))
_FONT_OBJECT = re.compile(r"/Type\s*/(?:Font|FontDescriptor)\b")
_FONT_REFERENCE = re.compile(
    r"/(?:FontFile\d?|ToUnicode|FontDescriptor|DescendantFonts)\s*\[?\s*(\d+) 0 R"
)


def pdf_cut_before_fonts(source: Path = FONTLESS_SOURCE) -> bytes:
    """``source`` rewritten with its font objects last, then cut before them.

    The page tree and content streams survive; the fonts, their descriptors, font files
    and ToUnicode maps do not. The file still ends in ``%%EOF`` (a writer that closed
    the file after losing its tail), so only the text itself shows the damage.
    """
    import pymupdf

    pdf = pymupdf.open(source)
    fonts: set[int] = set()
    for xref in range(1, pdf.xref_length()):
        body = pdf.xref_object(xref, compressed=True)
        if _FONT_OBJECT.search(body):
            fonts.add(xref)
            fonts.update(int(m.group(1)) for m in _FONT_REFERENCE.finditer(body))
    out = bytearray(b"%PDF-1.7\n")
    for xref in range(1, pdf.xref_length()):
        body = pdf.xref_object(xref, compressed=True)
        if xref in fonts or body in ("", "null"):
            continue
        out += f"{xref} 0 obj\n{body}\n".encode("latin-1")
        if pdf.xref_is_stream(xref):
            out += b"stream\n" + pdf.xref_stream_raw(xref) + b"\nendstream\n"
        out += b"endobj\n"
    root = pdf.pdf_catalog()
    out += f"trailer\n<< /Root {root} 0 R /Size {pdf.xref_length()} >>\n%%EOF\n".encode()
    return bytes(out)


def numbered_lines(count: int) -> str:
    """``count`` numbered one-line clauses: "1. The tenant shall keep item 1 in repair."."""
    return "".join(
        f"{n}. The tenant shall keep fixture number {n} of the premises in good repair.\n"
        for n in range(1, count + 1)
    )


# Terminal attacks a document can carry: OSC window title, screen clear, hidden text,
# an OSC-8 hyperlink to an outside site, a C1 CSI and a bell.
TERMINAL_ATTACK = (
    "\x1b]0;pwned title\x07"
    "\x1b[2J\x1b[H"
    "\x1b[8mhidden text\x1b[0m"
    "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\"
    "\x9b31m"
    "\x07"
)
