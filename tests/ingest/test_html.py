"""HTML (EDGAR exhibits): visible text in reading order, tables, hidden parts dropped,
entities decoded, encodings, spans, and bad input (100k nested tags, no text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clausegraph.errors import IngestError
from clausegraph.ingest import load_document
from clausegraph.segment import segment

# The shape of an EDGAR exhibit: inline-XBRL header hidden with display:none, <font>
# soup, &nbsp; padding, a financial table with "$" and "%" in cells of their own and a
# header cell spanning them, and page-break divs between pages.
EDGAR_EXHIBIT = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><head>
<title>EX-10.1 Loan Agreement</title>
<style type="text/css">p { margin: 0 }</style>
<script>document.write("<p>not shown</p>");</script></head>
<body>
<div style="display: none"><ix:header><ix:hidden>dei:DocumentType 8-K</ix:hidden></ix:header></div>
<p align="center"><font style="font-family:Times New Roman"><b>LOAN&nbsp;AGREEMENT</b></font></p>
<p>This Loan Agreement (this &#8220;Agreement&rdquo;) is entered into by
   <b>Alpha Corp.</b> &amp; Beta&nbsp;LLC (the &quot;Lender&quot;).</p>
<h2>ARTICLE I<br/>DEFINITIONS</h2>
<p>1.1&nbsp;&nbsp;&#8220;Applicable Margin&#8221; means the rate per annum set out below.</p>
<table border="0" cellpadding="0" cellspacing="0">
 <tr><td><font>Level</font></td><td colspan="2" align="center"><b>Eurodollar Loans</b></td>
     <td colspan="2" align="center"><b>Base Rate Loans</b></td></tr>
 <tr><td>Level I</td><td>1.25</td><td>%</td><td>0.25</td><td>%</td></tr>
 <tr><td>Level II</td><td>1.50</td><td>%</td><td>0.50</td><td>%</td></tr>
</table>
<table><tr><td>Facility Fee</td><td>$</td><td>250,000</td></tr></table>
<div style="page-break-before: always"></div>
<p>1.2&nbsp;&nbsp;&#8220;Maturity Date&#8221; means June&nbsp;30, 2025.</p>
<ol type="a"><li>first condition;</li><li>second condition.</li></ol>
<p hidden>draft note: do not file</p><span style="visibility:hidden">invisible</span>
</body></html>"""


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def assert_fails(path: Path, *words: str) -> None:
    with pytest.raises(IngestError) as caught:
        load_document(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message, message
    for word in words:
        assert word.lower() in caught.value.problem.lower(), message


def test_edgar_exhibit_reads_as_a_reader_sees_it(tmp_path: Path) -> None:
    document = load_document(write(tmp_path, "ex10-1.htm", EDGAR_EXHIBIT))
    assert document.media_type == "html"
    assert document.title == "EX-10.1 Loan Agreement"
    assert document.text == (
        "LOAN AGREEMENT\n"
        "This Loan Agreement (this “Agreement”) is entered into by Alpha Corp. & Beta LLC "
        '(the "Lender").\n'
        "ARTICLE I\nDEFINITIONS\n"
        "1.1 “Applicable Margin” means the rate per annum set out below.\n"
        "Level | Eurodollar Loans | Base Rate Loans\n"
        "Level I | Eurodollar Loans: 1.25% | Base Rate Loans: 0.25%\n"
        "Level II | Eurodollar Loans: 1.50% | Base Rate Loans: 0.50%\n"
        "Facility Fee | $250,000\n"
        "1.2 “Maturity Date” means June 30, 2025.\n"
        "a. first condition;\n"
        "b. second condition.\n"
    )
    for hidden in ("dei:DocumentType", "not shown", "draft note", "invisible", "margin: 0"):
        assert hidden not in document.text


def test_blocks_pages_and_spans_point_into_the_text(tmp_path: Path) -> None:
    document = load_document(write(tmp_path, "ex10-1.html", EDGAR_EXHIBIT))
    kinds = [(b.kind, b.level, b.label) for b in document.blocks]
    assert kinds[2] == ("heading", 2, None)
    assert kinds[4] == ("table", None, None)
    assert kinds[-2:] == [("paragraph", None, "a."), ("paragraph", None, "b.")]
    assert [p.number for p in document.pages] == [1, 2]
    maturity = document.text.index("1.2 “Maturity Date”")
    assert document.pages_of((maturity, maturity + 5)) == [2]
    assert document.text[document.pages[1].start :].startswith("1.2 ")
    clauses = segment(document)
    clause = next(c for c in clauses if c.text.startswith("1.2"))
    assert document.text[clause.span[0] : clause.span[1]] == clause.text
    assert document.paragraphs_of(clause.span)[0] == 7


def test_windows_1252_without_a_declaration(tmp_path: Path) -> None:
    raw = "<html><body><p>Fees of \u20ac100 \u2013 payable \u201cmonthly\u201d.</p></body></html>"
    path = write(tmp_path, "legacy.htm", raw.encode("cp1252"))
    assert load_document(path).text == "Fees of \u20ac100 \u2013 payable \u201cmonthly\u201d.\n"


def test_declared_latin1_and_preformatted_text(tmp_path: Path) -> None:
    raw = ('<html><head><meta http-equiv="Content-Type" content="text/html; '
           'charset=iso-8859-1"></head><body><pre>Section 1.  Caf\xe9\n  Section 2.  '
           "Na\xefve</pre></body></html>").encode("latin-1")
    path = write(tmp_path, "pre.htm", raw)
    assert load_document(path).text == "Section 1. Café\nSection 2. Naïve\n"


def test_hundred_thousand_nested_tags_fail_cleanly(tmp_path: Path) -> None:
    deep = "<html><body>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000 + "</body></html>"
    assert_fails(write(tmp_path, "deep.html", deep), "nested deeper")


def test_a_thousand_nested_tags_still_read(tmp_path: Path) -> None:
    nested = "<html><body>" + "<div><span>" * 500 + "deep clause text" + "</span></div>" * 500
    document = load_document(write(tmp_path, "nested.html", nested + "<p>after</p></body></html>"))
    assert document.text == "deep clause text\nafter\n"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", ["empty"]),
        ("<html><head><title>x</title><script>var a = 1;</script></head><body> </body></html>",
         ["no visible text"]),
        ("<html><body><img src='scan.png'></body></html>", ["no visible text"]),
    ],
)
def test_html_without_visible_text(tmp_path: Path, content: str, words: list[str]) -> None:
    assert_fails(write(tmp_path, "blank.html", content), *words)


