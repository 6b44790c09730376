"""Labels at line starts: ``ARTICLE IV``, ``Section 5``, ``4.2``, ``(b)``, ``ii.``, ``A.``,
bullets, ``Schedule B``, insurance codes such as ``Excl01``.

Whether a line start is a label depends on what is open: a bare number is an amount
unless it fits the numbering, ``(i)`` is a letter or a roman numeral by the list it
continues, a ``Schedule B`` line is a container only when the numbering does not carry
on after it. ``LabelReader`` reads the outline and the numbering but changes neither.
"""

from __future__ import annotations

import re

from clausegraph.segment.contents import TOC_END_RE
from clausegraph.segment.headings import ends_mid_phrase, heading_key, heading_like, is_caps
from clausegraph.segment.lines import DocumentLines
from clausegraph.segment.numbering import (
    MAX_UNSEQUENCED_NUMBER,
    DecimalNumbering,
    letter_value,
    roman,
)
from clausegraph.segment.outline import Label, Outline
from clausegraph.segment.references import (
    BARE_REFERENCE_RE,
    REFERENCE_REST_RE,
    REFERENCE_TAIL_RE,
    continues_a_reference,
)
from clausegraph.segment.schedules import SCHEDULE_RE, SCHEDULES_RE, Schedules, is_schedule_line

# "ARTICLE ONE", "Section Twelve": a container numbered in words, in capitals or title case
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                "eighteen", "nineteen", "twenty")
_SPELLED = "|".join(f"{word.upper()}|{word.capitalize()}" for word in NUMBER_WORDS)


def spelled_value(num: str) -> int | None:
    """1 for "ONE" or "One", ..., 20 for "Twenty"; None for anything else."""
    word = num.lower()
    return NUMBER_WORDS.index(word) + 1 if word in NUMBER_WORDS else None


def _container_re(words: str) -> re.Pattern[str]:
    """``ARTICLE IV``, ``Part 2``, ``Chapter B``, ``ARTICLE ONE``: a word, then a roman,
    arabic, letter or spelled number."""
    return re.compile(
        rf"(?P<word>{words})(?:\s*[-–—]\s*|\s+)"
        rf"(?P<num>(?:{_SPELLED})(?![a-zA-Z])|[IVXLC]{{1,7}}|\d{{1,3}}|[A-Z])"
        # "PART 4) WHAT IS NOT COVERED": the mark after the number is the label's
        r"(?=[\s.:\-–—)]|$)[.)]?"
    )


def _numbered_re(words: str) -> re.Pattern[str]:
    """``Section 4.2``, ``§ 5``, ``SECTION ONE``: a word, then a dotted decimal or a spelled
    number."""
    return re.compile(
        # "SECTION-5", "Section – 5": a dash may join the word and its number
        rf"(?P<word>{words})(?:\s+(?i:no)\.)?(?:\s*[-–—]\s*|\s*)"
        # the whole dotted number: "Section 9.3(c)(ii)" is no "Section 9" titled "3(c)(ii)"
        rf"(?P<num>\d{{1,3}}(?:\.\d{{1,3}})*(?![.\d]*\d)|(?<=\s)(?:{_SPELLED})(?![a-zA-Z]))"
        # "Section 5) What we will not pay for": as "SECTION D) EXCLUSIONS"
        r"(?=[\s.:)\-–—]|$)[.)]?"
    )


_ARTICLE_RE = _container_re(r"Article|ARTICLE|Part|PART")
# "SECTION B", "SECTION II – LIABILITY TO THIRD PARTIES" (the Indian motor tariff wording's
# sections I to IV), "Section - C", "Section F: Other Terms": a letter or a roman number
_SECTION_LETTER_RE = re.compile(
    r"(?P<word>Section|SECTION)(?:\s*[-–—]\s*|\s+)(?P<num>[IVXLC]{2,7}|[A-Z])"
    r"(?:[.)]|\s*[-–—]\s*(?=[A-Z])|(?=[\s:]|$))")
