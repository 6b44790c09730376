"""Numbers of labels: roman and letter values, and the decimal numbering seen so far."""

from __future__ import annotations

_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_PARTS = [
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
    (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
]
# Numbers above this open a clause only when they continue the numbering (else: a year).
MAX_UNSEQUENCED_NUMBER = 300


def roman(value: str) -> int | None:
    """Value of a roman numeral (either case), or None when it is not a valid one."""
    low = value.lower()
    if not low or any(ch not in _ROMAN_VALUES for ch in low):
        return None
    total = 0
    for index, ch in enumerate(low):
        current = _ROMAN_VALUES[ch]
        following = _ROMAN_VALUES[low[index + 1]] if index + 1 < len(low) else 0
        total += -current if current < following else current
    return total if to_roman(total) == low else None


def to_roman(number: int) -> str:
    out = []
    for value, numeral in _ROMAN_PARTS:
        while number >= value:
            out.append(numeral)
            number -= value
    return "".join(out)


def letter_value(value: str) -> int | None:
    """a -> 1, b -> 2, ..., aa -> 27 (doubled letters, as long lists use)."""
    low = value.lower()
    if len(set(low)) != 1 or not low.isalpha():
        return None
    return (ord(low[0]) - ord("a") + 1) + 26 * (len(low) - 1)


class DecimalNumbering:
    """The decimal numbers seen so far: the last at each depth and the last top-level one.

    ``fits_open`` arguments say whether a number is the very next item of a sequence open
    in the outline (``Outline.open_fits``), which the outline knows and this does not.
    """

    def __init__(self) -> None:
        self.last: dict[int, tuple[int, ...]] = {}
        self.last_top: int | None = None

    def record(self, tup: tuple[int, ...]) -> None:
        """``tup`` opened a clause: deeper numbers seen before it no longer count."""
        self.last_top = tup[0]
        self.last[len(tup)] = tup
        for depth in [d for d in self.last if d > len(tup)]:
            del self.last[depth]

    def continues_last(self, tup: tuple[int, ...]) -> bool:
        """The next number after the last one of the same depth ("4.3" after "4.2")."""
        last = self.last.get(len(tup))
        return last is not None and last[:-1] == tup[:-1] and tup[-1] == last[-1] + 1

    def next_in_sequence(self, tup: tuple[int, ...], fits_open: bool) -> bool:
        """Is ``tup`` exactly the next number (a flattened line's clause start)?"""
        depth = len(tup)
        last = self.last.get(depth)
        if self.last_top is None:
            return all(part == 1 for part in tup)  # the first number of the document
        if fits_open:
            return True  # "5." after "4. ... 1. 2. 3.": the outer sequence goes on
        if self.continues_last(tup):
            return True
        if depth == 1:
            return tup[0] == self.last_top + 1
        if tup[-1] != 1:
            return False
        parent = self.last.get(depth - 1)
        if parent is not None and parent == tup[:-1]:
            return True  # "6. Heading 6.1 ..."
        return last is not None and last[:-2] == tup[:-2] and tup[-2] == last[-2] + 1

    def continues_open(self, tup: tuple[int, ...], fits_open: bool) -> bool:
        """Does ``tup`` carry on the numbering open now (after a schedule line)?"""
        if fits_open or self.continues_last(tup):
            return True
        if self.last_top is not None and tup[0] == self.last_top + 1:
            return all(part == 1 for part in tup[1:])  # "5." or "5.1" after section 4
        return len(tup) > 1 and tup[-1] == 1 and self.last.get(len(tup) - 1) == tup[:-1]

    def continues_top(self, tup: tuple[int, ...]) -> bool:
        """A high number ("301.", "1204.3") only as the next step of the open numbering.

        Years, amounts and street numbers start lines too; below the bound any number
        may open a section, above it only one that continues the document's sequence
        (statutes and schedules run to thousands of numbered items).
        """
        if self.last_top is None:
            return False
        if len(tup) == 1:
            return tup[0] == self.last_top + 1
        return (tup[0] == self.last_top and self.continues_last(tup)) or (
            tup[0] == self.last_top + 1 and all(part == 1 for part in tup[1:])
        )

    def plausible(self, tup: tuple[int, ...]) -> bool:
        """Does an unmarked number fit the numbering seen so far (else: an amount)?"""
        last = self.last.get(len(tup))
        if tup[-1] == 1:
            return True
        if last is None:
            return tup[-1] <= 3
        if tup[:-1] == last[:-1]:
            return last[-1] < tup[-1] <= last[-1] + 5
        return tup[:-1] > last[:-1] and tup[-1] <= 3
