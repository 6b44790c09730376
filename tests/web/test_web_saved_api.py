"""What the web app keeps for its users beyond one server run: each browser's question
history (answers shown again after a restart) and the workspace's named document sets."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from clausegraph.models import Answer
from clausegraph.web.app import create_app
from clausegraph.web.history import HISTORY_FOLDER, HistoryEntry, HistoryStore
from clausegraph.web.jobs import delete_unused_uploads
from clausegraph.web.security import SESSION_COOKIE, SESSION_MAX_AGE
from clausegraph.web.sets import MAX_NAME_CHARS, SETS_FILE

QUESTION = "What are the payment terms for product invoices?"


@pytest.fixture
def index(web_index, tmp_path) -> Path:
    """A copy of the sample index, without the history and sets other tests left in it."""
    target = tmp_path / "index"
    shutil.copytree(web_index, target, ignore=shutil.ignore_patterns(HISTORY_FOLDER, SETS_FILE))
    return target


def _entry(number: int) -> HistoryEntry:
    answer = Answer(question=f"question {number}", answer="", mode="extractive", evidence=[],
                    chain=[])
    return HistoryEntry(id=f"{number:012x}", question=answer.question, asked_at="2026-11-26",
                        seconds=0.1, answer=answer)


# -- history across a restart ---------------------------------------------------------------


def test_an_answer_is_listed_and_shown_after_the_server_restarts(index):
    with TestClient(create_app(index, warm=False)) as first:
        page = first.get("/")
        cookie = page.cookies[SESSION_COOKIE]
        header = page.headers["set-cookie"].lower()
        assert f"max-age={SESSION_MAX_AGE}" in header  # kept across a browser restart too
        assert "httponly" in header and "samesite=strict" in header
        documents = [d["doc_id"] for d in first.get("/api/v1/documents").json()[:2]]
        asked = first.post("/api/v1/ask", json={"question": QUESTION,
                                                "documents": documents}).json()
        before = first.get(f"/api/v1/history/{asked['id']}/view").json()
    with TestClient(create_app(index, warm=False), cookies={SESSION_COOKIE: cookie}) as second:
        items = second.get("/api/v1/history").json()
        assert [(i["id"], i["question"], i["documents"]) for i in items] == \
            [(asked["id"], QUESTION, documents)]
        after = second.get(f"/api/v1/history/{asked['id']}/view")
        assert after.status_code == 200 and after.json() == before
        report = second.get(f"/api/v1/history/{asked['id']}/report", params={"format": "md"})
        assert report.status_code == 200 and QUESTION in report.text
    with TestClient(create_app(index, warm=False)) as stranger:  # another browser: none
        assert stranger.get("/api/v1/history").json() == []
        assert stranger.get(f"/api/v1/history/{asked['id']}/view").status_code == 404
    # one file for the session, named by a hash (the cookie is not written anywhere)
    files = list((index / ".uploads" / HISTORY_FOLDER).iterdir())
    assert len(files) == 1 and files[0].suffix == ".json"
    assert cookie not in files[0].name and cookie not in files[0].read_text(encoding="utf-8")


def test_a_corrupt_history_file_is_skipped_with_a_warning(index, caplog):
    with TestClient(create_app(index, warm=False)) as client:
        client.get("/")
        assert _history_files(index) == []  # nothing is written before a question
        asked = client.post("/api/v1/ask", json={"question": QUESTION}).json()
        cookie = client.cookies[SESSION_COOKIE]
    [file] = _history_files(index)
    file.write_text('{"entries": [{"id": "cut sh', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="clausegraph.web"), \
            TestClient(create_app(index, warm=False), cookies={SESSION_COOKIE: cookie}) as again:
        assert again.get("/api/v1/history").json() == []
        view = again.get(f"/api/v1/history/{asked['id']}/view")
        assert view.status_code == 404 and "no question" in view.json()["detail"]
        assert "unreadable question history" in caplog.text
        # the next question writes a good file over it
        newer = again.post("/api/v1/ask", json={"question": QUESTION}).json()
        assert [i["id"] for i in again.get("/api/v1/history").json()] == [newer["id"]]
    assert json.loads(file.read_text(encoding="utf-8"))["entries"][0]["id"] == newer["id"]


def _history_files(index: Path) -> list[Path]:
    return sorted((index / ".uploads" / HISTORY_FOLDER).glob("*.json"))


def test_history_keeps_the_newest_entries_and_sessions(tmp_path, caplog):
    store = HistoryStore(tmp_path, per_session=2, sessions=2)
    for number in range(3):
        store.add("browser-a", _entry(number))
    assert [e.id for e in store.entries("browser-a")] == [_entry(2).id, _entry(1).id]
    store.add("browser-b", _entry(10))
    store.add("browser-c", _entry(20))  # the third session file: the oldest goes
    folder = tmp_path / HISTORY_FOLDER
    assert len(list(folder.glob("*.json"))) == 2 and not list(folder.glob("*.part"))
    reopened = HistoryStore(tmp_path, per_session=2, sessions=2)  # a restart: read lazily
    assert reopened.entries("browser-a") == []
    assert [e.id for e in reopened.entries("browser-c")] == [_entry(20).id]
    assert reopened.entry("browser-b", _entry(10).id) == _entry(10)
    # a file of another shape is skipped, not a crash
    for path in folder.glob("*.json"):
        path.write_text('["not", "a", "history"]', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="clausegraph.web"):
        assert HistoryStore(tmp_path, per_session=2, sessions=2).entries("browser-b") == []
    assert "unreadable question history" in caplog.text


def test_the_apps_records_are_never_swept_as_unused_uploads(tmp_path):
    kept = [tmp_path / ".jobs" / "feedface.json", tmp_path / HISTORY_FOLDER / "abc.json",
            tmp_path / SETS_FILE]
    orphan = tmp_path / "0123456789abcdef" / "left over.txt"
    for path in [*kept, orphan]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}", encoding="utf-8")
    assert delete_unused_uploads(tmp_path, used=[]) == [orphan]
    assert all(path.exists() for path in kept)


# -- saved document sets --------------------------------------------------------------------


def _put(client: TestClient, name: str, documents: list[str]):
    return client.put(f"/api/v1/document-sets/{name}", json={"documents": documents})


def test_document_sets_are_saved_listed_replaced_and_deleted(index):
    name = "Fournisseurs – 2024 / Q1 ✓"  # a label: any Unicode, even a slash
    with TestClient(create_app(index, warm=False)) as client:
        ids = [d["doc_id"] for d in client.get("/api/v1/documents").json()]
        assert client.get("/api/v1/document-sets").json() == []
        saved = _put(client, "  Fournisseurs –  2024 / Q1 ✓ ", [ids[1], ids[0], ids[1]])
        assert saved.status_code == 200
        assert saved.json() == {"name": name, "documents": [ids[1], ids[0]]}
        assert _put(client, "alpha", [ids[2]]).status_code == 200
        listed = client.get("/api/v1/document-sets").json()
        assert [s["name"] for s in listed] == ["alpha", name]
        # the same name up to case replaces the set, under the new spelling
        assert _put(client, "ALPHA", [ids[0], ids[2]]).status_code == 200
        assert client.get("/api/v1/document-sets").json()[0] == \
            {"name": "ALPHA", "documents": [ids[0], ids[2]]}
        deleted = client.delete(f"/api/v1/document-sets/{name}")
        assert deleted.status_code == 200 and deleted.json() == {"deleted": name}
        assert [s["name"] for s in client.get("/api/v1/document-sets").json()] == ["ALPHA"]
    # the sets are the workspace's, on the server: a restart keeps them
    with TestClient(create_app(index, warm=False)) as again:
        assert [s["name"] for s in again.get("/api/v1/document-sets").json()] == ["ALPHA"]
    assert json.loads((index / ".uploads" / SETS_FILE).read_text(encoding="utf-8")) == \
        {"sets": {"ALPHA": [ids[0], ids[2]]}}


@pytest.mark.parametrize(("name", "documents", "status", "detail"), [
    ("%20%20", ["first"], 400, "The set name is empty: type one first."),
    ("x" * (MAX_NAME_CHARS + 1), ["first"], 400,
     f"The set name is too long: at most {MAX_NAME_CHARS} characters."),
    ("zero%E2%80%8Bwidth", ["first"], 400, "The set name holds an invisible or control "
     "character: use letters, digits, spaces and punctuation."),
    ("empty", [], 400, "A set needs at least one document: tick some first."),
    ("unknown", ["first", "feedface00000000"], 400, "No document 'feedface00000000' in this "
     "workspace (it may have been removed): choose the set's documents from the list again."),
    ("wrong", "first", 422, "The document list must be a list."),
])
def test_a_set_that_cannot_be_saved_says_why(index, name, documents, status, detail):
    with TestClient(create_app(index, warm=False)) as client:
        first = client.get("/api/v1/documents").json()[0]["doc_id"]
        if isinstance(documents, list):  # "first": the id of a document in the index
            documents = [first if d == "first" else d for d in documents]
        response = client.put(f"/api/v1/document-sets/{name}", json={"documents": documents})
        assert (response.status_code, response.json()["detail"]) == (status, detail)
        assert client.get("/api/v1/document-sets").json() == []


def test_a_missing_set_or_body_is_said_in_words(index):
    with TestClient(create_app(index, warm=False)) as client:
        missing = client.delete("/api/v1/document-sets/never saved")
        assert (missing.status_code, missing.json()["detail"]) == \
            (404, "No saved set named 'never saved'.")
        no_body = client.put("/api/v1/document-sets/a", json={})
        assert (no_body.status_code, no_body.json()["detail"]) == \
            (422, "The document list is missing.")


def test_documents_gone_from_the_index_drop_out_of_their_sets(index, caplog):
    with TestClient(create_app(index, warm=False)) as client:
        ids = [d["doc_id"] for d in client.get("/api/v1/documents").json()]
        assert _put(client, "two", ids[:2]).status_code == 200
        assert client.delete(f"/api/v1/documents/{ids[0]}").status_code == 200
        assert client.get("/api/v1/document-sets").json() == \
            [{"name": "two", "documents": [ids[1]]}]
        # an unreadable file is skipped with a warning; the next save writes a good one
        (index / ".uploads" / SETS_FILE).write_text("{not json", encoding="utf-8")
        with caplog.at_level(logging.WARNING, logger="clausegraph.web"):
            assert client.get("/api/v1/document-sets").json() == []
        assert "unreadable document sets file" in caplog.text
        assert _put(client, "one", ids[1:2]).status_code == 200
        assert [s["name"] for s in client.get("/api/v1/document-sets").json()] == ["one"]
