"""PDF tables: ruled tables become table clauses in the one table format (``render_table``);
two-column text, boxed paragraphs and lists set in a grid stay text.

The pages are rebuilt here with pymupdf from real layouts: the "Table of Benefits" of a
health policy (National Parivar Mediclaim Plus, p.22: a caption, a "Plans" header merged
over the PLAN A/B/C columns, one row per benefit), and the definitions of a CUAD agency
agreement (OLDAPI Wind-Down, Schedule "A", CC BY 4.0; straight quotes, which the
built-in PDF font can draw) set as "(a) | text" in a ruled grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import docx
import pymupdf
import pytest

from clausegraph.ingest import load_document
from clausegraph.ingest.blocks import render_table
from clausegraph.ingest.pdf_tables import join_wrapped_labels
from clausegraph.models import Clause
from clausegraph.segment import segment

FONT_SIZE = 8

# (row label, PLAN A, PLAN B, PLAN C); None: the cell to the left spans this column.
BENEFITS: list[tuple[str, str | None, str | None, str | None]] = [
    ("Sum insured (SI) (as Floater)", "INR 6/ 7/ 8/ 9 /10 Lac", "INR 15/ 20 /25 Lac",
     "INR 30/ 40/ 50 Lac"),
    ("Treatment", "Allopathy, AYUSH", None, None),
    ("Pre Hospitalisation", "30 days", "30 days", "30 days"),
    ("Room/ ICU Charges (per day per insured person)",
     "Room - Up to 1% of SI or actual, whichever is lower", "Up to SI", "Up to SI"),
    ("Limit for Cataract Surgery (For each eye)",
     "Up to 15% of SI or INR 60,000 whichever is lower", "Up to SI", "Up to SI"),
    ("Ambulance (per insured person, in a policy year)", "Up to INR 2,500",
     "Up to INR 4,000", "Up to INR 5,000"),
]
COLUMNS = (40.0, 230.0, 350.0, 460.0, 570.0)


def _cell(page: pymupdf.Page, x0: float, y0: float, x1: float, y1: float, text: str) -> None:
    rect = pymupdf.Rect(x0, y0, x1, y1)
    page.draw_rect(rect, color=(0, 0, 0), width=0.6)
    assert page.insert_textbox(rect + (2, 2, -2, -2), text, fontsize=FONT_SIZE) >= 0


def benefits_pdf(path: Path) -> Path:
    """A numbered section ending on p.1, then the Table of Benefits under its caption."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    page.insert_text((40, 60), "7.3 Critical Illness", fontsize=10)
    page.insert_text((40, 80), "Benefit amount can be enhanced only at the time of renewal.",
                     fontsize=FONT_SIZE)
    page.insert_text((40, 110), "Table of Benefits:", fontsize=10)
    top, height = 120.0, 36.0
    x = COLUMNS
    _cell(page, x[0], top, x[1], top + height, "Features")
    _cell(page, x[1], top, x[4], top + height, "Plans")
    top += height
    _cell(page, x[0], top, x[1], top + height, "")
    for column, name in enumerate(("PLAN A", "PLAN B", "PLAN C"), start=1):
        _cell(page, x[column], top, x[column + 1], top + height, name)
    for label, *values in BENEFITS:
        top += height
        _cell(page, x[0], top, x[1], top + height, label)
        column = 1
        while column <= 3:
            span = 1
            while column + span <= 3 and values[column + span - 1] is None:
                span += 1
            _cell(page, x[column], top, x[column + span], top + height, values[column - 1] or "")
            column += span
    pdf.save(path)
    return path


