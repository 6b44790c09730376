"""Words at a line start that refer to a clause rather than open one ("Section 12 of ...")."""

from __future__ import annotations

import re

# A line ending in a reference ("... pursuant to Section 3") runs on into the next line.
REFERENCE_TAIL_RE = re.compile(
    r"\b(?i:sections?|articles?|clauses?|paragraphs?|subsections?|schedules?|exhibits?)"
    r"\s*\d[\d.]*$|§\s*\d[\d.]*$"
)
REFERENCE_REST_RE = re.compile(
    r"(?:hereof|thereof|herein|hereto|hereunder|above|below|of\b|and\b|or\b|to\b|through\b|,)"
)
# A line that only points to a place ("Section 9.3(c)(ii)", "Exhibit B", "Preamble"): the
# section column of an index of defined terms set as text
BARE_REFERENCE_RE = re.compile(
    r"(?:(?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE|Exhibit|EXHIBIT|Schedule|SCHEDULE|§)"
    r"\s*[\dIVXLCA-Z]{1,7}(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,4}\))*\.?"
    r"|Preamble|PREAMBLE|Recitals?|RECITALS?)$"
)
# The word before a number that makes it a reference ("under Section 4.2", "and 5.").
REFERENCE_WORDS = frozenset(
    [
        "section", "sections", "article", "articles", "clause", "clauses", "paragraph",
        "paragraphs", "subsection", "exhibit", "schedule", "annex", "appendix", "and", "or",
        "of", "to", "in", "under", "with", "see", "by", "than", "$", "no.", "nos.",
    ]
)


def continues_a_reference(rest: str) -> bool:
    """Does the text after a "Section 12" / "Schedule B" read as the rest of a sentence
    that refers to it ("(Miscellaneous) of ...", "hereof", "and 13")?"""
    return bool(rest) and (
        rest[0].islower() or rest[0] in "(,;[" or REFERENCE_REST_RE.match(rest) is not None
    )
