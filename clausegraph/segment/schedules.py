"""Schedules, exhibits and annexes: which "Schedule B" lines head an attached schedule.

A ``Schedule``/``Exhibit``/``Annex``/``Appendix`` line opens a container only when it heads
an attached schedule. It does not when the first numbered label after it carries on a
sequence open in the body (``Schedule E`` as a cell of a table in 1(a), followed by
``(b)`` or ``2.``) or repeats the first entry of a contents table (``LabelReader``
decides those two); when it belongs to a list of the schedules (a run of schedule lines a
few lines apart whose names recur later, in order, where the schedules really start; or
several on one line); when it stands more than half the text before the first ``IN
WITNESS WHEREOF`` (front matter); when it ends a wrapped sentence (``... provided in this
/ Schedule.``) or is a page footer (``Annex A Page 3``). ``Schedules:`` / ``LIST OF
EXHIBITS`` alone on a line heads a list of the schedules (``Schedules/(A)``).
"""

from __future__ import annotations

import re

from clausegraph.segment.headings import CONNECTORS, heading_like
from clausegraph.segment.lines import DocumentLines
from clausegraph.segment.references import continues_a_reference
from clausegraph.segment.signatures import first_signature

# an insurance policy's endorsements are attached to it as schedules are to a contract
# ("Endorsement no.12 - DELAY OF CHECKED-IN BAGGAGE"); "No." may come before any number
SCHEDULE_RE = re.compile(
    r"(?P<word>(?:Schedule|Exhibit|Annex(?:ure)?|Appendix|Attachment|Addendum|Endorsement)"
    r"|(?:SCHEDULE|EXHIBIT|ANNEX(?:URE)?|APPENDIX|ATTACHMENT|ADDENDUM|ENDORSEMENT))"
    r"(?:(?:\s*[-–—]\s*|\s+)(?:(?i:no)\.?\s*(?=\d))?"
    r"(?P<num>[A-Z0-9]{1,4}(?:[.\-][A-Z0-9]{1,3})*(?:\([a-z0-9]{1,3}\))?))?"
    r"(?=[\s.:\-–—]|$)\.?"
)
SCHEDULES_RE = re.compile(
    r"(?P<word>(?:(?i:list\s+of)\s+)?(?:Schedules|Exhibits|Annex(?:es|ures)|Appendices|"
    r"Attachments|SCHEDULES|EXHIBITS|ANNEX(?:ES|URES)|APPENDICES|ATTACHMENTS))\s*:?\s*$"
)
_PAGE_LABEL_RE = re.compile(r"(?i)page\s+\d{1,4}\s*$")
# A schedule line this share of the text (or more) before the first signature block is
# front matter: an index of the attachments after a contents table.
_FRONT_MATTER_SHARE = 0.5
# Schedule lines at most this many lines apart form one run (a possible list of schedules).
_LISTING_GAP = 4


class Schedules:
    """What the whole document tells about its schedule lines, found before parsing."""

    def __init__(self, lines: DocumentLines) -> None:
        self.lines = lines
        self.listing = _schedule_listings(lines)
        self.first_signature = first_signature(lines)

    def before_the_body(self, index: int) -> bool:
        """Is line ``index`` ahead of most of the agreement (a cover page, a contents table)?

        Schedules are attached after the agreement is signed; forms in them may be signed
        too, but the first "IN WITNESS WHEREOF" is not more than half the text away.
        """
        if self.first_signature is None:
            return False
        gap = self.first_signature - self.lines[index].start
        return gap > _FRONT_MATTER_SHARE * len(self.lines.text)

    def refuses(self, word: str, num: str | None, matched: str, rest: str, index: int) -> bool:
        """Does the line's own text (or its place) say "Schedule B" heads nothing here?"""
        if num is None and (rest or matched.endswith(".")):
            return True  # "Schedule." ends a sentence ("... specified in the Policy / Schedule.")
        if rest and not (heading_like(rest) or rest[0] in "-–—:."):
            return True
        if _PAGE_LABEL_RE.match(rest):
            return True  # "Annex A Page 5": a page footer
        if index in self.listing or self.before_the_body(index):
            return True  # an entry of a list of the schedules, which start further on
        if re.search(rf"(?i)\b{word}\s+[A-Z0-9]{{1,4}}\s*[-–—:]", rest):
            return True  # "Exhibit A - Form of ... Exhibit B - Form of ...": a list on one line
        if index > 0:
            prev = self.lines[index - 1]
            words = self.lines.text[max(prev.start, prev.end - 20) : prev.end].split()
            if words and words[-1] in CONNECTORS:
                return True  # "... as provided in this / Schedule.": a wrapped sentence
        return False


def is_schedule_line(s: str) -> bool:
    return bool(SCHEDULE_RE.match(s) or SCHEDULES_RE.match(s))


def _schedule_listings(lines: DocumentLines) -> set[int]:
    """Lines listing the schedules ("Exhibit A  Service Fees / Exhibit B  ..."), not heading them.

    A run of schedule lines a few lines apart that names different schedules, some of
    which a later schedule line names again (where each really starts), lists the
    attachments: in a table of contents or in a clause ("The following attachments
    are made part of this Agreement:").
    """
    found: list[tuple[int, tuple[str, str]]] = []
    for index in range(len(lines)):
        s = lines.line_text(index)
        match = SCHEDULE_RE.match(s)
        if match is None or match.group("num") is None:
            continue
        rest = s[match.end() :].lstrip()
        if continues_a_reference(rest) or _PAGE_LABEL_RE.match(rest):
            continue
        word = " ".join(match.group("word").split()).lower().replace("annexure", "annex")
        found.append((index, (word, match.group("num").upper())))
    runs: list[list[tuple[int, tuple[str, str]]]] = []
    for item in found:
        if runs and item[0] - runs[-1][-1][0] <= _LISTING_GAP:
            runs[-1].append(item)
        else:
            runs.append([item])
    listed: set[int] = set()
    for run in runs:
        listed.update(index for index, _ in run[: _listing_size(run, found)])
    return listed


def _listing_size(
    run: list[tuple[int, tuple[str, str]]], found: list[tuple[int, tuple[str, str]]]
) -> int:
    """How many schedule lines at the start of ``run`` list the schedules.

    The listing is the longest start of the run whose entries are named again only after
    it, in the same order (real short schedules, one title line each, may follow in the
    same run); two such entries at least. A cover page ("EXHIBIT B / FORM OF ... /
    Exhibit B") names its schedule again at once.
    """
    size = 0
    again: list[int] = []
    for position, (index, name) in enumerate(run):
        following = [later for later, other in found if later > index and other == name]
        if following:
            if again and following[0] <= again[-1]:
                break
            again.append(following[0])
        if again and again[0] <= index:
            break
        if len(again) >= 2:
            size = position + 1
    return size
