"""A table's header is read from how the page sets its first row, not from its words alone.

A list of diseases laid out in a ruled grid (the specified-disease lists of the HDFC ERGO
group and Bajaj Allianz wordings: "Cataract | Benign Prostatic Hypertrophy" over "Hernia |
Hydrocele") has no header: its first row is set like the rows below it, and no column below
holds figures. Read as a header, every item was named by the first row's items ("Benign
Prostatic Hypertrophy: Hydrocele"). A first row set in bold or on a shading of its own is a
header whatever it holds, and a plain one over a column of figures ("Age of vehicle | % of
depreciation" over "Not exceeding 6 months | 5%") still is. The pages are drawn here with
pymupdf, the HTML and Word files written here; the same reading holds for <th> cells and
for a Word row in bold, shaded, marked to repeat as the header row, or set apart by the
table's style.
"""

from __future__ import annotations

from pathlib import Path

import docx
import pymupdf
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

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


def _table_docx(path: Path, rows: list[tuple[str, ...]], first_row: str = "plain",
                style: str = "Table Grid") -> Path:
    """One Word table after a lead-in; ``first_row``: "plain", "bold" (its runs),
    "repeated" (marked to repeat as the header row on each page) or "shaded"."""
    word = docx.Document()
    word.add_paragraph("The listed conditions are:")
    table = word.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = word.styles[style]
    for index, row in enumerate(rows):
        for column, text in enumerate(row):
            cell = table.cell(index, column)
            run = cell.paragraphs[0].add_run(text)
            if index == 0 and first_row == "bold":
                run.bold = True
            if index == 0 and first_row == "shaded":
                shading = OxmlElement("w:shd")
                shading.set(qn("w:val"), "clear")
                shading.set(qn("w:fill"), "D9E2F3")
                cell._tc.get_or_add_tcPr().append(shading)
    if first_row == "repeated":
        header = OxmlElement("w:tblHeader")
        table.rows[0]._tr.get_or_add_trPr().append(header)
    word.add_paragraph("Claims must be notified within seven days.")
    word.save(path)
    return path


@pytest.mark.parametrize("rows", [DISEASES, FIRST_ROW_DATA])
def test_a_plain_word_first_row_over_no_figures_is_a_row(tmp_path: Path, rows) -> None:
    text = _table_text(_table_docx(tmp_path / "list.docx", rows))
    assert text.split("\n") == [" | ".join(row) for row in rows], text


@pytest.mark.parametrize(("first_row", "style"), [
    ("bold", "Table Grid"), ("repeated", "Table Grid"), ("shaded", "Table Grid"),
    ("plain", "Light Grid Accent 1")])
def test_a_word_first_row_set_apart_is_a_header(tmp_path: Path, first_row: str,
                                                style: str) -> None:
    text = _table_text(_table_docx(tmp_path / "headed.docx", DISEASES, first_row, style))
    assert text.split("\n")[1] == "Hernia of all types | Benign prostatic hypertrophy: " \
        "Hydrocele | Hysterectomy: Fistula in anus", text


def test_a_plain_word_first_row_over_figures_is_a_header(tmp_path: Path) -> None:
    text = _table_text(_table_docx(tmp_path / "depreciation.docx", DEPRECIATION))
    assert "Not exceeding 6 months | % of depreciation: 5%" in text.split("\n"), text


def test_a_word_header_merged_across_columns_takes_the_names_below(tmp_path: Path) -> None:
    """"Plans" merged over two columns, "PLAN A | PLAN B" below it: each figure is named
    by its plan, not by "Plans" twice."""
    word = docx.Document()
    word.add_paragraph("Table of Benefits:")
    table = word.add_table(rows=4, cols=3)
    table.style = word.styles["Table Grid"]
    table.cell(0, 0).paragraphs[0].add_run("Benefit").bold = True
    merged = table.cell(0, 1).merge(table.cell(0, 2))
    merged.paragraphs[0].add_run("Plans").bold = True
    for column, text in enumerate(["", "PLAN A", "PLAN B"]):
        table.cell(1, column).paragraphs[0].add_run(text).bold = True
    for index, row in enumerate([("Room rent per day", "1% of SI", "2% of SI"),
                                 ("Ambulance", "Up to INR 2,500", "Up to INR 4,000")], 2):
        for column, text in enumerate(row):
            table.cell(index, column).paragraphs[0].add_run(text)
    word.add_paragraph("The limits apply per policy year.")
    path = tmp_path / "plans.docx"
    word.save(path)
    lines = _table_text(path).split("\n")
    assert "Room rent per day | PLAN A: 1% of SI | PLAN B: 2% of SI" in lines, lines
    assert "Ambulance | PLAN A: Up to INR 2,500 | PLAN B: Up to INR 4,000" in lines, lines
