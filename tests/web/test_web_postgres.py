"""The web app over a PostgreSQL index: workspaces are the database's own (row-level
security), so a team's upload is invisible to another token (real embedded PostgreSQL)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from clausegraph.store.factory import workspace_location
from clausegraph.web.app import create_app
from tests.web.web_support import TEAM_TOKEN, TOKEN

AGREEMENT = """SERVICES AGREEMENT

1. Term. This Agreement starts on the Effective Date and lasts three (3) years.

2. Termination. Either party may terminate this Agreement for convenience on ninety (90)
days' written notice to the other party.
"""


def test_workspace_location_of_a_folder_and_of_a_database_url(tmp_path):
    assert workspace_location(tmp_path, "legal") == str(tmp_path / ".workspaces" / "legal")
    url = "postgresql://cg:secret@127.0.0.1:5432/cg?sslmode=disable&workspace=default"
    assert workspace_location(url, "legal") == (
        "postgresql://cg:secret@127.0.0.1:5432/cg?sslmode=disable&workspace=legal")


@pytest.fixture(params=[1, 2], ids=["in-server", "question-workers"])
def pg_app(pg_url, tmp_path, request):
    """Questions answered in the server process, and by worker processes that open the
    workspace's database URL themselves (web/pool.py)."""
    return create_app(pg_url, tokens={TOKEN: "default", TEAM_TOKEN: "team"},
                      uploads=tmp_path / "uploads", warm=False, workers=request.param)


def _wait(client: TestClient, job: dict) -> dict:
    deadline = time.monotonic() + 300
    while job["state"] != "done":
        assert time.monotonic() < deadline, f"ingest job still {job['state']}: {job}"
        time.sleep(0.5)
        job = client.get(f"/api/v1/jobs/{job['job_id']}").json()
    return job


def test_postgres_workspaces_keep_teams_apart(pg_app):
    with TestClient(pg_app, headers={"Authorization": f"Bearer {TEAM_TOKEN}"}) as team, \
            TestClient(pg_app, headers={"Authorization": f"Bearer {TOKEN}"}) as other:
        job = team.post("/api/v1/documents", files=[
            ("files", ("services.txt", AGREEMENT.encode(), "text/plain"))]).json()
        job = _wait(team, job)
        assert job["files"][0]["status"] == "ingested", job
        doc_id = job["files"][0]["doc_id"]
        assert [r["doc_id"] for r in team.get("/api/v1/documents").json()] == [doc_id]
        assert other.get("/api/v1/documents").json() == []
        assert other.get(f"/api/v1/documents/{doc_id}/original").status_code == 404
        answer = team.post("/api/v1/ask", json={
            "question": "How much notice is needed to terminate for convenience?"}).json()
        assert "ninety (90)" in answer["direct"]["text"]
        assert team.delete(f"/api/v1/documents/{doc_id}").json()["removed"] == [doc_id]
