"""One pass over the visible lines (``Document.excluded`` spans are skipped), building
the outline: each line opens a labelled node, a heading, a paragraph or a definition, or
continues the open node.

Labels count only at a line start (or right after a label's heading); inline
enumerations (``... (i) x; (ii) y``) stay inside their clause, except in flattened lines
(``inline.py``). A numbered clause owns the unlabelled paragraphs that follow it; at the
top level and under an unnumbered heading (after its first paragraph) each paragraph is
a clause. After ``IN WITNESS WHEREOF`` the signature lines stay in that paragraph, one
top-level clause.
"""

from __future__ import annotations

import re
from itertools import pairwise

from clausegraph.config import SegmentConfig
from clausegraph.models import Document
from clausegraph.segment.contents import contents_lines, open_contents
from clausegraph.segment.definitions import QUOTED_DEF_RE, definition_term, mentions_definitions
from clausegraph.segment.headings import (
    VERB_RE,
    clean_heading,
    ends_mid_phrase,
    has_digit,
    is_caps,
    label_shape,
    next_line_heading,
    split_heading,
    standalone_heading,
)
from clausegraph.segment.inline import LONG_LINE, inline_cuts, inline_label
from clausegraph.segment.labels import LabelReader
from clausegraph.segment.lines import TERMINAL, DocumentLines, Line, rstrip_end, skip_space
from clausegraph.segment.merge import Unit
from clausegraph.segment.numbering import DecimalNumbering
from clausegraph.segment.outline import TEXT_FAMILIES, Label, Node, Outline
from clausegraph.segment.schedules import Schedules
from clausegraph.segment.signatures import opens_signing, signature_line
from clausegraph.segment.tables import caption_like, close_table, open_table, table_of_lines

# Nodes whose first line after the label is their text, whatever it looks like.
_OPEN_FAMILIES = ("root", "heading", "para", "toc")
# numbered items of a list or an outline (not containers, schedules or headings)
_ITEM_FAMILIES = ("list", "decimal")


# the dash or colon between a container label and its heading ("ARTICLE II - TERMINATION")
# "SECTION 5 - EXCLUSIONS", "SECTION NO. 1 -DEFINITIONS": a dash joined to the title word
_LABEL_SEPARATOR_RE = re.compile(r"[-–—:]\s+(?=\S)|[-–—](?=[A-Z][A-Za-z])")
# Headings worded as questions ("What is not covered", "How do I claim") have a verb.
_QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "how", "when", "where", "why"})


# a definitions section's entry whose line is its term and a colon ("Emergency Treatment
# outside area of cover:-", "Family Doctor:"), the definition on the lines below; a term is
# a name without a verb ("The following are not Hospitals:" leads a list in), a few words
# long (the terms read in the 22 policies hold at most 5 words, in CUAD dev's contracts 8)
_GLOSSARY_TERM_RE = re.compile(r"(?P<term>[A-Z][^:;.\n]{1,80}?)\s*:\s*-?\s*$")
_GLOSSARY_TERM_WORDS = 8
# a lead-in opens with a preposition or conjunction ("In this Agreement:", "For the purposes
# of this Policy:", "Unless the context otherwise requires:"); a term is a noun phrase
_LEAD_IN_OPENERS = frozenset({"in", "for", "unless", "where", "when", "as", "under", "if",
                              "subject", "save", "except", "to", "with", "by", "from", "on",
                              "at", "of", "and", "or"})


def _glossary_term(phrase: str) -> bool:
    """Whether ``phrase``, alone on its entry's line before a colon, names a term: a few
    words without a verb, a comma or a preposition to open them."""
    words = phrase.split()
    return len(words) <= _GLOSSARY_TERM_WORDS and "," not in phrase and \
        not VERB_RE.search(phrase) and words[0].lower() not in _LEAD_IN_OPENERS


