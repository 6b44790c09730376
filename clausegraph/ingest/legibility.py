"""Is extracted text language, or glyph codes that only look like text?

A PDF whose font objects are missing (a file cut short, a broken producer) still
"has text": MuPDF returns the raw glyph codes, which read like ``'( ; + , % , 7'`` or
``'P H D Q V   D Q \\'`` (letters shifted by the font's glyph order, one per word
because the widths are gone). Indexing that would answer questions with noise, so each
page's raw text is measured before it becomes canonical text:

* ``unreadable``: share of non-space characters that are control characters, U+FFFD
  (glyphs MuPDF could not map) or private-use code points;
* ``single``: share of whitespace-separated tokens that are one character long
  (real prose: well under a third, even in tables of figures);
* ``voweled``: among Latin-letter words of 2+ letters, the share that contain a vowel
  (every European language written in Latin script has vowels in nearly every word;
  a Caesar-shifted glyph order has them in few).

A page is illegible if a measure is far outside what real documents show (the
thresholds sit well clear of the 30 real PDFs checked: see docs/reliability.md).
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

# Pages with fewer visible characters than this are not judged (a signature page, a stamp).
MIN_JUDGED_CHARS = 80
MAX_UNREADABLE_SHARE = 0.10
MAX_SINGLE_CHAR_SHARE = 0.60
MIN_VOWELED_SHARE = 0.55
MIN_JUDGED_WORDS = 20

_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]{2,}")
_VOWELS = frozenset("aeiouyAEIOUY" "àáâãäåæèéêëìíîïòóôõöøùúûüýÿœÀÁÂÃÄÅÆÈÉÊËÌÍÎÏÒÓÔÕÖØÙÚÛÜÝŸŒ")


class Legibility(NamedTuple):
    """Character statistics of one page's raw extracted text."""

    chars: int
    unreadable: float
    single: float
    voweled: float

    @property
    def judged(self) -> bool:
        return self.chars >= MIN_JUDGED_CHARS

    def problem(self, vowels: bool = True) -> str | None:
        """Why the text is not language, or None if it reads as language.

        ``vowels=False`` skips the vowel measure (used only where other signs of damage
        exist: code tables such as part numbers have few vowels too).
        """
        if not self.judged:
            return None
        if self.unreadable > MAX_UNREADABLE_SHARE:
            return f"{self.unreadable:.0%} of its characters are unmapped glyph codes"
        if self.single > MAX_SINGLE_CHAR_SHARE:
            return f"{self.single:.0%} of its words are single characters (spaced-out glyphs)"
        if vowels and self.voweled < MIN_VOWELED_SHARE:
            return f"only {self.voweled:.0%} of its words contain a vowel (shifted glyph codes)"
        return None


def measure(text: str) -> Legibility:
    """Statistics of ``text`` as MuPDF extracted it (before control characters are replaced)."""
    visible = [ch for ch in text if not ch.isspace()]
    unreadable = sum(1 for ch in visible if _is_unreadable(ch))
    tokens = text.split()
    single = sum(1 for token in tokens if len(token) == 1)
    words = _LATIN_WORD.findall(text)
    voweled = sum(1 for word in words if not _VOWELS.isdisjoint(word))
    return Legibility(
        chars=len(visible),
        unreadable=unreadable / len(visible) if visible else 0.0,
        single=single / len(tokens) if tokens else 0.0,
        voweled=voweled / len(words) if len(words) >= MIN_JUDGED_WORDS else 1.0,
    )


def _is_unreadable(ch: str) -> bool:
    if ch == "\ufffd":
        return True
    category = unicodedata.category(ch)
    return category in ("Cc", "Co", "Cn", "Cs")
