"""The HTTP API through FastAPI's TestClient, on the bundled CUAD PDFs (real model, index)."""

from __future__ import annotations

import io
import zipfile

import json
import re
import time

import pymupdf
import pytest
from fastapi.testclient import TestClient

from clausegraph.report import Report
from clausegraph.web.app import create_app
from clausegraph.web.uploads import UploadLimits
from tests.conftest import dataset_pdf
from tests.web.web_support import HOSTILE_TEXT, TEAM_TOKEN, TOKEN

QUESTION = "What are the payment terms for product invoices?"
AUDIBLE = ("AudibleInc_20001113_10-Q_EX-10.32_2599586_EX-10.32_Co-Branding Agreement_ "
           "Marketing Agreement_ Investment Distribution Agreement.pdf")


@pytest.fixture(scope="module")
def app(web_index):
    return create_app(web_index, tokens={TOKEN: "default", TEAM_TOKEN: "team"})


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client


@pytest.fixture(scope="module")
def team(app):
    with TestClient(app, headers={"Authorization": f"Bearer {TEAM_TOKEN}"}) as client:
        yield client


@pytest.fixture(scope="module")
def asked(client):
    response = client.post("/api/v1/ask", json={"question": QUESTION})
    assert response.status_code == 200, response.text
    return response.json()


def _squash(text: str) -> str:
    return " ".join(text.split())


def _wait_for_job(client: TestClient, job: dict, seconds: float = 300) -> dict:
    deadline = time.monotonic() + seconds
    while job["state"] != "done":
        assert time.monotonic() < deadline, f"ingest job still {job['state']}: {job}"
        time.sleep(0.3)
        job = client.get(f"/api/v1/jobs/{job['job_id']}").json()
    return job


def test_documents_list_matches_the_index(client, web_index):
    manifest = json.loads((web_index / "clausegraph-index.json").read_text())
    rows = client.get("/api/v1/documents").json()
    assert {r["doc_id"] for r in rows} == set(manifest["documents"])
    for row in rows:
        entry = manifest["documents"][row["doc_id"]]
        assert (row["pages"], row["clauses"]) == (entry["pages"], entry["clauses"])
        assert row["edges"] == sum(entry["edges_by_type"].values()) > 0
    health = client.get("/api/v1/health").json()
    assert health["status"] == "ok" and health["documents"] == len(rows)
    stats = client.get("/api/v1/stats").json()
    assert stats["clauses"] == sum(r["clauses"] for r in rows)


def test_ask_gives_a_verdict_for_a_yes_no_question(client):
    """The short verdict rides with the direct answer; an open question has none; the
    parties question's verdict names the parties (each document's own, so across documents
    that name other parties it depends on the document)."""
    body = client.post("/api/v1/ask", json={
        "question": "Which law governs the agreement?",
        "documents": ["BellringBrandsInc_20190920_S-1_EX-10.12_11817081_EX-10.12_Manufacturing "
                      "Agreement1.pdf"]}).json()
    assert body["direct"]["verdict"] == "California"
    assert body["answer"]["verdict"]["label"] == "value"
    assert body["answer"]["verdict"]["clause_id"] == body["direct"]["clause_id"]
    open_question = client.post("/api/v1/ask", json={
        "question": "What does the agreement say about confidentiality?"}).json()
    assert open_question["direct"].get("verdict") is None
    parties = client.post("/api/v1/ask", json={
        "question": "Who are the parties to this agreement?",
        "documents": [AUDIBLE]}).json()
    assert parties["answer"]["verdict"]["label"] == "value"
    assert 'Audible Inc. ("Company")' in parties["direct"]["verdict"], parties["direct"]


def test_ask_gives_a_cited_direct_answer_and_grouped_evidence(asked):
    answer = asked["answer"]
    assert answer["question"] == QUESTION and answer["evidence"]
    assert {e["group"] for e in answer["evidence"]} <= {"definition", "base_rule", "exception"}
    # one answer, or one per document when several answer equally well: each quotes the
    # clause its citation opens, inside that clause's span
    direct = asked["direct"]
    assert direct["text"] == answer["direct_answer"]
    for item in direct["by_document"] or [direct]:
        # what the page shows: the quote, marked "…" where cut from a longer sentence
        assert item["shown"].strip("…") in _squash(item["text"]) or \
            len(answer["direct"]["lines"]) > 1
        cited = next(e for e in answer["evidence"] if e["clause_id"] == item["clause_id"])
        assert _squash(item["text"]) in _squash(cited["text"])
        assert cited["span"][0] <= item["span"][0] < item["span"][1] <= cited["span"][1]
    ids = {e["clause_id"] for e in answer["evidence"]}
    assert all(link["source"] in ids and link["target"] in ids for link in answer["chain"])