# A benefit's label beside two rows of details, and a rate shared by two bands: rowspan
# cells read in each row they span, as a Word table's merged cells do; the cells after a
# spanned column keep their own columns (they had shifted left into it).
ROWSPAN = """<html><body><h1>Table of Benefits</h1><table>
<tr><th>Benefit</th><th>Details</th><th>Limit</th></tr>
<tr><td rowspan="2">Hospitalisation Expenses</td><td>Stays of 24 consecutive hours or more</td>
    <td rowspan="2">Up to the Sum Insured</td></tr>
<tr><td>Day care procedures of less than 24 hours</td></tr>
<tr><td>Pre Hospitalisation</td><td>30 days before admission</td><td>{last}</td></tr>
</table></body></html>"""


@pytest.mark.parametrize("last", ["Up to 10% of the Sum Insured", "Rs. 5,000"])
def test_rowspan_cells_read_in_each_row_they_span(tmp_path: Path, last: str) -> None:
    document = load_document(write(tmp_path, "benefits.html", ROWSPAN.format(last=last)))
    (table,) = document.tables
    rows = document.text[table.start:table.end].split("\n")
    assert rows == [
        "Benefit | Details | Limit",
        ("Hospitalisation Expenses | Details: Stays of 24 consecutive hours or more | "
         "Limit: Up to the Sum Insured"),
        ("Hospitalisation Expenses | Details: Day care procedures of less than 24 hours | "
         "Limit: Up to the Sum Insured"),
        f"Pre Hospitalisation | Details: 30 days before admission | Limit: {last}",
    ], rows
