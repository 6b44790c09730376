"""A quoted table row is read under its table's title, and cited on its own page.

A plan document sets one benefit table per plan, each opening with the plan's name in a row
of its own above the column headers ("Gold Plan" / "Type of expense | Amount" / "Deductible
per plan year | Amount: $750"). Quoted alone, the rows of two such tables are the same row
with two figures; read under their titles, they are the Gold and the Silver plan's. The
tables are written in HTML with three plan namings, three currencies and two header
styles.

A section that runs over two pages cites the line an answer quotes on the page the line is
on, not on every page of the section (a PDF built with pymupdf).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from written_graph import direct_text, written_graph

from clausegraph.answer.gate import using_gate
from clausegraph.api import ClauseGraph

PLANS = [("Gold Plan", "Silver Plan"), ("Plan A", "Plan B"), ("Basic Option", "Premier Option")]
MONEY = [("$750", "$1,250", "$3,000", "$6,000"), ("£ 750", "£ 1,250", "£ 3,000", "£ 6,000"),
         ("Rs. 7,500", "Rs. 12,500", "Rs. 30,000", "Rs. 60,000")]
HEADERS = [("Type of expense", "Amount"), ("Benefit", "You pay")]
VARIANTS = [(plans, money, header) for plans in PLANS for money in MONEY for header in HEADERS
            if (PLANS.index(plans) + MONEY.index(money) + HEADERS.index(header)) % 2 == 0]


def plan_table(title: str, header: tuple[str, str], deductible: str, maximum: str) -> str:
    return f"""<table>
<tr><td colspan="2">{title}</td></tr>
<tr><th>{header[0]}</th><th>{header[1]}</th></tr>
<tr><td>Deductible per plan year</td><td>{deductible}</td></tr>
<tr><td>Maximum out-of-pocket per plan year</td><td>{maximum}</td></tr>
</table>"""


def plan_document(plans: tuple[str, str], money: tuple[str, ...], header: tuple[str, str]
                  ) -> str:
    first, second = plans
    return f"""<html><head><title>Health and Welfare Plan</title></head><body>
<h1>HEALTH AND WELFARE PLAN</h1>
<h2>Summary of benefits</h2>
<p>The following benefits are per participant per plan year. The deductible is applied to
and included in the maximum out-of-pocket amount.</p>
{plan_table(first, header, money[0], money[2])}
<p>The participant chooses one plan at enrolment for the whole plan year.</p>
{plan_table(second, header, money[1], money[3])}
<h2>Eligibility</h2>
<p>An employee is eligible on the first day of the month after thirty days of service.</p>
</body></html>"""


@pytest.fixture(scope="module")
def plans_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("table-titles"), {
        f"plan-{i}.html": plan_document(*variant) for i, variant in enumerate(VARIANTS)})


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_each_quoted_row_is_read_under_its_tables_title(plans_graph, variant):
    plans, money, _ = VARIANTS[variant]
    with using_gate(None):  # what is quoted, not whether the gate would answer
        answer = plans_graph.ask("What is the deductible per plan year?",
                                 documents=[f"plan-{variant}.html"])
    lines = answer.direct.lines
    rows = [i for i, line in enumerate(lines) if "Deductible per plan year" in line.text]
    assert rows, direct_text(answer)
    for i in rows:
        title = plans[0] if money[0].split()[-1] in lines[i].text.split()[-1] else plans[1]
        assert i > 0 and lines[i - 1].heads and lines[i - 1].text == title, \
            [(line.heads, line.text) for line in lines]


@pytest.mark.slow
def test_a_row_is_not_titled_by_the_prose_above_its_table(plans_graph):
    """The line above the first table is a sentence: no title."""
    with using_gate(None):
        answer = plans_graph.ask("What is the deductible per plan year?",
                                 documents=["plan-0.html"])
    heads = [line.text for line in answer.direct.lines if line.heads]
    assert not any("participant" in text for text in heads), heads


FILLER = ("Hospitalisation expenses are payable for in-patient care of more than twenty-four "
          "hours in a hospital, subject to the terms of this policy.")


def two_page_section(path: Path, limit: str) -> Path:
    """Section 5 runs from p.1 onto p.2, where it states the ambulance limit."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    page.insert_text((40, 60), "5. Benefits", fontsize=11)
    y = 90
    for _ in range(30):
        page.insert_text((40, y), FILLER[:95], fontsize=9)
        page.insert_text((40, y + 11), FILLER[95:], fontsize=9)
        y += 24
    page = pdf.new_page()
    page.insert_text((40, 60), FILLER[:95], fontsize=9)
    page.insert_text((40, 71), FILLER[95:], fontsize=9)
    page.insert_text((40, 95), f"Ambulance charges are payable up to {limit} per hospitalisation.",
                     fontsize=9)
    page.insert_text((40, 130), "6. Claims", fontsize=11)
    page.insert_text((40, 150), "A claim is notified within seven days of discharge.", fontsize=9)
    pdf.save(path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("limit", ["Rs. 2,000", "$200", "INR 2000"])
def test_a_quoted_line_is_cited_on_its_own_page(tmp_path, limit):
    graph = ClauseGraph.open(tmp_path / "index", create=True)
    report = graph.ingest([two_page_section(tmp_path / "policy.pdf", limit)])
    assert not report.failed
    with using_gate(None):
        answer = graph.ask("What is the limit for ambulance charges?")
    line = answer.direct.answering_line()
    assert "Ambulance charges" in line.text, direct_text(answer)
    clause = graph.index.clauses.clause(line.clause_id)
    assert clause.pages == [1, 2], clause.pages
    assert line.pages == [2], line.pages
