"""A list item whose list was closed by a list of another numbering inside it: "2)" holds
"1." to "35." (a table of listed diseases), then "3)" continues the outer list (Bajaj
Allianz's exclusions "1) ... 2) Specified disease/procedure waiting period ... 3) 30-day
waiting period", issue 26). Written in several numbering styles: the rule must not depend on
one."""

from __future__ import annotations

import pytest

from clausegraph.models import Document, Page
from clausegraph.segment import segment

OUTER = {  # how the outer list writes its n-th item
    "digit-half": lambda n: f"{n})",
    "digit-paren": lambda n: f"({n})",
    "letter-half": lambda n: f"{'abcd'[n - 1]})",
    "roman-paren": lambda n: f"({['i', 'ii', 'iii', 'iv'][n - 1]})",
}
INNER = {  # the list inside its second item
    "decimal": lambda n: f"{n}.",
    "bullet": lambda n: "•",
}


def document(text: str) -> Document:
    return Document(doc_id="0" * 16, key="t", source_path="t.txt", title="t",
                    media_type="text", text=text, pages=[Page(number=1, start=0, end=len(text))])


def exclusions(outer, inner) -> str:
    diseases = "\n".join(f"{inner(n)} {name}" for n, name in enumerate(
        ["Cataract", "Hernia of all types", "Gout and Rheumatism", "Genetic disorders"], 1))
    return (
        "SECTION D EXCLUSIONS\n\n"
        f"{outer(1)} Pre-Existing Diseases (Code - Excl01)\n"
        "Expenses related to the treatment of a pre-existing disease shall be excluded until "
        "the expiry of 36 months.\n\n"
        f"{outer(2)} Specified disease/procedure waiting period (Code - Excl02)\n"
        "Expenses related to the listed conditions shall be excluded until the expiry of 24 "
        "months. List of specific diseases/procedures is as below\n"
        f"{diseases}\n\n"
        f"{outer(3)} 30-day waiting period (Code - Excl03)\n"
        "Expenses related to the treatment of any illness within 30 days from the first policy "
        "commencement date shall be excluded.\n\n"
        f"{outer(4)} Investigation & Evaluation (Code - Excl04)\n"
        "Expenses related to any admission primarily for diagnostics are excluded.\n"
    )


@pytest.mark.parametrize("inner", sorted(INNER))
@pytest.mark.parametrize("outer", sorted(OUTER))
def test_the_outer_list_continues_after_the_inner_one(outer: str, inner: str) -> None:
    clauses = segment(document(exclusions(OUTER[outer], INNER[inner])))
    wait = next(c for c in clauses if "30-day waiting period" in c.text)
    investigation = next(c for c in clauses if "Investigation" in c.text)
    last_disease = next(c for c in clauses if "Genetic disorders" in c.text)
    # the 30-day wait is an item of its own, not the tail of the last listed disease
    assert wait.text.lstrip().startswith(OUTER[outer](3))
    assert "Genetic disorders" not in wait.text
    assert "30-day" not in last_disease.text
    assert wait.clause_id != investigation.clause_id
    # a sibling of the first two items: the same section path
    first = next(c for c in clauses if "Pre-Existing" in c.text)
    assert wait.section_path == investigation.section_path == first.section_path


def test_a_number_in_running_text_without_its_predecessor_stays_text() -> None:
    text = ("SECTION D EXCLUSIONS\n\n1) Pre-Existing Diseases\nExcluded for 36 months, as the "
            "list below says\n1. Cataract\n2. Hernia\n3) and 4) of the schedule apply to "
            "both.\n")
    clauses = segment(document(text))
    hernia = next(c for c in clauses if "Hernia" in c.text)
    assert "3) and 4) of the schedule" in hernia.text