def test_a_ruled_table_is_one_table_clause_a_row_a_line(tmp_path: Path) -> None:
    document = load_document(benefits_pdf(tmp_path / "benefits.pdf"))
    assert len(document.tables) == 1
    table = document.tables[0]
    lines = document.text[table.start:table.end].split("\n")
    assert lines[:3] == [
        "Features | Plans",
        "PLAN A | PLAN B | PLAN C",
        ("Sum insured (SI) (as Floater) | PLAN A: INR 6/ 7/ 8/ 9 /10 Lac | "
         "PLAN B: INR 15/ 20 /25 Lac | PLAN C: INR 30/ 40/ 50 Lac"),
    ]
    # a value merged over all three plans is named by all of them
    assert "Treatment | PLAN A/PLAN B/PLAN C: Allopathy, AYUSH" in lines
    assert ("Room/ ICU Charges (per day per insured person) | PLAN A: Room - Up to 1% of SI "
            "or actual, whichever is lower | PLAN B: Up to SI | PLAN C: Up to SI") in lines

    # every cell's span slices the canonical text to that cell's own text, on its page
    cells = {(c.row, c.column): document.text[c.start:c.end] for c in table.cells}
    assert cells[(0, 1)] == "Plans"
    assert cells[(7, 1)] == "Up to INR 2,500"
    assert cells[(5, 0)] == "Room/ ICU Charges (per day per insured person)"
    assert {c.page for c in table.cells} == {1}
    assert all(table.start <= c.start < c.end <= table.end for c in table.cells)

    clauses = segment(document)
    tables = [c for c in clauses if c.kind == "table"]
    assert len(tables) == 1
    benefit = tables[0]
    # its own clause under its caption, not inside the section printed before it
    assert benefit.heading == "Table of Benefits"
    assert benefit.section_path == []
    assert benefit.label == "Table 1"
    assert "Limit for Cataract Surgery (For each eye) | PLAN A: Up to 15% of SI" in benefit.text
    assert benefit.text == Clause.join_segments(document.text, benefit.segments)
    section = next(c for c in clauses if c.clause_id.endswith(":7.3"))
    assert "PLAN A" not in section.text


def test_a_long_table_is_cut_into_groups_of_whole_rows(tmp_path: Path) -> None:
    from clausegraph.config import SegmentConfig

    document = load_document(benefits_pdf(tmp_path / "benefits.pdf"))
    groups = [c for c in segment(document, SegmentConfig(max_table_chars=300))
              if c.kind == "table"]
    assert len(groups) > 1
    rows = document.text[document.tables[0].start:document.tables[0].end].split("\n")
    for group in groups:
        assert all(line in rows for line in group.text.split("\n") if line != "Table of Benefits:")


def test_tables_are_cut_at_their_own_length_or_the_clauses(tmp_path: Path) -> None:
    """A table's groups of rows are as long as ``max_table_chars`` (what the dense model
    reads whole, by default), however long prose windows run; unset, as clauses."""
    from clausegraph.config import SegmentConfig

    document = load_document(benefits_pdf(tmp_path / "benefits.pdf"))
    size = document.tables[0].end - document.tables[0].start
    assert 400 < size < SegmentConfig().max_table_chars < SegmentConfig().max_clause_chars

    def groups(config: SegmentConfig) -> int:
        return sum(c.kind == "table" for c in segment(document, config))

    assert groups(SegmentConfig()) == 1
    assert groups(SegmentConfig(max_table_chars=400)) > 1
    assert groups(SegmentConfig(max_table_chars=None)) == 1
    assert groups(SegmentConfig(max_table_chars=None, max_clause_chars=400)) == \
        groups(SegmentConfig(max_table_chars=400))


def _text_column(page: pymupdf.Page, rect: pymupdf.Rect, text: str) -> None:
    assert page.insert_textbox(rect, text, fontsize=9) >= 0


