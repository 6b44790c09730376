"""The HTTP side of the analyst's workbench (issue 27): messages a web user can act on,
stored answers shown again, document choice and Compare exports, and uploads that
survive a restart of the server."""

from __future__ import annotations

import csv
import io
import json
import shutil
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from clausegraph.web.app import create_app
from clausegraph.web.jobs import JobJournal
from clausegraph.web.messages import for_web_user
from clausegraph.web.uploads import store_upload
from tests.conftest import dataset_pdf
from tests.web.web_support import uploaded_files

QUESTION = "What are the payment terms for product invoices?"


@pytest.fixture(scope="module")
def client(web_index):
    with TestClient(create_app(web_index)) as client:
        yield client


@pytest.fixture(scope="module")
def documents(client):
    return client.get("/api/v1/documents").json()


def test_validation_errors_are_sentences(client):
    long = client.post("/api/v1/ask", json={"question": "x" * 2001})
    assert long.status_code == 422
    assert long.json()["detail"] == "The question is too long: at most 2000 characters."
    empty = client.post("/api/v1/ask", json={"question": ""}).json()["detail"]
    assert empty == "The question is empty: type one first."
    broken = client.post("/api/v1/ask", content=b'{"question": ',
                         headers={"Content-Type": "application/json"})
    assert broken.status_code == 422
    assert broken.json()["detail"] == "The request body is not valid JSON."
    listed = client.post("/api/v1/ask", json=["a question"]).json()["detail"]
    assert listed.startswith("The request body must be a JSON object")
    missing = client.post("/api/v1/ask", json={"documents": []}).json()["detail"]
    assert missing == "The question is missing."


def test_errors_name_no_server_path_and_no_cli_flag(client, web_index):
    unknown = client.post("/api/v1/ask", json={"question": QUESTION, "documents": ["nope.pdf"]})
    detail = unknown.json()["detail"]
    assert unknown.status_code in (400, 404) and "nope.pdf" in detail
    assert str(web_index) not in detail and "--" not in detail and "clausegraph " not in detail


@pytest.mark.parametrize(("raw", "shown"), [
    ("index /srv/data/idx: does not exist; create it with 'clausegraph ingest'",
     "the index does not exist"),
    ("no document 'x' in index /srv/data/idx", "no document 'x' in the index"),
    ("index postgresql://u:secret@db/cg: is not a ClauseGraph index; "
     "create one with 'clausegraph ingest PATH --index URL'",
     "the index is not a ClauseGraph index"),
    ("/srv/idx/.uploads/0a1b/cut.pdf: not a readable PDF: page 3", "cut.pdf: not a readable PDF: page 3"),
    ("timed out; use --llm none for the extractive answer", "timed out"),
    ("covered 24/7 and/or abroad, see https://example.com/terms",
     "covered 24/7 and/or abroad, see https://example.com/terms"),
])
def test_messages_for_a_web_user(raw, shown):
    assert for_web_user(raw) == shown


def test_a_stored_answer_is_shown_again_without_asking(client):
    asked = client.post("/api/v1/ask", json={"question": QUESTION}).json()
    view = client.get(f"/api/v1/history/{asked['id']}/view").json()
    assert view["answer"]["id"] == asked["id"] and view["answer"]["question"] == QUESTION
    assert view["answer"]["direct"] == asked["direct"]
    shown = [c["clause_id"] for group in view["evidence"] for c in group["clauses"]]
    assert sorted(shown) == sorted(e["clause_id"] for e in asked["answer"]["evidence"])
    assert [g["group"] for g in view["evidence"]] == ["definition", "base_rule", "exception"]
    assert all(c["citation"] for group in view["evidence"] for c in group["clauses"])
    assert len(view["chain"]["links"]) == len(asked["answer"]["chain"])
    item = next(i for i in client.get("/api/v1/history").json() if i["id"] == asked["id"])
    assert item["documents"] is None and isinstance(item["by_document"], list)
    assert client.get("/api/v1/history/000000000000/view").status_code == 404


