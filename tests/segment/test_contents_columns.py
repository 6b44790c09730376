"""A table of contents whose page numbers stand on the line below each entry (a two-column
contents page read column by column) is one contents clause: its entries open no sections,
so the sections of the body keep their own numbers. Written with several numbering styles
and page styles."""

from __future__ import annotations

import pytest

from tests.segment_text import holding, segment_text

STYLES = [
    # (section word, article word, page numbers)
    ("Section", "ARTICLE", ["2", "8", "9", "11", "14"]),
    ("SECTION", "Article", ["1", "3", "5", "7", "9"]),
    ("", "ARTICLE", ["ii", "iii", "iv", "v", "vi"]),
]


def _numbered(word: str, number: str) -> str:
    return f"{word} {number}" if word else f"{number}."


@pytest.mark.parametrize(("word", "article", "pages"), STYLES)
def test_a_contents_table_with_pages_below_its_entries_opens_no_section(
    word: str, article: str, pages: list[str]
) -> None:
    entries = [(f"{article} I DEFINITIONS", None),
               (f"{_numbered(word, '1.01')} Definitions", pages[0]),
               (f"{_numbered(word, '1.02')} Interpretation", pages[1]),
               (f"{article} II TRANSACTION", None),
               (f"{_numbered(word, '2.01')} Strategic Alliance", pages[2]),
               (f"{_numbered(word, '2.02')} Obligations of the Buyer", pages[3]),
               (f"{_numbered(word, '2.03')} Obligations of the Company", pages[4])]
    contents = "TABLE OF CONTENTS\n" + "".join(
        f"{entry}\n{page}\n" if page else f"{entry}\n" for entry, page in entries)
    body = (
        "THIS AGREEMENT is made between the Buyer and the Company.\n"
        f"{article} I DEFINITIONS\n"
        f"{_numbered(word, '1.01')} Definitions. Capitalised terms have the meanings set out "
        "in this Section.\n"
        f"{_numbered(word, '1.02')} Interpretation. Headings do not affect interpretation.\n"
        f"{article} II TRANSACTION\n"
        f"{_numbered(word, '2.01')} Strategic Alliance. The Parties form a strategic "
        "alliance on the terms below.\n"
        f"{_numbered(word, '2.02')} Obligations of the Buyer. The Buyer pays the price at "
        "closing.\n"
        f"{_numbered(word, '2.03')} Obligations of the Company. The Company delivers the "
        "shares at closing.\n"
    )
    clauses = segment_text(contents + body)
    ids = [c.clause_id.split(":", 1)[1] for c in clauses]
    assert not any("~" in i for i in ids), ids  # no number seen twice
    assert "Strategic Alliance" in holding(clauses, "TABLE OF CONTENTS").text
    alliance = holding(clauses, "form a strategic alliance")
    assert alliance.label.endswith("2.01"), ids
    assert alliance.section_path[0].startswith(f"{article} II"), alliance.section_path
