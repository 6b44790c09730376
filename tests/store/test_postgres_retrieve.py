"""Retrieval over PostgreSQL ranks as over the local folder index, on real clauses.

The same ``Retriever`` runs over both readers; PostgreSQL answers BM25, vector search,
document scoping and the typed walks in SQL.
"""

from __future__ import annotations

import pytest

from clausegraph.config import RetrievalConfig
from clausegraph.embed import create_embedder
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.store.base import DocumentEntry
from clausegraph.store.local.folder import FolderStore
from clausegraph.store.postgres import PostgresStore

QUESTIONS = [
    "What does Affiliate mean?",
    "Which schedules are attached to the agreement?",
    "Under the Capstead merger agreement, may the company solicit other acquisition proposals?",
    "What fees are payable for conversion services?",
    "Consider the Bloom definitions; what is a Change of Control?",
]


def _fill(store, artifacts, embedder) -> None:
    store.ensure_writable()
    with store.write_lock():
        for a in artifacts:
            store.stage(a)
        store.commit([(a.document.doc_id, DocumentEntry.of(a, 0.0)) for a in artifacts], [],
                     embedder.name, embedder.dim)


@pytest.fixture(scope="module")
def both(tmp_path_factory, pg_server, sample_artifacts):
    embedder = create_embedder()
    local = FolderStore(tmp_path_factory.mktemp("local") / "index")
    postgres = PostgresStore(pg_server.create_database("retrieve_equivalence"))
    _fill(local, sample_artifacts, embedder)
    _fill(postgres, sample_artifacts, embedder)
    return (Retriever(local.open_reader(), embedder),
            Retriever(postgres.open_reader(), embedder))


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("hops", [1, 2])
def test_same_ranking_as_local_backend(both, question, hops):
    local, postgres = both
    config = RetrievalConfig(top_k=10, hops=hops)
    expected = local.retrieve(question, config)
    got = postgres.retrieve(question, config)
    assert [r.clause_id for r in got] == [r.clause_id for r in expected]
    for mine, theirs in zip(got, expected):
        assert mine.score == pytest.approx(theirs.score, abs=1e-5)
        assert mine.bm25 == pytest.approx(theirs.bm25, rel=1e-4, abs=1e-5)
        assert (mine.origin, mine.via, mine.clause) == (theirs.origin, theirs.via, theirs.clause)
    assert (postgres.last_scope is None) == (local.last_scope is None)
    if local.last_scope:
        assert postgres.last_scope == local.last_scope


def test_scoping_names_the_same_document(both):
    local, postgres = both
    question = "Consider the Capstead merger agreement; may the company solicit proposals?"
    postgres.retrieve(question, RetrievalConfig())
    local.retrieve(question, RetrievalConfig())
    assert postgres.last_scope is not None
    assert postgres.last_scope == local.last_scope


def test_a_name_word_inside_the_question_scopes_alike(both):
    """One capitalised word naming a document inside the question: both backends scope to
    it and search the question without the word."""
    local, postgres = both
    question = "Can Capstead solicit other acquisition proposals?"
    postgres.retrieve(question, RetrievalConfig())
    local.retrieve(question, RetrievalConfig())
    assert local.last_scope is not None and "Capstead" not in local.last_scope.question
    assert postgres.last_scope == local.last_scope


def test_walks_in_sql_equal_the_edge_by_edge_walk(both):
    from clausegraph.retrieve.hybrid import walk

    local, postgres = both
    config = RetrievalConfig(hops=3, min_edge_confidence=0.0)
    reader = postgres.index
    starts = {c: 0.9 for c in reader.clauses.clause_ids()[:40]}
    expected = [(s, *step) for s in starts for step in walk(local.index.graph, s, 0.9, config)]
    assert expected, "the sample documents have edges"
    assert reader.graph.walks(starts, config) == expected
    assert local.index.graph.walks(starts, config) is None  # the local backend walks in Python


def test_governing_clauses_match(both):
    local, postgres = both
    config = RetrievalConfig(top_k=8)
    question = "What does Affiliate mean?"
    expected = local.governing(local.retrieve(question, config), config)
    got = postgres.governing(postgres.retrieve(question, config), config)
    assert [(r.clause_id, r.via) for r in got] == [(r.clause_id, r.via) for r in expected]
