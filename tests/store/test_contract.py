"""The storage contract: what every backend must do, checked against independent oracles.

Documents are built here from short real-looking clause texts with deterministic unit
vectors, so the suite needs no embedding model. BM25 is checked against rank_bm25
(Robertson variant, as bm25s' ``method="robertson"``), vector search against numpy.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from synthetic_index import DIM, TEXTS, add_documents, artifacts_for, unit_vector

from clausegraph.errors import NotFoundError
from clausegraph.models import ClauseType, RelationType
from clausegraph.store.base import DocumentArtifacts, DocumentEntry, IndexStore
from clausegraph.text.tokenize import tokenize


@pytest.fixture
def store(store_factory: Callable[[], IndexStore]) -> IndexStore:
    made = store_factory()
    add_documents(made, "lease", "policy", "nda")
    return made


def _doc_id(name: str) -> str:
    return artifacts_for(name).document.doc_id


def test_documents_and_clauses_round_trip(store: IndexStore) -> None:
    reader = store.open_reader()
    assert reader.clauses.document_ids() == [_doc_id(n) for n in ("lease", "policy", "nda")]
    assert reader.clauses.count() == 10
    policy = reader.clauses.document(_doc_id("policy"))
    assert policy.title == "Policy" and policy.text.startswith("Waiting Period")
    clause = reader.clauses.clause("policy:2")
    assert clause.text == TEXTS["policy"][1]
    assert policy.text[clause.span[0]:clause.span[1]] == clause.text
    assert [c.clause_id for c in reader.clauses.document_clauses(_doc_id("nda"))] == [
        "nda:1", "nda:2", "nda:3"]
    assert reader.clauses.clause_ids([_doc_id("nda")]) == ["nda:1", "nda:2", "nda:3"]
    assert [c.clause_id for c in reader.clauses.clauses(["nda:3", "lease:1"])] == [
        "nda:3", "lease:1"]
    with pytest.raises(NotFoundError, match="lease:99"):
        reader.clauses.clause("lease:99")


def test_entries_and_info(store: IndexStore) -> None:
    entries = store.entries()
    assert set(entries) == {_doc_id(n) for n in TEXTS}
    assert entries[_doc_id("lease")].clauses == 4
    assert entries[_doc_id("lease")].edges_by_type == {"Defines": 1, "Overrides": 1,
                                                       "SameSection": 1}
    assert store.open_reader().embedding_model == "test-model"


def _oracle_bm25(query: str) -> dict[str, float]:
    """rank_bm25's Okapi scores without its constant (k1 + 1) factor, as bm25s computes
    the Robertson variant; valid for terms in fewer than half of the clauses, where
    rank_bm25 does not floor the idf."""
    from rank_bm25 import BM25Okapi

    ids = [f"{name}:{i + 1}" for name, texts in TEXTS.items() for i in range(len(texts))]
    corpus = [tokenize(t) for texts in TEXTS.values() for t in texts]
    terms = tokenize(query)
    assert all(sum(t in doc for doc in corpus) < len(corpus) / 2 for t in terms)
    scores = BM25Okapi(corpus, k1=1.5, b=0.75).get_scores(terms) / (1.5 + 1)
    return dict(zip(ids, map(float, scores)))


def test_lexical_scores_match_bm25_oracle(store: IndexStore) -> None:
    reader = store.open_reader()
    query = "waiting period for cataract surgery"
    tokens = [t for t in tokenize(query) if reader.lexical.vocabulary_has(t)]
    oracle = _oracle_bm25(query)
    ids, scores = reader.lexical.top(tokens, 10)
    assert ids[0] == "policy:2"
    assert list(scores) == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    for clause_id, score in zip(ids, scores):
        assert score == pytest.approx(oracle[clause_id], rel=1e-4)
    everything = reader.clauses.clause_ids()
    assert reader.lexical.scores(tokens, everything) == pytest.approx(
        [oracle[c] for c in everything], rel=1e-4, abs=1e-6)
    assert not reader.lexical.vocabulary_has("zzzunknown")


def test_lexical_top_respects_document_filter(store: IndexStore) -> None:
    reader = store.open_reader()
    tokens = tokenize("terminate two years notice")
    ids, _ = reader.lexical.top(tokens, 10, [_doc_id("nda")])
    assert ids and all(i.startswith("nda:") for i in ids)


def test_vector_search_matches_numpy(store: IndexStore) -> None:
    reader = store.open_reader()
    everything = reader.clauses.clause_ids()
    matrix = np.vstack([unit_vector(c.text) for c in reader.clauses.clauses(everything)])
    assert reader.vectors.dim == DIM
    np.testing.assert_allclose(reader.vectors.vectors(everything), matrix, atol=1e-6)
    query = unit_vector("cataract surgery waiting period")
    expected = [everything[i] for i in np.argsort(-(matrix @ query))]
    ids, scores = reader.vectors.search(query, 4)
    assert ids == expected[:4]
    np.testing.assert_allclose(scores, np.sort(matrix @ query)[::-1][:4], atol=1e-5)
    filtered, _ = reader.vectors.search(query, 10, [_doc_id("lease")])
    assert filtered == [i for i in expected if i.startswith("lease:")]


def test_graph_edges_and_centrality(store: IndexStore) -> None:
    reader = store.open_reader()
    out = {(e.type, e.target) for e in reader.graph.out_edges("policy:1")}
    assert out == {(RelationType.DEFINES, "policy:2")}
    incoming = {(e.type, e.source) for e in reader.graph.in_edges("policy:2")}
    assert incoming == {(RelationType.DEFINES, "policy:1"), (RelationType.OVERRIDES, "policy:3")}
    assert len(reader.graph.document_edges(_doc_id("policy"))) == 3
    centrality = reader.graph.centrality(_doc_id("policy"))
    assert centrality["policy:2"] == pytest.approx(1.0)  # two meaningful edges, the most
    assert 0 < centrality["policy:1"] < 1


def test_remove_is_atomic_and_leaves_the_others(store: IndexStore) -> None:
    before = store.open_reader()
    add_documents(store, remove=(_doc_id("policy"),))
    after = store.open_reader()
    assert _doc_id("policy") not in after.clauses.document_ids()
    assert after.clauses.count() == 7
    assert not after.clauses.has_clause("policy:2")
    ids, _ = after.lexical.top(tokenize("cataract surgery"), 10)
    assert not any(i.startswith("policy:") for i in ids)
    # a reader opened before the change still answers from its own snapshot
    assert before.clauses.clause("policy:2").text == TEXTS["policy"][1]


def test_adding_again_replaces_nothing_else(store_factory: Callable[[], IndexStore]) -> None:
    store = store_factory()
    add_documents(store, "lease")
    add_documents(store, "nda")
    reader = store.open_reader()
    assert reader.clauses.document_ids() == [_doc_id("lease"), _doc_id("nda")]
    assert reader.lexical.top(tokenize("rent"), 5)[0][0] == "lease:2"


def test_missing_index_is_a_clear_error(store_factory: Callable[[], IndexStore]) -> None:
    from clausegraph.errors import IndexStoreError

    store = store_factory()
    assert not store.exists()
    with pytest.raises(IndexStoreError):
        store.check_readable()


def _typed(name: str, model: str) -> DocumentArtifacts:
    """A document whose last clause carries two clause types (as ingest sets them)."""
    artifacts = artifacts_for(name)
    artifacts.clauses[-1].clause_types = [ClauseType(label="Expiration Date", probability=0.83),
                                          ClauseType(label="Renewal Term", probability=0.12)]
    artifacts.clause_types_model = model
    return artifacts


def test_clause_types_round_trip(store_factory: Callable[[], IndexStore]) -> None:
    store = store_factory()
    store.ensure_writable()
    artifacts = _typed("nda", "types-v1")
    with store.write_lock():
        store.stage(artifacts)
        store.commit([(artifacts.document.doc_id, DocumentEntry.of(artifacts, 0.0))], [],
                     "test-model", DIM)
    reader = store.open_reader()
    assert reader.clauses.clause("nda:3").clause_types == artifacts.clauses[-1].clause_types
    assert [c.clause_types for c in reader.clauses.document_clauses(_doc_id("nda"))][:2] == [[], []]
    assert store.entries()[_doc_id("nda")].clause_types == "types-v1"


def test_replace_clause_types_types_every_clause(store: IndexStore) -> None:
    assert {e.clause_types for e in store.entries().values()} == {None}  # stored untyped
    reader = store.open_reader()
    types = {doc_id: [[ClauseType(label="Governing Law", probability=round(0.5 + i / 10, 2))]
                      for i, _ in enumerate(reader.clauses.document_clauses(doc_id))]
             for doc_id in reader.clauses.document_ids()}
    with store.write_lock():
        store.replace_clause_types(types, "types-v2")
    reader = store.open_reader()
    assert reader.clauses.clause("policy:3").clause_types == [
        ClauseType(label="Governing Law", probability=0.7)]
    assert {e.clause_types for e in store.entries().values()} == {"types-v2"}
    # ids, order and search are untouched
    assert reader.clauses.clause_ids([_doc_id("nda")]) == ["nda:1", "nda:2", "nda:3"]
    assert reader.vectors.search(unit_vector(TEXTS["nda"][1]), 1)[0] == ["nda:2"]
