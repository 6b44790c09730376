"""Retrieval pushed into PostgreSQL ranks as the local folder index does, on real clauses."""

from __future__ import annotations

import pytest

from clausegraph.api import _manifest_entry
from clausegraph.config import RetrievalConfig
from clausegraph.embed import create_embedder
from clausegraph.index import ClauseIndex, IndexStore
from clausegraph.retrieve import Retriever
from clausegraph.store.postgres.retrieve import PostgresRetriever
from clausegraph.store.postgres.store import PostgresIndex

QUESTIONS = [
    "What does Affiliate mean?",
    "Which schedules are attached to the agreement?",
    "Under the Capstead merger agreement, may the company solicit other acquisition proposals?",
    "What fees are payable for conversion services?",
    "Consider the Bloom definitions; what is a Change of Control?",
]


@pytest.fixture(scope="module")
def both(tmp_path_factory, pg_server, sample_artifacts):
    store = IndexStore(tmp_path_factory.mktemp("local") / "index")
    store.ensure_writable()
    embedder = create_embedder()
    manifest = store.empty_manifest(embedder.name, embedder.dim)
    for artifacts in sample_artifacts:
        store.write_document(artifacts)
    store.commit(manifest, [(a.document.doc_id, _manifest_entry(a, 0.0))
                            for a in sample_artifacts], [])
    index = PostgresIndex(pg_server.create_database("retrieve_equivalence"))
    index.create(embedder.dim, embedder.name)
    for a in sample_artifacts:
        index.add_document(a.document, a.clauses, a.graph, a.embeddings, a.tokens,
                           _manifest_entry(a, 0.0))
    return Retriever(ClauseIndex(store), embedder), PostgresRetriever(index, embedder)


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("hops", [1, 2])
def test_same_ranking_as_local_backend(both, question, hops):
    local, postgres = both
    config = RetrievalConfig(top_k=8, hops=hops)
    expected = local.retrieve(question, config)
    got = postgres.retrieve(question, config)
    assert [r.clause_id for r in got] == [r.clause_id for r in expected]
    for mine, theirs in zip(got, expected):
        assert mine.score == pytest.approx(theirs.score, abs=1e-5)
        assert mine.bm25 == pytest.approx(theirs.bm25, rel=1e-4, abs=1e-5)
        assert mine.origin == theirs.origin and mine.clause == theirs.clause
    scope_local = local.last_scope.doc_ids if local.last_scope else None
    scope_pg = postgres.last_scope.doc_ids if postgres.last_scope else None
    assert scope_pg == scope_local


def test_scoping_names_the_same_document(both, sample_artifacts):
    local, postgres = both
    question = "Consider the Capstead merger agreement; may the company solicit proposals?"
    postgres.retrieve(question, RetrievalConfig())
    local.retrieve(question, RetrievalConfig())
    assert postgres.last_scope is not None
    assert postgres.last_scope.doc_ids == local.last_scope.doc_ids
    assert postgres.last_scope.question == local.last_scope.question


def test_governing_clauses_match(both):
    local, postgres = both
    config = RetrievalConfig(top_k=8)
    question = "What does Affiliate mean?"
    expected = local.governing(local.retrieve(question, config), config)
    got = postgres.governing(postgres.retrieve(question, config), config)
    assert [r.clause_id for r in got] == [r.clause_id for r in expected]
