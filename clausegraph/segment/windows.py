"""Long clauses cut into windows: runs of whole sentences, or of whole rows for tables."""

from __future__ import annotations

import re
from bisect import bisect_left

from clausegraph.models import Span
from clausegraph.segment.lines import rstrip_end, skip_space
from clausegraph.text import nlp

_ROW_RE = re.compile(r"[^\n]+")


def sentence_windows(text: str, segments: list[Span], max_chars: int) -> list[list[Span]]:
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
                    current.append((start, rstrip_end(text, start, cut)))
                    start = skip_space(text, cut, stop)
            if current:
                windows.append(current)
                current, size = [], 0
            elif stop - start > max_chars:
                cut = _break_before(text, start, start + max_chars)
                cut = cut if cut > start else start + max_chars
                windows.append([(start, rstrip_end(text, start, cut))])
                start = skip_space(text, cut, stop)
    if current:
        windows.append(current)
    return [_rejoin(window, segments) for window in windows]


def row_groups(text: str, segments: list[Span], max_chars: int) -> list[list[Span]]:
    """Cut a long table into runs of whole rows (lines) of at most ``max_chars`` each
    (a single longer row is a run of its own)."""
    rows: list[Span] = []
    for start, end in segments:
        for match in _ROW_RE.finditer(text[start:end]):
            row_start = skip_space(text, start + match.start(), start + match.end())
            row_end = rstrip_end(text, row_start, start + match.end())
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
            stop = rstrip_end(text, cut, stop)
            cut = skip_space(text, cut, stop)
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
