"""Characters that a PDF's font draws differently from the code it stores, fixed by font.

Some fonts put a symbol on a code point that means something else, and PDFs that use
them often carry no mapping to Unicode, so MuPDF reports the code, not the symbol:

- Indian rupee fonts made before U+20B9 existed ("Rupee Foradian" and its copies) draw
  ₹ on the backtick: two of the insurance policies in ``../shared/data`` (ICICI Lombard)
  set every amount as "` 1,00,000" in the font ``RupeeForadian``.
- Symbol and Wingdings draw bullets and boxes on their own codes; without a ToUnicode map
  MuPDF reports them in the Private Use Area (U+F0xx, the font's code plus 0xF000), which
  a browser shows as a missing-glyph box. Six of the 23 policies there use them for list
  bullets (Symbol 0xB7; Wingdings 0x9F, 0xA7, 0xD8, 0x6F, 0x6E).

The fix is decided by the font's name (the subset prefix ``ABCDEF+`` dropped), never by
the file; each replacement is one character for one, so offsets into the page text hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# The glyphs, as the fonts' published character charts draw them (each checked against a
# rendering of the policies above: a small bullet, an arrowhead, boxes).
_SYMBOL = {0xB7: "\u2022"}  # bullet
_WINGDINGS = {
    0x6E: "\u25a0",  # black square
    0x6F: "\u25a1",  # white square
    0x9F: "\u2022",  # small bullet
    0xA7: "\u25aa",  # small black square
    0xD8: "\u27a2",  # arrowhead
}
_PRIVATE_USE_BASE = 0xF000


def base_font_name(font: str) -> str:
    """'ABCDEF+RupeeForadian' -> 'RupeeForadian' (a subset's six-letter tag dropped)."""
    tag, plus, rest = font.partition("+")
    return rest if plus and len(tag) == 6 and tag.isupper() else font


def font_character_map(font: str) -> Mapping[str, str]:
    """Character replacements for text drawn in ``font`` (empty for ordinary fonts)."""
    name = base_font_name(font).lower().replace(" ", "").replace("-", "")
    if "rupee" in name:
        return {"`": "\u20b9"}
    if name.startswith("wingdings"):
        # Wingdings has no letters: a Latin-1 code from it is a symbol code too
        return _symbol_codes(_WINGDINGS, latin1=True)
    if name.startswith("symbol"):
        # Symbol's Greek and maths usually map to Unicode; only its unmapped codes move
        return _symbol_codes(_SYMBOL, latin1=False)
    return {}


def _symbol_codes(table: Mapping[int, str], latin1: bool) -> dict[str, str]:
    mapping = {chr(_PRIVATE_USE_BASE + code): glyph for code, glyph in table.items()}
    if latin1:
        mapping.update({chr(code): glyph for code, glyph in table.items()})
    return mapping


def remap_span_text(text: str, font: str) -> str:
    """``text`` as ``font`` draws it (see the module docstring)."""
    mapping = font_character_map(font)
    if not mapping:
        return text
    return "".join(mapping.get(ch, ch) for ch in text)


def page_character_map(spans: Iterable[tuple[str, str]]) -> dict[str, str]:
    """For text that comes without its font (a table's words): the replacements that hold
    wherever the character occurs on the page, from its (font, text) spans. A character
    also shown in a font that draws it as itself, or differently, is left alone."""
    merged: dict[str, str] = {}
    clashes: set[str] = set()
    for font, text in spans:
        mapping = font_character_map(font)
        for ch in set(text):
            glyph = mapping.get(ch, ch)
            if merged.setdefault(ch, glyph) != glyph:
                clashes.add(ch)
    return {ch: glyph for ch, glyph in merged.items() if ch != glyph and ch not in clashes}


def needs_remapping(fonts: list[str]) -> bool:
    """Whether any of a page's fonts (names as MuPDF lists them) needs a remap."""
    return any(font_character_map(font) for font in fonts)
