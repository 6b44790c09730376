"""The PostgreSQL backend against a real PostgreSQL + pgvector (see conftest.py)."""

from __future__ import annotations

import bm25s
import numpy as np
import psycopg
import pytest

from clausegraph.errors import IndexStoreError
from clausegraph.store.postgres.store import PostgresIndex
from clausegraph.text.tokenize import tokenize


def _add(index: PostgresIndex, artifacts, replaces=()) -> bool:
    summary = {"clauses": len(artifacts.clauses), "pages": len(artifacts.document.pages)}
    return index.add_document(artifacts.document, artifacts.clauses, artifacts.graph,
                              artifacts.embeddings, artifacts.tokens, summary, replaces)


@pytest.fixture
def loaded(pg_url, sample_artifacts) -> PostgresIndex:
    index = PostgresIndex(pg_url)
    index.create(sample_artifacts[0].embeddings.shape[1], "test-model")
    for artifacts in sample_artifacts:
        assert _add(index, artifacts)
    return index


def _oracle(sample_artifacts):
    """The local backend's BM25: bm25s 'robertson' over the same tokens, one row per clause."""
    ids = [c.clause_id for a in sample_artifacts for c in a.clauses]
    tokens = [t for a in sample_artifacts for t in a.tokens]
    bm25 = bm25s.BM25(method="robertson")
    bm25.index([t or [""] for t in tokens], show_progress=False)
    return bm25, ids


QUERIES = [
    "What does Affiliate mean?",
    "termination of the agreement for breach",
    "payment of fees and expenses shall be due",
    "indemnification indemnify losses claims",
    "the company shall not solicit any acquisition proposal",
]


@pytest.mark.parametrize("query", QUERIES)
def test_bm25_in_sql_equals_bm25s(loaded, sample_artifacts, query):
    bm25, ids = _oracle(sample_artifacts)
    tokens = [t for t in tokenize(query) if t in bm25.vocab_dict]
    expected = np.asarray(bm25.get_scores(tokens), dtype=np.float64)
    got = loaded.bm25_scores(tokens, ids)
    assert np.allclose([got[c] for c in ids], expected, rtol=1e-5, atol=1e-5)
    top = loaded.bm25_top(tokens, None, 10)
    order = [i for i in np.argsort(-expected, kind="stable")[:10] if expected[i] > 0]
    assert [s for _, s in top] == pytest.approx(list(expected[order]), rel=1e-5)
    assert expected.max() > 0


def test_bm25_document_filter_keeps_global_statistics(loaded, sample_artifacts):
    bm25, ids = _oracle(sample_artifacts)
    doc = sample_artifacts[1].document.doc_id
    tokens = tokenize("schedule of payments")
    expected = np.asarray(bm25.get_scores([t for t in tokens if t in bm25.vocab_dict]))
    top = loaded.bm25_top(tokens, [doc], 50)
    assert top and all(cid.startswith(sample_artifacts[1].document.key) for cid, _ in top)
    inside = {c: s for c, s in zip(ids, expected) if c.startswith(sample_artifacts[1].document.key)}
    for clause_id, score in top:
        assert score == pytest.approx(inside[clause_id], rel=1e-5)


def test_bm25_after_remove_equals_bm25s_of_the_rest(loaded, sample_artifacts):
    loaded.remove_documents([sample_artifacts[0].document.doc_id])
    rest = sample_artifacts[1:]
    bm25, ids = _oracle(rest)
    tokens = [t for t in tokenize(QUERIES[1]) if t in bm25.vocab_dict]
    expected = np.asarray(bm25.get_scores(tokens))
    got = loaded.bm25_scores(tokens, ids)
    assert np.allclose([got[c] for c in ids], expected, rtol=1e-5, atol=1e-5)


def test_dense_search_matches_exact_inner_product(loaded, sample_artifacts):
    vectors = np.vstack([a.embeddings for a in sample_artifacts])
    ids = [c.clause_id for a in sample_artifacts for c in a.clauses]
    query = vectors[7]
    exact = np.argsort(-(vectors @ query))[:5]
    top = loaded.dense_top(query, None, 5)
    assert [c for c, _ in top] == [ids[i] for i in exact]
    assert top[0][1] == pytest.approx(float(vectors[7] @ query), abs=1e-4)
    doc = sample_artifacts[2].document
    filtered = loaded.dense_top(query, [doc.doc_id], 5)
    assert filtered and all(c.startswith(doc.key) for c, _ in filtered)


def test_round_trip_of_documents_clauses_and_graphs(loaded, sample_artifacts):
    for artifacts in sample_artifacts:
        doc = artifacts.document
        assert loaded.document(doc.doc_id) == doc
        assert loaded.clauses_of(doc.doc_id) == artifacts.clauses
        assert loaded.graph(doc.doc_id) == artifacts.graph
    counts = loaded.counts()
    assert counts["documents"] == 4
    assert counts["clauses"] == sum(len(a.clauses) for a in sample_artifacts)
    assert sum(counts["edges_by_type"].values()) == sum(len(a.graph.edges) for a in sample_artifacts)


