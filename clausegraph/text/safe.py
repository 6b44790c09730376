"""Text from documents and users made safe to show: one place for terminal and web.

Documents and file names are hostile input. Printed raw, an escape sequence in a clause
can retitle the terminal window (OSC 0), clear the screen (CSI 2J), hide text (CSI 8m)
or plant a link to an outside site (OSC 8); a ``[/]`` or ``[bold]`` in a file name is
Rich markup that crashes or rewrites the line. Every user-controlled string passes
through :func:`plain` (no control sequences) and, where Rich markup is interpreted,
:func:`markup` (markup escaped too).

>>> plain("Title\\x1b]0;pwned\\x07 \\x1b[2Jclause")
'Title clause'
>>> markup("Lease [draft] v2.pdf")
'Lease \\\\[draft] v2.pdf'
>>> visible("two\\nlines\\x1b]0;x\\x07.txt")
'two\\\\nlines\\\\x1b]0;x\\\\x07.txt'
"""

from __future__ import annotations

import re

from rich.markup import escape as _escape_markup

# Whole escape sequences go (they are formatting, never content): CSI (7-bit ESC [ and
# 8-bit 0x9b), OSC / DCS / SOS / PM / APC strings up to BEL or ST, and two-byte ESC codes.
_SEQUENCE = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]                        # CSI ... final byte
  | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]).*?(?:\x07|\x1b\\|\x9c|$)  # OSC/DCS/... to BEL/ST
  | \x1b[ -/]*[0-~]                                          # ESC c, ESC 7, ESC ( B ...
    """,
    re.VERBOSE | re.DOTALL,
)
# What remains of C0/C1 (but tab and newline) and DEL, and bidirectional overrides that
# reorder what a reader sees ("Trojan source"): shown as a visible mark.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
REPLACEMENT = "\ufffd"


def plain(text: object) -> str:
    """``text`` without terminal control sequences; other control characters as U+FFFD.

    Carriage returns and backspaces would let a line overwrite itself, so they go too.
    """
    return _CONTROL.sub(REPLACEMENT, _SEQUENCE.sub("", str(text)))


_ANY_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: object) -> str:
    """One line with every control character spelled out (``\\x1b``, ``\\n``): for file
    names and error lines, where dropping a sequence would name a file that does not exist."""
    def spell(match: re.Match[str]) -> str:
        char = match.group()
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(char) or (
            f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")

    return _ANY_CONTROL.sub(spell, str(text))


def markup(text: object) -> str:
    """``plain(text)`` with Rich markup escaped, for strings printed with markup on."""
    return _escape_markup(plain(text))
