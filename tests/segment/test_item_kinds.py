"""A list item that only names something is a clause, not a heading.

"6. Hysterectomy" in a list of conditions under a waiting-period rule, or "c. Gestational
Surrogacy" between items that have sentences of their own, has no body and nothing below
it: the segmenter marked such units "heading", as if they headed a section, and `show` and
the JSON said so (167 of the 244 headings of the 22 policies). An item with a numbered
sibling of its style beside it is an item; a title with nothing below it ("ARTICLE 5
MISCELLANEOUS" before "ARTICLE 6") stays a heading. Written with several list styles.
"""

from __future__ import annotations

import pytest

from tests.segment_text import holding
from tests.segment_text import segment_text as _segment

STYLES = [("1.", "2.", "3."), ("a.", "b.", "c."), ("(i)", "(ii)", "(iii)"), ("1)", "2)", "3)")]


@pytest.mark.parametrize("labels", STYLES)
def test_an_item_that_names_a_condition_is_a_clause(labels: tuple[str, str, str]) -> None:
    first, second, third = labels
    text = (
        "6. Specified disease waiting period\n"
        "Expenses related to the treatment of the listed conditions shall be excluded until "
        "the expiry of 24 months of continuous coverage.\n"
        "The following are the listed conditions:\n"
        f"{first} Cataract\n"
        f"{second} Hysterectomy\n"
        f"{third} Gestational Surrogacy\n"
        "7. Claims\n"
        "You must tell us of a claim within seven days of discharge from the hospital.\n"
    )
    clauses = _segment(text)
    for name in ("Cataract", "Hysterectomy", "Gestational Surrogacy"):
        assert holding(clauses, name).kind == "clause", [(c.label, c.kind) for c in clauses]


def test_a_title_with_nothing_below_it_stays_a_heading() -> None:
    text = (
        "ARTICLE 1 DEFINITIONS\n"
        "In this agreement the words below have the meanings given to them.\n"
        "ARTICLE 2 MISCELLANEOUS\n"
        "ARTICLE 3 TERM\n"
        "This agreement runs for five years from the effective date unless ended earlier.\n"
    )
    clauses = _segment(text)
    assert holding(clauses, "MISCELLANEOUS").kind == "heading", \
        [(c.label, c.kind, c.text[:30]) for c in clauses]
