"""What a definition clause's wording says: the terms it defines (for the evidence that
explains an answer, answer/extractive.py, and the definition a "What is X?" question asks
for, answer/direct.py), and where its defining sentence starts below a term line."""

from __future__ import annotations

import re

from clausegraph.models import Clause

# a heading that announces definitions ("Definitions", "Defined Terms", "Interpretation")
DEFINITION_HEADING = re.compile(r"\b(definitions?|defined terms|interpretation)\b", re.IGNORECASE)


# Pronouns a policy defines as its parties ("We/Our/Us means the Company", "You means the
# Insured"): nearly every clause uses them, so a governing clause using one says nothing of
# why the definition matters to the question.
PRONOUNS = frozenset({"i", "me", "my", "we", "us", "our", "ours", "you", "your", "yours", "they",
                       "them", "their"})

# the labels a definition may open with ("2.8 ", "(k) ", "Def. 35. ")
_LABELS = r"(?:[(\[]?(?:\d+(?:\.\d+)*|[A-Za-z]{1,4})[.)\]]+\s+|\d+(?:\.\d+)+\s+)*"

# The words a definition opens with, before "means", ":-" or ":" ("2.8 Break in policy means
# ...", "3. AYUSH Hospital:- An AYUSH ..."), for definitions the relation rules did not read
# a term from; the label before them is skipped.
LEAD_TERM = re.compile(
    r"^\s*" + _LABELS + r"[\"“‘']?(?P<term>[A-Z][^\n:\"”’]{1,60}?)[\"”’']?"
    r"\s*(?:\bmeans\b|\bshall mean\b|\bis defined as\b|\brefers to\b|:-|:)")


# A definition's term on a line of its own, the text that defines it below
# ("“Medical Child Support Order”\n“Medical Child Support Order” shall mean ...",
# "13. Blindness\nTotal and irreversible loss of all vision ..."); the label before it is
# skipped. A line with a verb is the definition's first sentence, and one that names
# definitions the heading of a list of them ("Standard Definitions"), not a term; a next
# line of a few characters continues the term ("Commencement\nDate\nmeans ...").
_TERM_LINE = re.compile(
    r"^\s*" + _LABELS +
    r"(?P<line>(?=[^\n]*[A-Za-z]{2})[^\n:]{2,80}?)[ \t:.\-–]*\n\s*[^\n]{20}")
_TERM_LINE_VERB = re.compile(
    r"\b(?:shall|will|may|must|means?|is|are|refers?|includes?|defined)\b", re.IGNORECASE)
_LABEL_ALONE = re.compile(r"(?:[(\[]?(?:\d+(?:\.\d+)*|[A-Za-z]{1,4})[.)\]]+\s*|\d+\s*)+")
_QUOTED_TERM = re.compile(r"[\"“‘']([^\n\"“”‘’']{2,60}?)[\"”’']")
# the verb a quoted term is defined by; the quoted names before it are one term's
# alternatives ("“Qualified Medical Child Support Order” or “QMCSO” shall mean ...")
DEFINED_BY = re.compile(r"\b(?:means|shall\s+mean|is\s+defined\s+as|refers\s+to)\b")
_QUOTED_NAMES = re.compile(
    r"\s*" + _LABELS +
    r"[\"“‘'][^\n\"“”‘’']{2,60}[\"”’']"
    r"(?:\s*(?:,|/|\bor\b|\band\b)\s*[\"“‘'][^\n\"“”‘’']{2,60}[\"”’'])*\s*,?\s*")


def definition_terms(clause: Clause, edge_term: str | None = None) -> list[str]:
    """The terms a definition clause defines: those the relation rules read, the term of a
    Defines edge from it, the words it opens with before "means" or a colon, the term on
    its first line when the definition follows below, and the quoted names before its
    defining verb."""
    match = LEAD_TERM.match(clause.text)
    lead = match.group("term").strip() if match else None
    return list(dict.fromkeys([*clause.defined_terms, *filter(None, [edge_term, lead]),
                               *_opening_terms(clause.text)]))


def _opening_terms(text: str) -> list[str]:
    """The term line and the quoted alternatives of :func:`definition_terms`."""
    terms = []
    line = _TERM_LINE.match(text)
    if line and not _LABEL_ALONE.fullmatch(line.group("line")) and \
            not _TERM_LINE_VERB.search(line.group("line")) and \
            not DEFINITION_HEADING.search(line.group("line")):
        quoted = _QUOTED_TERM.findall(line.group("line"))
        terms += quoted or [line.group("line").strip(" \"“”‘’'")]
    verb = DEFINED_BY.search(text, 0, 300)
    if verb:
        before = text[text.rfind("\n", 0, verb.start()) + 1:verb.start()]
        if _QUOTED_NAMES.fullmatch(before):
            terms += _QUOTED_TERM.findall(before)
    return [t.strip() for t in terms if t.strip()]


# the label a term line may open with ("G.6 ", "12. ", "(c) "), skipped when the line
# below is compared with it
_LEADING_LABEL = re.compile(r"\s*(?:(?:\d+(?:\.\d+)*[.)]?|[A-Za-z]{1,4}(?:\.\d+)+[.)]?"
                         r"|[(\[]?[A-Za-z]{1,4}[.)\]])\s+)?")


def past_term_line(text: str, start: int, end: int) -> int:
    """Where a quote of ``text[start:end]`` starts: past a first line that the next line
    repeats (a term set on its own line above the definition that restates it,
    "“Copayment” or “Copay”\n“Copayment” or “Copay” shall mean ..."), whose words the
    quote would otherwise give twice; ``start`` when there is none."""
    line_end = text.find("\n", start, end)
    if line_end < 0:
        return start
    term = text[_LEADING_LABEL.match(text, start, line_end).end():line_end].strip()
    repeat = line_end + 1
    while repeat < end and text[repeat].isspace():
        repeat += 1
    return repeat if len(term) >= 3 and text.startswith(term, repeat) else start