_SECTION_RE = _numbered_re(r"Section|SECTION|Sec\.|SEC\.|Clause|CLAUSE|§")
_REFERENCE_RUN = 3  # bare references a line apart: fewer may be headings with one-line text
_INDEX_TERM_CHARS = 60
_WORD_LABELS = (
    (_ARTICLE_RE, "article"),
    (_SECTION_LETTER_RE, "article"),
    (_SECTION_RE, "decimal"),
    (SCHEDULE_RE, "schedule"),
)
# With ``segment.more_containers``: chapters above articles, paragraphs and rules numbered
# like sections (regulations, statutes, rule books).
_CHAPTER_RE = _container_re(r"Chapter|CHAPTER")
_PARAGRAPH_RE = _numbered_re(r"Paragraph|PARAGRAPH|Para\.|PARA\.|Rule|RULE")
_MORE_WORD_LABELS = (
    (_CHAPTER_RE, "chapter"),
    *_WORD_LABELS,
    (_PARAGRAPH_RE, "decimal"),
)
# Outline ranks of containers: a label closes every open node of its rank or below.
_SCHEDULE_RANK, _CHAPTER_RANK, _ARTICLE_RANK = 0, 1, 2
_CODE_RE = re.compile(
    r"(?:(?i:code)\s*[-–:]?\s*)?(?P<excl>(?i:excl)\s?\d{1,3})\b|(?i:def)\.\s*(?P<def>\d{1,3})\.?"
)
# a number's dot may run into its title when a PDF's text drops the space ("2.FOLLOWING
# REASONABLE ... EXPENSES", "1.DEFINITIONS", "11.1.1.Igene will provide"): a capitalised
# word of three letters or more after the dot ("1.5m", "2.Ex" are no labels)
_DECIMAL_RE = re.compile(
    r"(?P<num>\d{1,4}(?:\.\d{1,3})*)(?P<dot>\.)?(?=\s|$|(?<=\.)[A-Z][A-Za-z]{2})")
PAREN_RE = re.compile(r"\((?P<v>[a-zA-Z]{1,4}|\d{1,3})\)(?=\s|$)")
_HALF_RE = re.compile(r"(?P<v>[a-zA-Z]{1,4}|\d{1,2})\)(?=\s|$)")
_DOT_RE = re.compile(r"(?P<v>[a-zA-Z]|[ivxlcIVXLC]{2,6})\.(?=\s|$|[A-Z][a-z])")
_BULLET_RE = re.compile(r"[•●▪◦○■□➢►▶✓✔·∙\uf0b7\uf0a7\uf0d8\uf076\uf0fc\u2023\u2043\-–—*o](?=\s|$)")
_WEAK_BULLETS = frozenset("-–—*o")
# How many lines after a "Schedule X" line are searched for the label that tells whether
# the body's numbering carries on (then the line was a reference or a table cell).
_SCHEDULE_LOOKAHEAD = 400


# "IMT. 3. TRANSFER OF INTEREST", "GC 5 Claims", "TA18- Consumable Expenses": a capital code
# and a number before a heading. A code that opens at least _CODE_SEQUENCE headings numbered below _CODE_NUMBERS
# is a numbering of the document's own (a national tariff's endorsements, a rule book's
# clauses), not an amount ("INR 500 Per day") or a reference
CODED_RE = re.compile(
    r"(?P<code>[A-Z]{2,5})\s?\.?\s?(?P<num>\d{1,3})(?P<suffix>[A-Z]?)\.?(?=\s|$|[-–:])")
_CODE_SEQUENCE = 3
_CODE_NUMBERS = 100


def _sequenced_codes(lines: DocumentLines) -> frozenset[str]:
    """The codes that number at least ``_CODE_SEQUENCE`` headings of the document."""
    numbers: dict[str, set[int]] = {}
    for index in range(len(lines)):
        s = lines.line_text(index)
        match = CODED_RE.match(s) if s[:1].isupper() else None
        if match is None or int(match.group("num")) >= _CODE_NUMBERS:
            continue
        # the heading may follow a dash or a colon ("TA18- Consumable Expenses")
        rest = s[match.end():].strip().lstrip("-–:").strip()
        if rest[:1].isupper() and heading_like(rest, 14):
            numbers.setdefault(match.group("code"), set()).add(int(match.group("num")))
    return frozenset(code for code, found in numbers.items() if len(found) >= _CODE_SEQUENCE)


