"""Several writer processes on one database, readers during a write, a writer killed."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import bm25s
import numpy as np
import pytest

from clausegraph.store.postgres.store import PostgresIndex
from clausegraph.text.tokenize import tokenize

WRITER = Path(__file__).with_name("pg_writer.py")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def pickled(tmp_path, sample_artifacts) -> Path:
    path = tmp_path / "artifacts.pkl"
    path.write_bytes(pickle.dumps(sample_artifacts))
    return path


@pytest.fixture
def index(pg_url, sample_artifacts) -> PostgresIndex:
    from clausegraph.embed import create_embedder

    index = PostgresIndex(pg_url)
    index.create(sample_artifacts[0].embeddings.shape[1], create_embedder().name)
    return index


def _writer(url: str, pickled: Path, order: str, marker: Path | None = None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    argv = [sys.executable, str(WRITER), url, str(pickled), order]
    if marker is not None:
        argv.append(str(marker))
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)


def _wait_for(path: Path, process, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, "writer never reached its transaction"
        time.sleep(0.05)


def _bm25_matches_oracle(index: PostgresIndex, artifacts) -> None:
    ids = [c.clause_id for a in artifacts for c in a.clauses]
    oracle = bm25s.BM25(method="robertson")
    oracle.index([t or [""] for a in artifacts for t in a.tokens], show_progress=False)
    tokens = [t for t in tokenize("termination fees affiliate schedule") if t in oracle.vocab_dict]
    got = index.bm25_scores(tokens, ids)
    assert np.allclose([got[c] for c in ids], oracle.get_scores(tokens), rtol=1e-5, atol=1e-5)


def test_two_concurrent_writers_store_each_document_once(index, pickled, sample_artifacts):
    url = index.url.conninfo
    first = _writer(url, pickled, "0,1,2,3")
    second = _writer(url, pickled, "3,2,1,0")
    outputs = [p.communicate(timeout=300) for p in (first, second)]
    assert first.returncode == 0 and second.returncode == 0, outputs
    stored = [d for out, _ in outputs for d in out.strip().split(",") if d]
    expected = sorted(a.document.doc_id for a in sample_artifacts)
    assert sorted(stored) == expected  # every document stored once, by one of the two
    assert sorted(index.document_entries()) == expected
    assert index.counts()["clauses"] == sum(len(a.clauses) for a in sample_artifacts)
    _bm25_matches_oracle(index, sample_artifacts)  # term statistics counted once


def test_two_commits_of_the_same_entries_in_opposite_orders_both_succeed(index, pg_url,
                                                                        sample_artifacts):
    # Two ingests of the same files in opposite orders both record an entry for every file
    # they built. A third session holds the middle row so that each commit has updated its
    # first row before either goes on: locked in list order, that is a deadlock.
    import psycopg

    for a in sample_artifacts[:3]:
        index.add_document(a.document, a.clauses, a.graph, a.embeddings, a.tokens, {})
    ids = [a.document.doc_id for a in sample_artifacts[:3]]
    middle = sorted(ids)[1]
    ids = [d for d in ids if d != middle]
    orders = [[ids[0], middle, ids[1]], [ids[1], middle, ids[0]]]
    errors: list[BaseException] = []

    def commit(order: list[str]) -> None:
        try:
            PostgresIndex(pg_url).commit_entries({d: {"by": order[0]} for d in order}, [])
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    # Plain sessions of the server's superuser: they see every session's wait.
    with psycopg.connect(index.url.conninfo) as holder, \
            psycopg.connect(index.url.conninfo, autocommit=True) as watcher:
        holder.execute("SELECT 1 FROM documents WHERE doc_id = %s FOR UPDATE", (middle,))
        threads = [threading.Thread(target=commit, args=(order,)) for order in orders]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name "
                              "= 'clausegraph' AND wait_event_type = 'Lock'").fetchone()[0] < 2:
            assert time.monotonic() < deadline, "the commits never both waited"
            time.sleep(0.05)
        holder.rollback()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert len({e["by"] for e in index.document_entries().values()}) == 1  # one after the other


def test_killed_writer_leaves_nothing_and_readers_never_wait(index, pickled, sample_artifacts,
                                                             tmp_path):
    a0, a1 = sample_artifacts[0], sample_artifacts[1]
    index.add_document(a0.document, a0.clauses, a0.graph, a0.embeddings, a0.tokens, {})
    tokens = tokenize("schedule of the agreement")
    before = index.bm25_top(tokens, None, 20)
    marker = tmp_path / "paused"
    writer = _writer(index.url.conninfo, pickled, "1", marker)
    try:
        _wait_for(marker, writer)
        # Mid-transaction: the half-written document is invisible and reads do not block.
        started = time.monotonic()
        assert index.bm25_top(tokens, None, 20) == before
        assert list(index.document_entries()) == [a0.document.doc_id]
        # ... and a question asked now is answered from the committed documents alone
        from clausegraph.api import ClauseGraph

        hits = ClauseGraph.open(index.url.conninfo).retrieve("What schedules are attached?")
        assert hits and {h.clause.doc_id for h in hits} == {a0.document.doc_id}
        assert time.monotonic() - started < 60
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(timeout=30)
    finally:
        if writer.poll() is None:
            writer.kill()
    # The server rolls the dead session's transaction back: nothing of document 1 remains.
    # Watched from a plain superuser session: the store's own connections act as the
    # row-security role, to which other sessions' states are hidden. A transaction that
    # wrote has an xid; the question's read-only snapshot above has none.
    import psycopg

    deadline = time.monotonic() + 30
    with psycopg.connect(index.url.conninfo, autocommit=True) as watcher:
        while watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name "
                              "= 'clausegraph' AND backend_xid IS NOT NULL").fetchone()[0]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    doc = a1.document.doc_id
    for table in ("documents", "clauses", "edges", "terms"):
        assert index._query(f"SELECT count(*) FROM {table} WHERE doc_id = %s", (doc,)) == [(0,)]
    _bm25_matches_oracle(index, [a0])
    # ... and its per-document lock died with it: the document can be stored now.
    assert index.add_document(a1.document, a1.clauses, a1.graph, a1.embeddings, a1.tokens, {})
    _bm25_matches_oracle(index, [a0, a1])
