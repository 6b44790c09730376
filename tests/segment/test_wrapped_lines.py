"""A line that carries on the line before it is not a label: a reference wrapped onto a new
line ("... as set forth in this" / "Section 3.6(a) ...") opens no container, and a
capitalised heading that wraps ("... COVER UNDER" / "SECTION C) ...") is named by its own
first line. Each case is written in several styles (container words, numbering, letter
case, the connecting word), so a rule fitted to one wording fails here."""

from __future__ import annotations

import pytest

from tests.segment_text import holding as _holding
from tests.segment_text import segment_text as _segment

# (container word of the document's own sections, a wrapped reference, the word before it)
REFERENCES = [
    ("Section", "Section B.1.1(h) of this Policy.", "under"),
    ("SECTION", "SECTION 4.2 above.", "in accordance with"),
    ("Article", "Article XII below.", "set forth in this"),
    ("Clause", "Clause 3.6(a), as the case may require.", "provided for in"),
]


@pytest.mark.parametrize(("word", "reference", "connector"), REFERENCES)
def test_a_reference_wrapped_to_a_line_start_opens_no_container(
    word: str, reference: str, connector: str
) -> None:
    text = (
        f"{word} 3 Benefits\n"
        "1. Hospitalisation\n"
        "We cover the medical expenses of hospitalisation of the insured person.\n"
        f"{word} 4 Exclusions\n"
        "We do not cover the following expenses:\n"
        f"1) Dental treatment unless it is expressly provided for {connector}\n"
        f"{reference}\n"
        "2) Cosmetic or plastic surgery of any kind whatsoever.\n"
        "3) Spectacles, contact lenses and hearing aids of any kind.\n"
    )
    clauses = _segment(text)
    for item in ("Cosmetic or plastic surgery", "Spectacles, contact lenses"):
        clause = _holding(clauses, item)
        assert clause.section_path[0].startswith(f"{word} 4"), clause.section_path
    containers = [c.clause_id for c in clauses if reference.split()[1][:3] in c.clause_id]
    assert containers == []
    # the reference stays in the item it belongs to
    assert reference.split(" of")[0].split(" above")[0].split(" below")[0].split(",")[0] \
        in _holding(clauses, "Dental treatment").text


@pytest.mark.parametrize("before", ["of the Policy.", "EXHIBIT A", "Exhibit A"])
def test_a_container_after_a_finished_line_or_a_lettered_label_stays_a_container(
    before: str
) -> None:
    text = (
        "Section 1 Cover\n"
        f"The insurer pays the benefits set out in the schedule {before}\n"
        "Section 2 Exclusions\n"
        "The insurer does not pay for cosmetic surgery of any kind.\n"
    )
    clause = _holding(_segment(text), "cosmetic surgery")
    assert clause.clause_id.split(":", 1)[1].startswith("Section 2"), clause.clause_id


@pytest.mark.parametrize(("label", "first_line", "second_line"), [
    ("SECTION D)", "EXCLUSIONS APPLICABLE TO THE DOMESTIC COVER UNDER",
     "SECTION C) BENEFITS COVERED UNDER THE POLICY"),
    ("PART 7 -", "SPECIFIC EXCLUSIONS APPLYING TO THE COVER OF",
     "PART 3 HOSPITAL BENEFITS"),
    ("ARTICLE IV", "LIMITS OF LIABILITY FOR CLAIMS MADE BY",
     "ARTICLE II INSURED PERSONS AND DEPENDANTS"),
])
def test_a_capitalised_heading_that_wraps_names_its_items(
    label: str, first_line: str, second_line: str
) -> None:
    text = (
        f"{label} {first_line}\n"
        f"{second_line}\n"
        "We do not cover the following expenses:\n"
        "1) Dental treatment of any kind unless caused by an accident.\n"
        "2) Cosmetic or plastic surgery of any kind whatsoever.\n"
    )
    clause = _holding(_segment(text), "Cosmetic or plastic surgery")
    path = " > ".join(clause.section_path)
    assert first_line.rsplit(" ", 1)[0] in path, path
    assert second_line.split()[-1] not in path.replace(first_line, ""), path


@pytest.mark.parametrize("label", ["Section 5)", "SECTION 5)", "Part 4)", "ARTICLE IV)",
                                   "SECTION E)", "Section 5.", "PART 4 -"])
def test_a_containers_title_after_its_number_names_its_items(label: str) -> None:
    # a bracket after the number closes the label as a letter's does ("SECTION D)
    # EXCLUSIONS"): the title after it is the section's, not lost with the bracket
    text = (
        "Section 1 Cover\n"
        "The insurer pays the medical expenses of hospitalisation up to the sum insured.\n"
        f"{label} What we will not pay for\n"
        "1) Dental treatment of any kind unless caused by an accident.\n"
        "2) Cosmetic or plastic surgery of any kind whatsoever.\n"
    )
    clause = _holding(_segment(text), "Cosmetic or plastic surgery")
    assert "What we will not pay for" in " > ".join(clause.section_path), clause.section_path