LEFT = (
    "1.1 The Insurer will pay the medical expenses incurred by the Insured Person for "
    "in-patient treatment during the policy period, subject to the limits in the schedule. "
    "1.2 Pre-hospitalisation expenses are covered for thirty days before admission when "
    "they relate to the same illness. 1.3 Post-hospitalisation expenses are covered for "
    "sixty days after discharge."
)
RIGHT = (
    "2.1 Expenses for any pre-existing disease are excluded until thirty-six months of "
    "continuous coverage have elapsed after the date of inception of the first policy. "
    "2.2 Cataract surgery is covered after a waiting period of two years. 2.3 Treatment "
    "arising from hazardous sports is excluded unless declared."
)


def test_two_ruled_columns_of_text_and_a_boxed_paragraph_stay_text(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page()
    left, right = pymupdf.Rect(40, 60, 290, 330), pymupdf.Rect(310, 60, 560, 330)
    for rect, text in ((left, LEFT), (right, RIGHT)):
        page.draw_rect(rect, color=(0, 0, 0), width=0.6)
        _text_column(page, rect + (4, 4, -4, -4), text)
    box = pymupdf.Rect(40, 360, 560, 420)
    page.draw_rect(box, color=(0, 0, 0), width=0.6)
    _text_column(page, box + (4, 4, -4, -4), "Important: please read the exclusions in "
                 "section 2 carefully before you make a claim under this policy.")
    path = tmp_path / "columns.pdf"
    pdf.save(path)
    document = load_document(path)
    assert document.tables == []
    assert "|" not in document.text
    # the left column is read before the right one
    flat = " ".join(document.text.split())
    assert flat.index("sixty days after discharge") < flat.index("2.1 Expenses")


DEFINITIONS = [
    ("(a)", '"Agent" and "Agents" have the respective meanings given to them above;'),
    ("(b)", '"Agents\' Counsel" means Dentons Canada LLP;'),
    ("(c)", '"Agents\' Fee" has the meaning given in Section 1(1)(a);'),
    ("(d)", ('"Agreement" means the agreement resulting from the acceptance by the '
             "Corporation of the offer made by the Agents by this letter;")),
    ("(e)", ('"Business Day" means any day other than a Saturday, Sunday or statutory or '
             "civic holiday in Toronto, Ontario;")),
    ("(f)", '"Closing" means the completion of the Offering;'),
]


def test_a_list_set_in_a_ruled_grid_stays_list_items(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page()
    page.insert_text((40, 60), "1. Definitions", fontsize=10)
    page.insert_text((40, 80), "In this Agreement:", fontsize=9)
    top = 90.0
    for label, text in DEFINITIONS:
        _cell(page, 40, top, 80, top + 30, label)
        _cell(page, 80, top, 570, top + 30, text)
        top += 30
    path = tmp_path / "definitions.pdf"
    pdf.save(path)
    document = load_document(path)
    assert document.tables == []
    clauses = segment(document)
    assert not any(c.kind == "table" for c in clauses)
    closing = next(c for c in clauses if '"Closing" means' in c.text)
    assert closing.label == "1(f)"


def test_word_tables_use_the_same_renderer_and_become_table_clauses(tmp_path: Path) -> None:
    word = docx.Document()
    word.add_paragraph("4. Fees")
    word.add_paragraph("The fees are set out below.")
    table = word.add_table(rows=3, cols=3)
    grid = [["Service", "Monthly fee", "Notice"], ["Hosting", "$1,200", "30 days"],
            ["Support", "$400", ""]]
    for row, values in zip(table.rows, grid, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    path = tmp_path / "fees.docx"
    word.save(path)
    document = load_document(path)
    [found] = document.tables
    assert document.text[found.start:found.end] == render_table(grid).text
    assert {document.text[c.start:c.end] for c in found.cells} == {
        value for row in grid for value in row if value}
    [clause] = [c for c in segment(document) if c.kind == "table"]
    assert clause.text == render_table(grid).text
    assert clause.label == "Table 1"


def _rendered(rows: Sequence[Sequence[str | None]]) -> list[str]:
    return render_table(rows).text.split("\n")


def test_render_table_headers() -> None:
    # a list in two columns: serial numbers are data, not column names
    assert _rendered([["1", "BABY FOOD", "16", "FLEXI MASK"],
                      ["2", "BELTS", "17", "HAND HOLDER"]]) == [
        "1 | BABY FOOD | 16 | FLEXI MASK", "2 | BELTS | 17 | HAND HOLDER"]
    # label | value rows of a form have no header row
    assert _rendered([["Company:", "Bravatek Solutions, Inc."], ["Telephone:", "1-866"]]) == [
        "Company: | Bravatek Solutions, Inc.", "Telephone: | 1-866"]
    # a header ending in a colon does not double it
    assert _rendered([["Event", "TPA must be informed:"], ["Planned", "72 hours before"]]) == [
        "Event | TPA must be informed:", "Planned | TPA must be informed: 72 hours before"]
    table = render_table([["Item", "Fee"], ["Hosting", "$1,200"]])
    assert [(r, c, table.text[s:e]) for r, c, s, e in table.cells] == [
        (0, 0, "Item"), (0, 1, "Fee"), (1, 0, "Hosting"), (1, 1, "$1,200")]


def test_reading_a_ruled_table_prints_nothing(tmp_path: Path) -> None:
    """find_tables' one-time "Consider using the pymupdf_layout package" line would land in
    the middle of `clausegraph ingest` output (a fresh process: it prints once per process)."""
    import subprocess
    import sys

    pdf = benefits_pdf(tmp_path / "benefits.pdf")
    script = ("import sys; from clausegraph.ingest import load_document; "
              "print(len(load_document(sys.argv[1]).tables))")
    done = subprocess.run([sys.executable, "-c", script, str(pdf)], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout == "1\n", done.stdout


# A plan document's schedule of benefits (the US SPD of policies-dev, p.94): the benefits
# column is ruled row by row, the services column only around its whole height, each
# service set beside its own row.
SERVICES = [("Primary Care Office Visit", "$75 copay, then after Deductible"),
            ("Specialist Office Visit", "$150 copay, then after Deductible"),
            ("Labs and X-Ray", "100% of the Allowable Charge"),
            ("Surgery", "100% of the Allowable Charge, Deductible waived")]


def schedule_pdf(path: Path, labels_per_row: bool, wrapped: bool = False) -> Path:
    """The services in one tall cell beside four ruled rows of benefits; with
    ``labels_per_row`` each service sits beside its row, else one heading centred in it
    (``wrapped``: two tall cells of two rows, the first's heading in two lines across the
    border of its rows)."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    top, height, left, middle, right = 80.0, 40.0, 40.0, 240.0, 480.0
    _cell(page, left, top - 20, middle, top, "Covered services")
    _cell(page, middle, top - 20, right, top, "Benefits")
    # the services' column: one tall cell, or (``wrapped``) two, each beside two rows
    for y0, y1 in ([(top, top + 2 * height), (top + 2 * height, top + 4 * height)] if wrapped
                   else [(top, top + height * len(SERVICES))]):
        page.draw_rect(pymupdf.Rect(left, y0, middle, y1), color=(0, 0, 0), width=0.6)
    for row, (service, benefit) in enumerate(SERVICES):
        y = top + row * height
        _cell(page, middle, y, right, y + height, benefit)
        if labels_per_row:
            page.insert_text((left + 4, y + 12), service, fontsize=FONT_SIZE)
    if not labels_per_row and wrapped:
        page.insert_text((left + 4, top + height - 2), "Office and laboratory",
                         fontsize=FONT_SIZE)
        page.insert_text((left + 4, top + height + 8), "services", fontsize=FONT_SIZE)
    elif not labels_per_row:
        page.insert_text((left + 4, top + height * 2), "Office services", fontsize=FONT_SIZE)
    # a last row ruled across both columns, so the grid is one table
    y = top + height * len(SERVICES)
    _cell(page, left, y, middle, y + height, "Prosthetics and Supplies")
    _cell(page, middle, y, right, y + height, "80% of the Allowable Charge")
    pdf.save(path)
    return path


def test_row_labels_in_a_column_ruled_only_around_it_go_to_their_rows(tmp_path: Path) -> None:
    document = load_document(schedule_pdf(tmp_path / "schedule.pdf", labels_per_row=True))
    (table,) = document.tables
    rows = document.text[table.start:table.end].split("\n")
    for service, benefit in SERVICES:
        assert f"{service} | Benefits: {benefit}" in rows, rows
    # one heading centred in the tall cell is no label of each row: it stays one cell
    document = load_document(schedule_pdf(tmp_path / "heading.pdf", labels_per_row=False))
    (table,) = document.tables
    text = document.text[table.start:table.end]
    assert text.count("Office services") == 1
    assert not any(row.startswith("Office services") and SERVICES[1][1] in row
                   for row in text.split("\n"))
    # nor are the wrapped lines of one heading, though they fall beside two rows
    document = load_document(schedule_pdf(tmp_path / "wrapped.pdf", labels_per_row=False,
                                          wrapped=True))
    (table,) = document.tables
    text = document.text[table.start:table.end]
    assert "Office and laboratory services" in text, text


# (service, network cost, limitation lines): the limitations wrap over several lines
LIMITATIONS = [
    ("Specialist visit", "$50 copay/visit",
     ["Preauthorization is required. If you don't get preauthorization,",
      "benefits could be reduced by 50% of the total cost of the service",
      "and the rest of the cost is yours to pay."]),
    ("Preventive care", "No charge",
     ["You may have to pay for services that aren't preventive. Ask your",
      "provider if the services needed are preventive and then check what",
      "your plan will pay for."]),
    ("Emergency room care", "20% coinsurance", ["None"]),
    ("Diagnostic test (x-ray, blood work)", "$10 copay/test",
     ["Limited to tests ordered by a network physician, and only when",
      "the test is not part of a hospital stay billed by the facility."]),
]


def shaded_lines_pdf(path: Path, shaded: bool) -> Path:
    """A table ruled row by row whose text lines each sit on a shaded band (``shaded``),
    as a US summary of benefits draws them: the bands' edges fall between the wrapped lines
    of one row."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    x, top, line = (40.0, 170.0, 260.0, 575.0), 80.0, 11.0

    def rule(y: float) -> None:
        page.draw_line((x[0], y), (x[3], y), color=(0, 0, 0), width=0.6)

    rule(top)
    for column, name in enumerate(("Services You May Need", "Network Provider",
                                   "Limitations and Exceptions")):
        page.insert_text((x[column] + 3, top + 10), name, fontsize=FONT_SIZE)
    top += 14
    rule(top)
    for service, cost, notes in LIMITATIONS:
        if shaded:
            for k in range(len(notes)):
                band = pymupdf.Rect(x[0], top + k * line, x[3], top + (k + 1) * line)
                page.draw_rect(band, color=None, fill=(0.92, 0.92, 0.95) if k % 2 == 0
                               else (0.97, 0.97, 1.0))
        page.insert_text((x[0] + 3, top + 9), service, fontsize=FONT_SIZE)
        page.insert_text((x[1] + 3, top + 9), cost, fontsize=FONT_SIZE)
        for k, note in enumerate(notes):
            page.insert_text((x[2] + 3, top + 9 + k * line), note, fontsize=FONT_SIZE)
        top += len(notes) * line + 2
        rule(top)
    for edge in x:
        page.draw_line((edge, 80.0), (edge, top), color=(0, 0, 0), width=0.6)
    pdf.save(path)
    return path


def test_shaded_bands_behind_lines_do_not_cut_a_ruled_row(tmp_path: Path) -> None:
    for shaded in (True, False):
        document = load_document(shaded_lines_pdf(tmp_path / f"shaded-{shaded}.pdf", shaded))
        (table,) = document.tables
        rows = document.text[table.start:table.end].split("\n")
        assert rows[0] == "Services You May Need | Network Provider | Limitations and Exceptions"
        assert len(rows) == 1 + len(LIMITATIONS), rows
        for (service, cost, notes), row in zip(LIMITATIONS, rows[1:], strict=True):
            assert row == (f"{service} | Network Provider: {cost} | "
                           f"Limitations and Exceptions: {' '.join(notes)}")
        (clause,) = [c for c in segment(document) if c.kind == "table"]
        assert "Specialist visit | Network Provider: $50 copay/visit" in clause.text


@pytest.mark.parametrize(("unit", "upper"), [("year", "years"), ("month", "months"),
                                             ("km", "kms")])
def test_a_row_label_wrapped_onto_a_row_of_its_own_is_joined_again(unit, upper):
    # a depreciation schedule read line by line: each band's label ends on the next line,
    # in lower case, beside no value ("Exceeding 1 year but not" / "exceeding 2 years")
    grid = [["Age of the vehicle", "% of depreciation"],
            ["Not exceeding 6 months", "5%"],
            [f"Exceeding 1 {unit} but not", "20%"], [f"exceeding 2 {upper}", None],
            [f"Exceeding 2 {upper} but not", "30%"], [f"exceeding 3 {upper}", ""]]
    assert join_wrapped_labels(grid) == [
        ["Age of the vehicle", "% of depreciation"], ["Not exceeding 6 months", "5%"],
        [f"Exceeding 1 {unit} but not exceeding 2 {upper}", "20%"],
        [f"Exceeding 2 {upper} but not exceeding 3 {upper}", "30%"]]


def test_rows_of_their_own_are_not_joined():
    # an item of a list laid out as a table ("xi. ..."), a row with a value, a capitalised
    # label, and a first row are rows of their own
    grid = [["ix. HPV", "ii. Malaria"], ["xi. Enteric fever", None], ["b) Hernia", ""],
            ["cataract", "24 months"], ["Hernia", None]]
    assert join_wrapped_labels(grid) == grid
    assert join_wrapped_labels([["exceeding 1 year", None]]) == [["exceeding 1 year", None]]


# (label, value lines): a table of benefits set as label | value, as a health policy's
# "Table of Benefits" is, each value line on a band of its own
KEY_VALUES = [
    ("Product Type", ["Individual/ Floater"]),
    ("Sum insured", ["50,000 to 10 lakh, in multiples of 50,000",
                     "On Individual basis - SI applies to each member",
                     "On Floater basis - SI applies to the whole family"]),
    ("Policy Period", ["1 year"]),
    ("Co Pay", ["5% on all claims up to age 75", "15% on all claims above age 75"]),
]


def banded_key_values_pdf(path: Path, rules: str, band: tuple[float, float, float]) -> Path:
    """A two-column table ruled between its rows by thin filled rectangles (``rules``
    'filled') or drawn lines ('stroked'), with a filled band of colour ``band`` behind every
    line of a value: the bands' edges fall between the lines of one cell."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    x, top, line = (40.0, 170.0, 560.0), 80.0, 12.0

    def rule(x0: float, y0: float, x1: float, y1: float) -> None:
        if rules == "filled":
            page.draw_rect(pymupdf.Rect(x0, y0, max(x1, x0 + 0.7), max(y1, y0 + 0.7)),
                           color=None, fill=(0, 0, 0))
        else:
            page.draw_line((x0, y0), (x1, y1), color=(0, 0, 0), width=0.6)

    rule(x[0], top, x[2], top)
    for label, values in KEY_VALUES:
        for k in range(len(values)):
            page.draw_rect(pymupdf.Rect(x[1] + 1, top + 1 + k * line, x[2] - 1,
                                        top + 1 + (k + 1) * line), color=None, fill=band)
        page.insert_text((x[0] + 3, top + 10), label, fontsize=FONT_SIZE)
        for k, value in enumerate(values):
            page.insert_text((x[1] + 3, top + 10 + k * line), value, fontsize=FONT_SIZE)
        top += len(values) * line + 2
        rule(x[0], top, x[2], top)
    for edge in x:
        rule(edge, 80.0, edge, top)
    pdf.save(path)
    return path


@pytest.mark.parametrize("rules", ["filled", "stroked"])
@pytest.mark.parametrize("band", [(1.0, 1.0, 1.0), (0.9, 0.93, 0.97)])
def test_bands_behind_the_lines_of_a_cell_do_not_cut_it_into_rows(tmp_path: Path, rules,
                                                                   band) -> None:
    # Arogya Sanjeevani's table of benefits came back a row per text line, a value's later
    # lines as rows without their label
    path = banded_key_values_pdf(tmp_path / f"{rules}.pdf", rules, band)
    document = load_document(path)
    (table,) = document.tables
    rows = document.text[table.start:table.end].split("\n")
    assert len(rows) == len(KEY_VALUES), rows
    for (label, values), row in zip(KEY_VALUES, rows, strict=True):
        assert row.startswith(f"{label} | ") and row.endswith(" ".join(values)), row


def spanning_label_pdf(path: Path, label: list[str]) -> Path:
    """A table of benefits whose first benefit's label (``label``, one line of text each)
    is set at the top of a tall cell beside two ruled rows of details."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    top, height, left, middle, right = 80.0, 30.0, 40.0, 200.0, 560.0
    _cell(page, left, top - 20, middle, top, "Benefit")
    _cell(page, middle, top - 20, right, top, "Details")
    page.draw_rect(pymupdf.Rect(left, top, middle, top + 2 * height), color=(0, 0, 0),
                   width=0.6)
    for k, line in enumerate(label):
        page.insert_text((left + 4, top + 10 + 10 * k), line, fontsize=FONT_SIZE)
    _cell(page, middle, top, right, top + height,
          "Expenses of hospitalization for a minimum period of 24 consecutive hours")
    _cell(page, middle, top + height, right, top + 2 * height,
          "The time limit of 24 hours does not apply to day care treatment")
    _cell(page, left, top + 2 * height, middle, top + 3 * height, "Pre Hospitalisation")
    _cell(page, middle, top + 2 * height, right, top + 3 * height, "For 30 days before admission")
    _cell(page, left, top + 3 * height, middle, top + 4 * height, "Post Hospitalisation")
    _cell(page, middle, top + 3 * height, right, top + 4 * height, "For 60 days after discharge")
    pdf.save(path)
    return path


@pytest.mark.parametrize("label", [["Hospitalisation Expenses"], ["Hospitalisation", "Expenses"],
                                   ["In-patient Care"]])
def test_a_label_at_the_top_of_a_tall_cell_labels_each_row_beside_it(tmp_path: Path, label):
    # Arogya Sanjeevani's "Hospitalisation Expenses": its second row read without a label
    document = load_document(spanning_label_pdf(tmp_path / "span.pdf", label))
    (table,) = document.tables
    rows = document.text[table.start:table.end].split("\n")
    name = " ".join(label)
    assert f"{name} | Details: Expenses of hospitalization for a minimum period of 24 " \
           "consecutive hours" in rows, rows
    assert f"{name} | Details: The time limit of 24 hours does not apply to day care " \
           "treatment" in rows, rows
    assert "Pre Hospitalisation | Details: For 30 days before admission" in rows, rows


def test_a_serial_number_names_its_own_row_only(tmp_path: Path) -> None:
    document = load_document(spanning_label_pdf(tmp_path / "serial.pdf", ["1"]))
    (table,) = document.tables
    rows = document.text[table.start:table.end].split("\n")
    assert "Details: The time limit of 24 hours does not apply to day care treatment" in rows, \
        rows