def _title_phrase(s: str) -> bool:
    """Whether ``s`` reads as a short title in any letter case, where the numbering puts a
    title: a phrase, not a sentence ("We shall not cover OPD treatment" states; "What is
    covered" heads) and not running on ("4. Pollution or contamination, unless")."""
    if not s or len(s) > 70 or len(s.split()) > 8 or s[-1] in ".;,:" or ": " in s \
            or not (s[0].isupper() or s[0].isdigit()) or sum(ch.isalpha() for ch in s) < 3:
        return False
    if s.split()[0].lower() in _QUESTION_WORDS:
        return True  # "What we pay for", "What is covered"
    return not ends_mid_phrase(s) and not VERB_RE.search(s)


class Parser:
    """Reads a document's lines in order into an ``Outline``."""

    def __init__(self, document: Document, config: SegmentConfig | None = None) -> None:
        config = config or SegmentConfig()
        self.lines = DocumentLines(document, config.style_headings)
        self.text = self.lines.text
        self.outline = Outline(self.text)
        self.numbering = DecimalNumbering()
        self.toc = contents_lines(self.lines)
        self.labels = LabelReader(
            self.lines, self.outline, self.numbering, self.toc, Schedules(self.lines),
            config.more_containers,
        )
        self.table_of = table_of_lines(self.lines.lines, document.tables)
        self.table_node: Node | None = None
        self.headings_seen = 0
        self.heading_line = -1  # index of a line already taken as the previous label's heading
        # After "IN WITNESS WHEREOF": "sentence" while its sentence runs on, then "block"
        # for the signature lines; "" elsewhere.
        self.signing = ""

    # ---- the pass

    def run(self) -> list[Unit]:
        """Parse every line, then return one unit per node in reading order."""
        toc_node: Node | None = None
        caption: Line | None = None
        for index, line in enumerate(self.lines.lines):
            if index == self.heading_line:
                continue
            table = self.table_of[index]
            if table is not None and not self.toc[index]:  # a contents page stays contents
                if self.table_node is None or self.table_node.value != table:
                    close_table(self.outline, self.table_node)
                    self.table_node = open_table(self.outline, table, caption)
                    caption = None
                self.outline.append(self.table_node, line.start, line.end, body=True)
                continue
            self._close_table()
            if caption is not None:  # a caption-like line before a table it did not head
                self._line(index - 1, caption)
                caption = None
            if self._is_caption(index):
                caption = line
                continue
            if self.toc[index]:
                toc_node = toc_node or open_contents(self.outline)
                self.outline.append(toc_node, line.start, line.end)
                continue
            if toc_node is not None:
                self.outline.pop_to(self.outline.root)
                toc_node = None
            self._line(index, line)
        self._close_table()
        return [Unit.of(node) for node in self.outline.nodes if node.pieces]

    def _close_table(self) -> None:
        close_table(self.outline, self.table_node)
        self.table_node = None

    def _is_caption(self, index: int) -> bool:
        """A short line right before a table, not a sentence ("Table of Benefits:")."""
        if index + 1 >= len(self.lines) or self.table_of[index + 1] is None:
            return False
        s = self.lines.line_text(index)
        return caption_like(self.lines, index) and self.labels.match(s, index) is None

    def _line(self, index: int, line: Line) -> None:
        """Handle one visible line; flattened lines holding whole pages are cut first."""
        long = line.end - line.start > LONG_LINE
        cuts = inline_cuts(self.text, line.start, line.end) if long else []
        if not cuts:
            self._line_part(index, line)
            return
        bounds = [line.start, *cuts, line.end]
        first_end = rstrip_end(self.text, bounds[0], bounds[1])
        self._line_part(index, Line(bounds[0], first_end, line.indent, line.blank_before))
        for start, end in pairwise(bounds[1:]):
            end = rstrip_end(self.text, start, end)
            label = inline_label(self.labels, self.text[start:end])
            if label is not None:
                self._open_label(label, index, start, end)
            else:
                self.outline.append(self.outline.top, start, end, body=True)

    def _line_part(self, index: int, line: Line) -> None:
        s = self.text[line.start : line.end]
        if self._signing_line(index, line, s):
            return
        label = self.labels.match(s, index)
        if label is not None:
            self.signing = ""
            self._open_label(label, index, line.start, line.end)
            return
        if self.signing:
            self._after_signature(index, line, s)
            return
        self._text_line(index, line, s)

    def _signing_line(self, index: int, line: Line, s: str) -> bool:
        """Handle the "IN WITNESS WHEREOF, ..." sentence; True when the line was taken."""
        if opens_signing(s):
            self.outline.pop_to(self.outline.root)  # signature blocks belong to no section
            self._open_para(line)
            self.signing = "block" if s[-1] in TERMINAL else "sentence"
            return True
        if self.signing != "sentence":
            return False
        if not self.lines.para_start(index):
            # The "IN WITNESS WHEREOF, ..." sentence wraps onto this line.
            self.outline.append(self.outline.top, line.start, line.end, body=True)
            self.signing = "block" if s[-1] in TERMINAL else "sentence"
            return True
        self.signing = "block"
        return False

    def _after_signature(self, index: int, line: Line, s: str) -> None:
        """A line of the signature block stays in it; the first other line starts afresh."""
        if signature_line(self.lines, index):
            # Names, "By:", "/s/ ...", "Title: President": the block stays one clause.
            self.outline.append(self.outline.top, line.start, line.end, body=True)
            return
        self.signing = ""
        self.outline.pop_to(self.outline.root)
        if standalone_heading(self.lines, s, index, True):
            self._open_heading(s, line, index)
        else:
            self._open_para(line)

    def _text_line(self, index: int, line: Line, s: str) -> None:
        """A line with no label: a heading, a definition, a new paragraph or more text."""
        outline = self.outline
        para = self.lines.para_start(index)
        top = outline.top
        if top.family == "list" and not top.has_body and top.heading is None:
            # "A." alone on its line: the title-cased line below is its text, not a heading.
            outline.append(top, line.start, line.end, body=True)
            return
        if standalone_heading(self.lines, s, index, para):
            self._open_heading(s, line, index)
            return
        if top.family not in _OPEN_FAMILIES and not top.has_body:
            # "1." alone on a line (PDF layout): this line is its text, whatever it looks like.
            if top.kind == "clause":
                self._set_definition_kind(top, s)
            outline.append(top, line.start, line.end, body=True)
            return
        if top.family == "bullet" and line.blank_before and s[0].isupper() \
                and not self._wraps_on_from(index):
            # a paragraph set off by space after a list of bullets is no more of the last
            # bullet ("• Routine foot care" / "Other Covered Services (Limitations ...)"),
            # whose text carried on into the next box's title and its bullets
            outline.pop_text_nodes()
            self._open_para(line)
            return
        if para or self.text[line.start] in '“"':
            term = definition_term(s, top.in_defs or outline.in_defs())
            if term is not None and (para or QUOTED_DEF_RE.match(s)):
                self._open_definition(term, line)
                return
        if para and (
            top is outline.root
            or top.family == "para"
            or (top.unlabelled_heading and top.has_body)
        ):
            self._open_para(line)
            return
        if top is outline.root:
            self._open_para(line)
            return
        outline.append(top, line.start, line.end, body=True)

    def _wraps_on_from(self, index: int) -> bool:
        """Whether the line before ``index`` stops mid-phrase ("... expenses of the"), so
        that line ``index`` goes on with it whatever space stands between them."""
        return index > 0 and ends_mid_phrase(self.lines.line_text(index - 1))

    # ---- opening nodes

    def _open_label(self, label: Label, index: int, start: int, end: int) -> None:
        """Open a node for ``label`` found at ``start``; the line runs to ``end``."""
        outline = self.outline
        rest_start = skip_space(self.text, start + label.end, end)
        # "ARTICLE II - TERMINATION", "Endorsement no.9 – HIJACK ...": the dash between a
        # label and its heading is no part of the heading
        separator = _LABEL_SEPARATOR_RE.match(self.text, rest_start, end)
        if separator:
            rest_start = separator.end()
        rest = self.text[rest_start:end]
        shape = label_shape(rest)
        parent = outline.parent_for(label, shape)
        node = outline.new_node(parent, label.style, label.family, label.comp, label=label)
        node.shape = shape
        if label.family == "decimal":
            self.numbering.record(label.tup)
        if label.family in ("decimal", "article", "list", "code"):
            outline.seen_body_label = True
        self.labels.note_contents_entry(label, self.text[start:end])
        # A bullet's text is its content, however title-cased it looks.
        heading, body_offset = (None, 0) if label.family == "bullet" else split_heading(rest)
        if heading is None and label.family != "bullet" and end == self.lines[index].end:
            heading = self._heading_over_items(label, rest, index)
            body_offset = len(rest) if heading is not None else 0
        node.heading = heading
        body_start = skip_space(self.text, rest_start + body_offset, end)
        body = self.text[body_start:end]
        child = self._run_in_child(body, index, heading is not None)
        if child is not None:
            outline.append(node, start, body_start)
            outline.trim_last_piece(node)
        else:
            outline.append(node, start, end, body=bool(body))
        whole_line = end == self.lines[index].end
        if heading is None and not rest and whole_line and label.family != "bullet":
            node.heading = self._heading_from_next_line(index, node, label)
        node.in_defs = node.in_defs or mentions_definitions(node.heading)
        self._set_definition_kind(node, body)
        if child is not None:
            self._open_label(child, index, body_start, end)

    def _heading_over_items(self, label: Label, rest: str, index: int) -> str | None:
        """A short phrase alone on a label's line, with the label's first item on the next
        line ("4. What is not covered" / "4.1 ...", "IV. Exclusions" / "(a) ..."), is the
        label's heading in any letter case: the numbering says so, not the capitals."""
        s = rest.strip()
        if not _title_phrase(s):
            return None
        following = index + 1
        if following >= len(self.lines) or self.toc[following]:
            return None
        child_line = self.lines.line_text(following)
        child = self.labels.match(child_line, following)
        if child is None or child.family == "bullet":
            return None
        if label.family == "decimal" and child.family == "decimal":
            first = child.tup[:len(label.tup)] == label.tup and len(child.tup) > len(label.tup)
        else:
            # a capitalised heading after the label ("1. EMERGENCY ACCIDENTAL
            # HOSPITALISATION") opens a section of its own, not the first item of a list
            child_rest = child_line[child.end:].strip()
            first = child.style != label.style and child.value == 1 \
                and not (child_rest and label_shape(child_rest) == "head")
        return clean_heading(s) if first else None

    def _run_in_child(self, body: str, index: int, after_heading: bool) -> Label | None:
        """A child label right after a heading ("B. Heading   (a) ...") or a number ("1.1 (a)")."""
        if not body or not (after_heading or body[0] == "("):
            return None
        child = self.labels.match(body, index)
        if child is None or child.family not in ("list", "decimal", "code"):
            return None
        if not after_heading and child.value != 1:
            return None
        return child

    def _heading_from_next_line(self, index: int, node: Node, label: Label) -> str | None:
        """A label alone on its line ("1.1", "ARTICLE I") often has its heading below it;
        so does a list label whose next line is a short phrase over its first item
        ("i." / "24 Months waiting period" / "1. ..."), in any letter case."""
        following = index + 1
        if following >= len(self.lines) or self.toc[following]:
            return None
        s = next_line_heading(self.lines, following, node.family)
        if s is None:
            line = self.lines.line_text(following)
            if self.labels.match(line, following) is None:
                s = self._heading_over_items(label, line, following) or \
                    self._title_over_text(label, line, following)
        if s is None or self.labels.match(s, following) is not None:
            return None
        self.heading_line = following
        nxt = self.lines[following]
        self.outline.append(node, nxt.start, nxt.end)
        return clean_heading(s)

    def _title_over_text(self, label: Label, line: str, index: int) -> str | None:
        """A short phrase in sentence case between a section number alone on its line and
        the section's text ("A2.1" / "Scope of validity" / "The insurance is valid ..."): the
        numbering gives it the place of a title, as over a list."""
        s = line.strip()
        # a figure over text is a value or a table row ("25% of Sum Insured"), not a title
        if label.family not in ("decimal", "article") or not _title_phrase(s) or has_digit(s):
            return None
        after = index + 1
        if after >= len(self.lines):
            return None
        first = self.text[self.lines[after].start]
        # the text opens with a capital, a quote, a bullet or an ellipsis carrying on a
        # lead-in ("... the liability of drivers who"): not a sentence the phrase begins
        return s if first.isupper() or first in "“\"(•.…" else None

    def _set_definition_kind(self, node: Node, body: str) -> None:
        in_defs = node.parent is not None and node.parent.in_defs
        term = definition_term(body, in_defs)
        if term is None and in_defs and node.family in ("decimal", "code"):
            if node.heading and len(node.heading.split()) <= 6:
                term = node.heading  # "1. Accident:-" under a Definitions heading
            else:
                # "15. Emergency Treatment outside area of cover:-" alone on its line: a
                # glossary's term ends in its colon, whatever the case of its words
                entry = _GLOSSARY_TERM_RE.match(body)
                term = entry.group("term") if entry and _glossary_term(entry.group("term")) \
                    else None
        if term is not None:
            node.kind = "definition"
            node.terms = [term]

    def _open_heading(self, s: str, line: Line, index: int) -> None:
        outline = self.outline
        style = "hcaps" if is_caps(s) else "htitle"
        prominence = self.lines.prominence(index)
        if not self._close_for_heading(index, prominence):
            del outline.stack[outline.sibling_parent_index(style) + 1 :]
        if self.headings_seen and style == "hcaps":
            outline.seen_body_label = True  # a second capitalised heading: the body has begun
        self.headings_seen += 1
        node = outline.new_node(outline.top, style, "heading", None)
        node.preamble = not outline.seen_body_label
        node.heading = clean_heading(s)
        node.prominence = prominence
        node.in_defs = node.in_defs or mentions_definitions(s)
        outline.append(node, line.start, line.end)

    def _close_for_heading(self, index: int, prominence: tuple[float, bool] | None) -> bool:
        """Close the open nodes a heading on line ``index`` cannot sit in; True when the
        headings still open were weighed by their type (else the letter case places it).

        A heading set bolder or larger than the body is no part of a list item written in
        body text: "GENERAL EXCEPTIONS" after "(c) the owner-driver holds a licence ..."
        closes that list. Where the page gives the type, a heading closes the headings set
        no larger than itself and nests under a larger one, whatever the letter case.
        """
        stack = self.outline.stack
        # a title set in italics alone is set apart from the items in upright body text too
        set_apart = self.lines.set_apart(index) or self.lines.italic_title(index)
        by_type = False
        while len(stack) > 1:
            top = stack[-1]
            if top.family in TEXT_FAMILIES or (top.preamble and top.style == "htitle") \
                    or (set_apart and self._body_item(top)) \
                    or self._smaller_item(top, prominence):
                stack.pop()  # headings never sit inside a paragraph, bullet or title block
            elif prominence is not None and top.unlabelled_heading \
                    and top.prominence is not None:
                by_type = True
                if top.prominence > prominence:
                    break
                stack.pop()
            else:
                break
        return by_type

    def _body_item(self, node: Node) -> bool:
        """A numbered item with no heading whose label line is set like the body text."""
        return (node.family in _ITEM_FAMILIES and node.heading is None and node.has_body
                and bool(node.pieces)
                and self.lines.set_apart(self.lines.line_at(node.pieces[0][0])) is False)

    def _smaller_item(self, node: Node, prominence: tuple[float, bool] | None) -> bool:
        """A numbered item whose label line is set smaller than a heading of ``prominence``:
        "3. Post-service Claims" in 10-point bold holds no 12-point "PAYMENT OF BENEFITS"."""
        if prominence is None or node.family not in _ITEM_FAMILIES or not node.pieces:
            return False
        own = self.lines.prominence(self.lines.line_at(node.pieces[0][0]))
        return own is not None and own < prominence

    def _open_para(self, line: Line) -> None:
        outline = self.outline
        if outline.top.family == "para":
            outline.stack.pop()
        node = outline.new_node(outline.top, "para", "para", None)
        outline.append(node, line.start, line.end, body=True)

    def _open_definition(self, term: str, line: Line) -> None:
        outline = self.outline
        index = outline.sibling_parent_index("def")
        while index > 0 and outline.stack[index].family == "para":
            index -= 1
        del outline.stack[index + 1 :]
        node = outline.new_node(outline.top, "def", "def", None)
        node.kind = "definition"
        node.terms = [term]
        outline.append(node, line.start, line.end, body=True)