# "A2.1", "C10.2.2", "B.41": a capital letter before a dotted number, the letter naming
# the part (AXA's "A Underlying provisions", "B Liability insurance"). Read as labels only
# in a document where one letter numbers at least _CODE_SEQUENCE sections ("A1", "A2",
# "A3"): elsewhere "A4 paper" or "B2 visa" are words.
LETTERED_RE = re.compile(
    r"(?P<letter>[A-Z])(?P<dot>\.?)(?P<num>\d{1,2}(?:\.\d{1,2}){0,3})\.?(?=\s|$)")


def _sequenced_letters(lines: DocumentLines) -> frozenset[str]:
    """The letters that number at least ``_CODE_SEQUENCE`` sections of the document, each
    line starting with the lettered number alone or before a capitalised word."""
    numbers: dict[str, set[int]] = {}
    for index in range(len(lines)):
        s = lines.line_text(index)
        match = LETTERED_RE.match(s) if s[:1].isupper() else None
        if match is None:
            continue
        rest = s[match.end():].strip()
        if not rest or rest[0].isupper():
            top = int(match.group("num").split(".")[0])
            numbers.setdefault(match.group("letter"), set()).add(top)
    # a numbering starts at 1 ("A1", "A2", "A3"); ICD codes of a list of diseases ("I10",
    # "I11", "I12.0") do not
    return frozenset(letter for letter, found in numbers.items()
                     if set(range(1, _CODE_SEQUENCE + 1)) <= found)


# "II. Protection of Personal Information", "II) PROTECTION ...": a capital roman numeral,
# a dot or bracket, a heading
ROMAN_HEADING_RE = re.compile(r"(?P<num>[IVXLC]{1,6})[.)]\s+(?P<rest>\S.*)")
# "2.1 Standard of Protection Measures": a dotted decimal section and its first part
_DOTTED_TOP_RE = re.compile(r"(?P<top>\d{1,2})\.\d{1,2}(?:\.\d{1,2})*\.?\s+\S")


def roman_heading(s: str) -> tuple[str, int, int] | None:
    """(numeral, value, where the heading starts) of a line "II. Protection of ...", else
    None."""
    match = ROMAN_HEADING_RE.match(s) if s[:1] in "IVXLC" else None
    if match is None or not heading_like(match.group("rest")):
        return None
    value = roman(match.group("num"))
    return None if value is None else (match.group("num"), value, match.start("rest"))


def _chapter_romans(lines: DocumentLines) -> frozenset[int]:
    """The values of roman-numbered headings ("II. Protection of ...") that head the
    document's decimal sections of the same number ("2.1", "2.2", ... after "II."), when at
    least ``_CODE_SEQUENCE`` of them do: such a document is divided into chapters numbered
    in romans and sections numbered in decimals, and each chapter holds its sections. A
    list lettered "A." to "Z." has no "II.", and a list numbered "I.", "II." in running
    text has no sections numbered after its items."""
    headings: list[tuple[int, int]] = []  # (line, value)
    tops: list[tuple[int, int]] = []  # (line, first part of a dotted decimal "2.1")
    for index in range(len(lines)):
        s = lines.line_text(index)
        heading = roman_heading(s)
        if heading is not None:
            headings.append((index, heading[1]))
            continue
        dotted = _DOTTED_TOP_RE.match(s)
        if dotted is not None:
            tops.append((index, int(dotted.group("top"))))
    held = set()
    for at, (line, value) in enumerate(headings):
        stop = headings[at + 1][0] if at + 1 < len(headings) else len(lines)
        if any(line < where < stop and top == value for where, top in tops):
            held.add(value)
    return frozenset(held) if len(held) >= _CODE_SEQUENCE else frozenset()


def _section_letter(comp: str | None) -> str | None:
    """The letter a section is numbered with ("Section D" -> "D"), None for a number."""
    number = (comp or "").split()[-1:] or [""]
    return number[0] if len(number[0]) == 1 and number[0].isalpha() else None