def test_k_hop_expansion_follows_typed_edges(loaded, sample_artifacts):
    artifacts = sample_artifacts[0]  # definitions: Defines edges from each definition
    defines = [e for e in artifacts.graph.edges if e.type.value == "Defines"]
    assert defines
    user = defines[0].target
    walk = {"Defines": ("in",), "RefersTo": ("out", "in")}
    reached = loaded.expand({user: 1.0}, walk, hops=1, min_confidence=0.0, decay=0.5)
    sources = {e.source for e in defines if e.target == user}
    got = {node for seed, node, _, _ in reached}
    assert sources <= got
    for seed, node, strength, path in reached:
        assert seed == user and len(path) == 1 and strength == pytest.approx(path[0].confidence)
    # walking Defines forwards is not allowed: the definition's other users are not reached
    forward = loaded.expand({defines[0].source: 1.0}, {"Defines": ("in",)}, 1, 0.0, 0.5)
    assert user not in {node for _, node, _, _ in forward}
    two = loaded.expand({user: 1.0}, walk, hops=2, min_confidence=0.0, decay=0.5)
    assert {n for _, n, _, _ in two} >= got
    assert all(len(p) <= 2 for *_, p in two)


def test_reingest_of_stored_bytes_does_nothing(loaded, sample_artifacts):
    before = loaded.counts()
    assert not _add(loaded, sample_artifacts[0])
    assert loaded.counts() == before


def test_workspaces_do_not_see_each_other(pg_url, sample_artifacts):
    dim = sample_artifacts[0].embeddings.shape[1]
    team_a = PostgresIndex(pg_url + "?workspace=team-a")
    team_b = PostgresIndex(pg_url + "?workspace=team-b")
    team_a.create(dim, "m")
    team_b.create(dim, "m")
    _add(team_a, sample_artifacts[0])
    _add(team_b, sample_artifacts[1])
    _add(team_b, sample_artifacts[0])  # same bytes in another workspace: stored again
    assert list(team_a.document_entries()) == [sample_artifacts[0].document.doc_id]
    assert len(team_b.document_entries()) == 2
    tokens = tokenize("schedule")
    assert team_a.bm25_top(tokens, None, 10) != team_b.bm25_top(tokens, None, 10)
    assert all(not c.startswith(sample_artifacts[1].document.key)
               for c, _ in team_a.dense_top(sample_artifacts[1].embeddings[0], None, 50))
    # Row-level security, not only the store's own queries: raw SQL on a session of
    # team-a sees no row of team-b, and cannot write into team-b.
    conn = team_a.conn
    assert conn.execute("SELECT DISTINCT workspace FROM clauses").fetchall() == [("team-a",)]
    assert conn.execute("SELECT count(*) FROM documents WHERE workspace = 'team-b'").fetchone() == (0,)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("INSERT INTO corpus_stats VALUES ('team-b', 1, 1)")
    conn.rollback()
    team_a.remove_documents([sample_artifacts[0].document.doc_id])
    assert team_a.counts()["clauses"] == 0
    assert team_b.counts()["clauses"] == sum(len(a.clauses) for a in sample_artifacts[:2])


def test_connection_refused_is_one_clear_line(pg_server):
    from clausegraph.store.postgres.embedded import free_port

    url = f"postgresql://clausegraph:x@127.0.0.1:{free_port()}/postgres"
    with pytest.raises(IndexStoreError) as info:
        PostgresIndex(url).check_schema()
    message = str(info.value)
    assert "127.0.0.1" in message and "connection refused" in message
    assert "\n" not in message and ":x@" not in message


def test_wrong_password_is_one_clear_line(pg_server):
    url = pg_server.url(password="not-the-password")
    with pytest.raises(IndexStoreError) as info:
        PostgresIndex(url).check_schema()
    message = str(info.value)
    assert f"127.0.0.1:{pg_server.port}" in message
    assert "password authentication failed for user clausegraph" in message
    assert "not-the-password" not in message and "\n" not in message


def test_missing_pgvector_is_one_clear_line(pg_server):
    # A database without the extension, owned by a user who may not install it (pgvector
    # is not a trusted extension): what a managed server without pgvector looks like.
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute("CREATE ROLE analyst LOGIN PASSWORD 'analyst-pw'")
        conn.execute("CREATE DATABASE no_vector OWNER analyst")
    url = pg_server.url("no_vector", user="analyst", password="analyst-pw")
    with pytest.raises(IndexStoreError) as info:
        PostgresIndex(url).create(384, "m")
    message = str(info.value)
    assert "no_vector" in message and "pgvector" in message and "CREATE EXTENSION vector" in message
    assert "\n" not in message
