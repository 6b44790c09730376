"""The review route and the checklist page through FastAPI's TestClient (real index of the
bundled CUAD PDFs, real clause-type model)."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient

from clausegraph.web.app import create_app
from tests.conftest import dataset_pdf
from tests.web.web_support import TOKEN

pytest.importorskip("clausegraph.classify", reason="the clause-type model is not in this tree")
BELLRING = dataset_pdf("Bellring").name


@pytest.fixture(scope="module")
def client(web_index):
    app = create_app(web_index, tokens={TOKEN: "default"}, warm=False)
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client


@pytest.fixture(scope="module")
def doc_id(client) -> str:
    rows = client.get("/api/v1/documents").json()
    return next(r["doc_id"] for r in rows if r["file_name"] == BELLRING)


def test_review_route_returns_the_41_items(client, doc_id) -> None:
    response = client.get(f"/api/v1/documents/{doc_id}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["doc_id"] == doc_id and len(review["items"]) == 41
    law = next(i for i in review["items"] if i["category"] == "Governing Law")
    assert law["found"] and law["answer"] == "California"
    assert law["clauses"][0]["page"] >= 1


def test_review_export_csv_and_pdf(client, doc_id) -> None:
    csv_text = client.get(f"/api/v1/documents/{doc_id}/review/export?format=csv")
    assert csv_text.status_code == 200
    assert csv_text.headers["content-type"].startswith("text/csv")
    assert len(csv_text.text.strip().splitlines()) == 42
    # each row says the confidence its category is found from, and found agrees with it
    rows = list(csv.DictReader(io.StringIO(csv_text.text)))
    assert all(r["found from"] for r in rows)
    for row in rows:
        shown, threshold = float(row["confidence"]), float(row["found from"])
        if abs(shown - threshold) >= 0.01:  # both are shown rounded to two places
            assert (row["found"] == "yes") == (shown > threshold), row["category"]
    pdf = client.get(f"/api/v1/documents/{doc_id}/review/export?format=pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_checklist_page_and_its_link(client, doc_id) -> None:
    page = client.get(f"/documents/{doc_id}/review")
    assert page.status_code == 200
    assert "Governing Law" in page.text and "California" in page.text
    assert 'data-category="Most Favored Nation"' in page.text
    script = client.get("/static/documents.js").text
    assert '"/review"' in script


def test_review_of_an_unknown_document_is_404(client) -> None:
    response = client.get("/api/v1/documents/nowhere.pdf/review")
    assert response.status_code == 404
    assert "no document 'nowhere.pdf'" in response.json()["detail"]
