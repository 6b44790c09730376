"""A table's header is read from how the page sets its first row, not from its words alone.

A list of diseases laid out in a ruled grid (the specified-disease lists of the HDFC ERGO
group and Bajaj Allianz wordings: "Cataract | Benign Prostatic Hypertrophy" over "Hernia |
Hydrocele") has no header: its first row is set like the rows below it, and no column below
holds figures. Read as a header, every item was named by the first row's items ("Benign
Prostatic Hypertrophy: Hydrocele"). A first row set in bold or on a shading of its own is a
header whatever it holds, and a plain one over a column of figures ("Age of vehicle | % of
depreciation" over "Not exceeding 6 months | 5%") still is. The pages are drawn here with
pymupdf, the HTML written here; the same reading holds for <th> cells.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from clausegraph.ingest import load_document
from clausegraph.ingest.blocks import render_table

FONT_SIZE = 9
DISEASES = [("Cataract", "Benign prostatic hypertrophy", "Hysterectomy"),
            ("Hernia of all types", "Hydrocele", "Fistula in anus"),
            ("Piles", "Sinusitis", "Tonsillitis"),
            ("Kidney stones", "Gall bladder stones", "Varicose veins")]
DEPRECIATION = [("Age of vehicle", "% of depreciation"), ("Not exceeding 6 months", "5%"),
                ("Exceeding 6 months but not exceeding 1 year", "15%"),
                ("Exceeding 1 year but not exceeding 2 years", "20%")]
FIRST_ROW_DATA = [("Individual", "$6,350"), ("Family", "$12,700"), ("Employee and spouse", "$9,500"),
                  ("Employee and children", "$11,000")]


def _table_pdf(path: Path, rows: list[tuple[str, ...]], first_row: str = "plain") -> Path:
    """One ruled table under a caption; ``first_row``: "plain", "bold" or "shaded"."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    page.insert_text((40, 60), "List of specified diseases:", fontsize=10)
    width = 480 / len(rows[0])
    top, height = 80.0, 30.0
    for index, row in enumerate(rows):
        for column, text in enumerate(row):
            rect = pymupdf.Rect(40 + column * width, top, 40 + (column + 1) * width,
                                top + height)
            if index == 0 and first_row == "shaded":
                page.draw_rect(rect, color=None, fill=(0.85, 0.1, 0.15))
            page.draw_rect(rect, color=(0, 0, 0), width=0.6)
            font = "hebo" if index == 0 and first_row == "bold" else "helv"
            assert page.insert_textbox(rect + (2, 2, -2, -2), text, fontsize=FONT_SIZE,
                                       fontname=font) >= 0
        top += height
    pdf.save(path)
    return path


def _table_text(path: Path) -> str:
    document = load_document(path)
    assert len(document.tables) == 1, document.tables
    table = document.tables[0]
    return document.text[table.start:table.end]


@pytest.mark.parametrize("rows", [DISEASES, [row[:2] for row in DISEASES], FIRST_ROW_DATA])
def test_a_plain_first_row_over_no_figures_is_a_row(tmp_path: Path, rows) -> None:
    text = _table_text(_table_pdf(tmp_path / "list.pdf", rows))
    assert text.split("\n") == [" | ".join(row) for row in rows], text


@pytest.mark.parametrize("first_row", ["bold", "shaded"])
def test_a_first_row_set_apart_is_a_header(tmp_path: Path, first_row: str) -> None:
    text = _table_text(_table_pdf(tmp_path / "headed.pdf", DISEASES, first_row))
    lines = text.split("\n")
    assert lines[0] == " | ".join(DISEASES[0])
    # each item below is named by the column it stands in
    assert lines[1] == "Hernia of all types | Benign prostatic hypertrophy: Hydrocele | " \
        "Hysterectomy: Fistula in anus", text


def test_a_plain_first_row_over_figures_is_a_header(tmp_path: Path) -> None:
    text = _table_text(_table_pdf(tmp_path / "depreciation.pdf", DEPRECIATION))
    assert "Not exceeding 6 months | % of depreciation: 5%" in text.split("\n"), text


def _table_html(rows: list[tuple[str, ...]], header_cells: bool) -> str:
    first = "".join(f"<{'th' if header_cells else 'td'}>{cell}</{'th' if header_cells else 'td'}>"
                    for cell in rows[0])
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                     for row in rows[1:])
    return f"""<html><body><h1>Health policy</h1><p>The listed conditions are:</p>
<table><tr>{first}</tr>
{body}
</table><p>Claims must be notified within seven days.</p></body></html>"""


@pytest.mark.parametrize(("rows", "header_cells", "headed"), [
    (DISEASES, False, False), (DISEASES, True, True), (DEPRECIATION, False, True),
    (FIRST_ROW_DATA, False, False)])
def test_html_header_cells_set_a_row_apart(tmp_path: Path, rows, header_cells, headed) -> None:
    path = tmp_path / "table.html"
    path.write_text(_table_html(rows, header_cells), encoding="utf-8")
    second = _table_text(path).split("\n")[1]
    named = f"{rows[0][1]}: {rows[1][1]}"
    assert (named in second) is headed, second


def test_without_a_reading_of_the_page_the_words_decide() -> None:
    """A reader that cannot tell how rows are set (Word) keeps the reading by words."""
    rows = [list(row) for row in DISEASES]
    assert "Benign prostatic hypertrophy: Hydrocele" in render_table(rows).text
    unknown = render_table(rows, [None] * len(rows)).text
    assert "Benign prostatic hypertrophy: Hydrocele" in unknown
    plain = render_table(rows, [False] * len(rows)).text
    assert plain.split("\n")[1] == "Hernia of all types | Hydrocele | Fistula in anus"
