"""Hybrid retrieval on a small index built without the model (tests/synthetic_index.py).

The query embedder maps a text to the same deterministic unit vector the clauses were
stored with, so the dense signal is exact for a clause's own text and noise otherwise:
what each test asserts follows from the scoring formula, not from a model.
"""

from __future__ import annotations

import pytest
from synthetic_index import TEXTS, TextVectorEmbedder, add_documents, artifacts_for

from clausegraph.config import RetrievalConfig
from clausegraph.models import RelationType
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.store.local.folder import FolderStore


@pytest.fixture(scope="module")
def retriever(tmp_path_factory: pytest.TempPathFactory) -> Retriever:
    store = FolderStore(tmp_path_factory.mktemp("hybrid") / "index")
    add_documents(store, "lease", "policy", "nda")
    return Retriever(store.open_reader(), TextVectorEmbedder())


def _ids(results) -> list[str]:
    return [r.clause_id for r in results]


def test_a_clause_asked_in_its_own_words_ranks_first(retriever: Retriever) -> None:
    config = RetrievalConfig(scope_documents=False, hops=0)
    for name, texts in TEXTS.items():
        for number, text in enumerate(texts, start=1):
            assert _ids(retriever.retrieve(text, config))[0] == f"{name}:{number}"


def test_scores_follow_the_rerank_formula(retriever: Retriever) -> None:
    config = RetrievalConfig(scope_documents=False, alpha=0.6, beta=0.15, gamma=0.25)
    for result in retriever.retrieve("cataract surgery waiting period", config):
        floor = max(min(result.path_support, 1.0), result.sim)
        expected = 0.6 * result.sim + 0.15 * result.centrality + 0.25 * floor
        assert result.score == pytest.approx(expected)
        assert 0.0 <= result.sim <= 1.0


def test_fusion_normalises_each_signal_by_its_best_candidate(retriever: Retriever) -> None:
    config = RetrievalConfig(scope_documents=False, hops=0, bm25_weight=1.0)
    results = retriever.retrieve("cataract surgery", config)
    assert results[0].sim == pytest.approx(1.0)  # the best BM25 hit has sim 1 on BM25 alone
    assert all(r.sim == pytest.approx(r.bm25 / results[0].bm25) for r in results)


def test_expansion_lifts_a_definition_through_a_defines_edge(retriever: Retriever) -> None:
    """"policy:2" uses the term "policy:1" defines: with expansion over Defines edges the
    definition gains path support from the seed and says how it was reached."""
    query = TEXTS["policy"][1]
    plain = RetrievalConfig(scope_documents=False, hops=0, top_k=3, seed_k=1)
    expanded = plain.model_copy(update={"hops": 1, "edge_types": [RelationType.DEFINES]})
    before = {r.clause_id: r for r in retriever.retrieve(query, plain)}
    after = {r.clause_id: r for r in retriever.retrieve(query, expanded)}
    assert before["policy:2"].origin == after["policy:2"].origin == "seed"
    assert before["policy:1"].origin == "hit" and before["policy:1"].path_support == 0
    reached = after["policy:1"]
    assert reached.origin == "expanded" and reached.via_seed == "policy:2"
    assert [e.type for e in reached.via] == [RelationType.DEFINES]
    assert reached.path_support == pytest.approx(after["policy:2"].sim * 0.9)
    assert reached.score > before["policy:1"].score
    assert reached.reason() == "reached from 2 via 1 Defines 2"


def test_a_document_filter_keeps_every_hit_inside(retriever: Retriever) -> None:
    doc_id = artifacts_for("nda").document.doc_id
    results = retriever.retrieve("terminate with notice", RetrievalConfig(top_k=10), [doc_id])
    assert results and all(r.clause.doc_id == doc_id for r in results)


def test_governing_adds_the_exception_that_overrides_a_result(retriever: Retriever) -> None:
    config = RetrievalConfig(scope_documents=False, hops=0, top_k=1)
    results = retriever.retrieve(TEXTS["policy"][1], config)
    governing = retriever.governing(results, config)
    assert ("policy:3", "governing") in {(g.clause_id, g.origin) for g in governing}
    overriding = next(g for g in governing if g.clause_id == "policy:3")
    assert overriding.via[0].type is RelationType.OVERRIDES


def test_an_index_emptied_by_remove_returns_nothing(tmp_path) -> None:
    store = FolderStore(tmp_path / "index")
    add_documents(store, "lease")
    with store.write_lock():
        store.commit([], [artifacts_for("lease").document.doc_id])
    assert not store.entries()
    assert Retriever(store.open_reader(), TextVectorEmbedder()).retrieve("rent") == []


def test_each_thread_reads_the_scope_of_its_own_question(sample_graph):
    """The web app asks from many threads through one retriever: a question's scope (the
    document its sentence names) must not be overwritten by another thread's question."""
    import threading

    retriever = sample_graph.retriever
    config = sample_graph.retrieval_config()
    named = "Under the Bellring manufacturing agreement, which law governs?"
    retriever.retrieve(named, config)
    mine = retriever.last_scope
    assert mine is not None and mine.doc_ids, "the question names its document"
    seen = []
    worker = threading.Thread(target=lambda: (retriever.retrieve("Which law governs?", config),
                                              seen.append(retriever.last_scope)))
    worker.start()
    worker.join()
    assert seen == [None]  # the other thread's generic question has no scope of its own
    assert retriever.last_scope is mine  # and this thread's scope survived it
