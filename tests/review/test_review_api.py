"""`review` of a real contract (the bundled Bellring manufacturing agreement, a CUAD PDF)
through the Python API and the command line, with the shipped clause-type model."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clausegraph.api import ClauseGraph
from clausegraph.cli import app
from clausegraph.config import Settings
from clausegraph.errors import NotFoundError
from tests.conftest import dataset_pdf

pytest.importorskip("clausegraph.classify", reason="the clause-type model is not in this tree")
runner = CliRunner()
BELLRING = dataset_pdf("Bellring").name


@pytest.fixture(scope="module")
def bellring(sample_graph: ClauseGraph):
    return sample_graph.review([BELLRING])


def test_review_covers_the_41_categories_in_cuads_order(bellring) -> None:
    from clausegraph.classify import CUAD_CATEGORIES

    (document,) = bellring.documents
    assert document.file == BELLRING
    assert [item.category for item in document.items] == list(CUAD_CATEGORIES)
    for item in document.items:
        assert item.clauses, item.category  # the best candidate is always listed
        listed = [c.confidence for c in item.clauses]
        assert listed == sorted(listed, reverse=True)
        assert item.confidence == item.clauses[0].confidence
        # each category's own threshold, fitted on CUAD train (none fixed by the settings)
        assert bellring.threshold is None and item.threshold is not None
        assert item.found == (item.confidence >= item.threshold)
    # the categories nearly every contract has are found from a lower confidence than one
    # that few have
    by_category = {item.category: item.threshold for item in document.items}
    assert by_category["Agreement Date"] < by_category["Covenant Not to Sue"]


def test_found_reads_the_rankers_confidence_the_list_the_novelty(sample_graph) -> None:
    """With the novelty stage the found decision, the category's confidence and its first
    span are the ranker's alone; the spans below the first are listed less confidently."""
    both = sample_graph.review([BELLRING]).documents[0]
    ranker_only = Settings().with_overrides(["review.span_novelty=false"])
    alone = ClauseGraph.open(sample_graph.store.location, ranker_only).review(
        [BELLRING]).documents[0]
    for with_novelty, ranker_only in zip(both.items, alone.items, strict=True):
        assert (with_novelty.found, with_novelty.confidence, with_novelty.clauses[0]) == \
            (ranker_only.found, ranker_only.confidence, ranker_only.clauses[0])
    parties = both.item("Parties").clauses
    assert sum(c.confidence for c in parties[1:]) < sum(
        c.confidence for c in alone.item("Parties").clauses[1:])


def test_governing_law_is_found_with_its_clause_page_and_jurisdiction(
        bellring, sample_graph: ClauseGraph) -> None:
    law = bellring.documents[0].item("Governing Law")
    assert law.found and law.answer == "California"
    best = law.clauses[0]
    assert "laws of the State of California" in " ".join(best.text.split())
    clause = sample_graph.index.clauses.clause(best.clause_id)
    document = sample_graph.index.clauses.document(clause.doc_id)
    # the reported text is where the span says, on the page it names
    assert " ".join(document.text[best.span[0]:best.span[1]].split()) == " ".join(best.text.split())
    assert best.page == document.page_of(best.span[0]) and best.page in clause.pages


def test_yes_no_categories_answer_from_found(bellring) -> None:
    for item in bellring.documents[0].items:
        if item.category == "Anti-Assignment" or item.category == "Audit Rights":
            assert item.answer == ("Yes" if item.found else "No")


def test_a_document_not_in_the_index_is_a_clear_error(sample_graph: ClauseGraph) -> None:
    with pytest.raises(NotFoundError, match="no document 'nowhere.pdf' in index"):
        sample_graph.review(["nowhere.pdf"])


def test_cli_review_json_and_csv(sample_graph: ClauseGraph, tmp_path: Path) -> None:
    root = str(sample_graph.store.root)
    result = runner.invoke(app, ["review", BELLRING, "--index", root, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    (document,) = payload["documents"]
    assert {"doc_id", "file", "title", "items"} <= set(document)
    law = next(i for i in document["items"] if i["category"] == "Governing Law")
    assert law["found"] is True and law["answer"] == "California"
    clause = law["clauses"][0]
    assert {"clause_id", "page", "span", "text", "confidence"} <= set(clause)
    assert isinstance(clause["span"], list) and len(clause["span"]) == 2

    out = tmp_path / "review.csv"
    result = runner.invoke(app, ["review", BELLRING, "--index", root, "-f", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 41
    law_row = next(r for r in rows if r["category"] == "Governing Law")
    assert law_row["found"] == "yes" and law_row["answer"] == "California"
    assert law_row["file"] == BELLRING

    table = runner.invoke(app, ["review", BELLRING, "--index", root])
    assert table.exit_code == 0 and "Governing Law" in table.stdout and "California" in table.stdout


def test_cli_review_of_a_missing_document_fails_clearly(sample_graph: ClauseGraph) -> None:
    result = runner.invoke(app, ["review", "nowhere.pdf", "--index", str(sample_graph.store.root)])
    assert result.exit_code == 2
    assert "no document 'nowhere.pdf' in index" in result.stderr


def test_review_exports_as_markdown_html_and_pdf(bellring, tmp_path: Path) -> None:
    import pymupdf

    from clausegraph.report.review import write_review

    markdown = write_review(bellring, tmp_path / "r.md").read_text(encoding="utf-8")
    assert "| Governing Law | yes |" in markdown
    page = write_review(bellring, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<td>Governing Law</td>" in page and "California" in page
    pdf = pymupdf.open(write_review(bellring, tmp_path / "r.pdf"))
    text = "".join(p.get_text() for p in pdf)
    assert "Governing Law" in text and "California" in text
