"""Titles set in italics alone (PDFs; docs/segmentation.md, session 34).

Edelweiss's add-on wording sets its cover titles in italics at the body's size and weight
("Air Ambulance Cover", "Well mother Cover", "Healthy baby expenses / well baby care
expenses"); letter case and weight said nothing, so the newborn's cover ran on inside item 2
of the exclusion list above it, and a question about the baby was answered from an
exclusion. A short phrase set in italics between upright lines, over running text, is now
a title. Italic examples and notes (sentences) and lists set in italics (one short item a
line) are not. The same wording is written in two italic faces and two list styles.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from clausegraph.ingest import load_document
from clausegraph.segment import segment
from tests.segment_text import headed_by
from tests.segment_text import holding as clause_with

FACES = {"helvetica": ("helv", "heit", "hebo"), "times": ("tiro", "tiit", "tibo")}
LISTS = {"roman and digits": (("i.", "ii."), ("1.", "2.")),
         "letters and bracketed digits": (("(a)", "(b)"), ("(1)", "(2)"))}


def styled_pdf(path: Path, lines: list[tuple[str, str]], faces: tuple[str, str, str]) -> Path:
    """One page of ("body" | "italic" | "bold", text) lines in the faces given."""
    regular, italic, bold = faces
    font = {"body": regular, "italic": italic, "bold": bold}
    pdf = pymupdf.open()
    page = pdf.new_page()
    y = 72.0
    for face, text in lines:
        page.insert_text((60, y), text, fontname=font[face], fontsize=14 if face == "bold" else 10)
        y += 16
    pdf.save(path)
    pdf.close()
    return path


def add_on(items: tuple[str, str], exclusions: tuple[str, str]) -> list[tuple[str, str]]:
    return [
        ("bold", "Well Baby Well Mother - Add On Wordings"),
        ("italic", "Air Ambulance Cover"),
        ("body", "In consideration of the payment of additional premium to Us, We will cover the"),
        ("body", "expenses incurred on air ambulance services for an Insured Person, provided that:"),
        ("body", f"{items[0]} Our maximum liability under this Benefit is the Sum Insured."),
        ("body", f"{items[1]} The maximum distance of travel undertaken is 150 kms."),
        ("italic", "Example: if the insured travelled 300 kms we will pay half of the cost."),
        ("italic", "Well mother Cover"),
        ("body", "Covers routine medical care provided to an insured female (expectant mothers"),
        ("body", "and mothers who have delivered a new born baby), during the period opted."),
        ("body", "We will not cover"),
        ("body", f"{exclusions[0]} Any infertility treatments"),
        ("body", f"{exclusions[1]} Any charges payable under the maternity section of the policy"),
        ("italic", "Healthy baby expenses / well baby care expenses"),
        ("body", "Cover for expenses incurred for a New born baby after the birth until the first"),
        ("body", "discharge from hospital, including routine preventive care and immunizations."),
    ]


@pytest.mark.parametrize("lists", LISTS)
@pytest.mark.parametrize("face", FACES)
def test_an_italic_title_heads_its_cover(tmp_path: Path, face: str, lists: str) -> None:
    items, exclusions = LISTS[lists]
    pdf = styled_pdf(tmp_path / "add_on.pdf", add_on(items, exclusions), FACES[face])
    clauses = segment(load_document(pdf))
    baby = clause_with(clauses, "New born baby after the birth")
    assert "Healthy baby expenses / well baby care expenses" in " | ".join(
        [*headed_by(baby), baby.heading or ""]), [c.text for c in clauses]
    maternity = clause_with(clauses, "maternity section")
    assert "New born baby" not in maternity.text and "Healthy baby" not in maternity.text
    distance = clause_with(clauses, "150 kms")
    assert "Air Ambulance Cover" in " | ".join(headed_by(distance))
    mother = clause_with(clauses, "routine medical care provided to an insured female")
    assert "Well mother Cover" in " | ".join([*headed_by(mother), mother.heading or ""])


@pytest.mark.parametrize("face", FACES)
def test_italic_sentences_and_lists_are_no_titles(tmp_path: Path, face: str) -> None:
    pdf = styled_pdf(tmp_path / "plan.pdf", [
        ("bold", "SUMMARY OF BENEFITS"),
        ("body", "The plan pays for the services below after the deductible is met by the member."),
        ("italic", "Specialist office visits (prenatal care)"),
        ("body", "Childbirth and delivery"),
        ("italic", "Diagnostic tests (ultrasounds)"),
        ("body", "Specialist visit (anesthesia)"),
        ("body", "The member pays the coinsurance shown in the schedule for every visit listed."),
        ("italic", "Note: the coinsurance does not apply to preventive care"),
        ("italic", "received from a network provider in the plan year."),
        ("body", "Claims must be filed within ninety days of the date of the service received."),
    ], FACES[face])
    clauses = segment(load_document(pdf))
    headings = {h for c in clauses for h in [*headed_by(c), c.heading or ""]}
    for line in ("Specialist office visits (prenatal care)", "Diagnostic tests (ultrasounds)",
                 "Note: the coinsurance does not apply to preventive care"):
        assert line not in headings, headings