def test_ask_and_compare_limited_to_chosen_documents(client, documents):
    chosen = documents[0]
    asked = client.post("/api/v1/ask", json={"question": QUESTION,
                                             "documents": [chosen["doc_id"]]}).json()
    assert {e["doc_id"] for e in asked["answer"]["evidence"]} == {chosen["doc_id"]}
    compared = client.post("/api/v1/compare", json={"question": QUESTION,
                                                    "documents": [chosen["doc_id"]]}).json()
    assert [row["doc_id"] for row in compared["rows"]] == [chosen["doc_id"]]
    everyone = client.post("/api/v1/compare", json={"question": QUESTION}).json()
    assert len(everyone["rows"]) == len(documents)


@pytest.mark.parametrize("fmt", ["csv", "md", "html"])
def test_compare_export_uses_the_cli_writers(client, documents, fmt):
    ids = [d["doc_id"] for d in documents[:2]]
    response = client.get("/api/v1/compare/export",
                          params={"question": QUESTION, "documents": ids, "format": fmt})
    assert response.status_code == 200
    assert response.headers["content-disposition"] == \
        f'attachment; filename="clausegraph-compare.{fmt}"'
    text = response.text
    titles = [d["title"] for d in documents[:2]]
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [r["document"] for r in rows] == titles
    else:
        assert all(title in text for title in titles)
        assert documents[2]["title"] not in text
    bad = client.get("/api/v1/compare/export", params={"question": QUESTION, "format": "xls"})
    assert bad.status_code == 422 and bad.json()["detail"].startswith("The format must be one of")


def _wait_done(client: TestClient, job_id: str, seconds: float = 300) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        job = client.get(f"/api/v1/jobs/{job_id}").json()
        if job["state"] == "done":
            return job
        assert time.monotonic() < deadline, job
        time.sleep(0.3)


def test_an_upload_interrupted_by_a_stop_is_finished_after_the_restart(web_index, tmp_path):
    """What a server stopped mid-ingest leaves (the stored file, a journal record still
    'running', a half-written copy, a file of nothing) is picked up by the next start."""
    index = tmp_path / "index"
    shutil.copytree(web_index, index)
    uploads = index / ".uploads"
    data = dataset_pdf("Photronics").read_bytes()
    stored = store_upload(uploads, "Outsourcing.pdf", data, ".pdf")
    gone = uploads / "0123456789abcdef" / "gone.pdf"  # its stored copy was lost
    orphan = store_upload(uploads, "left over.txt", b"a file no job or document uses", ".txt")
    (stored.parent / ".half.pdf.part").write_bytes(data[:100])
    job = {"job_id": "feedfacecafe0001", "workspace": "default", "created_at": "2026-11-25",
           "state": "running", "done": 0, "total": 2, "files": [
               {"name": "Outsourcing.pdf", "status": "ingesting"},
               {"name": "gone.pdf", "status": "queued"}]}
    JobJournal(uploads, keep=10).save(job, [(0, stored), (1, gone)])
    with TestClient(create_app(index, warm=False)) as client:
        finished = _wait_done(client, job["job_id"])
        documents = client.get("/api/v1/documents").json()
    first, second = finished["files"]
    assert first["status"] in ("ingested", "unchanged", "replaced") and first["doc_id"]
    assert second["status"] == "failed" and "upload it again" in second["error"]
    assert "restarted" in finished["note"]
    assert first["doc_id"] in {d["doc_id"] for d in documents}
    assert not orphan.exists() and not orphan.parent.exists()
    assert not (stored.parent / ".half.pdf.part").exists()
    # what is left in the uploads folder: the app's records and the indexed documents' originals
    manifest = json.loads((index / "clausegraph-index.json").read_text())
    sources = {str(Path(e["source_path"]).resolve()) for e in manifest["documents"].values()}
    left = {str(p.resolve()) for p in uploaded_files(uploads)}
    assert left <= sources
    # a copy of a document already indexed from elsewhere ("unchanged") is not kept either
    assert stored.exists() == (str(stored.resolve()) in sources)


def test_a_failed_upload_leaves_no_file(web_index, tmp_path):
    index = tmp_path / "index"
    shutil.copytree(web_index, index)
    broken = dataset_pdf("Photronics").read_bytes()[:4000]
    with TestClient(create_app(index, warm=False)) as client:
        job = client.post("/api/v1/documents",
                          files=[("files", ("cut.pdf", broken, "application/pdf"))]).json()
        finished = _wait_done(client, job["job_id"])
    assert finished["files"][0]["status"] == "failed"
    uploads = index / ".uploads"
    assert not uploaded_files(uploads)
