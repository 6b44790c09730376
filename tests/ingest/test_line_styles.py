"""PDF ingest keeps each text line's font size, weight, italics and left edge."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from clausegraph.ingest import load_document

DATASET = Path(__file__).resolve().parents[2] / "docs" / "dataset"
PHOTRONICS = DATASET / (
    "PhotronicsInc_20171219_10-QA_EX-10.28_10982650_EX-10.28_Outsourcing Agreement.pdf"
)


def styled_pdf(path: Path) -> Path:
    """A page with a large bold heading, body lines, an italic note and an indented item."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    page.insert_text((72, 80), "What we will not pay for", fontname="hebo", fontsize=14)
    page.insert_text((72, 110), "We will not pay for any claim arising from the", fontsize=10)
    page.insert_text((72, 124), "following causes, whatever their origin:", fontsize=10)
    page.insert_text((96, 150), "(a) war and invasion;", fontsize=10)
    page.insert_text((72, 180), "This note is set in italics.", fontname="heit", fontsize=10)
    pdf.save(path)
    pdf.close()
    return path


def test_each_line_keeps_its_size_weight_and_left_edge(tmp_path: Path) -> None:
    document = load_document(styled_pdf(tmp_path / "styled.pdf"))
    by_text = {document.text[s.start : s.end].strip(): s for s in document.line_styles}
    heading = by_text["What we will not pay for"]
    body = by_text["We will not pay for any claim arising from the"]
    item = by_text["(a) war and invasion;"]
    note = by_text["This note is set in italics."]
    assert (heading.size, heading.bold) == (14.0, True)
    assert (body.size, body.bold, body.italic) == (10.0, False, False)
    assert note.italic and not note.bold
    assert item.x0 == pytest.approx(96, abs=1) and body.x0 == pytest.approx(72, abs=1)


def test_styles_cover_the_lines_of_a_real_contract_in_text_order() -> None:
    document = load_document(PHOTRONICS)
    styles = document.line_styles
    assert len(styles) > 100
    assert [s.start for s in styles] == sorted(s.start for s in styles)
    for style in styles:
        line = document.text[style.start : style.end]
        assert "\n" not in line and line.strip()
    # The body text is one size; headings are set apart from it by size or weight.
    weight = Counter()
    for style in styles:
        weight[(style.size, style.bold)] += style.end - style.start
    (body_size, body_bold), _ = weight.most_common(1)[0]
    assert not body_bold
    assert any(s.bold != body_bold or s.size > body_size for s in styles)


def test_text_files_have_no_line_styles(tmp_path: Path) -> None:
    path = tmp_path / "policy.txt"
    path.write_text("1. Cover\nWe pay for hospital treatment.\n", encoding="utf-8")
    assert load_document(path).line_styles == []
