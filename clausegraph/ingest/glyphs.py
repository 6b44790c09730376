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

Other fonts draw the ligatures fi, fl, ff, ffi on letters of another script and say so in
their map to Unicode: one policy there (SBI General's motor wording, font Effra) reads
"beneĤciary", "oģence", "OĦcer", "inĥuence" (247 words). No font name tells these
apart, so the document's own words do (``ligature_stand_ins``): a letter that stands
inside otherwise plain Latin words, and that makes English words of most of them when read
as one ligature, is that ligature. This replacement changes the text's length, so it is
made before any offset is taken (``ingest.pdf`` reads the pages again with it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType

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
_NO_REPLACEMENTS: Mapping[str, str] = MappingProxyType({})


def base_font_name(font: str) -> str:
    """'ABCDEF+RupeeForadian' -> 'RupeeForadian' (a subset's six-letter tag dropped)."""
    tag, plus, rest = font.partition("+")
    return rest if plus and len(tag) == 6 and tag.isupper() else font


@lru_cache(maxsize=256)
def font_character_map(font: str) -> Mapping[str, str]:
    """Character replacements for text drawn in ``font`` (empty for ordinary fonts); cached
    and read-only: ingest asks it for every span of every line."""
    name = base_font_name(font).lower().replace(" ", "").replace("-", "")
    if "rupee" in name:
        return MappingProxyType({"`": "\u20b9"})
    if name.startswith("wingdings"):
        # Wingdings has no letters: a Latin-1 code from it is a symbol code too
        return MappingProxyType(_symbol_codes(_WINGDINGS, latin1=True))
    if name.startswith("symbol"):
        # Symbol's Greek and maths usually map to Unicode; only its unmapped codes move
        return MappingProxyType(_symbol_codes(_SYMBOL, latin1=False))
    return _NO_REPLACEMENTS


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


# The ligatures a font may draw on a letter code, as Unicode's presentation forms list
# them (U+FB00-FB06) plus "ft", which some text faces add.
LIGATURES = ("ff", "fi", "fl", "ffi", "ffl", "ft", "st")
# A stand-in is trusted when it makes English words of at least this many distinct words
# and of this share of the words it stands in. SBI's four stand-ins do so for 7 of 7, 49
# of 55, 7 of 7 and 14 of 16 words; the accented letters of the other 21 policies' English
# ("Español", "Sachverständigen", "mm³") for at most one word each.
MIN_STAND_IN_WORDS = 3
MIN_STAND_IN_SHARE = 0.6
_WORD = re.compile(r"[^\W\d_]+")


def ligature_stand_ins(texts: Iterable[str],
                       english: Callable[[], Iterable[str]]) -> dict[str, str]:
    """Letters that stand for a ligature in ``texts`` (one document), with the ligature:
    {"Ĥ": "fi"} when "beneĤciary", "deĤned", ... are English words with "fi" for "Ĥ".

    Only letters outside ASCII found inside words that are otherwise ASCII are judged;
    ``english`` (called only then) gives the English word list, the document's own
    ASCII words count too.
    """
    words = Counter(w for text in texts for w in _WORD.findall(text))
    hosts: dict[str, set[str]] = {}
    for word in words:
        odd = {ch for ch in word if not ch.isascii()}
        if len(odd) == 1 and len(word) > 2:
            hosts.setdefault(odd.pop(), set()).add(word)
    hosts = {ch: found for ch, found in hosts.items() if len(found) >= MIN_STAND_IN_WORDS}
    if not hosts:
        return {}
    known = set(english()) | {w.lower() for w in words if w.isascii()}
    stand_ins = {}
    for letter, found in hosts.items():
        made = {lig: sum(w.replace(letter, lig).lower() in known for w in found)
                for lig in LIGATURES}
        ligature, count = max(made.items(), key=lambda item: item[1])
        if count >= MIN_STAND_IN_WORDS and count >= MIN_STAND_IN_SHARE * len(found):
            stand_ins[letter] = ligature
    return stand_ins