class LabelReader:
    """Finds the label a line starts with, given what the outline has open."""

    def __init__(
        self,
        lines: DocumentLines,
        outline: Outline,
        numbering: DecimalNumbering,
        toc: list[bool],
        schedules: Schedules,
        more_containers: bool = False,
    ) -> None:
        self.lines = lines
        self.text = lines.text
        self.outline = outline
        self.numbering = numbering
        self.toc = toc
        self.schedules = schedules
        self.word_labels = _MORE_WORD_LABELS if more_containers else _WORD_LABELS
        # (number, heading_key) of numbered lines that end in a page number, as contents do
        self.numbered_headings: set[tuple[str | None, str]] = set()
        self.codes = _sequenced_codes(lines)
        self.letters = _sequenced_letters(lines)
        self.chapter_romans = _chapter_romans(lines)

    def match(self, s: str, index: int) -> Label | None:
        """The label starting line ``index`` (text ``s``), if it is a real one."""
        for matcher in (
            self._schedules_label,
            self._word_label,
            self._coded_label,
            self._code_label,
            self._lettered_label,
            self._chapter_roman_label,
            self._decimal_label,
            self._list_label,
            self._bullet_label,
        ):
            label = matcher(s, index)
            if label is not None:
                return label
        return None

    def _continues_line_before(self, index: int) -> bool:
        """Does the line before end in a word a phrase never ends with (``CONNECTORS``)?
        Then a container word starting this line carries that line on: "... set forth in
        this" / "Section 3.6(a) ...", "... DOMESTIC COVER UNDER" / "SECTION C) BENEFITS
        ..." are a reference inside a wrapped sentence or heading, not a section. Asked of
        word labels only: a lead-in without its colon does end in such a word and is
        followed by real items ("... in respect of" / "1. Any accidental loss ..."). On the
        22 policies and 105 CUAD dev contracts every container it refused was a reference
        (docs/segmentation.md, "Wrapped references")."""
        return index > 0 and ends_mid_phrase(self.lines.line_text(index - 1))

    def _in_reference_column(self, index: int) -> bool:
        """Is this line a bare reference ("Section 9.3(c)(ii)", "Section 1.12") in a run of
        three or more, each a line apart, with a short term between them ("Acquiror" /
        "Section 15.2(a)" / "Agreement" / "Preamble" / ...)? That is the section column of
        an index of defined terms (or a contents list) set as text, not a run of headings:
        a heading has its text under it."""
        if not self._bare_reference(index):
            return False
        run = 1
        for step in (-2, 2):
            at = index + step
            while (0 <= at < len(self.lines) and self._bare_reference(at)
                   and self._index_term(at - step // 2)):
                run += 1
                at += step
        return run >= _REFERENCE_RUN and (self._index_term(index - 1)
                                          or self._index_term(index + 1))

    def _bare_reference(self, index: int) -> bool:
        return 0 <= index < len(self.lines) and \
            BARE_REFERENCE_RE.match(self.lines.line_text(index).strip()) is not None

    def _index_term(self, index: int) -> bool:
        """A short line that is no reference and no sentence: a defined term, a title."""
        if not 0 <= index < len(self.lines):
            return False
        text = self.lines.line_text(index).strip()
        return (0 < len(text) <= _INDEX_TERM_CHARS and not text.endswith((".", ":", ";"))
                and not self._bare_reference(index))

    def note_contents_entry(self, label: Label, line_text: str) -> None:
        """A numbered line ending in a page number ("1.  INTRODUCTION ...... 3"): an entry
        of a contents table the contents finder missed."""
        if label.family in ("decimal", "article") and TOC_END_RE.search(line_text):
            self.numbered_headings.add((label.comp, heading_key(line_text[label.end :])))

    # ---- words: Article, Section, Schedule

    def _word_label(self, s: str, index: int) -> Label | None:
        if s[:1] not in "APSCE§R":
            return None
        for regex, family in self.word_labels:
            match = regex.match(s)
            if match is None:
                continue
            rest = s[match.end() :].lstrip()
            if continues_a_reference(rest):
                return None  # "Section 12 (Miscellaneous) of ...": a reference, not a label
            if self._continues_line_before(index):
                return None  # "... as set forth in this" / "Section 3.6(a) ...": the same
            if self._in_reference_column(index):
                return None  # "Acquiror" / "Section 15.2(a)" / "Agreement" / "Preamble"
            word = " ".join(match.group("word").split())
            num = match.group("num")
            if family == "schedule":
                return self._schedule_label(word, num, match.group(0), rest, index)
            if family in ("article", "chapter"):
                label = self._article_label(s, word, num, rest, match.end(), family)
                if regex is _SECTION_LETTER_RE and s[match.end():].startswith(":") and \
                        label is not None and not self._opens_lettering(label):
                    return None
                return label
            spelled = spelled_value(num)
            label = self.decimal_from(str(spelled) if spelled else num, match.end(), rest,
                                      word, strong=True)
            if label is not None and spelled:
                label.comp = f"{word} {num}"  # cited as written: "SECTION ONE"
            return label
        return None

    def _opens_lettering(self, label: Label) -> bool:
        """Whether a section whose letter or roman number a colon follows ("Section F:
        Other Terms") opens where no such section is open or is the next one after the
        section open: one that is neither ("Section I: Basic Covers" inside "Section C.
        Benefits") heads a part of the section open, whose numbered items run on across
        such parts."""
        opened = [node for node in self.outline.stack if node.style == label.style]
        if not opened or self.outline.continues_article(label):
            return True
        # a lone letter's value is read as a roman number where it is one ("C" 100, "D"
        # 500): the lettering goes on when the letter follows the open section's letter
        letter = _section_letter(label.comp)
        return letter is not None and any(
            (last := _section_letter(node.comp)) is not None and ord(letter) == ord(last) + 1
            for node in opened)

    @staticmethod
    def _article_label(
        s: str, word: str, num: str | None, rest: str, end: int, family: str
    ) -> Label | None:
        if num is None or (word.lower() == "part" and not rest and not is_caps(s)):
            return None
        spelled = spelled_value(num)
        value = spelled or roman(num) or (int(num) if num.isdigit() else ord(num[0]) - 64)
        if value <= 0 or (len(num) > 1 and not num.isdigit() and roman(num) is None
                          and spelled is None):
            return None
        rank = _CHAPTER_RANK if family == "chapter" else _ARTICLE_RANK
        return Label("article", family, f"{word} {num}", end, value, (value,), rank)

    def _schedules_label(self, s: str, index: int) -> Label | None:
        """A line "Schedules:" or "LIST OF EXHIBITS" alone heads the list of the schedules."""
        if s[:1] not in "SEAL" or not self.outline.seen_body_label:
            return None
        match = SCHEDULES_RE.match(s)
        if (
            match is None
            or self.schedules.before_the_body(index)
            or self._sequence_resumes_after(index)
        ):
            return None
        return Label(
            "schedule", "schedule", match.group("word"), match.end(), 0, (), _SCHEDULE_RANK
        )

    def _schedule_label(
        self, word: str, num: str | None, matched: str, rest: str, index: int
    ) -> Label | None:
        # Before the body starts, "Exhibit 10.28" is the filing's cover header, not an annex.
        if not self.outline.seen_body_label:
            return None
        if self.schedules.refuses(word, num, matched, rest, index):
            return None
        if self._sequence_resumes_after(index):
            return None  # "Schedule E" in a table cell of the body: a reference, not a container
        comp = f"{word} {num}" if num else word
        return Label("schedule", "schedule", comp, len(matched), 0, (), _SCHEDULE_RANK)

    def _sequence_resumes_after(self, index: int) -> bool:
        """Does the first numbered label after line ``index`` continue a sequence open now?

        An attached schedule starts afresh: a title, text, a list restarting at "1." or
        "(a)". When the next label instead carries on the body's numbering ("(b)" after an
        open "(a)", "(viii)" after "(vii)", "5." after "4."), the schedule line was a cell of
        a table or a wrapped reference inside the body. So does a first section that repeats
        an entry of a contents table ("1. INTRODUCTION AND DEFINITIONS" after "1.
        INTRODUCTION AND DEFINITIONS ..... 3", a table the contents finder missed): the
        body has yet to start. Other schedule lines in between decide nothing ("Schedule
        C" / "Schedule D" cells of one table).
        """
        stop = min(len(self.lines), index + 1 + _SCHEDULE_LOOKAHEAD)
        for ahead in range(index + 1, stop):
            if self.toc[ahead]:
                continue
            s = self.lines.line_text(ahead)
            if is_schedule_line(s):
                continue
            label = self.match(s, ahead)
            if label is None or label.comp is None or label.family == "schedule":
                continue
            key = heading_key(s[label.end :])
            if key and label.value == 1 and (label.comp, key) in self.numbered_headings:
                return True  # "1. INTRODUCTION" again: what came before was a contents table
            return self._continues_open_sequence(label)
        return False

    def _continues_open_sequence(self, label: Label) -> bool:
        """Is ``label`` the next number of a sequence that is open at this point?"""
        if label.family == "decimal":
            return self.numbering.continues_open(label.tup, bool(self.outline.open_fits(label)))
        if label.family == "list":
            return label.value > 1  # a list reading above 1 is only chosen to continue a list
        if label.family == "article":
            return self.outline.continues_article(label)
        return False

    # ---- codes and numbers

    def _coded_label(self, s: str, index: int) -> Label | None:
        """"IMT. 3. TRANSFER OF INTEREST": a code of the document's own numbering of
        attached endorsements or clauses (``_sequenced_codes``) opens a container."""
        if not self.codes or not s[:1].isupper():
            return None
        match = CODED_RE.match(s)
        if match is None or match.group("code") not in self.codes:
            return None
        comp = f"{match.group('code')} {match.group('num')}{match.group('suffix')}"
        return Label("schedule", "schedule", comp, match.end(), 0, (), _SCHEDULE_RANK)

    def _code_label(self, s: str, index: int) -> Label | None:
        if s[:1] not in "EeCcDd":
            return None
        match = _CODE_RE.match(s)
        if match is None:
            return None
        if match.group("excl"):
            digits = re.sub(r"\D", "", match.group("excl"))
            return Label("code", "code:excl", f"Excl{digits}", match.end(), int(digits))
        digits = match.group("def")
        return Label("code", "code:def", f"Def.{digits}", match.end(), int(digits))

    def _lettered_label(self, s: str, index: int) -> Label | None:
        """"A2.1" in a document numbered so (``_sequenced_letters``): a decimal label whose
        first part is the letter's place in the alphabet, cited as written."""
        if not self.letters or s[:1] not in self.letters:
            return None
        match = LETTERED_RE.match(s)
        if match is None:
            return None
        rest = s[match.end():].strip()
        if (rest and not rest[0].isupper()) or self._continues_line_before(index):
            return None  # "A11.2 applies.", "... as set out in" / "D3.2.": references
        if TOC_END_RE.search(s) or (not rest and self._contents_entry_below(index)):
            return None  # "C7 Motorcycle clothing 14": an entry of the contents
        tup = (ord(match.group("letter")) - 64, *map(int, match.group("num").split(".")))
        comp = match.group("letter") + match.group("dot") + match.group("num")  # as written
        return Label("decimal", f"dec{len(tup)}", comp, match.end(), tup[-1], tup)

    def _chapter_roman_label(self, s: str, index: int) -> Label | None:
        """"II. Protection of Personal Information" in a document divided so
        (``_chapter_romans``): a chapter, which holds the sections "2.1", "2.2", ... that
        follow it as an ARTICLE holds them."""
        heading = roman_heading(s) if self.chapter_romans else None
        if heading is None or heading[1] > max(self.chapter_romans) + 1:
            return None
        numeral, value, end = heading
        return Label("article", "article", numeral, end, value, (value,), _ARTICLE_RANK)

    def _contents_entry_below(self, index: int) -> bool:
        """A label alone, its title below it and a page number after the title ("C7" /
        "Motorcycle clothing" / "14", "A6" / "Transfer of the insurance ...  8", a title
        wrapping onto a second line): a contents entry laid out in columns."""
        below = [self.lines.line_text(i).strip()
                 for i in range(index + 1, min(index + 4, len(self.lines)))]
        if below and TOC_END_RE.search(below[0]):
            return True
        return any(line.isdigit() and len(line) <= 3 for line in below[1:])

    def _decimal_label(self, s: str, index: int) -> Label | None:
        if not s[:1].isdigit():
            return None
        match = _DECIMAL_RE.match(s)
        if match is None:
            return None
        rest = s[match.end() :].lstrip()
        num = match.group("num")
        if "." not in num and not match.group("dot"):
            # A bare integer is an amount, a date or a page number unless a capitalised
            # heading follows on the same line ("1 PREAMBLE", "2 DEFINITIONS").
            head = rest.split("   ")[0]
            if not (rest and is_caps(head) and heading_like(head)):
                return None
        strong = bool(match.group("dot")) or not rest or rest[0].isupper() or rest[0] in '“"('
        return self.decimal_from(num, match.end(), rest, None, strong)

    def decimal_from(
        self, num: str, end: int, rest: str, word: str | None, strong: bool
    ) -> Label | None:
        """The label of a decimal number ``num`` (with its ``word``: "Section 5"), unless it
        reads as an amount, a year or money; a weak one ("3 months") must fit the numbering."""
        parts = num.split(".")
        tup = tuple(int(p) for p in parts)
        if tup[0] == 0 or (
            tup[0] > MAX_UNSEQUENCED_NUMBER and not self.numbering.continues_top(tup)
        ):
            return None
        if len(tup) > 1 and tup[-1] == 0:
            # "1.0 DEFINITIONS" is article 1 written with a zero; "10.00" is money.
            if len(tup) == 2 and parts[1] == "0" and rest and heading_like(rest.split("   ")[0]):
                tup = tup[:1]
            else:
                return None
        if not strong and not self.numbering.plausible(tup):
            return None
        if word is not None and len(tup) == 1:
            comp = f"{word.capitalize() if word.islower() else word} {tup[0]}"
        else:
            comp = ".".join(str(p) for p in tup) if num.endswith(".0") else num
        return Label("decimal", f"dec{len(tup)}", comp, end, tup[-1], tup)

    # ---- list items and bullets

    def _list_label(self, s: str, index: int) -> Label | None:
        first = s[:1]
        if first == "(":
            match, form = PAREN_RE.match(s), "paren"
        elif first.isalnum():
            match, form = _HALF_RE.match(s), "half"
            if match is None and first.isalpha():
                match, form = _DOT_RE.match(s), "dot"
        else:
            return None
        if match is None:
            return None
        rest = s[match.end() :].lstrip()
        if rest and REFERENCE_REST_RE.match(rest) and rest[0].islower():
            return None  # "Section 3\n(a) hereof": a wrapped reference
        if index > 0 and not self._prev_allows_list(index, rest):
            return None
        value = match.group("v")
        if form == "dot" and len(value) == 1 and value.isupper() and rest[:1].islower():
            return None  # "A. smith" style initials
        return self.choose_list_reading(value, form, match.end())

    def _prev_allows_list(self, index: int, rest: str) -> bool:
        """False when the previous line ends mid-reference ("... pursuant to Section 3").

        A reference that ends its sentence ("... pursuant to Section 2.") does not run on
        into a "(b) Heritage shall ..." that starts a new one.
        """
        prev = self.lines[index - 1]
        tail = self.text[max(prev.start, prev.end - 30) : prev.end]
        if tail.endswith(".") and rest[:1].isupper():
            return True
        return REFERENCE_TAIL_RE.search(tail) is None

    def choose_list_reading(self, value: str, form: str, end: int) -> Label | None:
        """Letter or roman? Pick the reading that continues an open list, else a list start."""
        candidates = [
            Label("list", f"{form}:{cls}", f"({text})", end, val)
            for cls, val, text in _list_readings(value)
        ]
        if not candidates or (form == "dot" and value.isdigit()):
            return None
        for label in candidates:
            node = self.outline.find_style(label.style)
            if node is not None and node.value < label.value <= node.value + 3:
                return label
        for label in candidates:
            if self.outline.open_fits(label):
                return label  # "(f)" after "(e)" whose sub-list "(a)", "(b)" is still open
        for label in candidates:
            if self.outline.displaced_sibling(label) is not None:
                return label  # "3)" after "2)" whose items were numbered "1." to "35."
        for label in candidates:
            if label.value == 1:
                return label
        return None

    def _bullet_label(self, s: str, index: int) -> Label | None:
        match = _BULLET_RE.match(s)
        if match is None:
            return None
        char = s[0]
        if char in _WEAK_BULLETS and index > 0:
            prev = self.lines[index - 1]
            prev_text = self.text[prev.start : prev.end]
            if not (prev.end > prev.start and (prev_text[-1] in ":;." or prev_text[0] == char)):
                return None  # a dash or "o" inside running text, not a list
        return Label("bullet", f"bullet:{char}", None, match.end())


def _list_readings(value: str) -> list[tuple[str, int, str]]:
    """(class, value, text) of each way to read a list marker: "i" is roman 1 or letter 9."""
    if value.isdigit():
        return [("digit", int(value), value)]
    readings: list[tuple[str, int, str]] = []
    numeral = roman(value)
    letter = letter_value(value)
    case = "lower" if value.islower() else "upper"
    if numeral is not None:
        readings.append(("roman" if case == "lower" else "ROMAN", numeral, value))
    if letter is not None and (len(value) == 1 or numeral is None):
        readings.append((case, letter, value))
    return readings
