"""The running header and footer, kept once as a clause of their own.

Ingest leaves the lines printed at the edge of every page out of the clauses that cross a
page break; what they say (the product's name, its UIN, the insurer's registered office)
was then in no clause, and "What is the UIN of this policy?" was not found of HDFC ERGO's,
Arogya Sanjeevani's and Max Bupa's wordings (session 45). Written with three header styles.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from clausegraph.ingest import load_document
from clausegraph.segment import segment

HEADERS = [("ACME Health Shield - Policy Wording", "UIN: ACMHLIP23001V012223"),
           ("BETA GENERAL INSURANCE LTD. | CAR SECURE POLICY", "Product UIN IRDAN200RP0003V01201920"),
           ("Gamma Travel Guard", "Policy UIN - GAMTGDP21004V022021")]
OFFICE = "Registered Office: 12 Marine Drive, Mumbai - 400020. IRDAI Reg. No. 999."


def _wording(path: Path, variant: int, pages: int = 4) -> Path:
    name, uin = HEADERS[variant]
    pdf = pymupdf.open()
    for number in range(1, pages + 1):
        page = pdf.new_page(width=595, height=842)
        page.insert_text((72, 40), name, fontsize=10)
        page.insert_text((72, 54), uin, fontsize=10)
        page.insert_text((72, 120), f"{number}. Benefit {number}", fontsize=10)
        page.insert_text((72, 136), f"We will pay the medical expenses of benefit {number} up to "
                                    f"the sum insured.", fontsize=10)
        page.insert_text((72, 790), OFFICE, fontsize=8)
        page.insert_text((280, 810), f"Page {number} of {pages}", fontsize=8)
    pdf.save(path)
    pdf.close()
    return path


@pytest.mark.parametrize("variant", range(len(HEADERS)))
def test_the_running_lines_are_one_clause_once(tmp_path, variant):
    name, uin = HEADERS[variant]
    document = load_document(_wording(tmp_path / "wording.pdf", variant))
    clauses = segment(document)
    running = [c for c in clauses if c.kind == "running"]
    assert len(running) == 1 and running[0] is clauses[-1]
    text = running[0].text
    assert [text.count(line) for line in (name, uin, OFFICE)] == [1, 1, 1], text
    assert "Page" not in text and running[0].pages == [1]
    # the text's own clauses hold none of it
    assert not any(uin in c.text for c in clauses[:-1])


def test_a_document_without_running_lines_has_no_such_clause(tmp_path):
    pdf = pymupdf.open()
    for number in (1, 2, 3):
        page = pdf.new_page(width=595, height=842)
        page.insert_text((72, 120), f"{number}. Clause {number} sets out obligation "
                                    f"{number} of the supplier.", fontsize=10)
    pdf.save(tmp_path / "plain.pdf")
    pdf.close()
    assert not [c for c in segment(load_document(tmp_path / "plain.pdf")) if c.kind == "running"]


@pytest.fixture(scope="module")
def wordings_graph(tmp_path_factory):
    from clausegraph.api import ClauseGraph

    folder = tmp_path_factory.mktemp("running-clause")
    files = [_wording(folder / f"wording-{i}.pdf", i) for i in range(len(HEADERS))]
    graph = ClauseGraph.open(folder / "index", create=True)
    report = graph.ingest(files)
    assert not report.failed, [outcome.error for outcome in report.failed]
    return graph


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(HEADERS)))
def test_a_fact_printed_on_every_page_is_answered(wordings_graph, variant):
    answer = wordings_graph.ask("What is the UIN of this policy?",
                                documents=[f"wording-{variant}.pdf"])
    uin = HEADERS[variant][1].split()[-1]
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found and uin in text, (answer.direct, text)
    assert answer.evidence[0].clause_id.endswith(":header-footer")