def test_stream_sends_answer_then_each_group_then_chain(client):
    with client.stream("GET", "/api/v1/ask/stream", params={"question": QUESTION}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        body = "".join(response.iter_text())
    events = [(m.group(1), json.loads(m.group(2)))
              for m in re.finditer(r"event: (\w+)\ndata: (.*)\n\n", body)]
    names = [name for name, _ in events]
    assert names == ["answer", "evidence", "evidence", "evidence", "chain", "done"]
    assert [data["group"] for name, data in events if name == "evidence"] == [
        "definition", "base_rule", "exception"]
    assert events[0][1]["direct"]["text"] and events[0][1]["id"] == events[-1][1]["id"]
    history = client.get("/api/v1/history").json()
    assert events[0][1]["id"] in {h["id"] for h in history}


def test_highlight_rectangles_cover_the_cited_words(client, asked):
    direct = (asked["direct"]["by_document"] or [asked["direct"]])[0]  # a quote, cited
    data = client.get("/api/v1/highlight", params={
        "clause": direct["clause_id"], "start": direct["span"][0], "end": direct["span"][1],
    }).json()
    assert data["media_type"] == "pdf" and data["pages"]
    entry = next(r for r in client.get("/api/v1/documents").json() if r["doc_id"] == data["doc_id"])
    original = client.get(f"/api/v1/documents/{entry['doc_id']}/original").content
    pdf = pymupdf.open(stream=original, filetype="pdf")
    page = data["pages"][0]
    words = direct["text"].split()[:4]
    found = pdf[page["number"] - 1].search_for(" ".join(words))
    assert found, f"{words} not on page {page['number']}"
    rects = [pymupdf.Rect(r) for r in page["rects"]]
    assert any(rect.intersects(hit) for rect in rects for hit in found)
    # and nothing far away: every rectangle sits inside the page
    assert all(0 <= r.x0 < r.x1 <= page["width"] and 0 <= r.y0 < r.y1 <= page["height"]
               for r in rects)


def test_page_image_and_original_download(client):
    row = client.get("/api/v1/documents").json()[0]
    image = client.get(f"/api/v1/documents/{row['doc_id']}/pages/1.png")
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    missing = client.get(f"/api/v1/documents/{row['doc_id']}/pages/999.png")
    assert missing.status_code == 404 and "page 999" in missing.json()["detail"]
    original = client.get(f"/api/v1/documents/{row['doc_id']}/original")
    assert original.content.startswith(b"%PDF-")
    assert "attachment" in original.headers["content-disposition"]


def test_clause_view_lists_edges_and_neighbours(client, asked):
    clause_id = asked["answer"]["chain"][0]["source"] if asked["answer"]["chain"] else \
        asked["direct"]["clause_id"]
    view = client.get(f"/api/v1/clauses/{clause_id}").json()
    assert view["detail"]["clause"]["clause_id"] == clause_id
    edges = view["detail"]["outgoing"] + view["detail"]["incoming"]
    assert len(view["neighbours"]) == len(edges)
    ends = {e["target"] for e in view["detail"]["outgoing"]} | {
        e["source"] for e in view["detail"]["incoming"]}
    assert {n["clause_id"] for n in view["neighbours"]} == ends
    assert client.get("/api/v1/clauses/no-such:1").status_code == 404


def test_compare_answers_per_document(client):
    result = client.post("/api/v1/compare", json={"question": QUESTION}).json()
    documents = client.get("/api/v1/documents").json()
    assert [r["doc_id"] for r in result["rows"]] == [d["doc_id"] for d in documents]
    for row in result["rows"]:
        if row["clause_id"]:
            assert row["clause_id"].startswith(row["key"] + ":")


@pytest.mark.parametrize("fmt", ["md", "html", "pdf", "json"])
def test_report_export_of_a_history_entry(client, asked, fmt):
    response = client.get(f"/api/v1/history/{asked['id']}/report", params={"format": fmt})
    assert response.status_code == 200
    assert f'clausegraph-{asked["id"]}.{fmt}' in response.headers["content-disposition"]
    if fmt == "pdf":
        assert response.content.startswith(b"%PDF-")
    elif fmt == "json":
        report = Report.model_validate_json(response.content)
        assert report.question == QUESTION
        assert {e.clause_id for e in report.evidence} == {
            e["clause_id"] for e in asked["answer"]["evidence"]}
    else:
        assert QUESTION in response.text


def test_upload_ingest_download_remove(team, client):
    data = HOSTILE_TEXT.encode()
    job = team.post("/api/v1/documents", files=[
        ("files", ("../../etc/hostile agreement.txt", data, "text/plain")),
        ("files", ("fake.pdf", b"MZ\x90\x00\x03\x00\x00\x00 not a pdf", "application/pdf")),
    ]).json()
    assert [f["status"] for f in job["files"]] == ["queued", "rejected"]
    assert job["files"][1]["error"] == "fake.pdf: not a PDF, Word (.docx), HTML or UTF-8 text file (checked by content)"
    job = _wait_for_job(team, job)
    uploaded = job["files"][0]
    assert uploaded["status"] == "ingested", uploaded
    rows = team.get("/api/v1/documents").json()
    assert [r["doc_id"] for r in rows] == [uploaded["doc_id"]]
    assert rows[0]["file_name"] == "hostile agreement.txt"  # no path part survives
    assert team.get(f"/api/v1/documents/{uploaded['doc_id']}/original").content == data
    # the other workspace sees none of it
    assert uploaded["doc_id"] not in {r["doc_id"] for r in client.get("/api/v1/documents").json()}
    assert client.get(f"/api/v1/documents/{uploaded['doc_id']}/original").status_code == 404
    answer = team.post("/api/v1/ask", json={"question": "terminate for convenience"}).json()
    clause_id = answer["direct"]["clause_id"]
    assert clause_id.startswith(rows[0]["key"])
    assert client.get("/api/v1/highlight", params={"clause": clause_id}).status_code == 404
    text = team.get("/api/v1/highlight", params={"clause": clause_id}).json()["text"]
    assert "terminate" in text["marked"] and text["marked"] in HOSTILE_TEXT
    removed = team.delete(f"/api/v1/documents/{uploaded['doc_id']}")
    assert removed.json()["removed"] == [uploaded["doc_id"]]
    assert team.get("/api/v1/documents").json() == []


def _word_file(paragraphs: list[str]) -> bytes:
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_word_and_html_uploads_are_recognised_by_content(team):
    word = _word_file(["1. Term", "This Agreement lasts five (5) years from the Effective Date.",
                       "2. Termination", "Either party may terminate on ninety days notice."])
    html = (b"<!DOCTYPE html><html><body><h1>1. Fees</h1><p>The Customer shall pay a fee "
            b"of USD 1,000 per month.</p><script>alert(1)</script></body></html>")
    not_word = io.BytesIO()
    with zipfile.ZipFile(not_word, "w") as archive:
        archive.writestr("payload.txt", "not a Word document")
    job = team.post("/api/v1/documents", files=[
        ("files", ("contract.bin", word, "application/octet-stream")),  # the name lies
        ("files", ("fees.txt", html, "text/plain")),
        ("files", ("renamed.docx", not_word.getvalue(), "application/zip")),
    ]).json()
    assert [f["status"] for f in job["files"]] == ["queued", "queued", "rejected"]
    assert "renamed.docx: not a PDF, Word (.docx), HTML" in job["files"][2]["error"]
    job = _wait_for_job(team, job)
    assert [f["status"] for f in job["files"][:2]] == ["ingested", "ingested"], job
    rows = {r["doc_id"]: r for r in team.get("/api/v1/documents").json()}
    word_id, html_id = job["files"][0]["doc_id"], job["files"][1]["doc_id"]
    assert rows[word_id]["media_type"] == "docx" and rows[html_id]["media_type"] == "html"
    original = team.get(f"/api/v1/documents/{html_id}/original")
    assert original.headers["content-type"] == "application/octet-stream"
    assert original.headers["content-disposition"].startswith("attachment")
    answer = team.post("/api/v1/ask", json={"question": "How long does the agreement last?",
                                            "documents": [word_id]}).json()
    assert "five (5) years" in answer["direct"]["text"]
    for doc_id in (word_id, html_id):
        team.delete(f"/api/v1/documents/{doc_id}")


def test_a_broken_pdf_fails_with_a_message_naming_the_file(team):
    broken = dataset_pdf("Photronics").read_bytes()[:4000]
    job = team.post("/api/v1/documents",
                    files=[("files", ("cut.pdf", broken, "application/pdf"))]).json()
    job = _wait_for_job(team, job)
    (entry,) = job["files"]
    assert entry["status"] == "failed"
    assert entry["error"].startswith("cut.pdf: not a readable PDF"), entry["error"]
    assert "/" not in entry["error"]  # no server path in the message


def test_upload_limits(web_index, tmp_path):
    app = create_app(web_index, limits=UploadLimits(max_file_bytes=1000, max_files=2),
                     uploads=tmp_path / "uploads", warm=False)
    with TestClient(app) as client:
        job = client.post("/api/v1/documents", files=[
            ("files", ("big.txt", b"x" * 1001, "text/plain")),
            ("files", ("empty.txt", b"", "text/plain")),
            ("files", ("third.txt", b"fine", "text/plain")),
        ]).json()
    assert [(f["status"], f["error"]) for f in job["files"]] == [
        ("rejected", "big.txt: 0.0 MB is over the upload limit of 0 MB"),
        ("rejected", "empty.txt: empty file (0 bytes)"),
        ("rejected", "third.txt: over the limit of 2 files per upload"),
    ]
    assert not (tmp_path / "uploads").exists()


def test_tokens_are_checked_on_every_page_and_call(app):
    with TestClient(app) as anonymous:
        for path in ("/api/v1/health", "/api/v1/documents", "/", "/documents", "/docs",
                     "/openapi.json"):
            assert anonymous.get(path).status_code == 401, path
        assert anonymous.get("/api/v1/health",
                             headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert anonymous.get("/static/app.css").status_code == 200  # no data in it
        opened = anonymous.get(f"/documents?token={TOKEN}", follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"] == "/documents"
        assert "httponly" in opened.headers["set-cookie"].lower()
        assert anonymous.get("/api/v1/health").json()["workspace"] == "default"  # the cookie


def test_pages_have_a_strict_policy_and_no_inline_script(client):
    for path in ("/", "/documents", "/compare", "/history", "/docs"):
        page = client.get(path)
        assert page.status_code == 200
        policy = page.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert not re.search(r"<script(?![^>]*\bsrc=)", page.text), path
        assert not re.search(r"\son\w+=", page.text), path


def test_errors_are_one_line_without_trace(app, client):
    assert client.post("/api/v1/ask", json={"question": ""}).status_code == 422
    service = app.state.service
    original = service.ask
    service.ask = lambda *a, **k: 1 / 0  # provoke a bug inside the app
    try:
        with TestClient(app, raise_server_exceptions=False,
                        headers={"Authorization": f"Bearer {TOKEN}"}) as raw:
            response = raw.post("/api/v1/ask", json={"question": "x"})
    finally:
        service.ask = original
    assert response.status_code == 500 and response.json() == {"detail": "internal error"}


def test_loopback_app_checks_host_and_origin(web_index):
    app = create_app(web_index, allowed_hosts=["127.0.0.1", "localhost"], warm=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/v1/health").status_code == 200
        assert client.get("/api/v1/health", headers={"Host": "evil.example"}).status_code == 400
        cross = client.post("/api/v1/compare", json={"question": "x"},
                            headers={"Origin": "http://evil.example"})
        assert cross.status_code == 403


PED_POLICY = ("SECTION D EXCLUSIONS\n1) Pre-Existing Diseases (Code - Excl01)\na. Expenses related "
              "to the treatment of a Pre-Existing Disease (PED) and its direct complications shall "
              "be excluded until the expiry of {months} months of continuous coverage after the "
              "date of inception of the first policy with Us.\n")


def test_documents_that_answer_equally_well_each_get_a_cited_answer(team):
    """A question that names none of two policies answering it equally: the API's direct
    answer carries each policy's answer with its own citation (the Ask page lists them)."""
    job = team.post("/api/v1/documents", files=[
        ("files", (f"policy_{months}.txt", PED_POLICY.format(months=months).encode(), "text/plain"))
        for months in (24, 36)]).json()
    job = _wait_for_job(team, job)
    ids = [f["doc_id"] for f in job["files"]]
    try:
        answer = team.post("/api/v1/ask", json={
            "question": "How long are pre-existing diseases excluded?"}).json()
        by_document = answer["direct"]["by_document"]
        assert len(by_document) == 2
        for item in by_document:
            months = "24" if "24 months" in item["text"] else "36"
            assert item["clause_id"] and item["span"][1] > item["span"][0]
            assert f"(policy_{months}.txt)" in item["citation"]
        assert {"24 months" in d["text"] for d in by_document} == {True, False}
        # scoped to one of them: one answer, no list
        one = team.post("/api/v1/ask", json={
            "question": "How long are pre-existing diseases excluded?", "documents": [ids[0]]}).json()
        assert one["direct"]["by_document"] == [] and "24 months" in one["direct"]["text"]
    finally:
        for doc_id in ids:
            team.delete(f"/api/v1/documents/{doc_id}")
