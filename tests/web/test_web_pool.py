"""Offline questions answered by worker processes (web/pool.py): same answers as the
server process, a fresh index after a removal, errors and a killed worker handled."""

from __future__ import annotations

import os
import shutil
import signal

import pytest
from fastapi.testclient import TestClient

from clausegraph.api import ClauseGraph
from clausegraph.web.app import create_app

QUESTIONS = [
    "What are the payment terms for product invoices?",
    "Which law governs the agreement?",
    "Can a party terminate the agreement for breach?",
]


@pytest.fixture(scope="module")
def pool_index(sample_graph, tmp_path_factory: pytest.TempPathFactory):
    target = tmp_path_factory.mktemp("pool") / "index"
    shutil.copytree(sample_graph.store.location, target)
    return target


@pytest.fixture(scope="module")
def app(pool_index):
    return create_app(pool_index, workers=2)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as client:  # leaving it runs the app's shutdown: workers stop
        yield client


def _ask(client: TestClient, question: str, **body) -> dict:
    response = client.post("/api/v1/ask", json={"question": question, **body})
    assert response.status_code == 200, response.text
    return response.json()


def test_workers_are_other_processes(app):
    service = app.state.service
    workspace = service.workspace()
    pids = service._pool.warm(workspace.location, workspace.version)
    assert len(pids) == 2 and os.getpid() not in pids


def test_worker_answers_equal_the_server_process_answers(client, pool_index):
    local = ClauseGraph.open(pool_index)
    for question in QUESTIONS:
        pooled = _ask(client, question)["answer"]
        here = local.ask(question, llm="none")
        assert pooled["direct_answer"] == here.direct_answer
        assert [e["clause_id"] for e in pooled["evidence"]] == \
            [e.clause_id for e in here.evidence]


def test_an_unknown_document_is_a_clear_error_from_a_worker(client):
    response = client.post("/api/v1/ask", json={"question": QUESTIONS[0],
                                                "documents": ["no-such-contract"]})
    assert response.status_code in (400, 404)
    assert "no-such-contract" in response.json()["detail"]
    assert "Traceback" not in response.text


def test_a_killed_worker_is_replaced_and_the_question_still_answered(app, client):
    service = app.state.service
    workspace = service.workspace()
    victim = next(iter(service._pool.warm(workspace.location, workspace.version)))
    os.kill(victim, signal.SIGKILL)
    # the question that meets the broken pool is answered in the server process ...
    assert _ask(client, QUESTIONS[1])["answer"]["evidence"]
    # ... and a new pool of workers, without the killed one, answers the next
    pids = service._pool.warm(workspace.location, workspace.version)
    assert victim not in pids and len(pids) == 2
    assert _ask(client, QUESTIONS[2])["answer"]["evidence"]


def test_workers_read_the_index_as_changed_by_a_removal(client):
    answer = _ask(client, QUESTIONS[0])["answer"]
    cited = answer["evidence"][0]["doc_id"]
    assert client.delete(f"/api/v1/documents/{cited}").status_code == 200
    after = _ask(client, QUESTIONS[0])["answer"]
    assert after["evidence"] and cited not in {e["doc_id"] for e in after["evidence"]}


def test_the_server_process_and_workers_use_one_blas_thread(app):
    from threadpoolctl import threadpool_info

    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)



def test_workers_leave_when_the_server_process_is_killed(pool_index, tmp_path):
    """A server killed outright (no shutdown) must not leave its workers behind."""
    import subprocess
    import sys
    import time

    script = (
        "import os, sys\n"
        "from clausegraph.config import Settings\n"
        "from clausegraph.web.pool import AskPool\n"
        "pool = AskPool(Settings(), 2)\n"
        "print(' '.join(map(str, pool.warm(sys.argv[1], 0))), flush=True)\n"
        "os._exit(0)\n"  # no shutdown, as after SIGKILL
    )
    # a file, not a pipe: orphaned workers would hold a pipe open and the run would not end
    out = tmp_path / "pids.txt"
    with out.open("w") as sink:
        subprocess.run([sys.executable, "-c", script, str(pool_index)], stdout=sink,
                       stderr=subprocess.STDOUT, timeout=300)
    pids = [int(p) for p in out.read_text().split()[:2] if p.isdigit()]
    assert len(pids) == 2, out.read_text()
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = open(f"/proc/{pid}/stat").read().split()[2] if os.path.exists(f"/proc/{pid}") else ""
    return state != "Z"  # a zombie has exited
